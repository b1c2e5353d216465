"""The arena's user errors (a bad seed list, a script that does not compile, too many games)."""

from __future__ import annotations

from ..errors import NovaError


class ArenaError(NovaError, ValueError):
    """A comparison or tournament that cannot be played as asked; the message says why."""


class Interrupted(Exception):
    """A run stopped before its end (Ctrl-C): ``played`` holds the games that were finished."""

    def __init__(self, played: list) -> None:
        super().__init__(f"interrupted after {len(played)} game(s)")
        self.played = played
