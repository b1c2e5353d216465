"""A script library beside a folder of games: an android compiled once, used in any game.

An agent improving an android plays it in many games; sending its source with every upload
costs tens of kilobytes a call. Instead a script is added once and named by an id made from its
content, ``lib-`` and the first 16 hex digits of the SHA-256 of its bundle: the same code always
gets the same id, and two different bundles never share one. Uploading it to a game (or comparing
it) copies the stored bundle and source map as they are, so every game holds the same bytes.

Each script is one JSON file, ``ROOT/library/ID.json``, written atomically under a lock. It
records the players who added it: a script's code is private to whoever wrote it, so only they
can use it or see it listed (a second player adding the very same code becomes one of them).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .. import store
from ..toolchain.compile import CompiledScript
from .errors import ApiError
from .games import script_name
from .results import LibraryEntry

FOLDER = "library"
FORMAT = "nova-library-script"
VERSION = 1
ID = re.compile(r"lib-[0-9a-f]{16}")


@dataclass(frozen=True)
class LibraryScript:
    """A stored script, compiled: ready to upload to a game or to play in a comparison."""

    entry: LibraryEntry
    script: CompiledScript


def script_id_of(sha256: str) -> str:
    """The library id of a bundle with this SHA-256 (hex)."""
    return "lib-" + sha256[:16]


def check_script_id(script_id: str) -> str:
    if isinstance(script_id, str) and ID.fullmatch(script_id):
        return script_id
    shown = (
        script_id
        if isinstance(script_id, str) and len(script_id) <= 80
        else f"{str(script_id)[:80]}..."
    )
    raise ApiError(
        f"{shown!r} is not a library id: they look like 'lib-' and 16 hex digits, e.g. 'lib-3f2a9c0b1d4e5f67' (add_script returns them)"
    )


@dataclass(frozen=True)
class ScriptLibrary:
    """The library of the game folder ``root`` (its ``library/`` folder)."""

    folder: Path

    @classmethod
    def of(cls, root: str | Path) -> ScriptLibrary:
        return cls(Path(root) / FOLDER)

    def _path(self, script_id: str) -> Path:
        """Where script ``script_id`` is kept. Never through a link: one planted in the library
        (or the library folder itself a link) could make an add write, or a read reveal, a file
        outside the games folder."""
        path = self.folder / f"{check_script_id(script_id)}.json"
        for planted in (self.folder, path):
            if planted.is_symlink():
                raise ApiError(
                    f"the script library's {planted.name} is a symbolic link; nova keeps plain files there (remove the link)"
                )
        return path

    def add(
        self,
        player: str,
        compiled: CompiledScript,
        name: str,
        files: tuple[str, ...],
        sources: Mapping[str, str] | None = None,
    ) -> LibraryEntry:
        """Keep ``compiled`` for ``player`` (and whoever added the same bundle before): its entry."""
        script_id = script_id_of(compiled.sha256)
        path = self._path(script_id)
        self.folder.mkdir(parents=True, exist_ok=True)
        with store.locked(path):
            try:
                data = self._read(path, script_id) if path.is_file() else None
            except ApiError:  # damaged: adding the script again is the repair its refusal asks for
                data = None
            added = data is None
            if data is None:
                data = {
                    "format": FORMAT,
                    "version": VERSION,
                    "id": script_id,
                    "players": [],
                    "names": {},  # player -> the name they gave it: another's name is theirs alone
                    "files": list(files),
                    "sha256": compiled.sha256,
                    "bundle": compiled.bundle,
                }
                if compiled.source_map is not None:
                    data["sourceMap"] = compiled.source_map
            if sources is not None and "sources" not in data:
                # the files it was compiled from, so a new version can name it as its base
                data["sources"] = {file: sources[file] for file in files}
                added_sources = True
            else:
                added_sources = False
            if player not in data["players"] or added_sources:
                if player not in data["players"]:
                    data["players"].append(player)
                    data["names"][player] = name
                text = json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
                store.write_atomic(path, text.encode("utf-8"))
        return self._entry(data, player, added=added)

    def get(self, player: str, script_id: str) -> LibraryScript:
        """``player``'s script ``script_id``, compiled as it was added."""
        path = self._path(script_id)
        data = self._read(path, script_id) if path.is_file() else None
        if data is None or player not in data["players"]:
            raise ApiError(
                f"{script_id!r} is not in {player}'s script library (add_script or upload_script returns the ids; list_scripts lists yours)"
            )
        script = CompiledScript(
            data["bundle"],
            f"{FOLDER}/{script_id}",
            data["sha256"],
            source_map=data.get("sourceMap"),
        )
        return LibraryScript(self._entry(data, player), script)

    def sources(self, player: str, script_id: str) -> tuple[dict[str, str], str]:
        """The files ``player``'s script ``script_id`` was compiled from, and its entry."""
        self.get(player, script_id)  # refused if it is not theirs
        data = self._read(self._path(script_id), script_id)
        sources = data.get("sources")
        if not isinstance(sources, dict) or not data["files"]:
            raise ApiError(
                f"{script_id} was kept without its source files (before nova kept them); add it again with files to use it as a base"
            )
        return {f: sources[f] for f in data["files"]}, data["files"][0]

    def listing(self, player: str) -> list[LibraryEntry]:
        """``player``'s scripts, by name then id (a damaged file is left out, not fatal)."""
        if not self.folder.is_dir():
            return []
        found = []
        if self.folder.is_symlink():
            return []
        for path in sorted(self.folder.glob("lib-*.json")):
            script_id = path.stem
            if not ID.fullmatch(script_id) or path.is_symlink():
                continue
            try:
                data = self._read(path, script_id)
            except ApiError:
                continue
            if player in data["players"]:
                found.append(self._entry(data, player))
        return sorted(found, key=lambda e: (e.name, e.id))

    @staticmethod
    def _entry(data: dict, player: str, added: bool = False) -> LibraryEntry:
        return LibraryEntry(
            id=data["id"],
            name=data["names"].get(player) or data["id"],
            sha256=data["sha256"],
            bytes=len(data["bundle"].encode("utf-8", "surrogatepass")),
            files=tuple(data["files"]),
            added=added,
        )

    @staticmethod
    def _read(path: Path, script_id: str) -> dict:
        """The stored script, checked: its bundle must still be the bytes its id names."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            ok = (
                isinstance(data, dict)
                and data.get("format") == FORMAT
                and data.get("id") == script_id
                and isinstance(data.get("bundle"), str)
                and isinstance(data.get("players"), list)
                and isinstance(data.get("names"), dict)
                and all(isinstance(n, str) for n in data["names"].values())
                and isinstance(data.get("files"), list)
                and hashlib.sha256(data["bundle"].encode("utf-8", "surrogatepass")).hexdigest()
                == data.get("sha256")
                and script_id_of(data["sha256"]) == script_id
            )
        except (OSError, ValueError) as error:
            raise ApiError(
                f"the library's {script_id} cannot be read ({error}); add the script again"
            ) from None
        if not ok:
            raise ApiError(
                f"the library's {script_id} is damaged (its file is not what add_script wrote); add the script again"
            )
        return data


def add_to_library(
    root: str | Path,
    player: str,
    compiled: CompiledScript,
    files: Mapping[str, str],
    entry_name: str | None,
    name: str | None = None,
) -> LibraryEntry:
    """Keep a compiled script in the library of the games folder ``root`` for ``player``."""
    names = list(files)
    entry = entry_name or ("main.ts" if "main.ts" in files else names[0])
    ordered = (entry, *(n for n in names if n != entry))
    return ScriptLibrary.of(root).add(
        player, compiled, name or script_name(entry), ordered, {f: files[f] for f in ordered}
    )
