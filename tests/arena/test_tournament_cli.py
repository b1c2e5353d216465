"""`nova tournament`: a round robin of real scripts, ranked by OpenSkill ratings."""

from __future__ import annotations

import itertools
import json

from arena_scripts import HOARDER, STARTER, THROWER, without_timing
from nova_testing import nova


def test_three_scripts_play_every_pair_in_both_orders_on_every_seed_and_are_ranked() -> None:
    run = nova(
        "tournament",
        STARTER,
        HOARDER,
        THROWER,
        "--seeds",
        "1-2",
        "--rounds",
        20,
        "--jobs",
        2,
        "--json",
    )
    assert run.code == 0, run.err
    report = json.loads(run.out)
    assert report["games"] == 3 * 2 * 2 and report["complete"]
    played = [(r["seed"], tuple(r["seats"])) for r in report["results"]]
    for a, b in itertools.permutations(["starter", "hoarder", "thrower"], 2):
        for seed in (1, 2):
            assert played.count((seed, (a, b))) == 1
    ranking = report["ranking"]
    assert [r["name"] for r in ranking][-1] == "thrower"  # it fails every turn
    ratings = [r["rating"] for r in ranking]
    assert ratings == sorted(ratings, reverse=True) and len(set(ratings)) == 3
    for row in ranking:
        assert row["games"] == 8 and row["wins"] + row["draws"] + row["losses"] == 8
        assert (
            row["rating"] == round(row["mu"] - 3 * row["sigma"], 4)
            or abs(row["rating"] - (row["mu"] - 3 * row["sigma"])) < 1e-3
        )
    thrower = ranking[-1]
    assert thrower["wins"] == 0 and thrower["failedTurnsByReason"] == {"script-error": 80}
    assert sum(r["wins"] for r in ranking) + report["draws"] == report["games"]
    pairs = {tuple(p["scripts"]): p for p in report["pairs"]}
    assert set(pairs) == {("starter", "hoarder"), ("starter", "thrower"), ("hoarder", "thrower")}
    assert pairs[("hoarder", "thrower")]["wins"] == [4, 0]


def test_the_ranking_is_the_same_with_one_worker_or_two() -> None:
    args = ("tournament", HOARDER, THROWER, STARTER, "--seeds", "5", "--rounds", 12, "--json")
    one, two = nova(*args, "--jobs", 1), nova(*args, "--jobs", 2)
    assert one.code == two.code == 0, one.err + two.err
    assert without_timing(json.loads(one.out)) == without_timing(json.loads(two.out))


def test_the_text_report_ranks_with_ratings() -> None:
    run = nova("tournament", HOARDER, THROWER, "--seeds", "1", "--rounds", 10, "--jobs", 1)
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert (
        lines[0]
        == "Round robin of 2 scripts: 2 games (1 pair x 1 seed x 2 seat orders, 10 rounds, rotational 12x12 maps)"
    )
    assert lines[1].split() == [
        "#",
        "script",
        "rating",
        "wins",
        "draws",
        "losses",
        "mean",
        "score",
        "failed",
        "turns",
    ]
    assert lines[3].split()[:2] == ["1", "hoarder"] and lines[4].split()[:2] == ["2", "thrower"]
    assert "  hoarder 2 - 0 thrower  (0 draws)" in lines
    run = nova("tournament", HOARDER)
    assert run.code == 2 and "at least two scripts" in run.err
