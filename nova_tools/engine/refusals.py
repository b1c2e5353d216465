"""Why the engine refuses something: a reason code a script can branch on, and a sentence a
player can act on."""

from __future__ import annotations

from ..errors import NovaError
from .reasons import Reason


class Refusal(NovaError):
    """An action (or a player command) the rules do not allow. Nothing has changed.

    ``code`` must be one of :class:`~nova_tools.engine.reasons.Reason` (a new code is added there,
    with its meaning, so the docs table lists it)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = Reason.of(code)
        self.reason = reason

    def __reduce__(self) -> tuple[type[Refusal], tuple[str, ...]]:
        # keep it picklable (refusals cross process boundaries in the arena)
        return (Refusal, (self.code.value, self.reason))


class UnknownPlayer(Refusal):
    def __init__(self, player: str) -> None:
        super().__init__(Reason.UNKNOWN_PLAYER, f"there is no player {player!r} in this game")
        self.player = player

    def __reduce__(self) -> tuple[type[Refusal], tuple[str, ...]]:
        return (UnknownPlayer, (self.player,))
