"""The lab's root folder: games by name, scripts by relative path, and nothing outside it.

Games are ``ROOT/NAME.json`` (:class:`nova_tools.api.GameFolder`: a name cannot hold a separator
or a dot). Scripts are ``.ts`` files under the root, named by their path relative to it; a name
with ``..``, an absolute path, a hidden part, or one that resolves outside the root (a symlink
pointing out) is refused in one sentence, before anything is read.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .. import api
from ..errors import NovaError
from ..limits import has_default_export, overwrite_refusal
from ..starter.house import HouseError, entry_of, is_house

STARTER = "starter"  # the script name that picks the shipped starter android
MAX_SCRIPTS = 500
MAX_DEPTH = 6
SKIPPED_FOLDERS = {"node_modules", "__pycache__", "dist", "build"}
# the Run panel lists entry files (limits.has_default_export); the modules they import are left out
ENTRY_SCAN_BYTES = 512 * 1024


class OutsideRoot(NovaError):
    """A path the lab refuses: it names something outside its root, or not a file it serves."""


@dataclass(frozen=True)
class LabFolder:
    root: Path  # resolved

    @classmethod
    def at(cls, root: str | Path) -> LabFolder:
        path = Path(root).expanduser().resolve()
        if not path.is_dir():
            raise OutsideRoot(
                f"{root} is not a folder; give --root an existing folder of games and scripts"
            )
        return cls(path)

    @property
    def games(self) -> api.GameFolder:
        return api.GameFolder(self.root)

    def inside(self, path: Path) -> bool:
        try:
            return path.resolve().is_relative_to(self.root)
        except (OSError, RuntimeError):  # a symlink loop
            return False

    # --- games --------------------------------------------------------------------------------

    def game(self, name: str) -> Path:
        """An existing game's file (a symlink pointing out of the root is refused)."""
        path = self.games.path(name)
        if not path.is_file():
            known = [
                known for known in self.games.names() if not other_json(self.games.path(known))
            ]
            listing = (
                ", ".join(known[:12]) + (" ..." if len(known) > 12 else "") if known else "none yet"
            )
            raise api.ApiError(f"there is no game {name!r} in the lab's folder (games: {listing})")
        if not self.inside(path):
            raise OutsideRoot(
                f"the game {name!r} is a link to a file outside {self.root}; the lab only opens files inside its root"
            )
        return path

    def new_game(self, name: str, force: bool = False) -> Path:
        """Where a new game ``name`` goes (refused if it exists, unless ``force``; never a link)."""
        path = self.games.path(name)
        if path.is_symlink():
            raise OutsideRoot(f"{path.name} is a link; the lab does not write through links")
        if overwrite_refusal(path, force=force):  # the rule is shared; the words are the lab's
            raise api.ApiError(
                f"there is already a game {name!r}; pick another name (or tick 'replace')"
            )
        return path

    # --- scripts ------------------------------------------------------------------------------

    def scripts(self) -> tuple[list[str], bool]:
        """The ``.ts`` entry files under the root (with a default export; not ``.d.ts``, not in
        hidden or package folders), relative and sorted; and whether the list was cut at
        :data:`MAX_SCRIPTS`."""
        found: list[str] = []
        for folder, dirs, files in os.walk(self.root):
            here = Path(folder)
            depth = len(here.relative_to(self.root).parts)
            dirs[:] = sorted(
                d
                for d in dirs
                if not d.startswith(".")
                and d not in SKIPPED_FOLDERS
                and depth < MAX_DEPTH
                and not (here / d).is_symlink()
            )
            for name in sorted(files):
                if name.endswith(".ts") and not name.endswith(".d.ts") and not name.startswith("."):
                    path = here / name
                    if self.inside(path) and _is_entry(path):
                        found.append(path.relative_to(self.root).as_posix())
                        if len(found) > MAX_SCRIPTS:
                            return sorted(found[:MAX_SCRIPTS]), True
        return sorted(found), False

    def script(self, name: str) -> Path:
        """The entry file a script name means: the starter's, a house android's (``house:NAME``),
        or a ``.ts`` file under the root."""
        if name == STARTER:
            return api.starter_entry()
        if is_house(name):
            try:
                return entry_of(name)[0]
            except HouseError as error:
                raise OutsideRoot(str(error)) from None
        shown = name if len(name) <= 120 else name[:120] + "..."
        pure = PurePosixPath(name)
        if "\\" in name or "\0" in name or pure.is_absolute() or not pure.parts:
            raise OutsideRoot(
                f"{shown!r} is not a script path; give a .ts file's path relative to the lab's root, like bots/main.ts"
            )
        if any(part in ("..", ".") or part.startswith(".") for part in pure.parts):
            raise OutsideRoot(
                f"{shown!r} leaves the lab's root or names a hidden file; give a path inside it, like bots/main.ts"
            )
        if pure.suffix != ".ts" or name.endswith(".d.ts"):
            raise OutsideRoot(f"{shown!r} is not a TypeScript android (a .ts file)")
        path = self.root.joinpath(*pure.parts)
        if not self.inside(path):
            raise OutsideRoot(
                f"{shown!r} is a link to a file outside {self.root}; the lab only runs scripts inside its root"
            )
        if not path.is_file():
            raise OutsideRoot(f"there is no script {shown!r} under {self.root}")
        return path


def other_json(path: Path) -> bool:
    """Whether ``path`` holds whole, valid JSON that does not claim to be a Nova file (a damaged
    or truncated game is still listed, with what is wrong with it)."""
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return False
    marker = data.get("format") if isinstance(data, dict) else None
    return not (isinstance(marker, str) and marker.startswith("nova"))


def _is_entry(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            return has_default_export(file.read(ENTRY_SCAN_BYTES).decode("utf-8", "replace"))
    except OSError:
        return False
