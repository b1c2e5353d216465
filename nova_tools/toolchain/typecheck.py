"""Type-check an android with the native TypeScript 7 compiler (one-shot ``tsc --noEmit``).

An upload is always checked the same way, whatever tsconfig the player's project has: the entry
file (and every file it imports) together with the generated typings ``nova.d.ts``, under
:data:`COMPILER_OPTIONS` — strict, ``lib: ["es2022"]`` and ``types: []``, so there are no DOM or
Node globals, only the game's. The project tsconfig that ``nova new-android`` writes uses exactly
these options, so the editor and the upload agree.

The entry's default export is checked too: a generated file beside the program imports it and
assigns it to ``AndroidTurn`` (:data:`TURN_CHECK`), and an error there is reported at the player's
own ``export default`` line. Without it ``export default () => ({ type: 'android.move', direction:
'up' })`` type-checks (nothing asks what the default export is) and fails every turn in play.

Output is read from ``--pretty false``, one diagnostic per ``file(line,col): error TSnnnn: ...``
line with indented continuation lines for chained messages.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from .diagnostics import CompileError, Diagnostic, Severity
from .paths import PACKAGED_TYPINGS, REPO_TYPINGS, TSC
from .tstext import export_default_span

#: The options every android is checked with (tsconfig spelling). ``nova new-android`` writes these
#: into the project's tsconfig.json; the one-shot check passes them on the command line.
COMPILER_OPTIONS: dict[str, object] = {
    "strict": True,
    "target": "es2022",
    "lib": ["es2022"],
    "types": [],
    "module": "esnext",
    "moduleResolution": "bundler",
    # Every source file is a module, as it is to esbuild; only the typings are a global script.
    "moduleDetection": "force",
    "isolatedModules": True,
    "allowImportingTsExtensions": True,
    "noEmit": True,
}

TIMEOUT_S = 60

#: The generated file that checks an entry's default export: ``{entry}`` is the entry's import
#: specifier. The language server checks an open script with the same text (lsp/tsserver.py).
TURN_CHECK = "import turn from {entry};\nconst novaTurn: AndroidTurn = turn;\nvoid novaTurn;\n"
TURN_CHECK_NAME = "nova-turn-check.ts"
#: What a wrong default export is told, after tsc's own words.
TURN_HINT = (
    "give the turn its type where you write it (`const turn: AndroidTurn = () => ...;` then "
    "`export default turn;`) and each action is checked there"
)
#: tsc's "has no default export": the bundler says that itself, in the player's words
NO_DEFAULT_EXPORT_CODES = frozenset({"TS1192", "TS2613", "TS1259"})


def turn_check_source(specifier: str) -> str:
    """The generated check of the default export that ``specifier`` imports."""
    return TURN_CHECK.format(entry=json.dumps(specifier))


def default_export_diagnostic(
    diagnostic: Diagnostic, entry_file: str, entry_text: str
) -> Diagnostic | None:
    """A diagnostic tsc reported in the generated turn check, as the player's own: at the entry's
    ``export default`` (line and column from 1), saying the default export is not an
    ``AndroidTurn``. None for what the bundler reports better (no default export at all)."""
    if diagnostic.code in NO_DEFAULT_EXPORT_CODES:
        return None
    span = export_default_span(entry_text)
    if span is None:
        line, col = 1, 1
    else:
        line = entry_text.count("\n", 0, span[0]) + 1
        col = span[0] - (entry_text.rfind("\n", 0, span[0]) + 1) + 1
    return replace(
        diagnostic,
        file=entry_file,
        line=line,
        col=col,
        message=default_export_message(diagnostic.message),
    )


def default_export_message(tsc_message: str) -> str:
    """What the player reads about a default export that is not an ``AndroidTurn``."""
    reason = tsc_message.strip().splitlines()[-1].strip().rstrip(".")  # tsc's deepest reason
    return f"the default export is not an AndroidTurn ({reason}); {TURN_HINT}"


def typings_path() -> Path:
    """The generated ``nova.d.ts``: ``typings/nova.d.ts`` in a source checkout, else the copy
    shipped inside the package (both are generated from the same models and kept identical).
    ``NOVA_TYPINGS`` names another file instead."""
    if env := os.environ.get("NOVA_TYPINGS"):
        return Path(env)
    return REPO_TYPINGS if REPO_TYPINGS.is_file() else PACKAGED_TYPINGS


def tsc_option_args(options: Mapping[str, object] = COMPILER_OPTIONS) -> list[str]:
    """tsconfig-style options as tsc command-line flags."""
    args: list[str] = []
    for key, value in options.items():
        if value is True:
            args.append(f"--{key}")
        elif value is False:
            args += [f"--{key}", "false"]
        elif isinstance(value, list):
            args += [f"--{key}", ",".join(str(v) for v in value)]
        else:
            args += [f"--{key}", str(value)]
    return args


_LINE = re.compile(
    r"^(?P<file>.+?)\((?P<line>\d+),(?P<col>\d+)\): (?P<sev>error|warning|message) (?P<code>TS\d+): (?P<msg>.*)$"
)
_GLOBAL = re.compile(r"^(?P<sev>error|warning|message) (?P<code>TS\d+): (?P<msg>.*)$")


def parse_tsc_output(output: str, cwd: Path, display=None) -> list[Diagnostic]:
    """Parse ``tsc --pretty false`` output. Paths are resolved against ``cwd`` (tsc prints them
    relative to its working directory) and passed through ``display`` (default: absolute path)."""
    if display is None:

        def display(path: str) -> str:
            return str((cwd / path).resolve())

    diags: list[Diagnostic] = []
    pending: dict | None = None

    def flush() -> None:
        if pending is not None:
            sev: Severity = "warning" if pending["sev"] == "warning" else "error"
            diags.append(
                Diagnostic(
                    pending["file"],
                    pending["line"],
                    pending["col"],
                    pending["code"],
                    "\n".join(pending["msg"]),
                    sev,
                    "tsc",
                )
            )

    for raw in output.splitlines():
        line = raw.rstrip("\r")
        if m := _LINE.match(line):
            flush()
            pending = {
                "file": display(m["file"]),
                "line": int(m["line"]),
                "col": int(m["col"]),
                "code": m["code"],
                "msg": [m["msg"]],
                "sev": m["sev"],
            }
        elif m := _GLOBAL.match(line):
            flush()
            pending = {
                "file": "",
                "line": 0,
                "col": 0,
                "code": m["code"],
                "msg": [m["msg"]],
                "sev": m["sev"],
            }
        elif pending is not None and line.startswith(" ") and line.strip():
            pending["msg"].append(line.strip())
        # Anything else (blank lines, "Found N errors") is a summary we do not need.
    flush()
    return diags


def run_tsc(
    args: list[str], cwd: Path, display=None, *, listed: list[str] | None = None
) -> list[Diagnostic]:
    """Run tsc with ``args`` (``--pretty false`` is added) in ``cwd`` and return its diagnostics.
    With ``listed``, ``--listFiles`` is added and the program's files are appended to it."""
    tsc = TSC.require()
    cmd = [str(tsc), *args, "--pretty", "false"]
    if listed is not None:
        cmd.append("--listFiles")
    try:
        proc = subprocess.run(
            cmd,
            cwd=cwd,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        raise CompileError.single(f"the type check took longer than {TIMEOUT_S} s") from None
    output = proc.stdout + "\n" + proc.stderr
    diags = parse_tsc_output(output, cwd, display)
    if listed is not None:
        listed.extend(
            line.strip()
            for line in output.splitlines()
            if line.strip()
            and os.path.isabs(line.strip())
            and not _LINE.match(line)
            and not _GLOBAL.match(line)
        )
    if proc.returncode != 0 and not diags:
        text = (
            proc.stderr or proc.stdout
        ).strip() or f"tsc failed with exit code {proc.returncode}"
        diags = [Diagnostic("", 0, 0, "tsc", text, "error", "tsc")]
    return diags


def typecheck_files(
    files: list[Path | str],
    *,
    cwd: Path | None = None,
    typings: Path | None = None,
    skip_lib_check: bool = True,
    display=None,
    listed: list[str] | None = None,
    entry: Path | str | None = None,
    preserve_symlinks: bool = False,
) -> list[Diagnostic]:
    """Check ``files`` (and what they import) against the typings under :data:`COMPILER_OPTIONS`,
    ignoring any tsconfig.json. This is how a bare ``.ts`` file with no tsconfig is checked.
    With ``entry`` (one of ``files``), its default export is checked against ``AndroidTurn``.
    ``preserve_symlinks``: take paths as written, never following a link (overlay.py)."""
    typings = typings or typings_path()
    if not typings.is_file():
        raise CompileError.single(
            f"the typings {typings} are missing; regenerate them with `nova generate` "
            "(or `python -m nova_tools.toolchain.typings --write`)"
        )
    cwd = (cwd or Path.cwd()).resolve()
    args = ["--ignoreConfig", *tsc_option_args()]
    if preserve_symlinks:
        args.append("--preserveSymlinks")
    if skip_lib_check:
        args.append(
            "--skipLibCheck"
        )  # the es2022 libs and the typings are checked by our own tests
    args += [str(f) for f in files] + [str(typings.resolve())]
    if entry is None:
        return run_tsc(args, cwd, display, listed=listed)
    entry_path = (cwd / entry).resolve()
    with tempfile.TemporaryDirectory(prefix="nova-turn-") as scratch:
        check = Path(scratch).resolve() / TURN_CHECK_NAME
        check.write_text(turn_check_source(entry_path.as_posix()), encoding="utf-8")
        seen: list[str] | None = [] if listed is not None else None
        raw = run_tsc([*args, str(check)], cwd, lambda path: path, listed=seen)
        if listed is not None and seen is not None:
            listed.extend(name for name in seen if Path(name).resolve() != check)
        show = display or (lambda path: str((cwd / path).resolve()))
        entry_shown = show(str(entry))
        out: list[Diagnostic] = []
        for d in raw:
            if d.file and (cwd / d.file).resolve() == check:
                text = entry_path.read_text(encoding="utf-8", errors="replace")
                mapped = default_export_diagnostic(d, entry_shown, text)
                if mapped is not None:
                    out.append(mapped)
            else:
                out.append(replace(d, file=show(d.file)) if d.file else d)
        return out


def typecheck_file(entry: Path | str) -> list[Diagnostic]:
    """Type-check one android entry file on disk (and every file it imports) against the typings.
    Diagnostics name files by absolute path."""
    entry = Path(entry).resolve()
    if not entry.is_file():
        raise CompileError.single(f"{entry} does not exist or is not a file")
    return typecheck_files(["./" + entry.name], cwd=entry.parent, entry="./" + entry.name)


def typecheck_project(tsconfig: Path | str) -> list[Diagnostic]:
    """Type-check a project with its own tsconfig.json (``tsc -p``), e.g. one made by
    ``nova new-android``. ``tsconfig`` may be the file or its folder."""
    tsconfig = Path(tsconfig).resolve()
    folder = tsconfig if tsconfig.is_dir() else tsconfig.parent
    return run_tsc(["-p", str(tsconfig), "--noEmit"], folder)


def typecheck_sources(files: Mapping[str, str], entry: str) -> list[Diagnostic]:
    """Type-check in-memory sources (relative path -> text) from ``entry``; diagnostics name the
    files as given. The files are written to a private temporary directory."""
    from .bundle import materialize_sources

    with materialize_sources(files, entry) as (root, entry_name):
        return typecheck_in(root, entry_name)


def typecheck_in(root: Path, entry: str, *, confine: bool = True) -> list[Diagnostic]:
    """Type-check ``root/entry`` with names shown relative to ``root``.

    ``confine`` (in-memory sources): if the program reaches any file outside ``root`` besides the
    typings and the standard library (a ``/// <reference path>``, an ``import type``), refuse it
    without showing anything tsc said about that file.
    """
    root = root.resolve()

    def display(path: str) -> str:
        full = (root / path).resolve()
        try:
            return full.relative_to(root).as_posix()
        except ValueError:
            return str(full)

    listed: list[str] | None = [] if confine else None
    typings = typings_path().resolve()
    diags = typecheck_files(
        ["./" + entry],
        cwd=root,
        display=display,
        listed=listed,
        typings=typings,
        entry="./" + entry,
    )
    if listed is not None:
        tsc_lib = TSC.require().resolve().parent
        for name in listed:
            path = Path(name).resolve()
            if path == typings or path.is_relative_to(root) or path.is_relative_to(tsc_lib):
                continue
            raise CompileError.single(
                "a type import or `/// <reference>` reaches outside the uploaded sources: an android's "
                "files may only refer to each other",
                code="outside-import",
            )
    return diags


def errors_only(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in diagnostics if d.severity == "error"]
