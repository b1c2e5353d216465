"""Every refusal the rulebook states, as a table.

Each row builds an exact world, plays one turn and checks what a player would see: the turn is
refused with the stated reason, the android loses rules.android.failedTurnHealthPenalty health
(10), and nothing else in the world moved — not the android's memory or recording (the action
carries new ones, which a refusal takes with it), not its battery, cargo or position, not the tile.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from engine_worlds import (
    CENTRE,
    P1,
    P1_CHARGER,
    P2,
    P2_CHARGER,
    android_health,
    scenario,
    snapshot,
    turn,
    without_android_health,
)

from nova_tools.engine import Decision, GameState, Scenario, apply_turn

OLD_MEMORY, OLD_RECORDING = "old memory", "old recording"


@dataclass(frozen=True)
class Refused:
    id: str
    rule: str  # the rulebook statement the row checks
    build: Callable[[Scenario], str]  # places the world, returns the acting android
    action: object
    code: str
    rules: dict = field(default_factory=dict)
    penalty: float = 10


def at(pos=CENTRE, **kw) -> Callable[[Scenario], str]:
    """An android of p1 at pos on an otherwise bare board."""

    def build(s: Scenario) -> str:
        return s.android(P1, pos, **kw)

    return build


def with_(
    *steps: Callable[[Scenario], object], actor: Callable[[Scenario], str]
) -> Callable[[Scenario], str]:
    def build(s: Scenario) -> str:
        for step in steps:
            step(s)
        return actor(s)

    return build


def tile(x, y, **kw):
    return lambda s: s.tile(x, y, **kw)


def building(kind, owner, pos, **kw):
    return lambda s: s.building(kind, owner, pos, **kw)


def android(owner, pos, **kw):
    return lambda s: s.android(owner, pos, **kw)


CHARGER_SITE = building("charger", P1, CENTRE, complete=False, invested={"metal": 10})

ROWS = [
    # --- move ---------------------------------------------------------------------------------------
    Refused(
        "move-off-map-west",
        "Moving outside the map fails the turn",
        at((0, 3)),
        {"type": "android.move", "direction": "west"},
        "off-map",
    ),
    Refused(
        "move-off-map-north",
        "Moving outside the map fails the turn",
        at((3, 0)),
        {"type": "android.move", "direction": "north"},
        "off-map",
    ),
    Refused(
        "move-off-map-east",
        "the map's bounds are in rules.world",
        at((6, 3)),
        {"type": "android.move", "direction": "east"},
        "off-map",
    ),
    Refused(
        "move-off-map-south",
        "the map's bounds are in rules.world",
        at((3, 6)),
        {"type": "android.move", "direction": "south"},
        "off-map",
    ),
    Refused(
        "move-off-map-retuned-penalty",
        "costs the android rules.android.failedTurnHealthPenalty health",
        at((0, 3)),
        {"type": "android.move", "direction": "west"},
        "off-map",
        rules={"android": {"failedTurnHealthPenalty": 3}},
        penalty=3,
    ),
    Refused(
        "move-without-battery",
        "Move ... for rules.android.moveBatteryCost battery (1)",
        at(battery=0.5),
        {"type": "android.move", "direction": "east"},
        "no-battery",
    ),
    # --- charge -------------------------------------------------------------------------------------
    Refused(
        "charge-nowhere",
        "Recharge on an owned completed building on the android's current tile",
        at(battery=50),
        {"type": "android.charge"},
        "no-building",
    ),
    Refused(
        "charge-on-rival-charger",
        "charge on owned chargers",
        at(P2_CHARGER, battery=50),
        {"type": "android.charge"},
        "not-owner",
    ),
    Refused(
        "charge-on-site",
        "an owned completed building",
        with_(CHARGER_SITE, actor=at(battery=50)),
        {"type": "android.charge"},
        "not-complete",
    ),
    Refused(
        "charge-on-depot",
        "any type whose rules.buildings[type].charge is above zero, which is the charger by default",
        with_(building("depot", P1, CENTRE), actor=at(battery=50)),
        {"type": "android.charge"},
        "cannot-charge",
    ),
    # --- collect ------------------------------------------------------------------------------------
    Refused(
        "collect-nothing",
        "Collect scattered material from the current tile",
        at(),
        {"type": "android.collect"},
        "nothing-here",
    ),
    Refused(
        "collect-cargo-full",
        "carry up to rules.android.cargoCapacity total material units (12)",
        with_(tile(3, 3, scattered={"metal": 5}), actor=at(cargo={"metal": 7, "ore": 5})),
        {"type": "android.collect"},
        "cargo-full",
    ),
    Refused(
        "collect-13",
        "carry up to rules.android.cargoCapacity total material units (12)",
        with_(tile(3, 3, scattered={"metal": 20}), actor=at()),
        {"type": "android.collect", "resources": {"metal": 13}},
        "cargo-full",
    ),
    Refused(
        "collect-not-there",
        "Collect scattered material from the current tile",
        with_(tile(3, 3, scattered={"metal": 2}), actor=at()),
        {"type": "android.collect", "resources": {"metal": 3}},
        "not-here",
    ),
    Refused(
        "collect-composition",
        "Composition cannot be collected directly",
        with_(tile(3, 3, ore=4, water=2), actor=at()),
        {"type": "android.collect", "resources": {"ore": 1}},
        "not-here",
    ),
    # --- deposit ------------------------------------------------------------------------------------
    Refused(
        "deposit-into-charger",
        "A building accepts deposits when rules.buildings[type].storage.deposit is true",
        at(P1_CHARGER, cargo={"metal": 2}),
        {"type": "android.deposit"},
        "no-deposit",
    ),
    Refused(
        "deposit-into-extractor",
        "depots, processors, and acid processing plants by default (not extractors)",
        with_(building("extractor", P1, CENTRE), actor=at(cargo={"metal": 2})),
        {"type": "android.deposit"},
        "no-deposit",
    ),
    Refused(
        "deposit-into-depot-site",
        "A construction site is not storage",
        with_(
            building("depot", P1, CENTRE, complete=False, invested={"metal": 6}),
            actor=at(cargo={"metal": 2}),
        ),
        {"type": "android.deposit"},
        "not-complete",
    ),
    Refused(
        "deposit-into-rival-depot",
        "Deposit cargo into an owned ... building",
        with_(building("depot", P2, CENTRE), actor=at(cargo={"metal": 2})),
        {"type": "android.deposit"},
        "not-owner",
    ),
    Refused(
        "deposit-empty-cargo",
        "If resources is omitted, deposits all cargo",
        with_(building("depot", P1, CENTRE), actor=at()),
        {"type": "android.deposit"},
        "cargo-empty",
    ),
    Refused(
        "deposit-not-carried",
        "Deposit cargo",
        with_(building("depot", P1, CENTRE), actor=at(cargo={"metal": 2})),
        {"type": "android.deposit", "resources": {"ore": 2}},
        "not-in-cargo",
    ),
    # --- withdraw -----------------------------------------------------------------------------------
    Refused(
        "withdraw-from-charger",
        "A building allows withdrawals when rules.buildings[type].storage.withdraw is true",
        at(P1_CHARGER),
        {"type": "android.withdraw", "resources": {"metal": 1}},
        "no-withdraw",
    ),
    Refused(
        "withdraw-not-stored",
        "Withdraw material from an owned, completed, storage-capable building",
        with_(building("depot", P1, CENTRE, storage={"metal": 3}), actor=at()),
        {"type": "android.withdraw", "resources": {"metal": 4}},
        "not-stored",
    ),
    Refused(
        "withdraw-past-cargo",
        "carry up to rules.android.cargoCapacity total material units (12)",
        with_(building("depot", P1, CENTRE, storage={"metal": 30}), actor=at(cargo={"ore": 10})),
        {"type": "android.withdraw", "resources": {"metal": 3}},
        "cargo-full",
    ),
    Refused(
        "withdraw-from-rival",
        "Withdraw material from an owned ... building",
        with_(building("extractor", P2, CENTRE, storage={"ore": 3}), actor=at()),
        {"type": "android.withdraw", "resources": {"ore": 1}},
        "not-owner",
    ),
    # --- start construction -------------------------------------------------------------------------
    Refused(
        "depot-not-8-metal",
        "a depot takes six metal, not eight",
        at(cargo={"metal": 8}),
        {"type": "android.start-construction", "buildingType": "depot", "resources": {"metal": 8}},
        "more-than-cost",
    ),
    Refused(
        "depot-not-ore",
        "Only material the building's cost actually names is accepted ... and not ten ore",
        at(cargo={"ore": 10}),
        {"type": "android.start-construction", "buildingType": "depot", "resources": {"ore": 10}},
        "not-in-cost",
    ),
    Refused(
        "depot-not-6-metal-and-ore",
        "Only material the building's cost actually names is accepted",
        at(cargo={"metal": 6, "ore": 1}),
        {
            "type": "android.start-construction",
            "buildingType": "depot",
            "resources": {"metal": 6, "ore": 1},
        },
        "not-in-cost",
    ),
    Refused(
        "build-without-material",
        "building without the material",
        at(cargo={"metal": 3}),
        {"type": "android.start-construction", "buildingType": "depot", "resources": {"metal": 6}},
        "not-in-cargo",
    ),
    Refused(
        "build-on-building",
        "The tile must not already contain a building",
        with_(building("scanner", P2, CENTRE), actor=at(cargo={"metal": 6})),
        {"type": "android.start-construction", "buildingType": "depot", "resources": {"metal": 6}},
        "tile-occupied",
    ),
    Refused(
        "build-on-site",
        "A tile can contain at most one building or construction site",
        with_(CHARGER_SITE, actor=at(cargo={"metal": 6})),
        {"type": "android.start-construction", "buildingType": "depot"},
        "tile-occupied",
    ),
    Refused(
        "build-on-initial-charger",
        "A tile can contain at most one building or construction site",
        at(P1_CHARGER),
        {"type": "android.start-construction", "buildingType": "depot"},
        "tile-occupied",
    ),
    # --- continue construction ----------------------------------------------------------------------
    Refused(
        "continue-unpaid",
        "If material requirements have been met, each continue action reduces remaining construction time",
        with_(building("depot", P1, CENTRE, complete=False), actor=at()),
        {"type": "android.continue-construction"},
        "unpaid",
    ),
    Refused(
        "continue-partly-paid",
        "If material requirements have been met, each continue action reduces remaining construction time",
        with_(building("depot", P1, CENTRE, complete=False, invested={"metal": 5}), actor=at()),
        {"type": "android.continue-construction"},
        "unpaid",
    ),
    Refused(
        "continue-overpay",
        "never more of it than the cost asks for",
        with_(
            building("depot", P1, CENTRE, complete=False, invested={"metal": 5}),
            actor=at(cargo={"metal": 2}),
        ),
        {"type": "android.continue-construction", "resources": {"metal": 2}},
        "more-than-cost",
    ),
    Refused(
        "continue-paid-site-with-more",
        "never more of it than the cost asks for",
        with_(
            building("depot", P1, CENTRE, complete=False, invested={"metal": 6}),
            actor=at(cargo={"metal": 1}),
        ),
        {"type": "android.continue-construction", "resources": {"metal": 1}},
        "not-in-cost",
    ),
    Refused(
        "continue-nothing",
        "Continue construction on an owned construction site on the current tile",
        at(),
        {"type": "android.continue-construction"},
        "no-site",
    ),
    Refused(
        "continue-complete-building",
        "Buildings under construction are continued, not repaired (and completed ones are not continued)",
        with_(building("depot", P1, CENTRE), actor=at()),
        {"type": "android.continue-construction"},
        "no-site",
    ),
    Refused(
        "continue-rival-site",
        "Continue construction on an owned construction site",
        with_(building("depot", P2, CENTRE, complete=False, invested={"metal": 6}), actor=at()),
        {"type": "android.continue-construction"},
        "not-owner",
    ),
    # --- salvage ------------------------------------------------------------------------------------
    Refused(
        "salvage-nothing",
        "salvage the building on the current tile",
        at(),
        {"type": "android.salvage"},
        "no-building",
    ),
    Refused(
        "salvage-own-initial-charger",
        "Initial chargers cannot be salvaged",
        at(P1_CHARGER),
        {"type": "android.salvage"},
        "initial-charger",
    ),
    Refused(
        "salvage-rival-initial-charger",
        "initial chargers cannot be salvaged",
        at(P2_CHARGER),
        {"type": "android.salvage"},
        "initial-charger",
    ),
    Refused(
        "salvage-rival-depot",
        "a building whose salvageableByOthers is false cannot be salvaged by another player at all — the depot",
        with_(building("depot", P2, CENTRE, storage={"metal": 20}), actor=at()),
        {"type": "android.salvage"},
        "protected",
    ),
    Refused(
        "salvage-rival-depot-site",
        "the depot cannot be salvaged by another player at all",
        with_(building("depot", P2, CENTRE, complete=False, invested={"metal": 6}), actor=at()),
        {"type": "android.salvage"},
        "protected",
    ),
    # --- repair -------------------------------------------------------------------------------------
    Refused(
        "repair-undamaged",
        "a building that is not damaged cannot be repaired",
        with_(building("depot", P1, CENTRE), actor=at(cargo={"metal": 3})),
        {"type": "android.repair"},
        "not-damaged",
    ),
    Refused(
        "repair-without-metal",
        "restoring 10 health for rules.salvage.repairCost (1 metal) out of its cargo",
        with_(building("depot", P1, CENTRE, health=50), actor=at(cargo={"ore": 3})),
        {"type": "android.repair"},
        "not-in-cargo",
    ),
    Refused(
        "repair-rival",
        "repair an owned damaged building",
        with_(building("charger", P2, CENTRE, health=50), actor=at(cargo={"metal": 3})),
        {"type": "android.repair"},
        "not-owner",
    ),
    Refused(
        "repair-site",
        "Buildings under construction are continued, not repaired",
        with_(
            building("depot", P1, CENTRE, complete=False, health=50), actor=at(cargo={"metal": 3})
        ),
        {"type": "android.repair"},
        "not-complete",
    ),
    # --- broadcast ----------------------------------------------------------------------------------
    Refused(
        "broadcast-257",
        "a public message of up to rules.android.broadcastLimit characters (256)",
        at(),
        {"type": "android.broadcast", "content": "x" * 257},
        "too-long",
    ),
    Refused(
        "broadcast-retuned-limit",
        "a public message of up to rules.android.broadcastLimit characters",
        at(),
        {"type": "android.broadcast", "content": "x" * 11},
        "too-long",
        rules={"android": {"broadcastLimit": 10}},
    ),
    # --- clean acid ---------------------------------------------------------------------------------
    Refused(
        "clean-without-plant",
        "Androids can clean acid from adjacent tiles only if their owner has a completed acid processing plant",
        with_(tile(3, 2, acid=3), actor=at()),
        {"type": "android.clean-acid", "direction": "north"},
        "no-acid-plant",
    ),
    Refused(
        "clean-with-plant-site",
        "only if their owner has a completed acid processing plant",
        with_(
            tile(3, 2, acid=3),
            building("acidProcessingPlant", P1, (5, 5), complete=False),
            actor=at(),
        ),
        {"type": "android.clean-acid", "direction": "north"},
        "no-acid-plant",
    ),
    Refused(
        "clean-with-rival-plant",
        "The android's owner must have a completed building that cleans acid",
        with_(tile(3, 2, acid=3), building("acidProcessingPlant", P2, (5, 5)), actor=at()),
        {"type": "android.clean-acid", "direction": "north"},
        "no-acid-plant",
    ),
    Refused(
        "clean-no-acid",
        "Clean acid from an adjacent tile",
        with_(tile(3, 3, acid=3), building("acidProcessingPlant", P1, (5, 5)), actor=at()),
        {"type": "android.clean-acid", "direction": "north"},
        "no-acid",
    ),
    Refused(
        "clean-off-map",
        "clean acid from adjacent tiles",
        with_(building("acidProcessingPlant", P1, (5, 5)), actor=at((0, 3))),
        {"type": "android.clean-acid", "direction": "west"},
        "off-map",
    ),
    Refused(
        "clean-without-battery",
        "Cleaning costs rules.android.cleanAcidBatteryCost battery (1)",
        with_(
            tile(3, 2, acid=3), building("acidProcessingPlant", P1, (5, 5)), actor=at(battery=0.5)
        ),
        {"type": "android.clean-acid", "direction": "north"},
        "no-battery",
    ),
    # --- launch -------------------------------------------------------------------------------------
    Refused(
        "launch-third-on-one-charger",
        "1 charger allows 2 active androids",
        with_(android(P1, (5, 1)), actor=at(P1_CHARGER)),
        {"type": "android.launch", "scriptId": "script-1"},
        "at-capacity",
    ),
    Refused(
        "launch-at-cap-wrecks-do-not-count-but-actives-do",
        "the launch is refused unless the owner's active android count is below their cap",
        with_(android(P1, (5, 1)), android(P1, (5, 2), active=False), actor=at(P1_CHARGER)),
        {"type": "android.launch", "scriptId": "script-1"},
        "at-capacity",
    ),
    Refused(
        "launch-off-charger",
        "while standing on an owned completed charger",
        at(),
        {"type": "android.launch", "scriptId": "script-1"},
        "not-on-charger",
    ),
    Refused(
        "launch-on-rival-charger",
        "standing on one of its owner's completed chargers",
        at(P2_CHARGER),
        {"type": "android.launch", "scriptId": "script-1"},
        "not-on-charger",
    ),
    Refused(
        "launch-on-charger-site",
        "one of the owner's completed chargers",
        with_(CHARGER_SITE, actor=at()),
        {"type": "android.launch", "scriptId": "script-1"},
        "not-on-charger",
    ),
    Refused(
        "launch-rival-script",
        "scriptId must be one of the owner's scripts",
        at(P1_CHARGER),
        {"type": "android.launch", "scriptId": "script-2"},
        "unknown-script",
    ),
    Refused(
        "launch-unknown-script",
        "scriptId must be one of the owner's scripts",
        at(P1_CHARGER),
        {"type": "android.launch", "scriptId": "script-99"},
        "unknown-script",
    ),
    # --- dismantle ----------------------------------------------------------------------------------
    Refused(
        "dismantle-self-as-target",
        "can never name itself as the target",
        at(P1_CHARGER),
        {"type": "android.dismantle", "targetAndroidId": "android-1"},
        "self-target",
    ),
    Refused(
        "dismantle-sibling-off-charger",
        "The acting android must be on one of its owner's completed chargers",
        with_(android(P1, (3, 4)), actor=at()),
        {"type": "android.dismantle", "targetAndroidId": "android-1"},
        "not-on-charger",
    ),
    Refused(
        "dismantle-rival",
        "An android can never dismantle another player's android",
        with_(android(P2, P1_CHARGER), actor=at(P1_CHARGER)),
        {"type": "android.dismantle", "targetAndroidId": "android-1"},
        "bad-target",
    ),
    Refused(
        "dismantle-wreck",
        "the target must be one of the owner's active androids",
        with_(android(P1, P1_CHARGER, active=False), actor=at(P1_CHARGER)),
        {"type": "android.dismantle", "targetAndroidId": "android-1"},
        "bad-target",
    ),
    # --- memory and recording -----------------------------------------------------------------------
    Refused(
        "memory-4097",
        "memory ... limited to rules.android.memoryLimit characters (4,096)",
        at(),
        {"type": "android.wait", "memory": "m" * 4097},
        "memory-too-long",
    ),
    Refused(
        "recording-16385",
        "recording ... limited to rules.android.recordingLimit characters (16,384)",
        at(),
        {"type": "android.wait", "recording": "r" * 16385},
        "recording-too-long",
    ),
    Refused(
        "memory-retuned-limit",
        "limited to rules.android.memoryLimit characters",
        at(),
        {"type": "android.wait", "memory": "m" * 9},
        "memory-too-long",
        rules={"android": {"memoryLimit": 8}},
    ),
]


def _with_new_notes(action: object) -> object:
    """Every row's action also tries to write memory and recording, unless it is testing them."""
    if isinstance(action, dict):
        action = dict(action)
        action.setdefault("memory", "NEW memory")
        action.setdefault("recording", "NEW recording")
    return action


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_refused_turn_changes_nothing_but_health(row: Refused) -> None:
    s = scenario(row.rules)
    actor = row.build(s)
    state = s.build()
    state.androids[actor].memory = OLD_MEMORY
    state.androids[actor].recording = OLD_RECORDING
    before = snapshot(state)

    event = turn(state, actor, _with_new_notes(row.action))

    assert event.outcome == "refused", event
    assert event.code == row.code, event.reason
    assert event.reason and "\n" not in event.reason
    after = snapshot(state)
    assert android_health(after, actor) == pytest.approx(
        android_health(before, actor) - row.penalty
    )
    assert without_android_health(after, actor) == without_android_health(before, actor)
    assert state.androids[actor].memory == OLD_MEMORY
    assert state.androids[actor].recording == OLD_RECORDING


def test_every_refusal_code_is_covered_by_the_table() -> None:
    from nova_tools.engine import REFUSAL_CODES

    # not-here/cargo-full etc. are all reachable from a turn; this keeps the table honest when a
    # new code is added to the engine.
    untested = set(REFUSAL_CODES) - {r.code for r in ROWS} - {"nothing-asked"}
    assert not untested, f"refusal codes without a table row: {sorted(untested)}"


@pytest.mark.parametrize(
    "action",
    [
        {"type": "android.collect", "resources": {}},
        {"type": "android.withdraw", "resources": {}},
        {"type": "android.deposit", "resources": {"metal": 0}},
    ],
    ids=["collect-empty", "withdraw-empty", "deposit-zero"],
)
def test_asking_for_nothing_is_refused(action: dict) -> None:
    s = scenario()
    s.tile(3, 3, scattered={"metal": 2})
    s.building("depot", P1, CENTRE, storage={"metal": 2})
    actor = s.android(P1, CENTRE, cargo={"metal": 1})
    state = s.build()
    before = snapshot(state)
    event = turn(state, actor, action)
    assert (event.outcome, event.code) == ("refused", "nothing-asked")
    assert without_android_health(snapshot(state), actor) == without_android_health(before, actor)


# --- failed turns that are not refusals: same cost, same untouched notes ---------------------------------


@pytest.mark.parametrize(
    ("decision", "outcome", "code"),
    [
        (Decision(error="ran out of fuel (200 ticks)"), "error", "script-error"),
        (Decision(value={"type": "android.fly", "memory": "NEW"}), "invalid", "not-an-action"),
        (
            Decision(value={"type": "android.move", "direction": "up", "memory": "NEW"}),
            "invalid",
            "not-an-action",
        ),
        (Decision(value="android.wait"), "invalid", "not-an-action"),
        (Decision(value=None), "invalid", "not-an-action"),
        (Decision(value={"type": "android.wait", "memory": 5}), "invalid", "not-an-action"),
    ],
    ids=["budget", "unknown-type", "bad-direction", "string", "undefined", "memory-not-a-string"],
)
def test_failed_turns_cost_the_penalty_and_keep_the_notes(
    decision: Decision, outcome: str, code: str
) -> None:
    s = scenario()
    actor = s.android(P1, CENTRE, memory=OLD_MEMORY)
    state = s.build()
    before = snapshot(state)
    event = apply_turn(state, actor, decision)
    assert (event.outcome, event.code) == (outcome, code)
    assert state.androids[actor].health == pytest.approx(90)
    assert state.androids[actor].memory == OLD_MEMORY
    assert without_android_health(snapshot(state), actor) == without_android_health(before, actor)


def test_a_refused_turn_still_lets_the_next_turn_run() -> None:
    """ "Exceeding any of them is a failed turn: it costs the round ... and leaves the next turn
    unaffected." """
    s = scenario()
    actor = s.android(P1, (0, 3))
    state = s.build()
    assert turn(state, actor, {"type": "android.move", "direction": "west"}).outcome == "refused"
    event = turn(state, actor, {"type": "android.move", "direction": "east", "memory": "ok"})
    assert event.outcome == "accepted"
    assert (
        state.androids[actor].x,
        state.androids[actor].memory,
        state.androids[actor].health,
    ) == (1, "ok", 90)


def test_failed_turns_wear_an_android_out() -> None:
    """ "a script that keeps making the same mistake wears its android out": ten refusals take
    100 health, and the android is a wreck at that round's end."""
    from nova_tools.engine import end_round

    s = scenario()
    actor = s.android(P1, (0, 3))
    state = s.build()
    for _ in range(9):
        turn(state, actor, {"type": "android.move", "direction": "west"})
    assert state.androids[actor].health == pytest.approx(10)
    end_round(state)
    assert state.androids[actor].active
    turn(state, actor, {"type": "android.move", "direction": "west"})
    assert end_round(state).destroyed == (actor,)
    assert not state.androids[actor].active


def test_world_state_is_what_the_refusal_table_checks(monkeypatch) -> None:
    """The table's "nothing else changed" check is real: a handler that moves the android before
    refusing is caught by it."""
    from nova_tools.engine import actions

    original = actions.HANDLERS["android.move"]

    def sloppy(state: GameState, android, action):
        android.x += 1
        return original(state, android, action)

    monkeypatch.setitem(actions.HANDLERS, "android.move", sloppy)
    with pytest.raises(AssertionError):
        test_refused_turn_changes_nothing_but_health(ROWS[0])
