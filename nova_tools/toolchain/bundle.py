"""Bundle a multi-file TypeScript android into one ES module with the native esbuild binary.

An android is an entry file plus the files it imports by relative path. esbuild (called directly,
no Node) turns them into one ES module whose ``export default`` is the turn function:
``--bundle --format=esm --platform=neutral --target=es2022``.

Only the android's own files can be imported. Every import of a package or a Node built-in
(``import fs from 'fs'``), or of an absolute path, is refused with ``file:line:col``: the sandbox
has no packages, and a bundle that silently swallowed ``node_modules`` would not be the script the
player wrote. esbuild is told ``--packages=external`` so it never goes looking in a
``node_modules`` folder, and the metafile tells us what was imported from where.

In-memory sources (unsaved editor buffers, files uploaded to the MCP server) are written to a
private temporary directory, never outside it, and may not import anything outside it either.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PureWindowsPath

from .diagnostics import CompileError, Diagnostic, Severity
from .paths import ESBUILD
from .sourcemap import read_esbuild_map

ESBUILD_FLAGS = (
    "--bundle",
    "--format=esm",
    "--platform=neutral",
    "--target=es2022",
    # Never resolve a package from a node_modules folder: every non-relative import stays external,
    # and we refuse it below with its location.
    "--packages=external",
    # The project's tsconfig.json (paths, decorators ...) is ignored, as it is by the type check, so
    # the two always agree on what the source means.
    "--tsconfig-raw={}",
    "--log-level=warning",
    "--log-limit=0",
    "--color=false",
)

#: The most source text (in UTF-8 bytes, all files together) accepted from memory.
MAX_SOURCE_BYTES = 4 * 1024 * 1024
#: Limits on an in-memory file's name, well inside what any file system takes (a name longer than
#: 255 bytes, or a path of thousands of folders, fails to be written, or to be bundled).
MAX_NAME_CHARS = 1024
MAX_NAME_DEPTH = 32
MAX_PART_CHARS = 100
#: The most files an in-memory project may have (the starter has a dozen; the editor's dry-run
#: follows at most 200 imports). 100,000 one-line files kept an MCP upload busy for over ten
#: minutes before this limit.
MAX_FILES = 500

TIMEOUT_S = 60


class BundleError(CompileError):
    """esbuild refused the sources (a syntax error, an unresolved or forbidden import ...)."""


@dataclass(frozen=True)
class Bundle:
    code: str  # the one ES module; its default export is the turn function
    entry: str  # the entry file, as given
    inputs: tuple[str, ...]  # every source file that went into it (as reported in diagnostics)
    warnings: tuple[Diagnostic, ...] = field(default=())
    # its source map (sourcemap.py): sources named relative to the entry's folder, no contents
    source_map: dict | None = field(default=None, repr=False, compare=False)


# --- in-memory sources ---------------------------------------------------------------------------


_SAFE_PART = re.compile(r"^[\w.@+-]+$")

#: Files esbuild parses as scripts (and can therefore import others).
SCRIPT_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


def normalize_source_name(name: str) -> str:
    """A file name from an in-memory project as a clean relative POSIX path (``./a/b.ts`` ->
    ``a/b.ts``); raise :class:`CompileError` for anything that could land outside the project or
    confuse a tool's output (each part: letters, digits, ``_ . - @ +``)."""
    if not isinstance(name, str) or not name.strip():
        raise CompileError.single(
            f"file name {name!r} is empty: give each file a relative path such as 'main.ts'"
        )
    if len(name) > MAX_NAME_CHARS:
        raise CompileError.single(
            f"file name {name[:40]!r}... is {len(name)} characters long; a file name here is at most {MAX_NAME_CHARS}"
        )
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if len(parts) > MAX_NAME_DEPTH or any(len(p) > MAX_PART_CHARS for p in parts):
        raise CompileError.single(
            f"file name {name[:40]!r}... is too deep or has too long a part: at most {MAX_NAME_DEPTH} folders deep, "
            f"each name at most {MAX_PART_CHARS} characters"
        )
    if (
        name.startswith("/")
        or not parts
        or any(p == ".." or not _SAFE_PART.match(p) for p in parts)
        or PureWindowsPath(name).drive
    ):
        raise CompileError.single(
            f"file name {name!r} is not allowed: use a relative path inside the project with '/' "
            "separators and plain names, such as 'main.ts' or 'lib/nav.ts' (no '..', no absolute paths)"
        )
    return "/".join(parts)


@contextmanager
def materialize_sources(files: Mapping[str, str], entry: str) -> Iterator[tuple[Path, str]]:
    """Write in-memory sources into a fresh private temporary directory.

    Yields ``(root, entry)`` with the entry name normalized; the directory is removed afterwards.
    """
    if not files:
        raise CompileError.single("no source files were given")
    if len(files) > MAX_FILES:
        raise CompileError.single(
            f"{len(files)} source files were given; a script may have at most {MAX_FILES}"
        )
    names: dict[str, str] = {}
    folded: set[str] = set()  # names as a case-insensitive file system sees them
    total = 0
    for name, text in files.items():
        clean = normalize_source_name(name)
        if not isinstance(text, str):
            raise CompileError.single(
                f"the contents of {clean!r} must be text, not {type(text).__name__}"
            )
        if clean.lower() in folded:
            raise CompileError.single(f"file {clean!r} is given twice")
        folded.add(clean.lower())
        total += len(text.encode("utf-8", "surrogatepass"))
        names[clean] = text
    if total > MAX_SOURCE_BYTES:
        raise CompileError.single(
            f"the sources are {total} bytes; at most {MAX_SOURCE_BYTES} bytes can be compiled"
        )
    entry_clean = normalize_source_name(entry)
    if entry_clean not in names:
        raise CompileError.single(
            f"the entry file {entry!r} is not among the sources ({', '.join(sorted(names))})"
        )
    with tempfile.TemporaryDirectory(prefix="nova-src-") as tmp:
        root = Path(tmp).resolve()
        for name, text in names.items():
            target = root.joinpath(*name.split("/"))
            target.parent.mkdir(parents=True, exist_ok=True)
            # O_EXCL: a fresh file in our own fresh directory, never through a link.
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        yield root, entry_clean


# --- running esbuild -----------------------------------------------------------------------------

_HEADER = re.compile(r"^(?:✘|▲|X|\u25b2) \[(ERROR|WARNING)\] (.*)$")
_LOCATION = re.compile(r"^ {4}(.+?):(\d+):(\d+):$")
_WARNING_ID = re.compile(r"^(.*) \[([a-z0-9-]+)\]$")


def _byte_col_to_char_col(path: Path, line: int, byte_col: int) -> int:
    """esbuild counts columns in UTF-8 bytes from 0; editors and tsc count characters from 1."""
    try:
        with open(path, encoding="utf-8", errors="replace", newline="") as fh:
            for i, text in enumerate(fh, start=1):
                if i == line:
                    return len(text.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore")) + 1
    except OSError:
        pass
    return byte_col + 1


def parse_esbuild_log(stderr: str, root: Path, display) -> list[Diagnostic]:
    """Parse esbuild's human log (``--color=false``) into diagnostics."""
    diags: list[Diagnostic] = []
    lines = stderr.splitlines()
    i = 0
    while i < len(lines):
        m = _HEADER.match(lines[i])
        if not m:
            i += 1
            continue
        severity: Severity = "error" if m.group(1) == "ERROR" else "warning"
        message, code = m.group(2), "esbuild"
        if severity == "warning" and (w := _WARNING_ID.match(message)):
            message, code = w.group(1), w.group(2)
        file, line, col = "", 0, 0
        notes: list[str] = []
        j = i + 1
        while j < len(lines) and not _HEADER.match(lines[j]):
            loc = _LOCATION.match(lines[j])
            if loc and not file:
                rel = loc.group(1)
                line = int(loc.group(2))
                col = _byte_col_to_char_col(root / rel, line, int(loc.group(3)))
                file = display(rel)
            elif lines[j].startswith("  ") and not lines[j].startswith("    ") and lines[j].strip():
                notes.append(lines[j].strip())
            j += 1
        if notes and severity == "error":
            message = f"{message} ({' '.join(notes)})"
        diags.append(Diagnostic(file, line, col, code, message, severity, "esbuild"))
        i = j
    return diags


def _locate_specifier(path: Path, specifier: str) -> tuple[int, int]:
    """Line and column (from 1) of the string literal importing ``specifier`` in ``path``."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return 1, 1
    quoted = rf"(['\"`]){re.escape(specifier)}\1"
    patterns = (
        rf"(?:\bfrom|\bimport|\bimport\s*\(|\brequire\s*\(|\bexport\b[^;]*?\bfrom)\s*(?={quoted})",
        rf"(?={quoted})",
    )
    for pattern in patterns:
        m = re.search(pattern, text)
        if m:
            offset = m.end()
            line = text.count("\n", 0, offset) + 1
            col = offset - (text.rfind("\n", 0, offset) + 1) + 1
            return line, col
    return 1, 1


def _is_relative(specifier: str) -> bool:
    return specifier in (".", "..") or specifier.startswith(("./", "../"))


def _is_absolute(specifier: str) -> bool:
    return (
        specifier.startswith("/")
        or PureWindowsPath(specifier).is_absolute()
        or specifier.startswith("file:")
    )


def _import_problem(
    root: Path, importer: str, specifier: str, display, *, confine: bool
) -> Diagnostic | None:
    """Why ``importer`` (relative to ``root``) may not import ``specifier``, or None if it may."""
    if _is_relative(specifier):
        if not confine:
            return None
        target = posixpath.normpath(posixpath.join(posixpath.dirname(importer), specifier))
        if target != ".." and not target.startswith("../"):
            return None
        code, message = (
            "outside-import",
            (
                f"import of '{specifier}' reaches outside the uploaded sources: an android's files may "
                "only import each other"
            ),
        )
    elif _is_absolute(specifier):
        code, message = (
            "absolute-import",
            (
                f"import of '{specifier}' by absolute path is not allowed: import the android's own "
                "files by relative path, such as './nav'"
            ),
        )
    else:
        code, message = (
            "bare-import",
            (
                f"bare import of package '{specifier}' is not allowed: an android is bundled from its "
                "own files only (import them by relative path, such as './nav'); packages and Node "
                "built-ins do not exist in the sandbox"
            ),
        )
    line, col = _locate_specifier(root / importer, specifier)
    return Diagnostic(display(importer), line, col, code, message, "error", "nova")


def _esbuild(args: list[str], root: Path) -> subprocess.CompletedProcess:
    cmd = [str(ESBUILD.require()), *args]
    try:
        return subprocess.run(
            cmd,
            cwd=root,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        raise BundleError.single(f"esbuild took longer than {TIMEOUT_S} s") from None


def _failure(proc: subprocess.CompletedProcess, diags: list[Diagnostic]) -> list[Diagnostic]:
    errors = [d for d in diags if d.severity == "error"]
    if proc.returncode != 0 and not errors:
        text = (
            proc.stderr or proc.stdout
        ).strip() or f"esbuild failed with exit code {proc.returncode}"
        errors = [Diagnostic("", 0, 0, "esbuild", text, "error", "esbuild")]
    return errors


def prescan_imports(root: Path, display) -> list[Diagnostic]:
    """Parse every script under ``root`` with every import left external, so nothing outside
    ``root`` is ever read, and return each import an android may not make (bare, absolute, or
    reaching outside ``root``) and every syntax error."""
    scripts = sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and p.name.endswith(SCRIPT_SUFFIXES)
    )
    if not scripts:
        return []
    with tempfile.TemporaryDirectory(prefix="nova-esbuild-") as out:
        metafile = Path(out) / "meta.json"
        args = ["./" + s for s in scripts] + [
            *ESBUILD_FLAGS,
            "--external:*",
            f"--outdir={out}/out",
            f"--metafile={metafile}",
            "--log-level=error",
        ]
        proc = _esbuild(args, root)
        errors = _failure(proc, parse_esbuild_log(proc.stderr, root, display))
        if errors:
            return errors
        meta = json.loads(metafile.read_text(encoding="utf-8"))
    problems = []
    for rel, info in meta.get("inputs", {}).items():
        for imp in info.get("imports", []):
            spec = imp.get("original") or imp.get("path", "")
            if _is_relative(spec) or _is_absolute(
                spec
            ):  # bare imports are judged by the real bundle
                problem = _import_problem(root, rel, spec, display, confine=True)
                if problem is not None:
                    problems.append(problem)
    return problems


def _outside(rel: str) -> bool:
    return rel == ".." or rel.startswith("../") or os.path.isabs(rel) or ":" in rel.split("/")[0]


def run_esbuild(
    root: Path, entry: str, *, confine: bool, display=None, preserve_symlinks: bool = False
) -> Bundle:
    """Bundle ``root/entry`` (``entry`` relative to ``root``, which is esbuild's working directory).

    ``confine``: the sources were written to ``root`` from memory and may not read anything outside
    it; every script under ``root`` is pre-scanned first, so a forbidden import is refused before
    esbuild ever opens the file it names. ``display`` maps a path relative to ``root`` to the name
    shown in diagnostics (default: the absolute path). ``preserve_symlinks``: take paths as
    written, never following a link (the shadow of an editor's buffers, overlay.py).
    """
    root = root.resolve()
    if display is None:

        def display(rel: str) -> str:
            return str((root / rel).resolve())

    summary = f"{display(entry)} could not be bundled"
    if confine and (refused := prescan_imports(root, display)):
        raise BundleError(refused, summary=summary)
    with tempfile.TemporaryDirectory(prefix="nova-esbuild-") as out:
        outfile = Path(out) / "bundle.js"
        metafile = Path(out) / "meta.json"
        # The map is written beside the bundle (external: the bundle's bytes carry no comment
        # pointing to it), without the sources' text, which it does not need.
        proc = _esbuild(
            [
                "./" + entry,
                *ESBUILD_FLAGS,
                *(["--preserve-symlinks"] if preserve_symlinks else []),
                "--sourcemap=external",
                "--sources-content=false",
                f"--outfile={outfile}",
                f"--metafile={metafile}",
            ],
            root,
        )
        if confine and any(
            _outside(m.group(1)) for m in map(_LOCATION.match, proc.stderr.splitlines()) if m
        ):
            # Never show what esbuild saw outside the sources (its messages quote the code).
            raise BundleError.single(
                "an import reaches outside the uploaded sources", code="outside-import"
            )
        diags = parse_esbuild_log(proc.stderr, root, display)
        if errors := _failure(proc, diags):
            raise BundleError(errors, summary=summary)
        meta = json.loads(metafile.read_text(encoding="utf-8"))
        code = outfile.read_text(encoding="utf-8")
        source_map = read_esbuild_map(outfile.with_name(outfile.name + ".map"), root)

    problems: list[Diagnostic] = []
    inputs: list[str] = []
    # esbuild marks an import it dropped (only used for types) as external too: a relative one is
    # fine then, but a package is refused whether or not the output still imports it.
    kept = {
        imp.get("path")
        for out in meta.get("outputs", {}).values()
        for imp in out.get("imports", [])
    }
    for rel, info in meta.get("inputs", {}).items():
        inputs.append(display(rel))
        if confine and _outside(rel):
            raise BundleError.single(
                "an import reaches outside the uploaded sources", code="outside-import"
            )
        for imp in info.get("imports", []):
            spec = imp.get("original") or imp.get("path", "")
            if imp.get("external") and (not _is_relative(spec) or imp.get("path") in kept):
                problem = _import_problem(root, rel, spec, display, confine=confine)
                if problem is None:  # a relative import esbuild left external: refuse it anyway
                    line, col = _locate_specifier(root / rel, spec)
                    problem = Diagnostic(
                        display(rel),
                        line,
                        col,
                        "unbundled-import",
                        f"import of '{spec}' could not be bundled",
                        "error",
                        "nova",
                    )
                problems.append(problem)
    if not problems:
        exports = [
            o.get("exports", []) for o in meta.get("outputs", {}).values() if o.get("entryPoint")
        ]
        if not any("default" in e for e in exports):
            problems.append(
                Diagnostic(
                    display(entry),
                    1,
                    1,
                    "no-default-export",
                    "the entry file has no default export: end it with `export default turn;` where "
                    "`const turn: AndroidTurn = () => ...`",
                    "error",
                    "nova",
                )
            )
    if problems:
        raise BundleError(problems, summary=summary)
    return Bundle(
        code=code,
        entry=display(entry),
        inputs=tuple(inputs),
        warnings=tuple(d for d in diags if d.severity == "warning"),
        source_map=source_map,
    )


# --- public API ----------------------------------------------------------------------------------


def bundle_file(entry: Path | str) -> Bundle:
    """Bundle an android from disk: ``entry`` plus every file it imports by relative path.

    Diagnostics name files by absolute path. Raises :class:`BundleError` (a ``CompileError``).
    """
    entry = Path(entry).resolve()
    if not entry.is_file():
        raise BundleError.single(f"{entry} does not exist or is not a file")
    return run_esbuild(entry.parent, entry.name, confine=False)


def bundle_sources(files: Mapping[str, str], entry: str) -> Bundle:
    """Bundle an android held in memory: ``files`` maps relative paths (``'main.ts'``,
    ``'lib/nav.ts'``) to their text, ``entry`` names the file whose default export is the turn.

    The files are written to a private temporary directory; diagnostics name them as given.
    """
    with materialize_sources(files, entry) as (root, entry_name):
        return run_esbuild(
            root, entry_name, confine=True, display=lambda rel: rel.removeprefix("./")
        )
