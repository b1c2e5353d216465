"""The house androids (nova_tools/starter/house.py) as a player meets them: each type-checks and
bundles, plays a whole game against the starter through the engine and the real sandbox with no
turn refused and within the default turn budgets, and raids when its README says it does: not
before the last RAID_ROUNDS rounds, unless raided first; and the champion's decoys work."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from nova_tools import engine
from nova_tools.play import ScriptRunner
from nova_tools.rules import resolve
from nova_tools.starter.house import ROSTER, house
from nova_tools.toolchain import compile_android

RAIDERS = [a for a in ROSTER if a.name != "starter"]
REPO = Path(__file__).resolve().parents[2]


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
        script = engine.add_script(state, player, name).script
        scripts[script] = bundle(name)
        engine.launch(state, player, script)
    runner = ScriptRunner(rules, scripts)
    turns = []
    for _ in range(rounds):
        turns += [
            j
            for j in (e.to_json() for e in engine.play_round(state, runner.decide))
            if j["type"] == "turn"
        ]
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


def test_the_champion_leaves_decoys_a_raider_salvages_and_banks_early_once_it_does():
    """Against the newcomer's raider (bench/androids/raider), which salvages from the start: the
    champion's decoys are unpaid charger sites off its base, the raider spends turns on them, the
    champion never pays into or repairs one, and once one falls its depot comes before
    the starter's order would have it (after three extractors)."""
    raider = compile_android(REPO / "bench" / "androids" / "raider" / "main.ts")
    rules = resolve({"match": {"finalRound": 100}, "world": {"symmetry": "rotational"}})
    state = engine.generate(rules, 9)
    scripts = {}
    for player, bundled in (("house", bundle("house:champion")), ("raider", raider.bundle)):
        engine.join(state, player)
        script = engine.add_script(state, player, player).script
        scripts[script] = bundled
        engine.launch(state, player, script)
    runner = ScriptRunner(rules, scripts)
    turns = []
    for _ in range(100):
        turns += [
            j
            for j in (e.to_json() for e in engine.play_round(state, runner.decide))
            if j["type"] == "turn"
        ]
    owner = {a.id: a.owner for a in state.androids.values()}
    mine = [t for t in turns if owner[t["android"]] == "house"]
    assert all(t["outcome"] == "accepted" for t in mine)
    starts = [t for t in mine if t["action"]["type"] == "android.start-construction"]
    decoys = [t for t in starts if t["action"]["buildingType"] == "charger"]
    assert len(decoys) >= 3 and all(not t["action"].get("resources") for t in decoys)
    decoy_tiles = {(t["result"]["building"]) for t in decoys}
    hit = [
        t
        for t in turns
        if owner[t["android"]] == "raider"
        and t["action"]["type"] == "android.salvage"
        and t["outcome"] == "accepted"
        and t["result"]["building"] in decoy_tiles
    ]
    assert hit, "the raider never salvaged a decoy"
    for t in mine:  # a decoy is never paid into, built or repaired
        kind = t["action"]["type"]
        assert kind not in ("android.continue-construction", "android.repair") or (
            t["result"]["building"] not in decoy_tiles
        )
    order = [
        t["action"]["buildingType"] for t in starts if t["action"]["buildingType"] != "charger"
    ]
    assert "depot" in order and order.index("depot") < 3, order  # the starter has it 4th
