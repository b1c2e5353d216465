"""The starter android: a "factory builder" a player copies and improves (``nova new-android DIR``).

Its TypeScript sources live in ``src/`` next to this file; :func:`files` returns them for
in-memory compilation (``compile_sources(files(), ENTRY)``), and :func:`scaffold` writes a new
project a player can edit, type-check and upload outside a source checkout.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import NovaError
from ..toolchain.typecheck import COMPILER_OPTIONS, typings_path

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"
#: The file whose default export is the turn function.
ENTRY = "main.ts"


class ScaffoldError(NovaError, ValueError):
    """The project could not be created; the message says why in one sentence."""


def files() -> dict[str, str]:
    """The starter's sources: file name (relative to ``src/``) -> text, entry first."""
    names = sorted(p.name for p in SRC.glob("*.ts"))
    names.sort(key=lambda n: n != ENTRY)
    return {name: (SRC / name).read_text(encoding="utf-8") for name in names}


def project_tsconfig() -> dict:
    """The tsconfig.json of a scaffolded project: the options every upload is checked with, the
    project's own copy of the typings, and its sources."""
    return {
        "compilerOptions": dict(COMPILER_OPTIONS),
        "files": ["nova.d.ts"],
        "include": ["src/**/*.ts"],
    }


#: The project's rules file: the rules it is written against, and the marker editors take for the
#: project's root (with tsconfig.json), so ``src/`` is not mistaken for the project.
RULES_FILE = """\
// The rules this android is written against (JSON with comments, see the rulebook). `nova lsp`
// checks this file as you type and shows its values when you hover over `rules.…` in src/;
// `nova create-game --file game.json --rules rules.json` plays a game with them.
// Leave out what you keep: every rule has a default (`nova rules show` prints them all).
{
  // "android": { "cargoCapacity": 12 },
}
"""


def readme() -> str:
    return (HERE / "README.md").read_text(encoding="utf-8")


def scaffold(directory: Path | str, base: str | None = None) -> list[Path]:
    """``nova new-android DIR [--from house:NAME]``: a new android project made from the starter,
    or from the house android ``base`` names (its sources, and its README: its own idea first).

    Writes ``DIR/src/*.ts``, ``DIR/nova.d.ts`` (a copy of the typings, so the project works
    outside a source checkout), ``DIR/tsconfig.json``, ``DIR/rules.json`` and ``DIR/README.md``;
    returns the files written. ``tsconfig.json`` and ``rules.json`` at the top are what editors
    look for to find the project's root (``editor/nvim``, ``editor/emacs``). ``DIR`` may exist only if it is an empty folder.
    """
    target = Path(directory)
    if target.exists():
        if not target.is_dir():
            raise ScaffoldError(
                f"{target} already exists and is not a folder; choose a new folder name"
            )
        if any(target.iterdir()):
            raise ScaffoldError(
                f"{target} is not empty; `nova new-android` only creates new projects, so give it a new "
                "or empty folder (nothing was written)"
            )
    from .house import house

    android = house(base) if base else None  # an unknown name is refused before anything is written
    typings = typings_path()
    if not typings.is_file():
        raise ScaffoldError(f"the typings {typings} are missing; run `nova generate` first")
    sources = android.files() if android else files()
    contents: dict[str, str] = {f"src/{name}": text for name, text in sources.items()}
    contents["nova.d.ts"] = typings.read_text(encoding="utf-8")
    contents["tsconfig.json"] = json.dumps(project_tsconfig(), indent=2) + "\n"
    contents["rules.json"] = RULES_FILE
    contents["README.md"] = android.readme() if android else readme()
    written = []
    try:
        for rel, text in contents.items():
            path = target / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", newline="\n")
            written.append(path)
    except OSError as exc:
        raise ScaffoldError(f"could not write the project into {target}: {exc}") from exc
    return written


__all__ = ["ENTRY", "ScaffoldError", "files", "project_tsconfig", "scaffold"]
