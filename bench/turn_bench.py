"""Engine + sandbox: what one android turn of a real game costs, against a bare sandbox call.

    .venv/bin/python bench/turn_bench.py

Two starter androids per player, two players, on the default map. The "game turn" is what
`nova run` does per android: build the fogged view, serialise the globals, run the script in a
fresh sandbox state, judge and apply the action. The baseline, measured in the same run, is a
bare `Sandbox.run_turn` of the same script with the same globals, prepared in advance.
DESIGN section 7: the median game turn within 1.5x of the bare call; 1,000 android-turns < 3 s.
"""

from __future__ import annotations

import statistics
import time

from nova_tools import engine
from nova_tools.play import ScriptRunner, sandbox
from nova_tools.rules import Rules
from nova_tools.starter import ENTRY, files
from nova_tools.toolchain import compile_sources

WARMUP_ROUNDS = 15
MEASURED_ROUNDS = 150


def _setup() -> tuple[engine.GameState, ScriptRunner]:
    compiled = compile_sources(files(), ENTRY)
    state = engine.generate(Rules(), 3)
    bundles = {}
    for player in ("alice", "bob"):
        engine.join(state, player)
        script = engine.add_script(state, player, "starter")["script"]
        bundles[script] = compiled.bundle
        engine.launch(state, player, script)
    return state, ScriptRunner(Rules(), bundles)


def main() -> None:
    state, runner = _setup()
    box = sandbox()
    for _ in range(WARMUP_ROUNDS):
        engine.play_round(state, runner.decide)

    game_turns: list[float] = []
    bare_turns: list[float] = []
    prepared: list[tuple[str, str, int]] = []

    def timed_decide(state: engine.GameState, android) -> engine.Decision:
        # The whole per-turn path of `nova run` minus event bookkeeping: view, JSON, sandbox,
        # then (below) judging and applying the action.
        started = time.perf_counter()
        globals_json = runner.globals(state, android)
        seed = engine.turn_seed(state, android.id)
        result = box.run_turn(runner.bundles[android.script], globals_json, runner.budgets, seed)
        decision = engine.Decision(value=result.value, error=result.error, ticks=result.ticks)
        timed_decide.started = started  # type: ignore[attr-defined]
        prepared.append((runner.bundles[android.script], globals_json, seed))
        return decision

    def apply_and_time(state: engine.GameState, android_id: str, decision: engine.Decision) -> dict:
        event = engine.apply_turn(state, android_id, decision)
        game_turns.append(time.perf_counter() - timed_decide.started)  # type: ignore[attr-defined]
        return event

    wall = time.perf_counter()
    for _ in range(MEASURED_ROUNDS):
        events = [engine.begin_round(state)]
        for android_id in engine.turn_order(state):
            android = state.androids[android_id]
            if android.active:
                events.append(apply_and_time(state, android_id, timed_decide(state, android)))
        events.append(engine.end_round(state))
    wall = time.perf_counter() - wall

    for bundle, globals_json, seed in prepared:
        started = time.perf_counter()
        box.run_turn(bundle, globals_json, runner.budgets, seed)
        bare_turns.append(time.perf_counter() - started)

    game = statistics.median(game_turns) * 1000
    bare = statistics.median(bare_turns) * 1000
    per_thousand = wall / len(game_turns) * 1000
    print(f"android turns measured:          {len(game_turns)} ({MEASURED_ROUNDS} rounds, 2 players, starter androids)")
    print(f"median game turn (engine+sandbox): {game:.2f} ms")
    print(f"median bare sandbox call:          {bare:.2f} ms   (baseline, same script and globals)")
    print(f"ratio game / bare:                 {game / bare:.2f}x   (target <= 1.5x)")
    print(f"1,000 android-turns of play:       {per_thousand:.2f} s   (target < 3 s; includes round ends)")


if __name__ == "__main__":
    main()
