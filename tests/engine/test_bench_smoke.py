"""The engine benchmark keeps running (no timing is asserted here: DESIGN section 7 says
performance is measured in the benchmark, as ratios, never in a timed unit test)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "engine_bench.py"


def test_bench_measures_a_small_game() -> None:
    spec = importlib.util.spec_from_file_location("engine_bench_under_test", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    figures = module.measure(repeats=1, rounds=6)
    assert figures["turns"] == 6 * 8  # four players, two androids each, nobody dies in 6 rounds
    assert figures["events"] == (4 + 4 + 8) + 6 * 2 + figures["turns"]  # joins, uploads, launches; rounds; turns
    for key in ("turns_per_s", "turn_over_dumps", "replay_events_per_s", "replay_over_parse"):
        assert figures[key] > 0
    assert "replay" in module.report(figures)
