"""The user-facing benchmark keeps running (one repeat of a short game; nothing here is timed:
DESIGN section 7 measures speed in `make bench`, never in a timed unit test)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench import user_bench


def test_the_user_benchmark_loads_a_recorded_game_and_times_the_commands():
    load, commands, phases = user_bench.measure(repeats=1, rounds=4, run_rounds=1)

    assert load["rounds"] == 4 and load["events"] > 4 * 4  # round ends and four androids' turns
    assert load["load_s"] > 0 and load["engine_replay_s"] > 0 and load["parse_s"] > 0
    assert list(commands)[0] == "python -c pass" and len(commands) == 6
    assert all(figures["wall_s"] > 0 and figures["cpu_s"] > 0 for figures in commands.values())
    assert (
        list(phases)[0] == "interpreter start"
        and list(phases)[-1] == "standings"
        and len(phases) == 7
    )
    assert all(cpu >= 0 for cpu in phases.values()) and phases["read, parse and replay"] > 0
    text = user_bench.report(load, commands, 1, phases)
    for label in (
        "store.load",
        "engine replay alone",
        "json.loads",
        "nova upload",
        "nova run --rounds 1",
        "x python -c pass",
        "nova status, 4 rounds, after nova run",
        "nova status, 4 rounds, first read",
        "first read of nova status, CPU by phase",
        "pydantic import",
    ):
        assert label in text
