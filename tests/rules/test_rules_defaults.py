"""The shipped defaults, exactly as DESIGN section 4 lists them (rulebook numbers and our choices)."""

from __future__ import annotations

import pytest

from nova_tools.rules import BUILDING_TYPES, MATERIALS, Rules

DEFAULTS = Rules().to_json()

MIB = 1024 * 1024

# (JSON path in the resolved rules, the exact value)
TABLE = [
    ("world.width", 12),
    ("world.height", 12),
    ("android.cargoCapacity", 12),
    ("android.memoryLimit", 4096),
    ("android.recordingLimit", 16384),
    ("android.decayPerRound", 0.15),
    ("android.radiationDamagePerPoint", 0.75),
    ("android.acidDamagePerPoint", 1.5),
    ("android.failedTurnHealthPenalty", 10),
    ("android.moveBatteryCost", 1),
    ("android.batteryCapacity", 100),
    ("android.broadcastLimit", 256),
    ("android.cleanAcidAmount", 1),
    ("android.cleanAcidBatteryCost", 1),
    ("android.sight", {"shape": "diamond", "range": 3}),
    ("android.maxHealth", 100),
    ("buildings.charger.androidCapacity", 2),
    ("buildings.charger.charge", 25),
    ("buildings.charger.cost", {"metal": 10}),
    ("buildings.depot.cost", {"metal": 6}),
    ("buildings.depot.salvageableByOthers", False),
    (
        "buildings.extractor.extraction",
        [
            {"source": "ore", "material": "ore", "amount": 3},
            {"source": "water", "material": "water", "amount": 2},
            {"source": "acid", "material": "acidCanister", "amount": 1},
        ],
    ),
    ("buildings.extractor.cost", {"metal": 8, "electronics": 1}),
    (
        "buildings.processor.conversion",
        [
            {"inputs": {"ore": 2}, "outputs": {"metal": 1}},
            {"inputs": {"metal": 1, "water": 1}, "outputs": {"electronics": 1}},
        ],
    ),
    ("buildings.processor.cost", {"metal": 10, "electronics": 2}),
    (
        "buildings.acidProcessingPlant.conversion",
        [{"inputs": {"acidCanister": 1, "water": 1}, "outputs": {"polymer": 1}}],
    ),
    ("buildings.acidProcessingPlant.cleansAcid", True),
    ("buildings.acidProcessingPlant.cost", {"metal": 12, "electronics": 2}),
    ("buildings.scanner.sight", {"shape": "diamond", "range": 4}),
    ("buildings.scanner.cost", {"metal": 4, "electronics": 1}),
    ("buildings.scanner.ticks", 3),
    ("buildings.radar.sight", {"shape": "disc", "range": 5}),
    ("buildings.radar.cost", {"metal": 8, "electronics": 2}),
    ("buildings.radar.ticks", 5),
    ("buildings.relayTower.cost", {"metal": 5, "electronics": 1}),
    ("buildings.colonyModule.cost", {"metal": 20, "electronics": 20, "polymer": 20}),
    ("buildings.colonyModule.ticks", 10),
    ("salvage.ownDamage", 25),
    ("salvage.hostileDamage", 15),
    ("salvage.ownReturnRate", 0.6),
    ("salvage.hostileReturnRate", 0.35),
    ("salvage.repairAmount", 10),
    ("salvage.repairCost", {"metal": 1}),
    ("script.fuel", 200),
    ("script.memory", 16 * MIB),
    (
        "script.timeoutMs",
        10000,
    ),  # our choice: 4x the longest a default turn can run (rules/budgets.py)
    ("match.finalRound", None),
    (
        "scoring.buildings",
        {
            "charger": 4,
            "depot": 3,
            "extractor": 6,
            "processor": 10,
            "acidProcessingPlant": 12,
            "scanner": 0,
            "radar": 0,
            "relayTower": 0,
            "colonyModule": 100,
        },
    ),
    (
        "scoring.materials",
        {"metal": 1, "electronics": 3, "polymer": 4, "ore": 0.5, "water": 0.5, "acidCanister": 1},
    ),
]


def at(path: str):
    value = DEFAULTS
    for part in path.split("."):
        value = value[part]
    if isinstance(value, dict) and set(value) <= set(MATERIALS) and value:
        return {
            k: v for k, v in value.items() if v
        }  # a cost lists every material; compare the non-zero ones
    if isinstance(value, list):
        return [
            {
                k: ({m: u for m, u in v.items() if u} if isinstance(v, dict) else v)
                for k, v in entry.items()
            }
            for entry in value
        ]
    return value


@pytest.mark.parametrize(("path", "value"), TABLE, ids=[p for p, _ in TABLE])
def test_default(path: str, value) -> None:
    assert at(path) == value


def test_every_building_has_100_health() -> None:
    assert {t: DEFAULTS["buildings"][t]["health"] for t in BUILDING_TYPES} == {
        t: 100 for t in BUILDING_TYPES
    }


def test_building_and_material_ids() -> None:
    assert (
        list(DEFAULTS["buildings"])
        == list(BUILDING_TYPES)
        == [
            "charger",
            "depot",
            "extractor",
            "processor",
            "acidProcessingPlant",
            "scanner",
            "radar",
            "relayTower",
            "colonyModule",
        ]
    )
    assert list(DEFAULTS["scoring"]["buildings"]) == list(BUILDING_TYPES)
    assert list(MATERIALS) == ["metal", "electronics", "polymer", "ore", "water", "acidCanister"]


def test_storage_flags() -> None:
    """Deposits: depot, processor, acid plant. Withdrawals: depot, extractor, processor, acid plant."""
    b = DEFAULTS["buildings"]
    assert [t for t in BUILDING_TYPES if b[t]["storage"]["deposit"]] == [
        "depot",
        "processor",
        "acidProcessingPlant",
    ]
    assert [t for t in BUILDING_TYPES if b[t]["storage"]["withdraw"]] == [
        "depot",
        "extractor",
        "processor",
        "acidProcessingPlant",
    ]


def test_only_chargers_charge_and_carry_capacity_only_the_plant_cleans_only_the_depot_is_protected() -> (
    None
):
    b = DEFAULTS["buildings"]
    assert [t for t in BUILDING_TYPES if b[t]["androidCapacity"]] == ["charger"]
    assert [t for t in BUILDING_TYPES if b[t]["charge"]] == ["charger"]
    assert [t for t in BUILDING_TYPES if b[t]["cleansAcid"]] == ["acidProcessingPlant"]
    assert [t for t in BUILDING_TYPES if not b[t]["salvageableByOthers"]] == ["depot"]
    assert [t for t in BUILDING_TYPES if b[t]["extraction"]] == ["extractor"]
    assert [t for t in BUILDING_TYPES if b[t]["conversion"]] == ["processor", "acidProcessingPlant"]
    assert [t for t in BUILDING_TYPES if b[t]["sight"]] == ["scanner", "radar"]


def test_rulebook_relations_between_numbers() -> None:
    b = DEFAULTS["buildings"]
    total = lambda cost: sum(cost.values())  # noqa: E731
    # the radar costs about twice the scanner and takes almost twice as long
    assert 1.6 <= total(b["radar"]["cost"]) / total(b["scanner"]["cost"]) <= 2.4
    assert 1.5 <= b["radar"]["ticks"] / b["scanner"]["ticks"] < 2
    # neither refinery costs polymer; the colony module needs 20 electronics and 20 polymer
    assert b["processor"]["cost"]["polymer"] == b["acidProcessingPlant"]["cost"]["polymer"] == 0
    assert (b["colonyModule"]["cost"]["electronics"], b["colonyModule"]["cost"]["polymer"]) == (
        20,
        20,
    )
    # the default pods can never scatter 20 electronics: count * max < 20
    pods = DEFAULTS["world"]["generation"]["pods"]
    assert set(pods["contents"]) == {"metal", "electronics"}
    assert pods["count"] * pods["contents"]["electronics"]["max"] < 20
    # one defender roughly cancels one attacker
    assert DEFAULTS["salvage"]["hostileDamage"] > DEFAULTS["salvage"]["repairAmount"]
