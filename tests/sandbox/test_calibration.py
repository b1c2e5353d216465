"""The clock never decides a turn (DESIGN section 3, issue 9 item 4): the sandbox's ceilings and the
rule that validates budgets are one set of numbers, bundles beyond the limit are refused in one
sentence, and the calibration benchmark keeps running. (Timing is measured in the benchmark, never
asserted here.)"""

from __future__ import annotations

import importlib.util
import sys
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
    assert budgets.worst_case_ms(script.fuel, script.memory) * budgets.TIMEOUT_SHARE <= 0.8 * script.timeout_ms
    # the largest budgets the rules allow can still be given a timeout that keeps it
    assert budgets.min_timeout_ms(budgets.MAX_FUEL, budgets.MAX_HEAP_BYTES) <= budgets.MAX_TIMEOUT_MS


def test_rules_stored_in_a_game_are_taken_as_they_are():
    old = {"script": {"fuel": 200, "timeoutMs": 2000}}  # what every game before this change holds
    with pytest.raises(RulesError, match=r"script\.timeoutMs: .*raise script\.timeoutMs to \d+"):
        resolve(old)
    assert resolve(old, stored=True).script.timeout_ms == 2000


def test_a_bundle_beyond_the_limit_is_a_failed_turn_in_one_sentence(run):
    big = "const s = '" + "a" * budgets.MAX_BUNDLE_BYTES + "';\nexport default () => ({ type: 'android.wait' });\n"
    result = run(big)
    assert result.kind is TurnKind.ERROR and result.ticks == 0
    assert result.error == "could not be loaded: its bundle is 1.0 MiB; a script may be at most 1 MiB once bundled"


def test_a_bundle_at_the_limit_compiles_within_its_fuel(run):
    literal = "const s = '" + "a" * (budgets.MAX_BUNDLE_BYTES - 100) + "';\n"
    result = run(literal + "export default () => ({ type: 'android.wait', memory: s.slice(0, 3) });\n", budgets=Budgets(fuel=0))
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
    assert any("source + burner" in n for n in names) and any("repeat" in n for n in names) and any("BigInt" in n for n in names)
    measured = module.run(runs=1, only="regex backtracking")
    assert [m.kind for m in measured] == ["fuel"] * len(measured)
    assert "of timeoutMs" in capsys.readouterr().out


def test_the_sandbox_defaults_are_the_default_rules():
    script = Rules().script
    assert Budgets() == Budgets(fuel=script.fuel, memory=script.memory, timeout_ms=script.timeout_ms)
