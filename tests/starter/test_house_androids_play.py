"""The house androids (nova_tools/starter/house.py) as a player meets them: each type-checks and
bundles, plays a whole game against the starter through the engine and the real sandbox with no
turn refused and within the default turn budgets, and raids when its README says it does: not
before the last RAID_ROUNDS rounds, unless raided first."""

from __future__ import annotations

import re
from functools import cache

import pytest

from nova_tools import engine
from nova_tools.play import ScriptRunner
from nova_tools.rules import resolve
from nova_tools.starter.house import ROSTER, house
from nova_tools.toolchain import compile_android

RAIDERS = [a for a in ROSTER if a.name != "starter"]


@cache
def bundle(ref: str) -> str:
    return compile_android(house(ref).entry_path).bundle


def raid_rounds(ref: str) -> int:
    source = house(ref).files()["raid.ts"]
    found = re.search(r"const RAID_ROUNDS: number = (\d+);", source)
    assert found, "raid.ts names its RAID_ROUNDS"
    return int(found.group(1))


@cache
def game(ref: str, seed: int = 3, rounds: int = 100):
    rules = resolve({"match": {"finalRound": rounds}, "world": {"symmetry": "rotational"}})
    state = engine.generate(rules, seed)
    scripts = {}
    for player, name in (("house", ref), ("ann", "house:starter")):
        engine.join(state, player)
        script = engine.add_script(state, player, name)["script"]
        scripts[script] = bundle(name)
        engine.launch(state, player, script)
    runner = ScriptRunner(rules, scripts)
    turns = []
    for _ in range(rounds):
        turns += [e for e in engine.play_round(state, runner.decide) if e["type"] == "turn"]
    return state, turns


def test_the_roster_is_the_starter_then_three_of_rising_strength_with_the_champion_last():
    names = [a.ref for a in ROSTER]
    assert names[0] == "house:starter" and names[-1] == "house:champion" and len(names) >= 4
    assert all(a.idea and a.entry_path.is_file() for a in ROSTER)


@pytest.mark.parametrize("android", RAIDERS, ids=lambda a: a.name)
def test_it_plays_a_whole_game_within_the_budgets_and_raids_only_at_the_end(android):
    state, turns = game(android.ref)
    mine = [t for t in turns if state.androids[t["android"]].owner == "house"]
    assert mine and all(t["outcome"] == "accepted" for t in mine), {t["outcome"] for t in mine}
    fuel = state.rules.script.fuel
    assert max(t["ticks"] for t in mine) < fuel / 10  # far from the budget (rules.script.fuel)
    salvaged = [t["round"] for t in mine if t["action"]["type"] == "android.salvage"]
    ann_salvaged = [
        t
        for t in turns
        if state.androids[t["android"]].owner == "ann" and t["action"]["type"] == "android.salvage"
    ]
    assert not ann_salvaged or min(salvaged) <= min(t["round"] for t in ann_salvaged)
    assert salvaged, "no raid"
    assert min(salvaged) > 100 - raid_rounds(android.ref) - 1
