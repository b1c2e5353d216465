"""The comparison the starter's README quotes (bench/starter_compare.py) keeps running, and says
who won, by how much and in which seat. A game of few rounds: no figures are asserted here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_comparison_plays_each_seed_in_both_seat_orders():
    ran = subprocess.run(
        [sys.executable, "-m", "bench.starter_compare", "starter", "raider", "--seeds", "3", "--rounds", "15", "--jobs", "1", "--json"],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )
    assert ran.returncode == 0, ran.stderr
    summary = json.loads(ran.stdout)
    assert summary["games"] == 2
    assert [s["name"] for s in summary["scripts"]] == ["starter", "raider"]
    assert [r["seats"] for r in summary["results"]] == [["starter", "raider"], ["raider", "starter"]]
    for script in summary["scripts"]:
        assert script["failedTurns"] == 0 and script["wins"] + summary["draws"] <= 2
        assert {"meanScore", "meanScoreSeat1", "meanScoreSeat2", "winsSeat1", "winsSeat2", "maxTicks"} <= set(script)


def test_an_unknown_android_is_one_sentence():
    ran = subprocess.run(
        [sys.executable, "-m", "bench.starter_compare", "starter", "nobody-here", "--seeds", "1", "--rounds", "1"],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )
    assert ran.returncode != 0
    assert "no android named 'nobody-here'" in ran.stderr and "Traceback" not in ran.stderr
