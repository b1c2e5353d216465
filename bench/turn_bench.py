"""Engine + sandbox: what one android turn of a real game costs, against a bare sandbox call.

    .venv/bin/python bench/turn_bench.py

Two starter androids per player, two players, on the default map. The "game turn" is what
`nova run` does per android: build the fogged view, serialise the globals, run the script in a
fresh sandbox state, judge and apply the action. The baseline, measured in the same run, is a
bare `Sandbox.run_turn` of the same script with the same globals, prepared in advance: each
round's turns are replayed bare right after the round, so both see the same load on the machine.
DESIGN section 7: the median game turn within 1.5x of the bare call; 1,000 android-turns < 3 s.

Both wall-clock and CPU time (this process) are reported. On a busy machine (a load of 10 on 2
cores) the process waits for a core every few milliseconds, and once such a wait falls in more
than half of some kind of turn, that kind's wall-clock median jumps by the length of a wait:
compare CPU times then.
"""

from __future__ import annotations

import statistics
import time

from nova_tools import engine
from nova_tools.play import ScriptRunner, sandbox
from nova_tools.rules import Rules
from nova_tools.sandbox import TurnGlobals
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
        script = engine.add_script(state, player, "starter").script
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
    game_cpu: list[float] = []
    bare_cpu: list[float] = []
    prepared: list[tuple[str, TurnGlobals, int]] = []

    def timed_decide(state: engine.GameState, android) -> engine.Decision:
        # The whole per-turn path of `nova run` minus event bookkeeping: view, JSON, sandbox,
        # then (below) judging and applying the action.
        timed_decide.cpu = time.process_time()  # type: ignore[attr-defined]
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
        game_cpu.append(time.process_time() - timed_decide.cpu)  # type: ignore[attr-defined]
        return event

    wall = cpu = 0.0
    for _ in range(MEASURED_ROUNDS):
        started_round, cpu_round = time.perf_counter(), time.process_time()
        events = [engine.begin_round(state)]
        for android_id in engine.turn_order(state):
            android = state.androids[android_id]
            if android.active:
                events.append(apply_and_time(state, android_id, timed_decide(state, android)))
        events.append(engine.end_round(state))
        wall += time.perf_counter() - started_round
        cpu += time.process_time() - cpu_round
        for bundle, globals_json, seed in prepared:
            used, started = time.process_time(), time.perf_counter()
            box.run_turn(bundle, globals_json, runner.budgets, seed)
            bare_turns.append(time.perf_counter() - started)
            bare_cpu.append(time.process_time() - used)
        prepared.clear()

    game, bare = statistics.median(game_turns) * 1000, statistics.median(bare_turns) * 1000
    game_c, bare_c = statistics.median(game_cpu) * 1000, statistics.median(bare_cpu) * 1000
    print(
        f"android turns measured:            {len(game_turns)} ({MEASURED_ROUNDS} rounds, 2 players, starter androids)"
    )
    print(f"median game turn (engine+sandbox): {game:.2f} ms, {game_c:.2f} ms CPU")
    print(
        f"median bare sandbox call:          {bare:.2f} ms, {bare_c:.2f} ms CPU   (baseline, same script and globals)"
    )
    print(
        f"ratio game / bare:                 {game / bare:.2f}x, {game_c / bare_c:.2f}x CPU   (target <= 1.5x)"
    )
    print(
        f"1,000 android-turns of play:       {wall / len(game_turns) * 1000:.2f} s, {cpu / len(game_turns) * 1000:.2f} s CPU"
        "   (target < 3 s; includes round ends)"
    )


if __name__ == "__main__":
    main()
