"""Why the engine refuses something: a reason code a script can branch on, and a sentence a
player can act on."""

from __future__ import annotations


class Refusal(Exception):
    """An action (or a player command) the rules do not allow. Nothing has changed."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class UnknownPlayer(Refusal):
    def __init__(self, player: str) -> None:
        super().__init__("unknown-player", f"there is no player {player!r} in this game")
