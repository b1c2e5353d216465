"""A construction site is not a building: every rule that counts buildings counts completed ones
only. For each such rule, the same world twice, once with a completed building and once with a
site of it on the same tile (materials paid in full, ticks to go), and the rule tells them apart:
scoring, sight, the chargers' android capacity, launching, charging, deposits, withdrawals, the
round end's extraction and conversions, acid cleaning."""

from __future__ import annotations

import pytest
from engine_worlds import CENTRE, P1, P2, scenario, turn

from nova_tools import engine
from nova_tools.engine.players import capacity
from nova_tools.engine.visibility import recompute
from nova_tools.rules import BUILDING_TYPES, Rules

SCORING = Rules().scoring.model_dump(by_alias=True)["buildings"]
HERE = (4, 4)  # away from both initial chargers and their sight


def world(building_type: str, complete: bool, *, storage: dict | None = None, **tile):
    s = scenario()
    if tile:
        s.tile(*HERE, **tile)
    kind = Rules().building(building_type)
    s.building(
        building_type,
        P1,
        HERE,
        complete=complete,
        storage=storage,
        invested=dict(kind.cost),
        remaining_ticks=None if complete else max(1, kind.ticks),
    )
    return s


def building_points(state, player: str = P1) -> float:
    score = engine.score(state, player)
    return sum(c.points for c in score.breakdown if c.source.startswith("buildings."))


@pytest.mark.parametrize("building_type", [t for t in BUILDING_TYPES if SCORING.get(t)])
def test_a_site_scores_nothing_and_its_building_scores_its_points(building_type: str) -> None:
    site = world(building_type, False).build()
    built = world(building_type, True).build()
    base = building_points(scenario().build())  # the initial charger
    assert building_points(site) == base
    assert building_points(built) == pytest.approx(base + SCORING[building_type])


def test_stored_material_in_a_site_does_not_score() -> None:
    site = world("depot", False, storage={"polymer": 3}).build()
    built = world("depot", True, storage={"polymer": 3}).build()
    assert engine.score(site, P1).points < engine.score(built, P1).points


@pytest.mark.parametrize("building_type", ["scanner", "radar"])
def test_a_sight_building_sees_only_once_complete(building_type: str) -> None:
    far = (
        HERE[0] + 2,
        HERE[1],
    )  # outside an android's sight from the charger, inside the building's
    seen = {}
    for complete in (False, True):
        state = world(building_type, complete).build()
        recompute(state)
        seen[complete] = far in {
            (i % state.width, i // state.width) for i in state.visible[P1]
        } or (far in state.visible[P1])
    assert seen == {False: False, True: True}


def test_a_charger_site_adds_no_android_capacity_and_cannot_launch_or_charge() -> None:
    site_world = world("charger", False)
    walker = site_world.android(P1, HERE, battery=10)
    site = site_world.build()
    built_world = world("charger", True)
    walker_b = built_world.android(P1, HERE, battery=10)
    built = built_world.build()
    assert capacity(built, P1) == capacity(site, P1) + Rules().building("charger").android_capacity
    assert turn(site, walker, {"type": "android.charge"}).outcome == "refused"
    assert turn(built, walker_b, {"type": "android.charge"}).outcome == "accepted"
    script = next(s.id for s in site.scripts.values() if s.owner == P1)
    charger_site = site.building_on(*HERE).id
    with pytest.raises(engine.Refusal):
        engine.launch(site, P1, script, charger=charger_site)


@pytest.mark.parametrize("building_type", ["depot", "processor", "acidProcessingPlant"])
def test_a_deposit_goes_only_into_a_completed_building(building_type: str) -> None:
    outcomes = {}
    for complete in (False, True):
        s = world(building_type, complete)
        carrier = s.android(P1, HERE, cargo={"metal": 2})
        state = s.build()
        outcomes[complete] = turn(state, carrier, {"type": "android.deposit"})
    assert outcomes[False].outcome == "refused" and outcomes[False].code == "not-complete"
    assert outcomes[True].outcome == "accepted", outcomes[True]


@pytest.mark.parametrize(
    "building_type", ["depot", "extractor", "processor", "acidProcessingPlant"]
)
def test_a_withdrawal_comes_only_from_a_completed_building(building_type: str) -> None:
    outcomes = {}
    for complete in (False, True):
        s = world(building_type, complete, storage={"metal": 2})
        taker = s.android(P1, HERE)
        state = s.build()
        outcomes[complete] = turn(
            state, taker, {"type": "android.withdraw", "resources": {"metal": 1}}
        )
    assert outcomes[False].outcome == "refused", outcomes[False]
    assert outcomes[True].outcome == "accepted", outcomes[True]


@pytest.mark.parametrize(
    "building_type,storage,tile",
    [
        ("extractor", None, {"ore": 5, "water": 5}),
        ("processor", {"ore": 4, "metal": 2, "water": 2}, {}),
        ("acidProcessingPlant", {"acidCanister": 2, "water": 2}, {}),
    ],
)
def test_the_round_end_makes_nothing_in_a_site(building_type, storage, tile) -> None:
    after = {}
    for complete in (False, True):
        state = world(building_type, complete, storage=storage, **tile).build()
        engine.end_round(state)
        after[complete] = dict(state.building_on(*HERE).storage)
    assert after[False] == dict(storage or {})
    assert after[True] != dict(storage or {})


def test_acid_is_cleaned_only_with_a_completed_plant() -> None:
    outcomes = {}
    for complete in (False, True):
        s = world("acidProcessingPlant", complete)
        s.tile(CENTRE[0] + 1, CENTRE[1], acid=3)
        cleaner = s.android(P1, CENTRE)
        state = s.build()
        outcomes[complete] = turn(
            state, cleaner, {"type": "android.clean-acid", "direction": "east"}
        )
    assert outcomes[False].outcome == "refused", outcomes[False]
    assert outcomes[True].outcome == "accepted", outcomes[True]


def test_the_other_player_is_never_counted() -> None:
    state = world("depot", True).build()
    assert building_points(state, P2) == building_points(scenario().build(), P2)
