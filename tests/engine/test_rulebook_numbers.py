"""Every rulebook statement that carries a number, as a table of exact worlds.

A row builds a world with :class:`Scenario`, plays one accepted turn (or a round end) and checks
what a player would see change: positions, battery, health, cargo, what lies on the tile, what a
building stores, what it has been paid.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from engine_worlds import CENTRE, P1, P1_CHARGER, P2, scenario, snapshot, turn

from nova_tools.engine import GameState, Scenario, active_count, capacity, end_round

Check = Callable[[GameState, str, dict], None]


@dataclass(frozen=True)
class Accepted:
    id: str
    rule: str
    build: Callable[[Scenario], str]
    actions: list  # played in order by the actor; all must be accepted
    check: Check
    rules: dict = field(default_factory=dict)


def me(state: GameState, actor: str):
    return state.androids[actor]


def here(state: GameState, actor: str):
    a = state.androids[actor]
    return state.building_on(a.x, a.y)


def scattered(state: GameState, pos=CENTRE) -> dict:
    return dict(state.tile(*pos).scattered)


def expect(**fields) -> Check:
    """Compare named facts about the world with exact values."""

    def check(state: GameState, actor: str, event: dict) -> None:
        facts = {
            "pos": lambda: (me(state, actor).x, me(state, actor).y),
            "battery": lambda: me(state, actor).battery,
            "health": lambda: me(state, actor).health,
            "cargo": lambda: dict(me(state, actor).cargo),
            "memory": lambda: me(state, actor).memory,
            "recording": lambda: me(state, actor).recording,
            "scattered": lambda: scattered(state),
            "building": lambda: None if here(state, actor) is None else here(state, actor).type,
            "complete": lambda: here(state, actor).complete,
            "ticks": lambda: here(state, actor).remaining_ticks,
            "invested": lambda: dict(here(state, actor).invested),
            "storage": lambda: dict(here(state, actor).storage),
            "b_health": lambda: here(state, actor).health,
            "cap": lambda: capacity(state, P1),
            "active": lambda: active_count(state, P1),
        }
        seen = {name: facts[name]() for name in fields}
        assert seen == fields

    return check


def android_at(pos=CENTRE, *steps, **kw) -> Callable[[Scenario], str]:
    def build(s: Scenario) -> str:
        for step in steps:
            step(s)
        return s.android(P1, pos, **kw)

    return build


def b(kind, owner=P1, pos=CENTRE, **kw):
    return lambda s: s.building(kind, owner, pos, **kw)


def t(pos=CENTRE, **kw):
    return lambda s: s.tile(*pos, **kw)


MOVE_E = {"type": "android.move", "direction": "east"}

ROWS = [
    # --- moving and charging ------------------------------------------------------------------------------
    Accepted(
        "move-east-costs-1",
        "Move one tile ... for rules.android.moveBatteryCost battery (1)",
        android_at(),
        [MOVE_E],
        expect(pos=(4, 3), battery=99, health=100),
    ),
    Accepted(
        "move-north-is-y-minus-1",
        "Move one tile north, south, east, or west",
        android_at(),
        [{"type": "android.move", "direction": "north"}],
        expect(pos=(3, 2)),
    ),
    Accepted(
        "move-last-battery",
        "Move for 1 battery",
        android_at(battery=1),
        [MOVE_E],
        expect(pos=(4, 3), battery=0),
    ),
    Accepted(
        "move-retuned-cost",
        "rules.android.moveBatteryCost",
        android_at(),
        [MOVE_E, MOVE_E],
        expect(battery=94),
        rules={"android": {"moveBatteryCost": 3}},
    ),
    Accepted(
        "charge-adds-25",
        "Adds that much battery (25)",
        android_at(P1_CHARGER, battery=50),
        [{"type": "android.charge"}],
        expect(battery=75),
    ),
    Accepted(
        "charge-caps-at-100",
        "capped at rules.android.batteryCapacity (100)",
        android_at(P1_CHARGER, battery=90),
        [{"type": "android.charge"}],
        expect(battery=100),
    ),
    Accepted(
        "charge-on-built-charger",
        "Recharge on an owned completed building ... the charger by default",
        android_at(CENTRE, b("charger"), battery=10),
        [{"type": "android.charge"}, {"type": "android.charge"}],
        expect(battery=60),
    ),
    Accepted(
        "charge-retuned",
        "rules.buildings[type].charge and rules.android.batteryCapacity",
        android_at(P1_CHARGER, battery=10),
        [{"type": "android.charge"}, {"type": "android.charge"}],
        expect(battery=50),
        rules={"buildings": {"charger": {"charge": 40}}, "android": {"batteryCapacity": 50}},
    ),
    Accepted(
        "depot-charges-when-retuned",
        "any type whose rules.buildings[type].charge is above zero",
        android_at(CENTRE, b("depot"), battery=10),
        [{"type": "android.charge"}],
        expect(battery=15),
        rules={"buildings": {"depot": {"charge": 5}}},
    ),
    # --- collecting, depositing, withdrawing --------------------------------------------------------------
    Accepted(
        "collect-up-to-12",
        "If resources is omitted, the android collects what it can up to cargo capacity ... (12)",
        android_at(CENTRE, t(scattered={"metal": 9, "electronics": 5})),
        [{"type": "android.collect"}],
        expect(cargo={"metal": 9, "electronics": 3}, scattered={"electronics": 2}),
    ),
    Accepted(
        "collect-exactly",
        "Collect ... resources: { metal: 3 }",
        android_at(CENTRE, t(scattered={"metal": 9, "electronics": 5})),
        [{"type": "android.collect", "resources": {"metal": 3}}],
        expect(cargo={"metal": 3}, scattered={"metal": 6, "electronics": 5}),
    ),
    Accepted(
        "collect-fills-to-12",
        "carry up to rules.android.cargoCapacity total material units (12)",
        android_at(CENTRE, t(scattered={"metal": 20}), cargo={"ore": 10}),
        [{"type": "android.collect"}],
        expect(cargo={"metal": 2, "ore": 10}, scattered={"metal": 18}),
    ),
    Accepted(
        "cargo-capacity-6",
        "a retuned rule: rules.android.cargoCapacity 6",
        android_at(CENTRE, t(scattered={"metal": 20})),
        [{"type": "android.collect"}],
        expect(cargo={"metal": 6}, scattered={"metal": 14}),
        rules={"android": {"cargoCapacity": 6}},
    ),
    Accepted(
        "deposit-all",
        "If resources is omitted, deposits all cargo",
        android_at(CENTRE, b("depot", storage={"metal": 1}), cargo={"metal": 4, "ore": 2}),
        [{"type": "android.deposit"}],
        expect(cargo={}, storage={"metal": 5, "ore": 2}),
    ),
    Accepted(
        "deposit-some",
        "deposit resources: { ore: 2 }",
        android_at(CENTRE, b("processor"), cargo={"metal": 4, "ore": 3}),
        [{"type": "android.deposit", "resources": {"ore": 2}}],
        expect(cargo={"metal": 4, "ore": 1}, storage={"ore": 2}),
    ),
    Accepted(
        "deposit-acid-plant",
        "depots, processors, and acid processing plants by default",
        android_at(CENTRE, b("acidProcessingPlant"), cargo={"water": 2}),
        [{"type": "android.deposit"}],
        expect(cargo={}, storage={"water": 2}),
    ),
    Accepted(
        "withdraw-extractor",
        "depots, extractors, processors, and acid processing plants by default",
        android_at(CENTRE, b("extractor", storage={"ore": 7}), cargo={"metal": 8}),
        [{"type": "android.withdraw", "resources": {"ore": 4}}],
        expect(cargo={"metal": 8, "ore": 4}, storage={"ore": 3}),
    ),
    # --- construction -------------------------------------------------------------------------------------
    Accepted(
        "depot-takes-6-metal",
        "a depot takes six metal",
        android_at(cargo={"metal": 8}),
        [
            {
                "type": "android.start-construction",
                "buildingType": "depot",
                "resources": {"metal": 6},
            }
        ],
        expect(
            cargo={"metal": 2}, building="depot", complete=False, invested={"metal": 6}, ticks=2
        ),
    ),
    Accepted(
        "unpaid-site",
        "Supplying nothing is allowed: the site is placed unpaid",
        android_at(cargo={"metal": 8}),
        [{"type": "android.start-construction", "buildingType": "charger"}],
        expect(cargo={"metal": 8}, building="charger", complete=False, invested={}, ticks=3),
    ),
    Accepted(
        "pay-later",
        "the material can be delivered later with android.continue-construction",
        android_at(cargo={"metal": 8}),
        [
            {"type": "android.start-construction", "buildingType": "depot"},
            {"type": "android.continue-construction", "resources": {"metal": 4}},
        ],
        expect(cargo={"metal": 4}, invested={"metal": 4}, ticks=2, complete=False),
    ),
    Accepted(
        "continue-ticks-once-paid",
        "If material requirements have been met, each continue action reduces remaining construction time by 1 tick",
        android_at(CENTRE, b("depot", complete=False, invested={"metal": 6})),
        [{"type": "android.continue-construction"}],
        expect(ticks=1, complete=False),
    ),
    Accepted(
        "depot-completes-after-2-ticks",
        "Costs and construction times are rules.buildings[type].cost and .ticks",
        android_at(cargo={"metal": 6}),
        [
            {
                "type": "android.start-construction",
                "buildingType": "depot",
                "resources": {"metal": 6},
            },
            {"type": "android.continue-construction"},
            {"type": "android.continue-construction"},
        ],
        expect(building="depot", complete=True, ticks=0, invested={"metal": 6}, cargo={}),
    ),
    Accepted(
        "charger-completes-and-raises-cap",
        "A player's active android cap is the sum of androidCapacity over their completed buildings",
        android_at(cargo={"metal": 10}),
        [
            {
                "type": "android.start-construction",
                "buildingType": "charger",
                "resources": {"metal": 10},
            }
        ]
        + [{"type": "android.continue-construction"}] * 3,
        expect(complete=True, cap=4),
    ),
    Accepted(
        "site-from-tile-material",
        "Current compatibility also allows using loose/current-tile material",
        android_at(CENTRE, t(scattered={"metal": 5}), cargo={"metal": 2}),
        [
            {
                "type": "android.start-construction",
                "buildingType": "depot",
                "resources": {"metal": 6},
            }
        ],
        expect(cargo={}, scattered={"metal": 1}, invested={"metal": 6}),
    ),
    Accepted(
        "retuned-depot-cost-and-ticks",
        "the rulebook's example: depot cost { metal: 4 }, ticks 1",
        android_at(cargo={"metal": 4}),
        [
            {
                "type": "android.start-construction",
                "buildingType": "depot",
                "resources": {"metal": 4},
            },
            {"type": "android.continue-construction"},
        ],
        expect(complete=True, invested={"metal": 4}),
        rules={"buildings": {"depot": {"cost": {"metal": 4}, "ticks": 1}}},
    ),
    # --- salvage ------------------------------------------------------------------------------------------
    Accepted(
        "own-salvage-25",
        "self-salvage deals rules.salvage.ownDamage building damage per action (25)",
        android_at(CENTRE, b("charger")),
        [{"type": "android.salvage"}],
        expect(b_health=75),
    ),
    Accepted(
        "hostile-salvage-15",
        "hostile salvage deals rules.salvage.hostileDamage building damage per action (15)",
        android_at(CENTRE, b("charger", owner=P2)),
        [{"type": "android.salvage"}],
        expect(b_health=85),
    ),
    Accepted(
        "own-salvage-returns-60pc",
        "self-salvage returns 60% of the material actually invested ... stored material spills in full",
        android_at(CENTRE, b("processor", health=25, storage={"ore": 3, "water": 1})),
        [{"type": "android.salvage"}],
        # floor(10 * 0.6) = 6 metal, floor(2 * 0.6) = 1 electronics; storage in full
        expect(building=None, scattered={"metal": 6, "electronics": 1, "ore": 3, "water": 1}),
    ),
    Accepted(
        "hostile-salvage-returns-35pc",
        "hostile salvage returns rules.salvage.hostileReturnRate (35%) of the same",
        android_at(CENTRE, b("processor", owner=P2, health=15, storage={"ore": 3, "metal": 2})),
        [{"type": "android.salvage"}],
        # floor(10 * 0.35) = 3 metal, floor(2 * 0.35) = 0 electronics, then storage 2 metal + 3 ore
        expect(building=None, scattered={"metal": 5, "ore": 3}),
    ),
    Accepted(
        "salvage-share-of-invested-not-cost",
        "The return is a share of what went into the building, not of what its type costs",
        android_at(CENTRE, b("charger", complete=False, invested={"metal": 5}, health=25)),
        [{"type": "android.salvage"}],
        expect(building=None, scattered={"metal": 3}),  # floor(5 * 0.6)
    ),
    Accepted(
        "unpaid-site-worth-nothing",
        "an unpaid construction site is worth nothing to take apart",
        android_at(CENTRE, b("charger", owner=P2, complete=False, health=15)),
        [{"type": "android.salvage"}],
        expect(building=None, scattered={}),
    ),
    Accepted(
        "salvage-adds-to-loose-material",
        "returned material becomes scattered on the tile",
        android_at(CENTRE, t(scattered={"metal": 1, "polymer": 2}), b("depot", health=25)),
        [{"type": "android.salvage"}],
        expect(scattered={"metal": 4, "polymer": 2}),  # floor(6 * 0.6) = 3 metal
    ),
    Accepted(
        "own-depot-salvage-spills",
        "A player can still salvage their own depot — the stored material spills onto the tile",
        android_at(CENTRE, b("depot", storage={"electronics": 7}), cargo={}),
        [{"type": "android.salvage"}] * 4,
        expect(building=None, scattered={"metal": 3, "electronics": 7}),
    ),
    Accepted(
        "salvage-takes-4-own-actions",
        "Salvage is intentionally slower than ordinary collection: 100 health / 25",
        android_at(CENTRE, b("scanner")),
        [{"type": "android.salvage"}] * 3,
        expect(building="scanner", b_health=25),
    ),
    Accepted(
        "salvage-takes-7-hostile-actions",
        "hostile salvage: 100 health / 15 -> 7 actions",
        android_at(CENTRE, b("scanner", owner=P2)),
        [{"type": "android.salvage"}] * 7,
        expect(building=None, scattered={"metal": 1}),  # floor(4 * .35)=1, floor(1 * .35)=0
    ),
    Accepted(
        "salvaged-charger-lowers-cap",
        "If a non-initial charger is destroyed or salvaged, the player's deployment cap immediately decreases",
        android_at(CENTRE, b("charger", health=25)),
        [{"type": "android.salvage"}],
        expect(cap=2, active=1),
    ),
    Accepted(
        "retuned-salvage",
        "rules.salvage.ownDamage and ownReturnRate are rules",
        android_at(CENTRE, b("charger")),
        [{"type": "android.salvage"}],
        expect(building=None, scattered={"metal": 10}),
        rules={"salvage": {"ownDamage": 100, "ownReturnRate": 1}},
    ),
    # --- repair -------------------------------------------------------------------------------------------
    Accepted(
        "repair-10-for-1-metal",
        "restoring rules.salvage.repairAmount health (10) for rules.salvage.repairCost (1 metal)",
        android_at(CENTRE, b("charger", health=50), cargo={"metal": 3}),
        [{"type": "android.repair"}],
        expect(b_health=60, cargo={"metal": 2}),
    ),
    Accepted(
        "repair-never-above-max",
        "Health never exceeds the building's own maximum",
        android_at(CENTRE, b("charger", health=95), cargo={"metal": 3}),
        [{"type": "android.repair"}],
        expect(b_health=100, cargo={"metal": 2}),
    ),
    Accepted(
        "repair-initial-charger",
        "An android standing on one of its owner's completed buildings can repair it",
        lambda s: (
            setattr(s.state.buildings["building-1"], "health", 70),
            s.android(P1, P1_CHARGER, cargo={"metal": 1}),
        )[1],
        [{"type": "android.repair"}],
        expect(b_health=80, cargo={}),
    ),
    Accepted(
        "retuned-building-health",
        "Health never exceeds the building's own maximum (rules.buildings[type].health)",
        android_at(CENTRE, b("depot", health=135), cargo={"metal": 2}),
        [{"type": "android.repair"}, {"type": "android.repair"}],
        expect(b_health=150, cargo={}),
        rules={"buildings": {"depot": {"health": 150}}},
    ),
    # --- broadcast, notes ---------------------------------------------------------------------------------
    Accepted(
        "broadcast-256",
        "a public message of up to 256 characters",
        android_at(),
        [{"type": "android.broadcast", "content": "x" * 256}],
        expect(health=100),
    ),
    Accepted(
        "memory-4096-recording-16384",
        "memory limited to 4,096 characters, recording to 16,384",
        android_at(),
        [{"type": "android.wait", "memory": "m" * 4096, "recording": "r" * 16384}],
        expect(memory="m" * 4096, recording="r" * 16384),
    ),
    Accepted(
        "notes-replaced-by-accepted-action",
        "They replace the Android's previous values as part of the same turn",
        android_at(),
        [
            {"type": "android.move", "direction": "east", "memory": "a", "recording": "b"},
            {"type": "android.wait", "memory": ""},
        ],
        expect(memory="", recording="b", pos=(4, 3)),
    ),
    Accepted(
        "android-id-echo-is-fine",
        "The engine adds androidId automatically",
        android_at(),
        [{"type": "android.wait", "androidId": "android-1", "memory": "x"}],
        expect(memory="x", health=100),
    ),
    # --- clean acid ---------------------------------------------------------------------------------------
    Accepted(
        "clean-acid",
        "Clean 1 acid from an adjacent tile ... stored as acidCanister in that building ... costs 1 battery",
        android_at(CENTRE, t((3, 2), acid=3, ore=1), b("acidProcessingPlant", pos=(6, 0))),
        [{"type": "android.clean-acid", "direction": "north"}],
        lambda state, actor, event: (
            _eq(state.tile(3, 2).composition, {"acid": 2, "ore": 1}),
            _eq(state.buildings[event.result["building"]].storage, {"acidCanister": 1}),
            _eq(state.buildings[event.result["building"]].type, "acidProcessingPlant"),
            _eq(me(state, actor).battery, 99),
        ),
    ),
    Accepted(
        "clean-last-acid",
        "Cleaning acid reduces the target tile's acid by 1",
        android_at(
            CENTRE,
            t((2, 3), acid=1),
            b("acidProcessingPlant", pos=(6, 0), storage={"acidCanister": 4}),
        ),
        [{"type": "android.clean-acid", "direction": "west"}],
        lambda state, actor, event: (
            _eq(state.tile(2, 3).composition, {}),
            _eq(state.buildings[event.result["building"]].storage, {"acidCanister": 5}),
        ),
    ),
    Accepted(
        "clean-retuned",
        "rules.android.cleanAcidAmount and cleanAcidBatteryCost",
        android_at(CENTRE, t((3, 4), acid=4), b("acidProcessingPlant", pos=(6, 0))),
        [{"type": "android.clean-acid", "direction": "south"}],
        lambda state, actor, event: (
            _eq(state.tile(3, 4).composition, {"acid": 1}),
            _eq(state.buildings[event.result["building"]].storage, {"acidCanister": 3}),
            _eq(me(state, actor).battery, 95),
        ),
        rules={"android": {"cleanAcidAmount": 3, "cleanAcidBatteryCost": 5}},
    ),
    # --- launch and dismantle -----------------------------------------------------------------------------
    Accepted(
        "launch-second",
        "The starting charger therefore allows a second android ... an android standing on it can launch that sibling",
        android_at(P1_CHARGER, battery=40, health=50),
        [{"type": "android.launch", "scriptId": "script-1"}],
        lambda state, actor, event: (
            _eq(active_count(state, P1), 2),
            _eq(
                [
                    (a.x, a.y, a.battery, a.health, a.active, a.script)
                    for a in state.androids.values()
                    if a.id == event.result["android"]
                ],
                [(0, 0, 100, 100, True, "script-1")],
            ),
        ),
    ),
    Accepted(
        "launch-on-built-charger-with-new-script",
        "Launch another android ... on the current tile, which must hold one of the owner's completed chargers",
        lambda s: (s.building("charger", P1, CENTRE), s.script(P1, "v2"), s.android(P1, CENTRE))[2],
        [{"type": "android.launch", "scriptId": "script-3"}],
        lambda state, actor, event: _eq(
            [
                (a.x, a.y, a.script)
                for a in state.androids.values()
                if a.id == event.result["android"]
            ],
            [(3, 3, "script-3")],
        ),
    ),
    Accepted(
        "depot-capacity-1-raises-cap",
        "a depot with androidCapacity: 1 raises the android cap",
        android_at(
            P1_CHARGER, lambda s: s.building("depot", P1, (5, 1)), lambda s: s.android(P1, (5, 5))
        ),
        [{"type": "android.launch", "scriptId": "script-1"}],
        expect(cap=3, active=3),
        rules={"buildings": {"depot": {"androidCapacity": 1}}},
    ),
    Accepted(
        "capacity-1-charger",
        "rules.buildings[type].androidCapacity",
        android_at(P1_CHARGER, lambda s: s.building("charger", P1, CENTRE)),
        [{"type": "android.launch", "scriptId": "script-1"}],
        expect(cap=6, active=2),
        rules={"buildings": {"charger": {"androidCapacity": 3}}},
    ),
    Accepted(
        "dismantle-self",
        "Destroy this android voluntarily ... it stays in the world as a wreck",
        android_at(CENTRE, cargo={"metal": 3}),
        [{"type": "android.dismantle", "memory": "bye", "recording": "log"}],
        lambda state, actor, event: (
            _eq(me(state, actor).active, False),
            _eq(
                (me(state, actor).memory, me(state, actor).recording, me(state, actor).cargo),
                ("bye", "log", {"metal": 3}),
            ),
            _eq(active_count(state, P1), 0),
            _eq(state.tile(*CENTRE).scattered, {}),  # "It currently returns no material"
        ),
    ),
    Accepted(
        "dismantle-sibling-frees-capacity",
        "dismantle another android of the same owner ... frees charger capacity",
        android_at(P1_CHARGER, lambda s: s.android(P1, (5, 5))),
        [
            {"type": "android.dismantle", "targetAndroidId": "android-1"},
            {"type": "android.launch", "scriptId": "script-1"},
        ],
        lambda state, actor, event: (
            _eq(state.androids["android-1"].active, False),
            _eq(me(state, actor).active, True),
            _eq(active_count(state, P1), 2),
            _eq(len(state.androids), 3),
        ),
    ),
]


def _eq(actual, expected) -> None:
    assert actual == expected


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_accepted_turns(row: Accepted) -> None:
    s = scenario(row.rules)
    actor = row.build(s)
    state = s.build()
    event = None
    for action in row.actions:
        event = turn(state, actor, action)
        assert event.outcome == "accepted", event
    row.check(state, actor, event)


def test_broadcast_is_stored_where_it_was_sent() -> None:
    s = scenario()
    actor = s.android(P1, (2, 5))
    state = s.build()
    state.round = 4
    turn(state, actor, {"type": "android.broadcast", "content": "metal found at 3,4"})
    [m] = state.messages
    assert (m.round, m.android, m.owner, m.x, m.y, m.content) == (
        4,
        actor,
        P1,
        2,
        5,
        "metal found at 3,4",
    )


def test_a_site_pays_only_what_it_still_owes() -> None:
    """ "never more of it than the cost asks for": 4 then 2 are accepted, a 7th unit is not."""
    s = scenario()
    actor = s.android(P1, CENTRE, cargo={"metal": 12})
    state = s.build()
    assert (
        turn(
            state,
            actor,
            {
                "type": "android.start-construction",
                "buildingType": "depot",
                "resources": {"metal": 4},
            },
        ).outcome
        == "accepted"
    )
    assert (
        turn(
            state, actor, {"type": "android.continue-construction", "resources": {"metal": 3}}
        ).code
        == "more-than-cost"
    )
    assert (
        turn(
            state, actor, {"type": "android.continue-construction", "resources": {"metal": 2}}
        ).outcome
        == "accepted"
    )
    assert state.building_on(*CENTRE).invested == {"metal": 6}
    assert state.androids[actor].cargo == {"metal": 6}


# --- round end --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundEnd:
    id: str
    rule: str
    build: Callable[[Scenario], None]
    check: Callable[[GameState, dict], None]
    rules: dict = field(default_factory=dict)
    rounds: int = 1


def _health(android_id: str, value: float):
    return lambda state, event: _eq(
        state.androids[android_id].health, pytest.approx(value, abs=1e-9)
    )


END_ROWS = [
    RoundEnd(
        "decay",
        "every android loses rules.android.decayPerRound health from ordinary decay (0.15)",
        lambda s: s.android(P1, CENTRE),
        _health("android-1", 99.85),
    ),
    RoundEnd(
        "decay-10-rounds",
        "0.15 a round",
        lambda s: s.android(P1, CENTRE),
        _health("android-1", 98.5),
        rounds=10,
    ),
    RoundEnd(
        "acid-4",
        "Four points of acid is six health a round (plus decay 0.15)",
        lambda s: (s.tile(3, 3, acid=4), s.android(P1, CENTRE)),
        _health("android-1", 93.85),
    ),
    RoundEnd(
        "radiation-2",
        "radiation damages androids by radiation * rules.android.radiationDamagePerPoint (0.75)",
        lambda s: (s.tile(3, 3, radiation=2), s.android(P1, CENTRE)),
        _health("android-1", 98.35),
    ),
    RoundEnd(
        "acid-and-radiation",
        "acid * 1.5 + radiation * 0.75 + 0.15",
        lambda s: (s.tile(3, 3, acid=1, radiation=3), s.android(P1, CENTRE)),
        _health("android-1", 100 - 1.5 - 2.25 - 0.15),
    ),
    RoundEnd(
        "retuned-hazards",
        "rules.android.acidDamagePerPoint, radiationDamagePerPoint, decayPerRound",
        lambda s: (s.tile(3, 3, acid=2, radiation=1), s.android(P1, CENTRE)),
        _health("android-1", 100 - 20 - 3 - 1),
        rules={
            "android": {"acidDamagePerPoint": 10, "radiationDamagePerPoint": 3, "decayPerRound": 1}
        },
    ),
    RoundEnd(
        "hazard-on-the-tile-stood-on-only",
        "Androids standing on acid take damage at round end (adjacent acid does not hurt)",
        lambda s: (s.tile(3, 2, acid=4), s.tile(2, 3, radiation=3), s.android(P1, CENTRE)),
        _health("android-1", 99.85),
    ),
    RoundEnd(
        "wreck-no-decay",
        "Deactivated androids take no further decay or hazard damage",
        lambda s: (s.tile(3, 3, acid=4), s.android(P1, CENTRE, active=False, health=40)),
        _health("android-1", 40),
        rounds=3,
    ),
    RoundEnd(
        "health-to-zero-destroys",
        "Androids with health at or below 0 ... are destroyed at round end",
        lambda s: s.android(P1, CENTRE, health=0.15, memory="last thoughts"),
        lambda state, event: (
            _eq(list(event.destroyed), ["android-1"]),
            _eq(state.androids["android-1"].active, False),
            _eq(state.androids["android-1"].memory, "last thoughts"),
            _eq((state.androids["android-1"].x, state.androids["android-1"].y), CENTRE),
        ),
    ),
    RoundEnd(
        "health-just-above-zero-survives",
        "at or below 0 — not above",
        lambda s: s.android(P1, CENTRE, health=0.16),
        lambda state, event: (
            _eq(list(event.destroyed), []),
            _eq(state.androids["android-1"].active, True),
        ),
    ),
    RoundEnd(
        "battery-zero-destroys",
        "Androids with battery at or below 0 are destroyed at round end",
        lambda s: s.android(P1, CENTRE, battery=0),
        lambda state, event: (
            _eq(list(event.destroyed), ["android-1"]),
            _eq(state.androids["android-1"].active, False),
        ),
    ),
    RoundEnd(
        "acid-kills",
        "a tile nobody can cross is a wall",
        lambda s: (s.tile(3, 3, acid=4), s.android(P1, CENTRE, health=6)),
        lambda state, event: _eq(list(event.destroyed), ["android-1"]),
    ),
    RoundEnd(
        "wreck-frees-capacity",
        "it takes no further turns and no longer holds charger capacity",
        lambda s: (s.android(P1, P1_CHARGER), s.android(P1, CENTRE, battery=0)),
        lambda state, event: _eq(active_count(state, P1), 1),
    ),
    RoundEnd(
        "extractor",
        "up to 3 ore, 2 water, 1 acidCanister; Harvesting does not consume composition",
        lambda s: (
            s.tile(3, 3, ore=5, water=1, acid=2, radiation=1),
            s.building("extractor", P1, CENTRE),
        ),
        lambda state, event: (
            _eq(state.building_on(*CENTRE).storage, {"ore": 6, "water": 2, "acidCanister": 2}),
            _eq(state.tile(3, 3).composition, {"ore": 5, "water": 1, "acid": 2, "radiation": 1}),
        ),
        rounds=2,
    ),
    RoundEnd(
        "extractor-rich-ground",
        "capped by what the ground holds: 3 / 2 / 1 a round at most",
        lambda s: (s.tile(3, 3, ore=9, water=9, acid=9), s.building("extractor", P1, CENTRE)),
        lambda state, event: _eq(
            state.building_on(*CENTRE).storage, {"ore": 3, "water": 2, "acidCanister": 1}
        ),
    ),
    RoundEnd(
        "extractor-site-idle",
        "nothing a building does ... happens until it is finished",
        lambda s: (
            s.tile(3, 3, ore=9),
            s.building(
                "extractor",
                P1,
                CENTRE,
                complete=False,
                invested={"metal": 8, "electronics": 1},
                remaining_ticks=1,
            ),
        ),
        lambda state, event: _eq(state.building_on(*CENTRE).storage, {}),
    ),
    RoundEnd(
        "processor-chain",
        "the processor: 2 ore -> 1 metal, then 1 metal + 1 water -> 1 electronics, each once, in order",
        lambda s: s.building("processor", P1, CENTRE, storage={"ore": 5, "water": 3}),
        lambda state, event: _eq(
            state.building_on(*CENTRE).storage, {"ore": 3, "water": 2, "electronics": 1}
        ),
    ),
    RoundEnd(
        "processor-ore-only",
        "2 ore -> 1 metal",
        lambda s: s.building("processor", P1, CENTRE, storage={"ore": 3}),
        lambda state, event: _eq(state.building_on(*CENTRE).storage, {"ore": 1, "metal": 1}),
    ),
    RoundEnd(
        "processor-metal-water",
        "1 metal + 1 water -> 1 electronics",
        lambda s: s.building("processor", P1, CENTRE, storage={"metal": 4, "water": 1, "ore": 1}),
        lambda state, event: _eq(
            state.building_on(*CENTRE).storage, {"metal": 3, "electronics": 1, "ore": 1}
        ),
    ),
    RoundEnd(
        "acid-plant",
        "the acid processing plant: 1 acidCanister + 1 water -> 1 polymer",
        lambda s: s.building(
            "acidProcessingPlant", P1, CENTRE, storage={"acidCanister": 3, "water": 1}
        ),
        lambda state, event: _eq(
            state.building_on(*CENTRE).storage, {"acidCanister": 2, "polymer": 1}
        ),
    ),
    RoundEnd(
        "acid-plant-no-water",
        "a recipe runs only when its inputs are stored",
        lambda s: s.building("acidProcessingPlant", P1, CENTRE, storage={"acidCanister": 3}),
        lambda state, event: _eq(state.building_on(*CENTRE).storage, {"acidCanister": 3}),
    ),
    RoundEnd(
        "processor-site-idle",
        "A construction site ... converting ... happens [not] until it is finished",
        lambda s: s.building("processor", P1, CENTRE, complete=False, storage={"ore": 4}),
        lambda state, event: _eq(state.building_on(*CENTRE).storage, {"ore": 4}),
    ),
    RoundEnd(
        "retuned-conversion",
        "a building with a conversion refines material (a depot, retuned)",
        lambda s: s.building("depot", P1, CENTRE, storage={"metal": 5}),
        lambda state, event: _eq(state.building_on(*CENTRE).storage, {"metal": 1, "polymer": 2}),
        rules={
            "buildings": {
                "depot": {
                    "conversion": [
                        {"inputs": {"metal": 2}, "outputs": {"polymer": 1}},
                        {"inputs": {"metal": 2}, "outputs": {"polymer": 1}},
                    ]
                }
            }
        },
    ),
    RoundEnd(
        "retuned-extraction",
        "rules.buildings[type].extraction",
        lambda s: (s.tile(3, 3, ore=9, water=9), s.building("extractor", P1, CENTRE)),
        lambda state, event: _eq(state.building_on(*CENTRE).storage, {"water": 5}),
        rules={
            "buildings": {
                "extractor": {"extraction": [{"source": "water", "material": "water", "amount": 5}]}
            }
        },
    ),
]


@pytest.mark.parametrize("row", END_ROWS, ids=[r.id for r in END_ROWS])
def test_round_end(row: RoundEnd) -> None:
    s = scenario(row.rules)
    row.build(s)
    state = s.build()
    event = None
    for _ in range(row.rounds):
        event = end_round(state)
    row.check(state, event)


def test_extractor_then_processor_within_one_building() -> None:
    """ "they run in the order listed, each once, against the storage as the previous one left it —
    so one building can feed itself": an extractor retuned to also convert refines this round's ore."""
    rules = {
        "buildings": {
            "extractor": {"conversion": [{"inputs": {"ore": 2}, "outputs": {"metal": 1}}]}
        }
    }
    s = scenario(rules)
    s.tile(3, 3, ore=4)
    s.building("extractor", P1, CENTRE)
    state = s.build()
    end_round(state)
    assert state.building_on(*CENTRE).storage == {"ore": 1, "metal": 1}


def test_memory_survives_destruction_in_snapshot() -> None:
    """ "so its owner can still read the memory and recording it left behind"."""
    s = scenario()
    a = s.android(P1, CENTRE, battery=0, memory="mem")
    state = s.build()
    state.androids[a].recording = "rec"
    end_round(state)
    data = snapshot(state)
    [wreck] = [x for x in data["androids"] if x["id"] == a]
    assert (wreck["active"], wreck["memory"], wreck["recording"]) == (False, "mem", "rec")
