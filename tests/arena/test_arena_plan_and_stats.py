"""The arena's pure parts: seed lists, game plans, the rules an arena plays, and the statistics."""

from __future__ import annotations

import math

import pytest

from nova_tools.arena import (
    ArenaError,
    arena_rules,
    compare_plan,
    interval,
    parse_seeds,
    round_robin_plan,
    t_quantile,
)
from nova_tools.rules import RulesError

# Student's t 0.975 quantiles, from printed tables (3 decimals)
T_TABLE = {
    1: 12.706,
    2: 4.303,
    3: 3.182,
    4: 2.776,
    5: 2.571,
    7: 2.365,
    9: 2.262,
    10: 2.228,
    15: 2.131,
    19: 2.093,
    29: 2.045,
    30: 2.042,
    40: 2.021,
    60: 2.000,
    120: 1.980,
}


@pytest.mark.parametrize("df, expected", sorted(T_TABLE.items()))
def test_t_quantile_matches_the_printed_table(df: int, expected: float) -> None:
    assert round(t_quantile(0.975, df), 3) == expected


def test_t_quantile_tends_to_the_normal_one() -> None:
    assert abs(t_quantile(0.975, 100_000) - 1.959964) < 1e-4
    assert round(t_quantile(0.95, 10), 3) == 1.812


def test_interval_of_paired_differences() -> None:
    ci = interval([3.0, 5.0, 4.0, 6.0])
    assert ci.mean == 4.5 and ci.n == 4
    half = 3.182446 * math.sqrt(statistics_var([3.0, 5.0, 4.0, 6.0])) / 2
    assert ci.low == pytest.approx(4.5 - half) and ci.high == pytest.approx(4.5 + half)
    assert ci.excludes_zero
    assert not interval([-1.0, 2.0, 0.5]).excludes_zero
    assert interval([7.0]) is None  # one seed: no interval
    same = interval([0.0, 0.0, 0.0])
    assert (same.low, same.high) == (0.0, 0.0) and not same.excludes_zero


def statistics_var(values: list[float]) -> float:
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) / (len(values) - 1)


@pytest.mark.parametrize(
    "text, seeds",
    [
        ("1-4", (1, 2, 3, 4)),
        ("7", (7,)),
        ("1-3, 9,12-13", (1, 2, 3, 9, 12, 13)),
        ("3,1-3", (3, 1, 2)),
        ("0", (0,)),
    ],
)
def test_seed_lists(text: str, seeds: tuple[int, ...]) -> None:
    assert parse_seeds(text) == seeds


@pytest.mark.parametrize(
    "text, message",
    [
        ("5-1", "must run upwards"),
        ("one", "is not a list of seeds"),
        ("1-", "is not a list of seeds"),
        ("-3", "is not a list of seeds"),
        ("1-200000", "more than 100000 seeds"),
    ],
)
def test_bad_seed_lists_are_one_sentence(text: str, message: str) -> None:
    with pytest.raises(ArenaError, match=message):
        parse_seeds(text)


def test_a_comparison_plays_every_seed_once_per_seat_order() -> None:
    plan = compare_plan((4, 9), rounds=30)
    assert [(t.index, t.seed, t.seats, t.rounds) for t in plan] == [
        (0, 4, (0, 1), 30),
        (1, 4, (1, 0), 30),
        (2, 9, (0, 1), 30),
        (3, 9, (1, 0), 30),
    ]


def test_a_round_robin_plays_every_pair_in_both_orders_on_every_seed() -> None:
    plan = round_robin_plan(4, (1, 2, 3), rounds=10)
    assert len(plan) == 6 * 3 * 2
    played = {(t.seed, t.seats) for t in plan}
    assert len(played) == len(plan)
    for a in range(4):
        for b in range(4):
            if a != b:
                assert all((seed, (a, b)) in played for seed in (1, 2, 3))
    with pytest.raises(ArenaError, match="at least two scripts"):
        round_robin_plan(1, (1,), rounds=10)


def test_arenas_play_rotational_maps_with_a_final_round_unless_the_rules_say_otherwise(
    tmp_path,
) -> None:
    rules, rounds = arena_rules(None, None)
    assert (rules.world.symmetry, rules.match.final_round, rounds) == ("rotational", 100, 100)
    rules, rounds = arena_rules(None, 30)
    assert (rules.match.final_round, rounds) == (30, 30)
    given = tmp_path / "rules.json"
    given.write_text(
        '{ // a random map, an early arrival\n "world": { "symmetry": "none", "width": 9 }, "match": { "finalRound": 25 } }'
    )
    rules, rounds = arena_rules(given, None)
    assert (rules.world.symmetry, rules.world.width, rules.match.final_round, rounds) == (
        "none",
        9,
        25,
        25,
    )
    rules, rounds = arena_rules(given, 60)
    assert (rules.match.final_round, rounds) == (25, 60)  # the rules' arrival date stands
    rules, _ = arena_rules({"world": {"height": 10}}, 5)
    assert (rules.world.symmetry, rules.world.height) == ("rotational", 10)


def test_bad_rules_for_an_arena_name_the_file_and_path(tmp_path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{ "world": { "symmetry": "mirror" } }')
    with pytest.raises(RulesError) as caught:
        arena_rules(broken, 10)
    assert "broken.json" in str(caught.value) and "world.symmetry" in str(caught.value)
    with pytest.raises(
        RulesError, match="missing.json: no such file"
    ):  # as `nova create-game --rules` says it
        arena_rules(tmp_path / "missing.json", 10)
    with pytest.raises(ArenaError, match="rounds must be from 1 to 100000"):
        arena_rules(None, 0)
