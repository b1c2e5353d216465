"""The replay benchmark keeps running (a short game, one repeat; nothing here is timed or bounded
by speed: DESIGN section 7 measures speed in `make bench`)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench import replay_bench, user_bench


def test_the_replay_benchmark_loads_a_game_and_measures_nova_play_in_a_pipe(tmp_path: Path):
    game = user_bench.record_starter_game(tmp_path, 6)
    load = replay_bench.measure_load(game, 1)
    stream = replay_bench.measure_stream(game)

    assert load["events"] > 6 * 2 and load["load_cpu_s"] > 0 and load["parse_cpu_s"] > 0
    assert stream["rounds"] == 6
    assert stream["play_peak_mib"] > 0 and stream["one_frame_peak_mib"] > 0
    text = replay_bench.report(load, stream)
    for label in ("store.load", "json.loads", "nova play of a 6-round game", "--round 0"):
        assert label in text
