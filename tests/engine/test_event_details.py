"""Events say what happened: what a turn collected, deposited, paid, damaged and repaired, what a
round end produced and hurt, and why an android fell. Exact worlds, one turn each; the replay
checks the details, and a log written before they existed still replays."""

from __future__ import annotations

import copy

import pytest
from engine_worlds import CENTRE, P1, P2, as_json, scenario, turn, typed

from nova_tools.engine import (
    Decision,
    Hazard,
    Production,
    ReplayError,
    RoundEnded,
    Turn,
    end_round,
    from_json,
    play_round,
    replay,
    to_json,
)
from nova_tools.engine.replay import LATER_RESULT_FIELDS, LATER_ROUND_END_FIELDS


def accepted(event: Turn) -> dict:
    assert not event.failed, event
    return event.result or {}


def test_collect_and_deposit_and_withdraw_name_the_amounts_and_the_building():
    s = scenario()
    s.tile(*CENTRE, scattered={"metal": 5, "electronics": 1})
    depot = s.building("depot", P1, (3, 4), storage={"ore": 4})
    bot = s.android(P1, at=CENTRE)
    state = s.build()

    assert accepted(turn(state, bot, {"type": "android.collect"})) == {
        "collected": {"metal": 5, "electronics": 1}
    }
    turn(state, bot, {"type": "android.move", "direction": "south"})
    deposited = accepted(turn(state, bot, {"type": "android.deposit", "resources": {"metal": 3}}))
    withdrawn = accepted(turn(state, bot, {"type": "android.withdraw", "resources": {"ore": 2}}))

    assert deposited == {"deposited": {"metal": 3}, "building": depot, "buildingType": "depot"}
    assert withdrawn == {"withdrawn": {"ore": 2}, "building": depot, "buildingType": "depot"}


def test_construction_says_what_was_paid_what_is_still_owed_and_the_work_left():
    s = scenario()
    bot = s.android(P1, at=CENTRE, cargo={"metal": 6})
    state = s.build()

    started = accepted(
        turn(
            state,
            bot,
            {
                "type": "android.start-construction",
                "buildingType": "depot",
                "resources": {"metal": 4},
            },
        )
    )
    site = started["building"]
    assert started == {
        "building": site,
        "paid": {"metal": 4},
        "completed": False,
        "owed": {"metal": 2},
        "remainingTicks": 2,
    }

    paid = accepted(
        turn(state, bot, {"type": "android.continue-construction", "resources": {"metal": 2}})
    )
    assert paid == {
        "building": site,
        "buildingType": "depot",
        "paid": {"metal": 2},
        "ticked": True,
        "completed": False,
        "owed": {},
        "remainingTicks": 1,
    }
    done = accepted(turn(state, bot, {"type": "android.continue-construction"}))
    assert done == {
        "building": site,
        "buildingType": "depot",
        "paid": {},
        "ticked": True,
        "completed": True,
    }


def test_salvage_says_the_damage_dealt_and_the_health_left_then_what_was_returned_where():
    s = scenario()
    extractor = s.building("extractor", P2, CENTRE, storage={"ore": 5}, health=20)
    raider = s.android(P1, at=CENTRE)
    state = s.build()

    first = accepted(turn(state, raider, {"type": "android.salvage"}))
    assert first == {
        "building": extractor,
        "buildingType": "extractor",
        "owner": P2,
        "damage": 15,
        "health": 5,
    }

    second = accepted(turn(state, raider, {"type": "android.salvage"}))
    # 35% of the 8 metal and 1 electronics invested, rounded down; the stored ore spills whole
    assert second == {
        "building": extractor,
        "buildingType": "extractor",
        "owner": P2,
        "damage": 15,
        "health": 0,
        "destroyed": True,
        "returned": {"metal": 2},
        "spilled": {"ore": 5},
        "tile": {"x": CENTRE[0], "y": CENTRE[1]},
    }
    assert state.tile(*CENTRE).scattered == {"metal": 2, "ore": 5}


def test_repair_says_how_much_health_it_restored_and_what_it_cost():
    s = scenario()
    depot = s.building("depot", P1, CENTRE, health=95)
    bot = s.android(P1, at=CENTRE, cargo={"metal": 2})
    state = s.build()

    repaired = accepted(turn(state, bot, {"type": "android.repair"}))

    # 10 a repair, but health never exceeds the building's own 100
    assert repaired == {
        "building": depot,
        "buildingType": "depot",
        "repaired": 5,
        "health": 100,
        "paid": {"metal": 1},
    }


def test_clean_acid_says_how_much_acid_is_left_on_the_tile():
    s = scenario()
    plant = s.building("acidProcessingPlant", P1, (2, 3))
    s.tile(4, 3, acid=3)
    bot = s.android(P1, at=CENTRE)
    state = s.build()

    cleaned = accepted(turn(state, bot, {"type": "android.clean-acid", "direction": "east"}))

    assert cleaned == {"tile": {"x": 4, "y": 3}, "cleaned": 1, "acidLeft": 2, "building": plant}


def test_a_round_end_says_what_buildings_produced_what_hazards_cost_and_why_androids_fell():
    s = scenario()
    s.tile(1, 1, ore=3, water=2)
    extractor = s.building("extractor", P1, (1, 1))
    processor = s.building("processor", P2, (5, 1), storage={"ore": 4, "water": 1})
    s.tile(2, 5, acid=2, radiation=1)
    burnt = s.android(P1, at=(2, 5), health=3)
    drained = s.android(P2, at=(4, 4), battery=0)
    s.android(P2, at=(4, 5))  # safe ground: nothing to say
    state = s.build()
    state.round = 1

    event = end_round(state)

    assert event.production == (
        Production(extractor, "extractor", P1, extracted={"ore": 3, "water": 2}),
        # 2 ore -> 1 metal, then 1 metal + 1 water -> 1 electronics: one recipe feeds the next
        Production(
            processor,
            "processor",
            P2,
            used={"metal": 1, "ore": 2, "water": 1},
            made={"metal": 1, "electronics": 1},
        ),
    )
    assert event.hazards == (Hazard(burnt, acid=3, radiation=0.75),)
    assert event.destroyed == (burnt, drained)
    assert event.causes == {burnt: "health", drained: "battery"}
    # as the game file holds it
    assert event.to_json()["production"][0] == {
        "building": extractor,
        "buildingType": "extractor",
        "owner": P1,
        "extracted": {"ore": 3, "water": 2},
    }
    assert event.to_json()["hazards"] == [{"android": burnt, "acid": 3, "radiation": 0.75}]


def test_a_quiet_round_end_is_as_short_as_before():
    state = scenario().build()
    state.round = 1
    assert end_round(state) == RoundEnded(1)
    assert end_round(state).to_json() == {"type": "round.ended", "round": 1, "destroyed": []}


def _played(rounds: int = 6):
    """A small game whose log has every detail: a raider salvaging, a builder repairing and an
    extractor producing, played by fixed decisions."""
    s = scenario()
    s.tile(1, 1, ore=2)
    s.building("extractor", P1, (1, 1))
    s.building("depot", P2, CENTRE)
    s.building("charger", P2, (3, 4), health=60)
    s.android(P1, at=(3, 4))  # salvages bob's charger
    s.android(P2, at=(3, 4), cargo={"metal": 10})  # repairs it
    state = s.build()
    initial = copy.deepcopy(to_json(state))
    plan = {"android-1": {"type": "android.salvage"}, "android-2": {"type": "android.repair"}}
    events = []
    for _ in range(rounds):
        events += play_round(state, lambda _s, android: Decision(value=plan[android.id]))
    return state, initial, events


def test_the_replay_checks_the_details():
    state, initial, events = _played()
    kinds = {e.action_type for e in events if isinstance(e, Turn) and not e.failed}
    assert {"android.salvage", "android.repair"} <= kinds
    assert any(isinstance(e, RoundEnded) and e.production for e in events)

    replayed = replay(from_json(initial, state.rules), events)
    assert to_json(replayed) == to_json(state)

    forged = as_json(events)
    salvage = next(e for e in forged if e.get("action", {}).get("type") == "android.salvage")
    salvage["result"]["health"] += 1
    with pytest.raises(ReplayError, match="came out differently"):
        replay(from_json(initial, state.rules), typed(forged))

    forged = as_json(events)
    ended = next(e for e in forged if "production" in e)
    ended["production"][0]["extracted"] = {"ore": 9}
    with pytest.raises(ReplayError, match="round end came out differently"):
        replay(from_json(initial, state.rules), typed(forged))


def test_a_log_written_before_the_details_still_replays():
    state, initial, events = _played()
    older = as_json(events)
    for event in older:
        if event["type"] == "round.ended":
            for key in LATER_ROUND_END_FIELDS:
                event.pop(key, None)
        elif "result" in event:
            for key in LATER_RESULT_FIELDS.get(event["action"]["type"], ()):
                event["result"].pop(key, None)
    assert older != as_json(events)

    replayed = replay(from_json(initial, state.rules), typed(older))

    assert to_json(replayed) == to_json(state)
