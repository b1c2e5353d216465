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
    assert (
        figures["events"] == (4 + 4 + 8) + 6 * 2 + figures["turns"]
    )  # joins, uploads, launches; rounds; turns
    for key in ("turns_per_s", "turn_over_dumps", "replay_events_per_s", "replay_over_parse"):
        assert figures[key] > 0
    assert "replay" in module.report(figures)


def test_bench_survives_a_cpu_clock_that_reads_zero() -> None:
    """Under a CPU-time limit (mutmut's workers set RLIMIT_CPU) this machine's kernel advances the
    CPU clock in coarse steps, so a short timing can read 0 s; the bench divided by it and this
    file failed in every mutation run, counting engine mutants as killed that no test caught."""
    spec = importlib.util.spec_from_file_location("engine_bench_coarse_clock", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.clock = lambda: 12.5  # a clock that never moves
    figures = module.measure(repeats=1, rounds=3)
    assert (
        figures["turns"] == 3 * 8
        and figures["turn_over_dumps"] == 1.0
        and figures["replay_over_parse"] == 1.0
    )
