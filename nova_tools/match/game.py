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
    on its initial charger (as `nova demo` does), then played round by round."""

    def __init__(self, rules: Rules, seed: int, seats: Sequence[Seat]) -> None:
        from ..api.turns import ScriptRunner, sandbox_build

        self.game = store.new_game(Path("match.json"), rules, seed, sandbox_build())
        state = self.game.state
        for seat in seats:
            events = [engine.join(state, seat.player)]
            uploaded = engine.add_script(state, seat.player, seat.script_name)
            events.append(uploaded)
            self.game.scripts[uploaded["script"]] = store.StoredScript(seat.player, seat.script_name, seat.sha256, seat.bundle)
            events.append(engine.launch(state, seat.player, uploaded["script"]))
            self.game.record(events)
        self.runner = ScriptRunner.for_game(self.game)
        self.round_ends: dict[int, int] = {0: len(self.game.events)}  # round -> events through its end

    @property
    def round(self) -> int:
        return self.game.state.round

    def play_round(self) -> str:
        """Play the next round; return the state hash after it."""
        self.game.record(engine.play_round(self.game.state, self.runner.decide))
        self.round_ends[self.round] = len(self.game.events)
        return engine.state_hash(self.game.state)

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
