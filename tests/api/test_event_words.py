"""The words for what happened, written once (nova_tools.api.wording) and read by every front end:
each sentence is checked against an event the engine really produced in an exact world."""

from __future__ import annotations

import sys
from pathlib import Path

from nova_tools import engine
from nova_tools.api import describe_event, wording
from nova_tools.engine import Decision, Scenario, apply_turn, end_round
from nova_tools.rules import MATERIALS, Rules

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from engine_worlds import CENTRE, P1, P2, scenario


def said(state, android: str, action: dict) -> str:
    return describe_event(apply_turn(state, android, Decision(value=action)))


def test_the_words_list_materials_in_the_games_order():
    assert wording.MATERIAL_ORDER == MATERIALS


def test_each_action_says_what_it_did_with_its_amounts():
    s = scenario()
    s.tile(*CENTRE, scattered={"metal": 7, "electronics": 1})
    depot = s.building("depot", P1, (3, 4))
    bot = s.android(P1, at=CENTRE, cargo={"metal": 4})
    state = s.build()
    state.round = 5

    assert (
        said(state, bot, {"type": "android.collect", "resources": {"metal": 7}})
        == "r5 android-1 collected 7 metal"
    )
    assert (
        said(state, bot, {"type": "android.move", "direction": "south"})
        == "r5 android-1 moved south to (3,4)"
    )
    assert (
        said(state, bot, {"type": "android.deposit"})
        == f"r5 android-1 deposited 11 metal into the depot {depot}"
    )
    assert (
        said(state, bot, {"type": "android.withdraw", "resources": {"metal": 6}})
        == f"r5 android-1 withdrew 6 metal from the depot {depot}"
    )
    assert (
        said(state, bot, {"type": "android.move", "direction": "east"})
        == "r5 android-1 moved east to (4,4)"
    )
    assert (
        said(
            state,
            bot,
            {
                "type": "android.start-construction",
                "buildingType": "extractor",
                "resources": {"metal": 5},
            },
        )
        == "r5 android-1 started an extractor site building-4, paying 5 metal (owes 3 metal and 1 electronics, 3 ticks of work left)"
    )
    assert (
        said(state, bot, {"type": "android.continue-construction", "resources": {"metal": 1}})
        == "r5 android-1 worked on the extractor site building-4: paid 1 metal (owes 2 metal and 1 electronics, 3 ticks of work left)"
    )
    assert (
        said(state, bot, {"type": "android.broadcast", "content": "ore at 4,4"})
        == "r5 android-1 broadcast 'ore at 4,4'"
    )
    assert said(state, bot, {"type": "android.dismantle"}) == "r5 android-1 dismantled itself"


def test_salvage_and_repair_say_the_damage_the_health_and_what_was_left_on_the_tile():
    s = scenario()
    charger = s.building("charger", P2, CENTRE, health=40, storage={})
    raider = s.android(P1, at=CENTRE)
    keeper = s.android(P2, at=CENTRE, cargo={"metal": 1})
    state = s.build()
    state.round = 9

    assert (
        said(state, raider, {"type": "android.salvage"})
        == f"r9 {raider} salvaged p2's charger {charger}: 15 damage, health 25 left"
    )
    assert (
        said(state, keeper, {"type": "android.repair"})
        == f"r9 {keeper} repaired the charger {charger} by 10 to health 35 for 1 metal"
    )
    said(state, raider, {"type": "android.salvage"})
    said(state, raider, {"type": "android.salvage"})
    # 35% of the 10 metal invested, rounded down
    assert (
        said(state, raider, {"type": "android.salvage"})
        == f"r9 {raider} salvaged p2's charger {charger}: 15 damage, destroyed it; 3 metal returned on (3,3)"
    )


def test_a_failed_turn_says_failed_its_code_and_why():
    s = scenario()
    bot = s.android(P1, at=(0, 3))
    state = s.build()
    state.round = 2

    assert (
        said(state, bot, {"type": "android.move", "direction": "west"})
        == "r2 android-1 FAILED android.move [off-map] moving west from (0, 3) leaves the 7x7 map"
    )


def test_a_round_end_names_production_hazards_and_why_each_android_fell():
    s = Scenario(Rules(), width=6, height=6)
    s.player(P1, charger_at=(0, 0))
    s.tile(1, 1, ore=1, water=2)
    s.building("extractor", P1, (1, 1))
    s.tile(3, 3, acid=4)
    s.android(P1, at=(3, 3), health=5)
    s.android(P1, at=(0, 0), battery=0)
    state = s.build()
    state.round = 30

    assert describe_event(end_round(state)) == (
        "r30 round ended: p1's extractor building-2 extracted 1 ore and 2 water; android-1 took 6 acid damage; "
        "android-1 destroyed (health ran out); android-2 destroyed (battery ran out)"
    )


def test_events_written_before_the_details_still_read_as_sentences():
    older = [
        {
            "type": "turn",
            "round": 3,
            "android": "android-2",
            "ticks": 0,
            "outcome": "accepted",
            "action": {"type": "android.salvage"},
            "result": {"building": "building-7", "damage": 15, "health": 85},
        },
        {
            "type": "turn",
            "round": 3,
            "android": "android-2",
            "ticks": 0,
            "outcome": "accepted",
            "action": {"type": "android.repair"},
            "result": {"building": "building-7", "health": 95},
        },
        {"type": "round.ended", "round": 3, "destroyed": ["android-4"]},
    ]

    # as an older game file holds them, read the way every file is
    assert [describe_event(e) for e in engine.log_from_json(older)] == [
        "r3 android-2 salvaged building-7: 15 damage, health 85 left",
        "r3 android-2 repaired building-7 to health 95",
        "r3 round ended: android-4 destroyed",
    ]
