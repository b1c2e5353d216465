"""Comparisons where the *second* script is the better one: every number of the report (wins,
losses, mean scores, the paired difference and its sign, the verdict, the seeds that differ most,
each game's scores by seat) must follow the scripts, not their place on the command line."""

from __future__ import annotations

import json

import pytest
from arena_scripts import STARTER, STARTER_V1, THROWER
from nova_testing import nova

from nova_tools import arena

SEEDS = "1-4"
ROUNDS = 30


@pytest.fixture(scope="module")
def thrower_first() -> arena.Comparison:
    """A script that throws every turn (A) against the starter (B), in this process."""
    entrants = arena.entrants_from_files([THROWER, STARTER])
    rules, rounds = arena.arena_rules(None, ROUNDS)
    return arena.compare(entrants, rules, arena.parse_seeds(SEEDS), rounds, arena.InProcess())


def test_the_second_script_wins_every_game_and_the_report_says_so(thrower_first) -> None:
    report = thrower_first.to_json()
    a, b = report["scripts"]
    assert (a["name"], b["name"]) == ("thrower", "starter")
    assert report["games"] == 8 and report["draws"] == 0
    assert (a["wins"], a["losses"], b["wins"], b["losses"]) == (0, 8, 8, 0)
    assert b["meanScore"] > a["meanScore"]
    assert a["failedTurns"] > 0 and b["failedTurns"] == 0
    difference = report["difference"]
    assert difference["of"] == "thrower - starter"
    assert difference["low"] < difference["mean"] < difference["high"] < 0
    assert difference["mean"] == pytest.approx(a["meanScore"] - b["meanScore"], abs=1e-3)
    assert report["verdict"] == "starter scores more than thrower"
    assert all(s["difference"] < 0 for s in report["mostDifferent"])


def test_each_game_gives_the_winner_by_seat_whichever_seat_the_better_script_took(
    thrower_first,
) -> None:
    results = thrower_first.to_json()["results"]
    for result in results:
        starter_seat = result["seats"].index("starter")
        assert result["scores"][starter_seat] > result["scores"][1 - starter_seat], result
    assert {tuple(r["seats"]) for r in results} == {("thrower", "starter"), ("starter", "thrower")}
    # a seat's mean is over the games that script sat there
    a, b = thrower_first.to_json()["scripts"]
    assert min(b["seatMeanScores"]) > max(a["seatMeanScores"])


def test_the_command_line_names_the_second_script_as_the_better_one() -> None:
    run = nova("compare", STARTER_V1, STARTER, "--seeds", "1-8", "--rounds", 40, "--json")
    assert run.code == 0, run.err
    report = json.loads(run.out)
    old, starter = report["scripts"]
    assert (old["name"], starter["name"]) == ("starter-v1", "starter")
    assert starter["wins"] > old["wins"] and starter["meanScore"] > old["meanScore"]
    assert report["difference"]["high"] < 0 and report["difference"]["excludesZero"]
    assert report["verdict"] == "starter scores more than starter-v1"
