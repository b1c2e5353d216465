"""The match's game, played one round at a time through the one game loop, the same way on both
sides.

Both sides build the game from the same inputs (the agreed rules and seed, the two seats in the
same order: the host first), so the same rounds give the same state, and the state hash after
each round is what the sides compare.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .. import engine, store
from ..play import GameSession, GameSpec, Seat, stored_game
from ..rules import Rules


class MatchGame:
    """A :class:`~nova_tools.play.GameSession` started from the match's spec (each seat joined, its
    script uploaded and one android launched on its initial charger, in seat order), kept as a game
    file as it goes, and played round by round."""

    def __init__(self, rules: Rules, seed: int, seats: Sequence[Seat]) -> None:
        self.session = GameSession.start(GameSpec(rules, seed, tuple(seats), rounds=0))
        self.game = stored_game(
            self.session, Path("match.json")
        )  # records each round the session plays
        self.round_ends: dict[int, int] = {
            0: len(self.game.events)
        }  # round -> events through its end

    @property
    def round(self) -> int:
        return self.session.round

    def play_round(self) -> str:
        """Play the next round; return the state hash after it."""
        self.session.play_round()
        self.round_ends[self.round] = len(self.game.events)
        return self.session.state_hash()

    def through(self, round_number: int) -> store.Game:
        """The game as it stood at the end of ``round_number`` (a desync keeps the rounds up to the
        one that differed, even when this side had played ahead; an interruption keeps the rounds
        it had finished, never half a round)."""
        if round_number == self.round and self.round_ends[round_number] == len(self.game.events):
            return self.game
        events = self.game.events[: self.round_ends[round_number]]
        state = engine.from_json(self.game.initial, self.game.rules)
        engine.replay(state, events)
        g = self.game
        return store.Game(g.path, g.rules, g.seed, g.sandbox, g.initial, g.scripts, events, state)
