"""Properties over random play: random actions of every type with random (often invalid)
arguments, random player uploads and launches, on small two-player worlds.

After every step:

* material is conserved: it is only created by extraction, conversion (and clean-acid, which
  cans acid out of the ground), and only lost by salvage (the share not returned), repair and
  spending on construction — checked against a ledger kept from the events;
* a refused or failed turn changes nothing but the actor's health;
* no launch takes a player past their cap; every android stays on the map;

and at the end, rebuilding the game from its event log gives the same state hash.
"""

from __future__ import annotations

import copy
from collections import Counter
from math import floor

from engine_worlds import without_android_health
from hypothesis import HealthCheck, given, settings
from hypothesis import event as note_statistic
from hypothesis import strategies as st

from nova_tools.engine import (
    Decision,
    GameState,
    Refusal,
    Scenario,
    active_count,
    add_script,
    apply_turn,
    begin_round,
    capacity,
    end_round,
    from_json,
    launch,
    replay,
    state_hash,
    to_json,
    turn_order,
)
from nova_tools.engine.materials import bag
from nova_tools.rules import BUILDING_TYPES, MATERIALS, resolve

CHEAP = {
    "buildings": {
        "charger": {"cost": {"metal": 2}, "ticks": 1},
        "depot": {"cost": {"metal": 1}, "ticks": 1},
        "scanner": {"cost": {"metal": 1, "electronics": 1}, "ticks": 1},
        "extractor": {"cost": {"metal": 2}, "ticks": 1},
    },
    "salvage": {"ownDamage": 50, "hostileDamage": 34},
    "android": {"cargoCapacity": 6, "failedTurnHealthPenalty": 3},
}
RULESETS = {"default": resolve({}), "cheap": resolve(CHEAP)}
W = H = 6
ACTION_TYPES = [
    "android.wait", "android.move", "android.charge", "android.collect", "android.deposit", "android.withdraw",
    "android.start-construction", "android.continue-construction", "android.salvage", "android.repair",
    "android.broadcast", "android.clean-acid", "android.launch", "android.dismantle",
]  # fmt: skip
DIRECTIONS = ["north", "south", "east", "west"]


def small_world(rules_name: str) -> GameState:
    s = Scenario(RULESETS[rules_name], width=W, height=H, seed=3)
    s.player("p1", charger_at=(0, 0))
    s.player("p2", charger_at=(5, 5))
    s.tile(1, 1, ore=4, water=2, acid=1, scattered={"metal": 5, "electronics": 1})
    s.tile(4, 4, ore=2, water=3, acid=2, scattered={"metal": 5, "electronics": 1})
    s.tile(2, 2, acid=3, radiation=1, scattered={"ore": 2, "water": 2, "polymer": 1})
    s.tile(3, 3, acid=3, radiation=1, scattered={"acidCanister": 2, "metal": 3})
    s.tile(0, 5, scattered={"metal": 6})
    s.tile(5, 0, scattered={"metal": 6})
    for owner, ext, plant, proc, home in [
        ("p1", (1, 1), (1, 0), (0, 1), (0, 0)),
        ("p2", (4, 4), (4, 5), (5, 4), (5, 5)),
    ]:
        s.building("extractor", owner, ext, storage={"ore": 1})
        s.building("acidProcessingPlant", owner, plant, storage={"water": 2, "acidCanister": 1})
        s.building("processor", owner, proc, storage={"ore": 3, "water": 1}, health=80)
        s.android(owner, home, cargo={"metal": 4, "electronics": 1})
        s.android(owner, ext, cargo={"metal": 1})
    s.building("charger", "p1", (0, 3), health=70)
    s.building("charger", "p2", (5, 2), health=70)
    s.android("p1", (2, 1), cargo={"metal": 6, "electronics": 2})
    s.android("p2", (3, 4), cargo={"metal": 6, "electronics": 2})
    s.building("depot", "p2", (2, 3), complete=False, invested={"metal": 3})
    return s.build()


# --- the ledger -------------------------------------------------------------------------------------------


def free_material(state: GameState) -> Counter:
    """Material that exists as material: loose, carried (wrecks too) or stored."""
    total: Counter = Counter()
    for tile in state.tiles:
        total.update(tile.scattered)
    for android in state.androids.values():
        total.update(android.cargo)
    for building in state.buildings.values():
        total.update(building.storage)
    return total


def invested_material(state: GameState) -> Counter:
    total: Counter = Counter()
    for building in state.buildings.values():
        total.update(building.invested)
    return total


def acid_in_ground(state: GameState) -> int:
    return sum(t.composition.get("acid", 0) for t in state.tiles)


def diff(after: Counter, before: Counter) -> dict:
    return {m: after[m] - before[m] for m in MATERIALS if after[m] != before[m]}


def expected_turn_change(state_before: GameState, event: dict) -> tuple[dict, dict, int]:
    """(change of free material, change of invested material, change of acid in the ground) that
    the rulebook allows for one judged turn, from the event alone (and the building it names)."""
    if event.outcome != "accepted":
        return {}, {}, 0
    kind, result = event.action_type, (event.result or {})
    rules = state_before.rules
    if kind in ("android.start-construction", "android.continue-construction"):
        paid = result["paid"]
        return {m: -u for m, u in paid.items()}, dict(paid), 0
    if kind == "android.salvage" and result.get("destroyed"):
        building = state_before.buildings[result["building"]]
        own = building.owner == state_before.androids[event.android].owner
        rate = rules.salvage.own_return_rate if own else rules.salvage.hostile_return_rate
        returned = {m: floor(u * rate + 1e-9) for m, u in building.invested.items()}
        assert result["returned"] == {m: u for m, u in returned.items() if u}
        assert result["spilled"] == building.storage
        return (
            {m: u for m, u in returned.items() if u},
            {m: -u for m, u in building.invested.items()},
            0,
        )
    if kind == "android.repair":
        return {m: -u for m, u in bag(rules.salvage.repair_cost).items()}, {}, 0
    if kind == "android.clean-acid":
        cleaned = result["cleaned"]
        return ({"acidCanister": cleaned} if cleaned else {}), {}, -cleaned
    return {}, {}, 0


def predicted_round_end_storage(state: GameState) -> dict[str, dict]:
    """What every building stores after the round end, by the rulebook: a completed building
    harvests its extraction (capped by the ground, not consuming it), then runs each recipe once,
    in order, on its storage as the previous one left it. Sites do nothing."""
    out = {}
    for b in state.buildings.values():
        storage = Counter(b.storage)
        if b.complete:
            rules = state.rules.building(b.type)
            ground = state.tile(b.x, b.y).composition
            for entry in rules.extraction:
                storage[entry.material] += min(entry.amount, ground.get(entry.source, 0))
            for recipe in rules.conversion:
                needs, makes = bag(recipe.inputs), bag(recipe.outputs)
                if needs and all(storage[m] >= u for m, u in needs.items()):
                    storage.subtract(needs)
                    storage.update(makes)
        out[b.id] = {m: u for m, u in storage.items() if u}
    return out


# --- random actions ---------------------------------------------------------------------------------------


def resources(draw) -> dict | None:
    choice = draw(st.integers(0, 5))
    if choice == 0:
        return None
    if choice == 5:  # invalid shapes: negative, not a number, unknown material
        return draw(st.sampled_from([{"metal": -1}, {"metal": "3"}, {"gold": 1}, {"metal": 1.5}]))
    return draw(st.dictionaries(st.sampled_from(MATERIALS), st.integers(0, 8), max_size=3))


def plausible_decision(draw, state: GameState, android_id: str) -> Decision:
    """An action chosen with an eye on the world, so that random play also builds, refines,
    cleans and launches rather than only failing."""
    me = state.androids[android_id]
    here = state.building_on(me.x, me.y)
    kind = draw(st.sampled_from(PLAUSIBLE))
    if here is not None and here.owner == me.owner and draw(st.booleans()):
        if not here.complete:
            kind = "android.continue-construction"
        elif here.health < state.rules.building(here.type).health:
            kind = "android.repair"
        elif state.rules.building(here.type).android_capacity:
            kind = "android.launch"
    action: dict = {"type": kind}
    if kind == "android.move":
        options = [d for d, (dx, dy) in STEP.items() if state.on_map(me.x + dx, me.y + dy)]
        action["direction"] = draw(st.sampled_from(options))
    elif kind == "android.clean-acid":
        options = [
            d
            for d, (dx, dy) in STEP.items()
            if state.on_map(me.x + dx, me.y + dy)
            and state.tile(me.x + dx, me.y + dy).composition.get("acid")
        ]
        action["direction"] = draw(st.sampled_from(options or DIRECTIONS))
    elif kind == "android.withdraw" and here is not None and here.storage:
        material = draw(st.sampled_from(sorted(here.storage)))
        action["resources"] = {material: draw(st.integers(1, here.storage[material]))}
    elif kind == "android.withdraw":
        action["resources"] = {"metal": 1}
    elif kind == "android.start-construction":
        building_type = draw(st.sampled_from(BUILDING_TYPES))
        action["buildingType"] = building_type
        cost = bag(state.rules.building(building_type).cost)
        action["resources"] = {m: min(u, me.cargo.get(m, 0)) for m, u in cost.items()}
    elif kind == "android.continue-construction" and here is not None and not here.complete:
        owed = {
            m: u - here.invested.get(m, 0)
            for m, u in bag(state.rules.building(here.type).cost).items()
        }
        payable = {
            m: min(u, me.cargo.get(m, 0)) for m, u in owed.items() if u > 0 and me.cargo.get(m, 0)
        }
        if payable:
            action["resources"] = payable
    elif kind == "android.launch":
        mine = sorted(s.id for s in state.scripts.values() if s.owner == me.owner)
        action["scriptId"] = draw(st.sampled_from(mine))
    if draw(st.integers(0, 3)) == 0:
        action["memory"] = f"round {state.round}"
    return Decision(value=action)


PLAUSIBLE = (
    ["android.move"] * 3
    + ["android.collect"] * 2
    + ["android.start-construction"] * 2
    + ["android.continue-construction"] * 3
    + ["android.clean-acid"] * 2
    + ["android.deposit", "android.withdraw", "android.launch", "android.charge"]
    + ["android.salvage", "android.repair", "android.broadcast"]
)
STEP = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}


def random_decision(draw, state: GameState, android_id: str) -> Decision:
    if draw(st.booleans()):
        return plausible_decision(draw, state, android_id)
    roll = draw(st.integers(0, 40))
    if roll == 0:
        return Decision(error="ran out of fuel (200 ticks)", ticks=200)
    if roll == 1:
        return Decision(
            value=draw(
                st.sampled_from([None, 3, "android.wait", [], {"type": "android.teleport"}, {}])
            )
        )
    kind = draw(st.sampled_from(ACTION_TYPES))
    action: dict = {"type": kind}
    if kind in ("android.move", "android.clean-acid"):
        action["direction"] = draw(st.sampled_from(DIRECTIONS + ["up"]))
    elif kind in ("android.collect", "android.deposit", "android.continue-construction"):
        r = resources(draw)
        if r is not None:
            action["resources"] = r
    elif kind == "android.withdraw":
        action["resources"] = resources(draw) or {}
    elif kind == "android.start-construction":
        action["buildingType"] = draw(st.sampled_from(list(BUILDING_TYPES) + ["castle"]))
        r = resources(draw)
        if r is not None:
            action["resources"] = r
    elif kind == "android.broadcast":
        action["content"] = "x" * draw(
            st.sampled_from(
                [0, 7, state.rules.android.broadcast_limit, state.rules.android.broadcast_limit + 1]
            )
        )
    elif kind == "android.launch":
        action["scriptId"] = draw(st.sampled_from(sorted(state.scripts) + ["script-99"]))
    elif kind == "android.dismantle":
        target = draw(
            st.sampled_from(
                ["android-99"] + sorted(state.androids) + [None] * (draw(st.integers(0, 1)))
            )
        )
        if target is not None:
            action["targetAndroidId"] = target
    notes = draw(st.integers(0, 6))
    if notes == 1:
        action["memory"] = "m" * draw(
            st.sampled_from(
                [0, 12, state.rules.android.memory_limit, state.rules.android.memory_limit + 1]
            )
        )
    elif notes == 2:
        action["recording"] = "r" * draw(
            st.sampled_from(
                [5, state.rules.android.recording_limit, state.rules.android.recording_limit + 1]
            )
        )
    elif notes == 3:
        action["unexpected"] = True
    return Decision(value=action)


# --- the property -----------------------------------------------------------------------------------------


def check_invariants(state: GameState, before_active: dict[str, int]) -> None:
    for a in state.androids.values():
        assert state.on_map(a.x, a.y), f"{a.id} left the map at ({a.x}, {a.y})"
    for player in state.players:
        now = active_count(state, player)
        if now > before_active[player]:
            assert now <= capacity(state, player), (
                f"{player} has {now} active androids, cap {capacity(state, player)}"
            )


def actives(state: GameState) -> dict[str, int]:
    return {p: active_count(state, p) for p in state.players}


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(rules_name=st.sampled_from(sorted(RULESETS)), rounds=st.integers(3, 12), data=st.data())
def test_random_play_conserves_material_respects_caps_and_replays(
    rules_name: str, rounds: int, data
) -> None:
    state = small_world(rules_name)
    rules = state.rules
    initial = copy.deepcopy(to_json(state))
    log: list[dict] = []
    seen_outcomes: Counter = Counter()

    for _ in range(rounds):
        # the players act between rounds: uploads and launches (refused ones are not logged)
        for _ in range(data.draw(st.integers(0, 2))):
            player = data.draw(st.sampled_from(["p1", "p2"]))
            before = actives(state)
            if data.draw(st.booleans()):
                log.append(add_script(state, player, "v"))
            else:
                mine = [s for s in state.scripts.values() if s.owner == player]
                script = data.draw(st.sampled_from([s.id for s in mine] + ["script-99"]))
                chargers = [
                    b.id
                    for b in state.buildings.values()
                    if b.owner == player and b.type == "charger"
                ]
                charger = data.draw(st.sampled_from([None] + chargers))
                free_before = free_material(state)
                try:
                    log.append(launch(state, player, script, charger))
                except Refusal:
                    pass
                assert free_material(state) == free_before
            check_invariants(state, before)

        log.append(begin_round(state))
        for android_id in turn_order(state):
            if not state.androids[android_id].active:
                continue
            before_active = actives(state)
            before_json = copy.deepcopy(to_json(state))
            before_state = from_json(before_json, rules)
            free_before, invested_before, acid_before = (
                free_material(state),
                invested_material(state),
                acid_in_ground(state),
            )

            event = apply_turn(state, android_id, random_decision(data.draw, state, android_id))
            log.append(event)
            seen_outcomes[event.outcome] += 1
            if event.outcome == "accepted":
                seen_outcomes[event.action_type] += 1

            free_change, invested_change, acid_change = expected_turn_change(before_state, event)
            assert diff(free_material(state), free_before) == free_change, event
            assert diff(invested_material(state), invested_before) == invested_change, event
            assert acid_in_ground(state) - acid_before == acid_change, event
            if event.outcome != "accepted":
                assert without_android_health(to_json(state), android_id) == without_android_health(
                    before_json, android_id
                ), event
                penalty = rules.android.failed_turn_health_penalty
                assert state.androids[android_id].health == round(
                    before_state.androids[android_id].health - penalty, 6
                )
            check_invariants(state, before_active)

        # round end: only extraction and conversion change material, exactly as predicted
        predicted = predicted_round_end_storage(state)
        loose_before = [dict(t.scattered) for t in state.tiles]
        cargo_before = {a.id: dict(a.cargo) for a in state.androids.values()}
        invested_before = invested_material(state)
        ground_before = [dict(t.composition) for t in state.tiles]
        before_active = actives(state)
        log.append(end_round(state))
        assert {b.id: dict(b.storage) for b in state.buildings.values()} == predicted
        assert [dict(t.scattered) for t in state.tiles] == loose_before
        assert {a.id: dict(a.cargo) for a in state.androids.values()} == cargo_before
        assert invested_material(state) == invested_before
        assert [dict(t.composition) for t in state.tiles] == ground_before
        for a in state.androids.values():
            if a.active:
                assert a.health > 0 and a.battery > 0
        check_invariants(state, before_active)

    for name in ACTION_TYPES:
        if seen_outcomes[name]:
            note_statistic(
                f"accepted {name}"
            )  # --hypothesis-show-statistics shows how often each kind ran
    rebuilt = replay(from_json(initial, rules), log)
    assert state_hash(rebuilt) == state_hash(state)
    assert rebuilt.visible == state.visible  # derived, not hashed: checked on its own
