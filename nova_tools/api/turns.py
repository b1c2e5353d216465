"""Running android turns: the glue between the engine's ``decide`` callback and the sandbox."""

from __future__ import annotations

import json
from functools import lru_cache

from .. import engine
from ..engine.state import Android, GameState
from ..rules import Rules
from ..store import Game


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
        from ..sandbox import Budgets

        self.bundles = bundles
        self.last_logs: tuple[str, ...] = ()
        # The rules and finalTurn are the same for every turn: serialise them once.
        rules_json = json.dumps(rules.to_json(), separators=(",", ":"))
        self._suffix = ',"rules":' + rules_json + ',"finalTurn":' + json.dumps(rules.match.final_round) + "}"
        self.budgets = Budgets(fuel=rules.script.fuel, memory=rules.script.memory, timeout_ms=rules.script.timeout_ms)

    @classmethod
    def for_game(cls, game: Game) -> "ScriptRunner":
        return cls(game.rules, {sid: s.bundle for sid, s in game.scripts.items()})

    def globals_json(self, state: GameState, android: Android) -> str:
        view = engine.world_view(state, android.owner, android)
        return (
            '{"androidId":'
            + json.dumps(android.id)
            + ',"turn":'
            + str(state.round)
            + ',"world":'
            + json.dumps(view, separators=(",", ":"), ensure_ascii=False)
            + self._suffix
        )

    def decide(self, state: GameState, android: Android) -> engine.Decision:
        bundle = self.bundles.get(android.script)
        if bundle is None:
            return engine.Decision(error=f"its script {android.script} is not stored in this game")
        result = sandbox().run_turn(bundle, self.globals_json(state, android), self.budgets, engine.turn_seed(state, android.id))
        self.last_logs = result.logs  # console.log output: shown by dry-runs, not kept in games
        return engine.Decision(value=result.value, error=result.error, ticks=result.ticks, code=FAILURE_CODES.get(str(result.kind), "script-error"))
