"""The match's game, played one round at a time, the same way on both sides.

Both sides build the game from the same inputs (the agreed rules and seed, the two seats in the
same order: the host first), so the same rounds give the same state, and the state hash after
each round is what the sides compare.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import engine, store
from ..rules import Rules


@dataclass(frozen=True)
class Seat:
    """One side of the match: its player, and the compiled script its first android runs."""

    player: str
    script_name: str
    bundle: str
    sha256: str


class MatchGame:
    """A fresh game with both seats joined, each with its script uploaded and one android launched
    on its initial charger (as `nova demo` does), then played round by round through the one
    game loop (:class:`nova_tools.play.GameSession`)."""

    def __init__(self, rules: Rules, seed: int, seats: Sequence[Seat]) -> None:
        from ..play import GameSession, GameSpec, stored_game
        from ..play import Seat as PlayedSeat
        from ..toolchain.compile import CompiledScript

        spec = GameSpec(
            rules, seed, tuple(PlayedSeat(s.player, CompiledScript(s.bundle, s.script_name, s.sha256), s.script_name) for s in seats), rounds=0
        )
        self.session = GameSession.start(spec)
        self.game = stored_game(self.session, Path("match.json"))  # records each round the session plays
        self.round_ends: dict[int, int] = {0: len(self.game.events)}  # round -> events through its end

    @property
    def round(self) -> int:
        return self.game.state.round

    def play_round(self) -> str:
        """Play the next round; return the state hash after it."""
        self.session.play_round()
        self.round_ends[self.round] = len(self.game.events)
        return self.session.state_hash()

    def through(self, round_number: int) -> store.Game:
        """The game as it stood at the end of ``round_number`` (a desync keeps the rounds up to the
        one that differed, even when this side had played ahead)."""
        if round_number == self.round:
            return self.game
        events = self.game.events[: self.round_ends[round_number]]
        state = engine.from_json(self.game.initial, self.game.rules)
        engine.replay(state, events)
        g = self.game
        return store.Game(g.path, g.rules, g.seed, g.sandbox, g.initial, g.scripts, events, state)
