"""A folder of games, addressed by name: what the MCP server and the lab serve.

A game is addressed by NAME: ``duel`` is ``ROOT/duel.json``. A name is 1-64 letters, digits,
``-`` or ``_``, so no argument can name a file outside the root (no separators, no ``..``, no
absolute paths, no hidden files).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from .. import store
from ..errors import NovaError
from .access import open_game
from .errors import ApiError
from .library import ScriptLibrary
from .results import GameEntry, GameSummary

NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
NAME_RULE = "1-64 letters, digits, '-' or '_'"
SUFFIX = ".json"


class BadName(ApiError):
    """A game name that could reach outside the root or is not a name at all."""


def check_name(name: str, what: str = "game name") -> str:
    if isinstance(name, str) and NAME.fullmatch(name):
        return name
    if isinstance(name, str) and name.endswith(SUFFIX) and NAME.fullmatch(name[: -len(SUFFIX)]):
        raise BadName(
            f"{name!r} is a file name; pass the {what} without {SUFFIX}: {name[: -len(SUFFIX)]!r}"
        )
    shown = name if isinstance(name, str) and len(name) <= 80 else f"{str(name)[:80]}..."
    raise BadName(f"{shown!r} is not a valid {what}: use {NAME_RULE} (no folders, no dots)")


def game_summary(path: str | Path) -> GameSummary:
    """Round, arrival, board size, players and active androids: enough to tell games apart."""
    game = open_game(path)
    state = game.state
    return GameSummary(
        round=state.round,
        final_turn=game.rules.match.final_round,
        width=state.width,
        height=state.height,
        players=tuple(state.players),
        active_androids=sum(1 for a in state.androids.values() if a.active),
    )


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


@dataclass(frozen=True)
class GameFolder:
    root: Path

    @classmethod
    def at(cls, root: str | Path) -> GameFolder:
        return cls(Path(root).resolve())

    def path(self, name: str) -> Path:
        """Where game ``name`` lives, whether or not it exists yet.

        A name cannot leave the root, and neither can a link planted in it: a game file (or its
        lock file) that is a symbolic link leading out of the root is refused, so nothing a
        client asks for reads, writes or creates a file outside the folder it was given."""
        path = self.root / (check_name(name) + SUFFIX)
        assert path.parent == self.root  # guaranteed by the name pattern
        for planted in (path, path.with_name(path.name + ".lock")):
            if planted.is_symlink() and not _inside(Path(os.path.realpath(planted)), self.root):
                raise BadName(
                    f"{planted.name} in the game folder is a link to a file outside it; "
                    "nova serves only the files inside its folder (remove the link, or copy the game in)"
                )
        return path

    @property
    def library(self) -> ScriptLibrary:
        """The scripts kept beside these games (``library/``), to upload to any of them."""
        return ScriptLibrary.of(self.root)

    def existing(self, name: str) -> Path:
        """The file of an existing game, or an error naming the games that do exist."""
        path = self.path(name)
        if not path.is_file():
            known = self.names()
            listing = (
                ", ".join(known[:20]) + (" ..." if len(known) > 20 else "") if known else "none yet"
            )
            raise ApiError(
                f"there is no game {name!r} (games: {listing}); create it with create_game or pick one from list_games"
            )
        return path

    def delete(self, name: str) -> GameSummary | None:
        """Remove game ``name``: its summary as it was, or None if the file could not be read.
        Under the game's lock, so a run or upload in progress finishes first (and one waiting
        finds no game). The empty lock file stays: removing it could let a writer waiting on it
        and a new one each hold "the" lock. A game file that is a link loses only its name."""
        path = self.existing(name)
        with store.locked(path):
            try:
                summary = game_summary(path)
            except NovaError:
                summary = None
            try:
                path.unlink()
            except OSError as error:
                raise ApiError(
                    f"game {name!r} could not be deleted ({error.strerror or error}); it was left as it was"
                ) from None
        return summary

    def names(self) -> list[str]:
        """Names of the ``*.json`` files in the root that a name can address, sorted."""
        if not self.root.is_dir():
            return []
        found = [
            p.name[: -len(SUFFIX)]
            for p in self.root.glob("*" + SUFFIX)
            if p.is_file() and (not p.is_symlink() or _inside(Path(os.path.realpath(p)), self.root))
        ]
        return sorted(n for n in found if NAME.fullmatch(n))

    def games(self, limit: int | None = None, offset: int = 0) -> list[GameEntry]:
        """The games here, by name (``limit`` of them from ``offset``), each with its summary or
        the reason it cannot be read."""
        entries = []
        for name in self.names()[offset : None if limit is None else offset + limit]:
            path = self.path(name)
            try:
                entries.append(GameEntry(name=name, path=path, summary=game_summary(path)))
            except NovaError as error:
                entries.append(GameEntry(name=name, path=path, problem=self.tidy(str(error), name)))
        return entries

    def tidy(self, message: str, name: str | None = None) -> str:
        """An api message with this folder's file paths turned back into game names."""
        if name is not None:
            message = message.replace(str(self.root / (name + SUFFIX)), repr(name))
        return message.replace(str(self.root) + "/", "")
