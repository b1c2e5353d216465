"""What each of the fourteen android actions does, and every reason it can be refused.

Each handler checks everything first and changes the state only once the action is certain to
be accepted, so a refusal leaves the world exactly as it was. The handlers follow rulebook
section 8; reason codes are stable and listed in ``REFUSAL_CODES``.
"""

from __future__ import annotations

from collections.abc import Callable
from math import floor
from typing import Any

from ..rules import MATERIALS
from ..rules.models import material_fields
from . import materials as mat
from . import wire
from .players import active_count, capacity, check_launch, spawn
from .reasons import REFUSAL_CODES
from .refusals import Refusal
from .state import Android, Building, GameState
from .text import a, quoted, utf16_length

STEPS = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}


def _settle(value: float) -> float:
    # Health and battery are floats (decay is 0.15 a round); rounding every change to 6 places
    # keeps them readable (99.85, not 99.85000000000001) and identical on every machine.
    # round() to places is ~0.2 us and a game settles the same few hundred values again and
    # again (every move, every android every round end): a float's is remembered. Only a
    # non-zero float: 0.0 and -0.0 are one key of a dict, and so are 1 and 1.0.
    if type(value) is float and value:
        settled = _SETTLED.get(value)
        if settled is None:
            if len(_SETTLED) >= 4096:
                _SETTLED.clear()
            settled = _SETTLED[value] = round(value, 6)
        return settled
    return round(value, 6)


_SETTLED: dict[float, float] = {}


def _amounts(resources: wire.MaterialAmounts | None) -> mat.Bag | None:
    if resources is None:
        return None
    # field by field, in the fixed material order (a dump of the model took three times as long)
    amounts: mat.Bag = {}
    for material, name in _AMOUNT_FIELDS:
        units = getattr(resources, name)
        if units:
            amounts[material] = units
    return amounts


_AMOUNT_FIELDS = material_fields(wire.MaterialAmounts)


def _owned_building_here(state: GameState, android: Android, *, purpose: str) -> Building:
    building = state.building_on(android.x, android.y)
    if building is None:
        raise Refusal(
            "no-building", f"there is no building on ({android.x}, {android.y}) to {purpose}"
        )
    if building.owner != android.owner:
        raise Refusal(
            "not-owner",
            f"the {building.type} on ({android.x}, {android.y}) belongs to {building.owner}",
        )
    if not building.complete:
        raise Refusal(
            "not-complete",
            f"the {building.type} on ({android.x}, {android.y}) is still a construction site",
        )
    return building


def _cargo_room(state: GameState, android: Android) -> int:
    return state.rules.android.cargo_capacity - mat.total(android.cargo)


def owed(state: GameState, building: Building) -> mat.Bag:
    """Material a construction site still needs."""
    return mat.missing(building.invested, mat.bag(state.rules.building(building.type).cost))


# --- the actions -----------------------------------------------------------------------------------


def wait(state: GameState, android: Android, action: wire.WaitAction) -> dict[str, Any]:
    return {}


def move(state: GameState, android: Android, action: wire.MoveAction) -> dict[str, Any]:
    dx, dy = STEPS[action.direction]
    x, y = android.x + dx, android.y + dy
    if not state.on_map(x, y):
        raise Refusal(
            "off-map",
            f"moving {action.direction} from ({android.x}, {android.y}) leaves the {state.width}x{state.height} map",
        )
    cost = state.rules.android.move_battery_cost
    if android.battery < cost:
        raise Refusal(
            "no-battery", f"a move costs {cost:g} battery and only {android.battery:g} is left"
        )
    android.x, android.y = x, y
    android.battery = _settle(android.battery - cost)
    return {"to": {"x": x, "y": y}}


def charge(state: GameState, android: Android, action: wire.ChargeAction) -> dict[str, Any]:
    building = _owned_building_here(state, android, purpose="charge on")
    amount = state.rules.building(building.type).charge
    if amount <= 0:
        raise Refusal("cannot-charge", f"{a(building.type)} cannot charge androids")
    before = android.battery
    android.battery = _settle(min(state.rules.android.battery_capacity, android.battery + amount))
    return {"charged": _settle(android.battery - before)}


def collect(state: GameState, android: Android, action: wire.CollectAction) -> dict[str, Any]:
    tile = state.tile(android.x, android.y)
    room = _cargo_room(state, android)
    wanted = _amounts(action.resources)
    if wanted is None:
        if not tile.scattered:
            raise Refusal(
                "nothing-here", f"there is no scattered material on ({android.x}, {android.y})"
            )
        if room <= 0:
            raise Refusal(
                "cargo-full", f"the cargo is full ({state.rules.android.cargo_capacity} units)"
            )
        wanted = {}
        for material in MATERIALS:
            units = min(tile.scattered.get(material, 0), room)
            if units:
                wanted[material] = units
                room -= units
    else:
        if not wanted:
            raise Refusal("nothing-asked", "collect was given resources that name no material")
        if not mat.covers(tile.scattered, wanted):
            raise Refusal(
                "not-here",
                f"({android.x}, {android.y}) has only {mat.describe(tile.scattered)} scattered, "
                f"not {mat.describe(wanted)}",
            )
        if mat.total(wanted) > room:
            raise Refusal(
                "cargo-full", f"{mat.describe(wanted)} does not fit: the cargo has room for {room}"
            )
    left = dict(tile.scattered)
    mat.take(left, wanted)
    state.put_tile(android.x, android.y, scattered=left)
    mat.add(android.cargo, wanted)
    return {"collected": mat.ordered(wanted)}


def deposit(state: GameState, android: Android, action: wire.DepositAction) -> dict[str, Any]:
    building = _owned_building_here(state, android, purpose="deposit into")
    if not state.rules.building(building.type).storage.deposit:
        raise Refusal("no-deposit", f"{a(building.type)} does not accept deposits")
    wanted = _amounts(action.resources)
    if wanted is None:
        wanted = dict(android.cargo)
        if not wanted:
            raise Refusal("cargo-empty", "there is no cargo to deposit")
    elif not wanted:
        raise Refusal("nothing-asked", "deposit was given resources that name no material")
    elif not mat.covers(android.cargo, wanted):
        raise Refusal(
            "not-in-cargo",
            f"the cargo holds {mat.describe(android.cargo)}, not {mat.describe(wanted)}",
        )
    mat.take(android.cargo, wanted)
    mat.add(building.storage, wanted)
    return {
        "deposited": mat.ordered(wanted),
        "building": building.id,
        "buildingType": building.type,
    }


def withdraw(state: GameState, android: Android, action: wire.WithdrawAction) -> dict[str, Any]:
    building = _owned_building_here(state, android, purpose="withdraw from")
    if not state.rules.building(building.type).storage.withdraw:
        raise Refusal("no-withdraw", f"{a(building.type)} does not allow withdrawals")
    wanted = _amounts(action.resources) or {}
    if not wanted:
        raise Refusal("nothing-asked", "withdraw needs resources naming at least one material")
    if not mat.covers(building.storage, wanted):
        raise Refusal(
            "not-stored",
            f"the {building.type} stores {mat.describe(building.storage)}, not {mat.describe(wanted)}",
        )
    room = _cargo_room(state, android)
    if mat.total(wanted) > room:
        raise Refusal(
            "cargo-full", f"{mat.describe(wanted)} does not fit: the cargo has room for {room}"
        )
    mat.take(building.storage, wanted)
    mat.add(android.cargo, wanted)
    return {
        "withdrawn": mat.ordered(wanted),
        "building": building.id,
        "buildingType": building.type,
    }


def _payment(
    state: GameState, android: Android, offered: mat.Bag, still_owed: mat.Bag, what: str
) -> tuple[mat.Bag, mat.Bag]:
    """Split an offered payment into what comes from cargo and what comes from the tile.

    Only material the cost names is accepted, never more than is still owed. Cargo pays first;
    for compatibility, loose material on the tile may make up the rest (rulebook section 8).
    """
    for material, units in offered.items():
        if material not in still_owed:
            raise Refusal(
                "not-in-cost",
                f"{what} does not take {material} (it still needs {mat.describe(still_owed)})",
            )
        if units > still_owed[material]:
            raise Refusal(
                "more-than-cost",
                f"{what} needs {still_owed[material]} more {material}, not {units}",
            )
    from_cargo = {m: min(u, android.cargo.get(m, 0)) for m, u in offered.items()}
    from_cargo = {m: u for m, u in from_cargo.items() if u}
    from_tile = mat.missing(from_cargo, offered)
    scattered = state.tile(android.x, android.y).scattered
    if not mat.covers(scattered, from_tile):
        short = mat.missing(scattered, from_tile)
        raise Refusal(
            "not-in-cargo", f"the cargo (and the tile) lack {mat.describe(short)} for {what}"
        )
    return from_cargo, from_tile


def _pay(
    state: GameState, android: Android, building: Building, from_cargo: mat.Bag, from_tile: mat.Bag
) -> None:
    mat.take(android.cargo, from_cargo)
    if from_tile:
        left = dict(state.tile(android.x, android.y).scattered)
        mat.take(left, from_tile)
        state.put_tile(android.x, android.y, scattered=left)
    mat.add(building.invested, from_cargo)
    mat.add(building.invested, from_tile)


def _finish_if_built(state: GameState, building: Building) -> bool:
    if building.remaining_ticks <= 0 and not owed(state, building):
        building.complete = True
        building.remaining_ticks = 0
        return True
    return False


def _progress(state: GameState, site: Building) -> dict[str, Any]:
    """What a construction site still needs after this turn: material and then ticks."""
    if site.complete:
        return {}
    return {"owed": mat.ordered(owed(state, site)), "remainingTicks": site.remaining_ticks}


def start_construction(
    state: GameState, android: Android, action: wire.StartConstructionAction
) -> dict[str, Any]:
    here = state.building_on(android.x, android.y)
    if here is not None:
        kind = "construction site" if not here.complete else "building"
        raise Refusal(
            "tile-occupied", f"({android.x}, {android.y}) already holds {a(here.type)} {kind}"
        )
    rules = state.rules.building(action.building_type)
    offered = _amounts(action.resources) or {}
    from_cargo, from_tile = _payment(
        state, android, offered, mat.bag(rules.cost), a(action.building_type)
    )
    building = Building(
        id=state.new_id("building"),
        type=action.building_type,
        owner=android.owner,
        x=android.x,
        y=android.y,
        health=rules.health,
        complete=False,
        remaining_ticks=rules.ticks,
    )
    _pay(state, android, building, from_cargo, from_tile)
    state.buildings[building.id] = building
    state.building_at[(building.x, building.y)] = building.id
    completed = _finish_if_built(state, building)
    return {
        "building": building.id,
        "paid": mat.ordered(offered),
        "completed": completed,
        **_progress(state, building),
    }


def continue_construction(
    state: GameState, android: Android, action: wire.ContinueConstructionAction
) -> dict[str, Any]:
    site = state.building_on(android.x, android.y)
    if site is None or site.complete:
        raise Refusal("no-site", f"there is no construction site on ({android.x}, {android.y})")
    if site.owner != android.owner:
        raise Refusal(
            "not-owner",
            f"the {site.type} site on ({android.x}, {android.y}) belongs to {site.owner}",
        )
    still_owed = owed(state, site)
    offered = _amounts(action.resources) or {}
    from_cargo, from_tile = _payment(state, android, offered, still_owed, f"the {site.type} site")
    if not offered and still_owed:
        raise Refusal(
            "unpaid",
            f"the {site.type} site still needs {mat.describe(still_owed)} before it can be built",
        )
    _pay(state, android, site, from_cargo, from_tile)
    built_tick = False
    if not owed(state, site) and site.remaining_ticks > 0:
        site.remaining_ticks -= 1
        built_tick = True
    completed = _finish_if_built(state, site)
    return {
        "building": site.id,
        "buildingType": site.type,
        "paid": mat.ordered(offered),
        "ticked": built_tick,
        "completed": completed,
        **_progress(state, site),
    }


def salvage(state: GameState, android: Android, action: wire.SalvageAction) -> dict[str, Any]:
    building = state.building_on(android.x, android.y)
    if building is None:
        raise Refusal(
            "no-building", f"there is no building on ({android.x}, {android.y}) to salvage"
        )
    if building.initial:
        raise Refusal("initial-charger", "an initial charger cannot be salvaged")
    own = building.owner == android.owner
    if not own and not state.rules.building(building.type).salvageable_by_others:
        raise Refusal("protected", f"{a(building.type)} cannot be salvaged by another player")
    salvage_rules = state.rules.salvage
    damage = salvage_rules.own_damage if own else salvage_rules.hostile_damage
    building.health = _settle(building.health - damage)
    result: dict[str, Any] = {
        "building": building.id,
        "buildingType": building.type,
        "owner": building.owner,
        "damage": damage,
        "health": max(building.health, 0.0),
    }
    if building.health <= 0:
        rate = salvage_rules.own_return_rate if own else salvage_rules.hostile_return_rate
        returned = {m: floor(u * rate + 1e-9) for m, u in building.invested.items()}
        returned = {m: u for m, u in returned.items() if u}
        if returned or building.storage:
            scattered = dict(state.tile(building.x, building.y).scattered)
            mat.add(scattered, returned)
            mat.add(scattered, building.storage)
            state.put_tile(building.x, building.y, scattered=scattered)
        result.update(
            destroyed=True,
            returned=mat.ordered(returned),
            spilled=mat.ordered(building.storage),
            tile={"x": building.x, "y": building.y},
        )
        del state.buildings[building.id]
        del state.building_at[(building.x, building.y)]
    return result


def repair(state: GameState, android: Android, action: wire.RepairAction) -> dict[str, Any]:
    building = _owned_building_here(state, android, purpose="repair")
    full = state.rules.building(building.type).health
    if building.health >= full:
        raise Refusal("not-damaged", f"the {building.type} is not damaged")
    cost = mat.bag(state.rules.salvage.repair_cost)
    if not mat.covers(android.cargo, cost):
        raise Refusal("not-in-cargo", f"a repair costs {mat.describe(cost)} from cargo")
    mat.take(android.cargo, cost)
    before = building.health
    building.health = _settle(min(full, building.health + state.rules.salvage.repair_amount))
    return {
        "building": building.id,
        "buildingType": building.type,
        "repaired": _settle(building.health - before),
        "health": building.health,
        "paid": mat.ordered(cost),
    }


def broadcast(state: GameState, android: Android, action: wire.BroadcastAction) -> dict[str, Any]:
    limit = state.rules.android.broadcast_limit
    size = utf16_length(action.content)  # what the script's .length counts
    if size > limit:
        raise Refusal(
            "too-long", f"a broadcast holds at most {limit} characters, this one has {size}"
        )
    from .state import Message

    state.messages.append(
        Message(state.round, android.id, android.owner, android.x, android.y, action.content)
    )
    return {}


def clean_acid(state: GameState, android: Android, action: wire.CleanAcidAction) -> dict[str, Any]:
    dx, dy = STEPS[action.direction]
    x, y = android.x + dx, android.y + dy
    if not state.on_map(x, y):
        raise Refusal(
            "off-map", f"there is no tile {action.direction} of ({android.x}, {android.y})"
        )
    plant = next(
        (
            b
            for b in state.buildings.values()
            if b.owner == android.owner and b.complete and state.rules.building(b.type).cleans_acid
        ),
        None,
    )
    if plant is None:
        raise Refusal(
            "no-acid-plant", "cleaning acid needs a completed acid processing plant of yours"
        )
    tile = state.tile(x, y)
    if not tile.composition.get("acid"):
        raise Refusal("no-acid", f"({x}, {y}) has no acid to clean")
    cost = state.rules.android.clean_acid_battery_cost
    if android.battery < cost:
        raise Refusal(
            "no-battery",
            f"cleaning acid costs {cost:g} battery and only {android.battery:g} is left",
        )
    amount = min(state.rules.android.clean_acid_amount, tile.composition["acid"])
    ground = dict(tile.composition)
    mat.take(ground, {"acid": amount})
    tile = state.put_tile(x, y, composition=ground)
    if amount:
        mat.add(plant.storage, {"acidCanister": amount})
    android.battery = _settle(android.battery - cost)
    return {
        "tile": {"x": x, "y": y},
        "cleaned": amount,
        "acidLeft": tile.composition.get("acid", 0),
        "building": plant.id,
    }


def _on_own_charger(state: GameState, android: Android, purpose: str) -> Building:
    building = state.building_on(android.x, android.y)
    if (
        building is None
        or building.owner != android.owner
        or not building.complete
        or state.rules.building(building.type).android_capacity <= 0
    ):
        raise Refusal(
            "not-on-charger",
            f"{purpose} needs the android to stand on a completed charger of its owner",
        )
    return building


def launch(state: GameState, android: Android, action: wire.LaunchAction) -> dict[str, Any]:
    _on_own_charger(state, android, "launching")
    check_launch(state, android.owner, action.script_id)
    child = spawn(state, android.owner, action.script_id, android.x, android.y)
    return {"android": child.id, "script": action.script_id}


def dismantle(state: GameState, android: Android, action: wire.DismantleAction) -> dict[str, Any]:
    target_id = action.target_android_id
    if target_id is None:
        android.active = False
        return {"android": android.id}
    if target_id == android.id:
        raise Refusal(
            "self-target",
            "an android cannot name itself as the target; omit targetAndroidId to dismantle itself",
        )
    _on_own_charger(state, android, "dismantling another android")
    target = state.androids.get(target_id)
    if target is None or target.owner != android.owner or not target.active:
        raise Refusal(
            "bad-target", f"{quoted(target_id)} is not an active android of {android.owner}"
        )
    target.active = False
    return {"android": target.id}


# each handler takes the action model of its key's type (wire.ACTION_MODELS), hence Any here
HANDLERS: dict[str, Callable[[GameState, Android, Any], dict[str, Any]]] = {
    "android.wait": wait,
    "android.move": move,
    "android.charge": charge,
    "android.collect": collect,
    "android.deposit": deposit,
    "android.withdraw": withdraw,
    "android.start-construction": start_construction,
    "android.continue-construction": continue_construction,
    "android.salvage": salvage,
    "android.repair": repair,
    "android.broadcast": broadcast,
    "android.clean-acid": clean_acid,
    "android.launch": launch,
    "android.dismantle": dismantle,
}

__all__ = ["HANDLERS", "REFUSAL_CODES", "STEPS", "active_count", "capacity", "owed"]
