"""Running android turns: the glue between the engine's ``decide`` callback and the sandbox."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING

from .. import engine
from ..engine.state import Android, GameState
from ..rules import Rules
from ..store import Game

if TYPE_CHECKING:
    from ..sandbox import TurnGlobals


@lru_cache(maxsize=1)
def sandbox():
    """One sandbox per process: compiling QuickJS takes most of a second, instances are per turn."""
    from ..sandbox import Sandbox

    return Sandbox()


def sandbox_build() -> dict[str, str]:
    from ..sandbox import SANDBOX_BUILD

    return dict(SANDBOX_BUILD)


# A failed turn's reason code, from the sandbox's kind of failure: what a script can branch on
# when it reads its own events, and what `nova events --failed` shows.
FAILURE_CODES = {
    "fuel": "out-of-fuel",
    "memory": "out-of-memory",
    "stack": "stack-overflow",
    "timeout": "timeout",
    "syntax": "syntax-error",
    "error": "script-error",
    "no-action": "not-an-action",
    "crash": "sandbox-crash",
}


class ScriptRunner:
    """Decides turns by running each android's stored script in the sandbox."""

    def __init__(self, rules: Rules, bundles: dict[str, str]) -> None:
        from ..sandbox import Budgets, GameGlobals

        self.bundles = bundles
        self.last_logs: tuple[str, ...] = ()
        # The rules and finalTurn are the same for every turn: the sandbox parses them once per
        # game into the snapshot the game's turns start from.
        rules_json = json.dumps(rules.to_json(), separators=(",", ":"), ensure_ascii=False)
        self.game_globals = GameGlobals(rules_json, rules.match.final_round)
        self.budgets = Budgets(fuel=rules.script.fuel, memory=rules.script.memory, timeout_ms=rules.script.timeout_ms)

    @classmethod
    def for_game(cls, game: Game) -> "ScriptRunner":
        return cls(game.rules, {sid: s.bundle for sid, s in game.scripts.items()})

    def globals(self, state: GameState, android: Android) -> TurnGlobals:
        """What ``android``'s script sees this turn (its fogged world, the rules, ...)."""
        from ..sandbox import TurnGlobals

        view = engine.world_view(state, android.owner, android)
        return TurnGlobals.of(self.game_globals, android.id, state.round, view)

    def decide(self, state: GameState, android: Android) -> engine.Decision:
        bundle = self.bundles.get(android.script)
        if bundle is None:
            return engine.Decision(error=f"its script {android.script} is not stored in this game")
        result = sandbox().run_turn(bundle, self.globals(state, android), self.budgets, engine.turn_seed(state, android.id))
        self.last_logs = result.logs  # console.log output: shown by dry-runs, not kept in games
        return engine.Decision(value=result.value, error=result.error, ticks=result.ticks, code=FAILURE_CODES.get(str(result.kind), "script-error"))
