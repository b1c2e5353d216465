"""The comparison the starter's README quotes (bench/starter_compare.py, `nova compare` of the
starter against the androids in bench/androids) keeps running and says who won, by how much and
in which seat. A game of few rounds: no figures are asserted here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bench.starter_compare", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_comparison_plays_each_seed_in_both_seat_orders_against_each_opponent():
    ran = run("--seeds", "3", "--rounds", "15", "--jobs", "1", "--json")
    assert ran.returncode == 0, ran.stderr
    reports = json.loads(ran.stdout)
    assert set(reports) == {"starter-v1", "raider"}
    for opponent, summary in reports.items():
        assert summary["games"] == 2
        assert [s["name"] for s in summary["scripts"]] == ["starter", opponent]
        assert sorted(tuple(r["seats"]) for r in summary["results"]) == sorted(
            [("starter", opponent), (opponent, "starter")]
        )
        for script in summary["scripts"]:
            assert script["wins"] + summary["draws"] <= 2 and "meanScore" in script


def test_a_bad_option_is_nova_compares_one_sentence():
    ran = run("--against", "raider", "--seeds", "nine")
    assert ran.returncode != 0
    assert "seed" in ran.stderr and "Traceback" not in ran.stderr


def test_two_scripts_by_name_or_path_are_compared_as_the_starters_readme_shows():
    raider = str(REPO / "bench" / "androids" / "raider" / "main.ts")
    ran = run(raider, "starter", "--seeds", "3", "--rounds", "10", "-j", "1", "--json")
    assert ran.returncode == 0, ran.stderr
    (summary,) = json.loads(ran.stdout).values()
    assert [s["name"] for s in summary["scripts"]] == ["raider", "starter"] and summary[
        "games"
    ] == 2
    wrong = run("starter", "raider", "starter-v1")
    assert wrong.returncode == 2 and "give two scripts" in wrong.stderr
