"""Compile an android: type-check it against the typings, then bundle it into one ES module.

Both steps must pass. Any problem — a syntax error, a type error, a forbidden import, a missing
default export — raises :class:`CompileError`, which carries every diagnostic found and reads as
``file:line:col message`` lines. The bundle step runs first: it is fast (~10 ms) and finds syntax
errors and forbidden imports with the clearest messages; the type check then reports everything
else in one go.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from ..rules.budgets import MAX_BUNDLE_BYTES
from .bundle import materialize_sources, run_esbuild
from .diagnostics import CompileError, Diagnostic
from .overlay import shadowed
from .typecheck import typecheck_files, typecheck_in

T = TypeVar("T")

__all__ = [
    "CompileError",
    "CompiledScript",
    "bundle_sources",
    "compile_overlapped",
    "compile_android",
    "compile_sources",
]


@dataclass(frozen=True)
class CompiledScript:
    """One bundled android script, ready for the sandbox."""

    bundle: str  # the ES module text; its default export is the turn function
    entry: str  # the entry file (absolute path on disk, or the name given for in-memory sources)
    sha256: str  # hex digest of the bundle's UTF-8 bytes
    warnings: tuple[Diagnostic, ...] = field(default=())
    # where each part of the bundle came from (toolchain/sourcemap.py); None for a bundle kept
    # without one (an older game file, a peer's script)
    source_map: dict | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(
        cls,
        bundle: str,
        entry: str,
        warnings: tuple[Diagnostic, ...] = (),
        source_map: dict | None = None,
    ) -> CompiledScript:
        return cls(
            bundle, entry, hashlib.sha256(bundle.encode("utf-8")).hexdigest(), warnings, source_map
        )


def _finish(bundle, diagnostics: list[Diagnostic]) -> CompiledScript:
    size = len(bundle.code.encode("utf-8", "surrogatepass"))
    if size > MAX_BUNDLE_BYTES:
        # the sandbox would refuse every turn of it (rules/budgets.py says why there is a limit)
        raise CompileError.single(
            f"{bundle.entry} bundles to {size:,} bytes; a script may be at most {MAX_BUNDLE_BYTES:,} bytes once bundled"
        )
    errors = [d for d in diagnostics if d.severity == "error"]
    if errors:
        n = len(errors)
        raise CompileError(
            errors, summary=f"{bundle.entry} has {n} type error{'s' if n != 1 else ''}"
        )
    warnings = tuple(bundle.warnings) + tuple(d for d in diagnostics if d.severity != "error")
    return CompiledScript.of(bundle.code, bundle.entry, warnings, bundle.source_map)


@dataclass(frozen=True)
class _Staged:
    """An entry ready for both tools: its folder (their working directory), its name there, how a
    name they report is shown, and whether they must take paths as written (a shadow)."""

    folder: Path
    name: str
    display: Callable[[str], str] | None
    preserve_symlinks: bool

    def bundle(self):
        return run_esbuild(
            self.folder,
            self.name,
            confine=False,
            display=self.display,
            preserve_symlinks=self.preserve_symlinks,
        )

    def typecheck(self) -> list[Diagnostic]:
        return typecheck_files(
            ["./" + self.name],
            cwd=self.folder,
            entry="./" + self.name,
            display=self.display,
            preserve_symlinks=self.preserve_symlinks,
        )


def _checked_entry(entry: Path | str, overlay: Mapping[Path, str]) -> Path:
    entry = Path(entry).resolve()
    if any(0xDC80 <= ord(c) <= 0xDCFF for c in str(entry)):
        # bytes that are not UTF-8, as the file system handed them over (surrogate escapes): the
        # bundler, the checker and the game file would all choke on the name
        shown = str(entry).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        raise CompileError.single(
            f"{shown} has a name that is not valid UTF-8; rename the file (or its folder)"
        )
    if entry in overlay:
        return entry
    if entry.is_dir():  # `nova new-android my-bot` makes a folder; its entry is src/main.ts
        hint = f" ({entry / 'src' / 'main.ts'})" if (entry / "src" / "main.ts").is_file() else ""
        raise CompileError.single(f"{entry} is a folder; give the android's entry file{hint}")
    if not entry.is_file():
        raise CompileError.single(f"{entry} does not exist or is not a file")
    return entry


@contextmanager
def _staged(entry: Path | str, overlay: Mapping[Path, str] | None) -> Iterator[_Staged]:
    """The entry on disk as it is, or, with an ``overlay`` (absolute path -> text), in a shadow
    of the file system where those files read as their texts (overlay.py); the tools resolve
    every import themselves either way."""
    texts = {Path(p).resolve(): t for p, t in (overlay or {}).items()}
    path = _checked_entry(entry, texts)
    if not texts:
        yield _Staged(path.parent, path.name, None, False)
        return
    # the entry is always a real file of the shadow: its folder is then a real folder there, and
    # the tools' working directory never leads back to the disk through a link
    if path not in texts:
        texts[path] = path.read_text(encoding="utf-8", errors="replace")
    with shadowed(texts) as shadow:

        def display(rel: str) -> str:
            return str(shadow.outside(shadow.inside(path.parent) / rel))

        yield _Staged(shadow.inside(path.parent), path.name, display, True)


def compile_android(entry: Path | str, overlay: Mapping[Path, str] | None = None) -> CompiledScript:
    """Type-check and bundle the android whose turn function is the default export of ``entry``
    (a ``.ts`` file on disk; the files it imports by relative path come along).

    ``overlay`` maps absolute paths to texts that replace those files (an editor's unsaved
    buffers); the bundler and the checker resolve every import as they do on disk, reading a
    replaced file's text instead, and the result is what the same files saved would give.

    The project's own tsconfig.json is ignored: an upload is always checked against the game's
    typings with :data:`~nova_tools.toolchain.typecheck.COMPILER_OPTIONS`.
    """
    with _staged(entry, overlay) as staged:
        return _finish(staged.bundle(), staged.typecheck())


def compile_sources(files: Mapping[str, str], entry: str) -> CompiledScript:
    """Type-check and bundle an android held in memory (unsaved buffers, uploaded files).

    ``files`` maps relative paths (``'main.ts'``, ``'lib/nav.ts'``) to text; ``entry`` is one of
    them. The files are written to a private temporary directory that is removed afterwards, and
    may only import each other. Diagnostics name the files as given.
    """
    with materialize_sources(files, entry) as (root, entry_name):
        bundle = run_esbuild(
            root, entry_name, confine=True, display=lambda rel: rel.removeprefix("./")
        )
        return _finish(bundle, typecheck_in(root, entry_name))


# --- the type check beside other work ---------------------------------------------------------
# A dry-run in the editor bundles and plays the turn while the type check runs beside it: the
# verdict takes the longer of the two, not their sum. The sources are written once for both.


def bundle_sources(files: Mapping[str, str], entry: str) -> CompiledScript:
    """The bundle step of :func:`compile_sources` alone (syntax, imports, the default export);
    raises :class:`CompileError`. Untrusted until type-checked: the editor's warm-up uses it."""
    with materialize_sources(files, entry) as (root, entry_name):
        bundle = run_esbuild(
            root, entry_name, confine=True, display=lambda rel: rel.removeprefix("./")
        )
        return CompiledScript.of(
            bundle.code, bundle.entry, tuple(bundle.warnings), bundle.source_map
        )


def compile_overlapped(
    entry: Path | str,
    then: Callable[[CompiledScript], T],
    overlay: Mapping[Path, str] | None = None,
) -> T:
    """:func:`compile_android` (with its ``overlay``), with ``then(compiled)`` run on the bundle
    while the type check runs beside it, on the same files. Raises what an upload would report
    first: the bundle's :class:`CompileError` (syntax, imports, the default export), then the
    type errors, then whatever ``then`` raised; else returns what ``then`` returned."""
    with _staged(entry, overlay) as staged:
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="nova-tsc") as pool:
            checked = pool.submit(staged.typecheck)
            try:
                compiled = _finish(staged.bundle(), [])
            except CompileError:
                checked.cancel()
                raise
            try:
                result = then(compiled)
            except Exception as error:
                failed: Exception | None = error
            else:
                failed = None
            diagnostics = checked.result()
    errors = [d for d in diagnostics if d.severity == "error"]
    if errors:
        n = len(errors)
        raise CompileError(
            errors, summary=f"{compiled.entry} has {n} type error{'s' if n != 1 else ''}"
        )
    if failed is not None:
        raise failed
    return result
