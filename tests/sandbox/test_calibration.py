"""The clock never decides a turn (DESIGN section 3, issue 9 item 4): the sandbox's ceilings and the
rule that validates budgets are one set of numbers, bundles beyond the limit are refused in one
sentence, and the calibration benchmark keeps running. (Timing is measured in the benchmark, never
asserted here.)"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nova_tools.rules import Rules, RulesError, budgets, resolve
from nova_tools.sandbox import Budgets, TurnKind, build

BENCH = Path(__file__).resolve().parents[2] / "bench" / "calibration_bench.py"
GLOBALS = '{"androidId":"android-1","world":{},"rules":{},"turn":1,"finalTurn":null}'


def test_the_sandbox_ceiling_is_the_one_the_rules_are_validated_against():
    for ticks, size in ((0, 0), (200, 17_000), (20_000, budgets.MAX_BUNDLE_BYTES)):
        assert build.wasm_fuel_ceiling(ticks, size) == budgets.wasm_fuel_ceiling(ticks, size)
    assert build.SANDBOX_BUILD["wasmFuelPerSourceByte"] == str(budgets.WASM_FUEL_PER_SOURCE_BYTE)


def test_the_default_rules_keep_the_invariant_with_margin():
    script = Rules().script
    assert budgets.clock_problem(script.fuel, script.memory, script.timeout_ms) is None
    assert (
        budgets.worst_case_ms(script.fuel, script.memory) * budgets.TIMEOUT_SHARE
        <= 0.8 * script.timeout_ms
    )
    # the largest budgets the rules allow can still be given a timeout that keeps it
    assert (
        budgets.min_timeout_ms(budgets.MAX_FUEL, budgets.MAX_HEAP_BYTES) <= budgets.MAX_TIMEOUT_MS
    )


def test_rules_stored_in_a_game_are_taken_as_they_are():
    old = {"script": {"fuel": 200, "timeoutMs": 2000}}  # what every game before this change holds
    with pytest.raises(RulesError, match=r"script\.timeoutMs: .*raise script\.timeoutMs to \d+"):
        resolve(old)
    assert resolve(old, stored=True).script.timeout_ms == 2000


def test_a_bundle_beyond_the_limit_is_a_failed_turn_in_one_sentence(run):
    big = (
        "const s = '"
        + "a" * budgets.MAX_BUNDLE_BYTES
        + "';\nexport default () => ({ type: 'android.wait' });\n"
    )
    result = run(big)
    assert result.kind is TurnKind.ERROR and (result.ticks, result.wasm_fuel) == (0, 0)
    assert (
        result.error
        == "could not be loaded: its bundle is 1.0 MiB; a script may be at most 1 MiB once bundled"
    )


def test_a_bundle_at_the_limit_compiles_within_its_fuel(run):
    turn = "';\nexport default () => ({ type: 'android.wait', memory: s.slice(0, 3) });\n"
    bundle = (
        "const s = '" + "a" * (budgets.MAX_BUNDLE_BYTES - len("const s = '") - len(turn)) + turn
    )
    assert (
        len(bundle.encode()) == budgets.MAX_BUNDLE_BYTES
    )  # exactly at the limit, not a byte under
    result = run(bundle, budgets=Budgets(fuel=0))
    assert result.ok and result.value["memory"] == "aaa"


def test_the_heap_budget_stops_below_a_gibibyte():
    Budgets(memory=budgets.MAX_HEAP_BYTES)
    with pytest.raises(ValueError, match="at most"):
        Budgets(memory=budgets.MAX_HEAP_BYTES + 1)


def test_the_calibration_bench_runs_its_workloads_to_a_deterministic_limit(capsys, monkeypatch):
    spec = importlib.util.spec_from_file_location("calibration_bench_under_test", BENCH)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    names = [case.name for case in module.cases(None)]
    assert (
        any("source + burner" in n for n in names)
        and any("repeat" in n for n in names)
        and any("BigInt" in n for n in names)
    )
    measured = module.run(runs=1, only="regex backtracking")
    assert [m.kind for m in measured] == ["fuel"] * len(measured)
    assert "of timeoutMs" in capsys.readouterr().out


def test_the_sandbox_defaults_are_the_default_rules():
    script = Rules().script
    assert Budgets() == Budgets(
        fuel=script.fuel, memory=script.memory, timeout_ms=script.timeout_ms
    )


# A burner that runs into the wasm-fuel ceiling: at fuel 40 that is ~1.05G fuel, ~0.1-0.2 s of CPU.
BURNER = "let s; export default () => { for (;;) s = 'ab'.repeat(4e6); };"
HOG = "import os, sys; os.sched_setaffinity(0, {%d}); print('ready', flush=True)\nwhile True: pass"


def test_a_busy_machine_does_not_decide_a_turn(run):
    """The watchdog counts the turn's own CPU time: a turn that gets a seventh of a core (six
    busy processes pinned beside it) takes several times its timeout in wall time, and still
    ends where its fuel ends, as it does on an idle machine. (A wall-clock watchdog cut it short:
    ten burner turns at once on the loaded 2-core machine ended 8 times in 10 as `timeout`.)"""
    budgets = Budgets(fuel=40, timeout_ms=400)
    idle = run(BURNER, budgets=budgets)
    assert idle.kind is TurnKind.FUEL, idle.error
    cpu = sorted(os.sched_getaffinity(0))[-1]
    before = os.sched_getaffinity(0)
    hogs = [
        subprocess.Popen([sys.executable, "-c", HOG % cpu], stdout=subprocess.PIPE)
        for _ in range(6)
    ]
    try:
        for hog in hogs:
            assert hog.stdout is not None and hog.stdout.readline() == b"ready\n"
        os.sched_setaffinity(0, {cpu})
        started = time.monotonic()
        busy = run(BURNER, budgets=budgets)
        wall_ms = (time.monotonic() - started) * 1000
    finally:
        os.sched_setaffinity(0, before)
        for hog in hogs:
            hog.kill()
            hog.wait()
            hog.stdout and hog.stdout.close()
    assert wall_ms > budgets.timeout_ms, wall_ms  # the machine was busy enough to matter
    assert (busy.kind, busy.error, busy.ticks, busy.wasm_fuel) == (
        idle.kind,
        idle.error,
        idle.ticks,
        idle.wasm_fuel,
    )
