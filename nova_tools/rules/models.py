"""Every number the game is played with, as one typed record.

The rulebook calls these "rules": data, not code. Each field carries a description in our own
words; the JSON Schema (``schemas/rules.schema.json``), the TypeScript typings and the editor's
hover docs are generated from these models, never written twice.

Two kinds of object live here:

* **groups** (:class:`Group`) merge deeply: a rules file may give any subset of their fields;
* **leaf values** (:class:`Leaf`) — a sight, a generation roll, a cost, an extraction or
  conversion entry — are supplied whole or not at all, so every field of a leaf without a
  natural zero is required.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.alias_generators import to_camel

from . import budgets

# The largest number (in size) any rule may hold: 2^31 - 1.
MAX_RULE_NUMBER = 2**31 - 1

Material = Literal["metal", "electronics", "polymer", "ore", "water", "acidCanister"]
CompositionKind = Literal["ore", "water", "acid", "radiation"]
BuildingType = Literal[
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
# the same names as values, in the order the game lists them (declared once, above)
MATERIALS: tuple[Material, ...] = get_args(Material)
COMPOSITION: tuple[CompositionKind, ...] = get_args(CompositionKind)
BUILDING_TYPES: tuple[BuildingType, ...] = get_args(BuildingType)


class _Model(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        alias_generator=to_camel,
        populate_by_name=True,
        strict=True,
        # 1e400 parses as infinity: a rule is a finite number (JSON has no Infinity or NaN)
        allow_inf_nan=False,
        # defaults go through validation too, so Rules() and resolve({}) are the same JSON
        # (a float rule written as 10 reads back as 10.0 either way)
        validate_default=True,
    )

    @field_validator("*", mode="after")
    @classmethod
    def _in_range(cls, value: object) -> object:
        # Every number a game is played with stays within a 32-bit signed integer: exact in any
        # JS engine, and sums of a few thousand of them can never overflow to Infinity (which
        # no game file, reply or script could carry as JSON).
        if (
            isinstance(value, (int, float))
            and not isinstance(value, bool)
            and abs(value) > MAX_RULE_NUMBER
        ):
            raise ValueError(f"a rule is at most {MAX_RULE_NUMBER:,} in size")
        return value


class Group(_Model):
    """A group of rules: any subset of its fields may be given; the rest keep their defaults."""


class Leaf(_Model):
    """A leaf value object: replaced whole by a rules file, never merged field by field."""


# --- leaf values ---------------------------------------------------------------------------------


class Materials(Leaf):
    """An amount of each material; a material left out counts as zero."""

    metal: int = Field(0, ge=0, description="Units of metal.")
    electronics: int = Field(0, ge=0, description="Units of electronics.")
    polymer: int = Field(0, ge=0, description="Units of polymer.")
    ore: int = Field(0, ge=0, description="Units of ore.")
    water: int = Field(0, ge=0, description="Units of water.")
    acid_canister: int = Field(0, ge=0, description="Units of canned acid (acidCanister).")

    def items(self) -> list[tuple[str, int]]:
        """The non-zero amounts as (material id, units), in the fixed material order."""
        # read field by field, not through a dump (a third of the time), in a loop (a
        # comprehension is a call of its own in this Python): a round end and every
        # construction turn ask a cost for its bag
        held: list[tuple[str, int]] = []
        for material, name in _MATERIAL_FIELDS:
            units = getattr(self, name)
            if units:
                held.append((material, units))
        return held


def material_fields(model: type[BaseModel]) -> tuple[tuple[Material, str], ...]:
    """(material id, field name) for each material, in the fixed material order, of a model with
    one field per material named by its id (its alias): read the model's fields, not a dump."""
    name_of = {field.alias or name: name for name, field in model.model_fields.items()}
    return tuple((m, name_of[m]) for m in MATERIALS)


_MATERIAL_FIELDS = material_fields(Materials)


class Sight(Leaf):
    """How far something sees, and with which footprint."""

    shape: Literal["diamond", "disc"] = Field(
        description="'diamond' counts orthogonal steps (|dx| + |dy| <= range); 'disc' uses true "
        "distance (dx^2 + dy^2 <= range^2)."
    )
    range: int = Field(
        ge=0,
        le=512,
        description="How many tiles away a tile can be and still be seen (512 sees any board whole).",
    )


class Roll(Leaf):
    """A whole number drawn uniformly between min and max, both included."""

    min: int = Field(ge=0, description="The smallest value the roll can give.")
    max: int = Field(ge=0, description="The largest value the roll can give.")

    @model_validator(mode="after")
    def _ordered(self) -> Roll:
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) must not be greater than max ({self.max})")
        return self


class CompositionRoll(Leaf):
    """How one kind of ground composition is spread over a fresh map."""

    chance: float = Field(ge=0, le=1, description="Probability that a tile gets any of it.")
    min: int = Field(ge=0, description="Smallest amount on a tile that gets it.")
    max: int = Field(ge=0, description="Largest amount on a tile that gets it.")

    @model_validator(mode="after")
    def _ordered(self) -> CompositionRoll:
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) must not be greater than max ({self.max})")
        return self


class Extraction(Leaf):
    """One harvest a building makes from its own tile's composition every round end."""

    source: CompositionKind = Field(
        description="The composition field harvested (it is not consumed)."
    )
    material: Material = Field(description="The material stored in the building.")
    amount: int = Field(
        ge=0, description="At most this many units a round, capped by what the ground holds."
    )


class Conversion(Leaf):
    """One recipe a building runs once per round end on its own storage."""

    inputs: Materials = Field(description="Material consumed from storage when the recipe runs.")
    outputs: Materials = Field(description="Material added to storage when the recipe runs.")


class Storage(Leaf):
    """Whether androids may put material into a building and take it out."""

    deposit: bool = Field(description="Owned androids may deposit cargo here.")
    withdraw: bool = Field(description="Owned androids may withdraw stored material from here.")


# --- groups --------------------------------------------------------------------------------------


def _default_pod_contents() -> dict[Material, Roll]:
    return {"metal": Roll(min=2, max=6), "electronics": Roll(min=0, max=1)}


class Pods(Group):
    """The earth-launched material pods scattered over a fresh map."""

    count: int = Field(
        10,
        ge=0,
        le=65536,
        description="How many pods land on a fresh map (one tile each; two pods may share a tile).",
    )
    contents: dict[Material, Roll] = Field(
        default_factory=_default_pod_contents,
        description="What each pod holds, per material. Earth sent metal and electronics; "
        "the default never scatters 20 or more electronics on one map.",
    )


class Generation(Group):
    """How a fresh map is generated from the game seed."""

    pods: Pods = Field(default_factory=Pods, description="Scattered earth-launched material.")
    ore: CompositionRoll = Field(
        CompositionRoll(chance=0.25, min=1, max=4),
        description="Natural ore in the ground, which extractors harvest.",
    )
    water: CompositionRoll = Field(
        CompositionRoll(chance=0.2, min=1, max=3),
        description="Natural water in the ground, which extractors harvest.",
    )
    acid: CompositionRoll = Field(
        CompositionRoll(chance=0.12, min=1, max=4),
        description="Acid in the ground: a hazard to androids standing on it, and the source of acidCanister.",
    )
    radiation: CompositionRoll = Field(
        CompositionRoll(chance=0.08, min=1, max=3),
        description="Radiation: a hazard to androids standing on it.",
    )


class WorldRules(Group):
    """The board."""

    width: int = Field(
        12, ge=2, le=256, description="Number of tile columns (x runs from 0 to width - 1)."
    )
    height: int = Field(
        12, ge=2, le=256, description="Number of tile rows (y runs from 0 to height - 1)."
    )
    generation: Generation = Field(
        default_factory=Generation, description="How a fresh map is generated."
    )
    symmetry: Literal["none", "rotational"] = Field(
        "none",
        description="'none': the random map of the rulebook. 'rotational': a fair map for comparing "
        "scripts: composition, pods and the first two seats' initial chargers are symmetric under a "
        "half turn about the board's centre, and on a square board under a quarter turn, so four "
        "seats start alike. Pods land in symmetric groups (2, or 4 on a square board): "
        "generation.pods.count is rounded to the nearest multiple of the group size, halves up.",
    )


class AndroidRules(Group):
    """Androids: what they carry, what wears them out, what their actions cost."""

    cargo_capacity: int = Field(
        12, ge=0, description="Most material units an android can carry, all materials together."
    )
    memory_limit: int = Field(
        4096,
        ge=0,
        description="Most characters an android's private memory may hold, counted as a script's .length counts (an emoji is 2).",
    )
    recording_limit: int = Field(
        16384,
        ge=0,
        description="Most characters an android's recording (its log for the player) may hold, counted as a script's .length counts.",
    )
    broadcast_limit: int = Field(
        256,
        ge=0,
        description="Most characters one broadcast message may hold, counted as a script's .length counts.",
    )
    battery_capacity: float = Field(
        100,
        gt=0,
        description="Full battery; a new android starts with it and charging never exceeds it.",
    )
    max_health: float = Field(100, gt=0, description="Full health; a new android starts with it.")
    decay_per_round: float = Field(
        0.15, ge=0, description="Health every active android loses at each round end."
    )
    radiation_damage_per_point: float = Field(
        0.75,
        ge=0,
        description="Health lost at round end per point of radiation on the android's tile.",
    )
    acid_damage_per_point: float = Field(
        1.5, ge=0, description="Health lost at round end per point of acid on the android's tile."
    )
    failed_turn_health_penalty: float = Field(
        10,
        ge=0,
        description="Health lost for a failed turn: a refused action, a script error or an exhausted budget.",
    )
    move_battery_cost: float = Field(1, ge=0, description="Battery one move costs.")
    clean_acid_amount: int = Field(
        1, ge=0, description="Acid one clean-acid action removes from the target tile."
    )
    clean_acid_battery_cost: float = Field(
        1, ge=0, description="Battery one clean-acid action costs."
    )
    sight: Sight | None = Field(
        Sight(shape="diamond", range=3),
        description="What an active android sees around itself (null: nothing but its own tile).",
    )


class BuildingRules(Group):
    """One building type: what it costs and what it does once completed."""

    cost: Materials = Field(
        Materials(),
        description="Material the construction site must receive before it can be built.",
    )
    ticks: int = Field(
        1, ge=0, description="Continue-construction actions needed, once paid for, to complete it."
    )
    health: float = Field(
        100,
        gt=0,
        description="Full health of the building; salvage takes it away, repair restores it.",
    )
    android_capacity: int = Field(
        0, ge=0, description="Active androids this building lets its owner keep (the android cap)."
    )
    charge: float = Field(
        0,
        ge=0,
        description="Battery one charge action on this building adds (0: it cannot charge).",
    )
    storage: Storage = Field(
        Storage(deposit=False, withdraw=False), description="Deposits and withdrawals it accepts."
    )
    extraction: list[Extraction] = Field(
        default_factory=list, description="What it harvests from its own tile every round end."
    )
    conversion: list[Conversion] = Field(
        default_factory=list,
        description="Recipes run in order, each once, on its own storage every round end.",
    )
    sight: Sight | None = Field(None, description="What it reveals once completed (null: nothing).")
    cleans_acid: bool = Field(
        False,
        description="Owning one completed lets the owner's androids clean acid (canisters are stored in it).",
    )
    salvageable_by_others: bool = Field(
        True, description="Whether another player's androids may salvage it."
    )


def _m(**amounts: int) -> Materials:
    return Materials(**amounts)


def _conv(inputs: Materials, outputs: Materials) -> Conversion:
    return Conversion(inputs=inputs, outputs=outputs)


_STORES = Storage(deposit=True, withdraw=True)


class Buildings(Group):
    """Every building type, by id."""

    charger: BuildingRules = Field(
        BuildingRules(cost=_m(metal=10), ticks=3, android_capacity=2, charge=25),
        description="Charges androids and carries android capacity. Every player starts with one that cannot be salvaged.",
    )
    depot: BuildingRules = Field(
        BuildingRules(cost=_m(metal=6), ticks=2, storage=_STORES, salvageable_by_others=False),
        description="Safe storage: material banked here cannot be taken by a rival.",
    )
    extractor: BuildingRules = Field(
        BuildingRules(
            cost=_m(metal=8, electronics=1),
            ticks=3,
            storage=Storage(deposit=False, withdraw=True),
            extraction=[
                Extraction(source="ore", material="ore", amount=3),
                Extraction(source="water", material="water", amount=2),
                Extraction(source="acid", material="acidCanister", amount=1),
            ],
        ),
        description="Harvests ore, water and acid from its own tile's composition into its storage.",
    )
    processor: BuildingRules = Field(
        BuildingRules(
            cost=_m(metal=10, electronics=2),
            ticks=4,
            storage=_STORES,
            conversion=[
                _conv(_m(ore=2), _m(metal=1)),
                _conv(_m(metal=1, water=1), _m(electronics=1)),
            ],
        ),
        description="Refines ore into metal, then metal and water into electronics.",
    )
    acid_processing_plant: BuildingRules = Field(
        BuildingRules(
            cost=_m(metal=12, electronics=2),
            ticks=4,
            storage=_STORES,
            conversion=[_conv(_m(acid_canister=1, water=1), _m(polymer=1))],
            cleans_acid=True,
        ),
        description="Lets its owner's androids clean acid, and refines canisters and water into polymer.",
    )
    scanner: BuildingRules = Field(
        BuildingRules(
            cost=_m(metal=4, electronics=1), ticks=3, sight=Sight(shape="diamond", range=4)
        ),
        description="Reveals the tiles around it (a diamond).",
    )
    radar: BuildingRules = Field(
        BuildingRules(cost=_m(metal=8, electronics=2), ticks=5, sight=Sight(shape="disc", range=5)),
        description="Sweeps a disc of tiles around it: about twice a scanner's ground.",
    )
    relay_tower: BuildingRules = Field(
        BuildingRules(cost=_m(metal=5, electronics=1), ticks=2),
        description="Planned to extend broadcasts; inert for now.",
    )
    colony_module: BuildingRules = Field(
        BuildingRules(cost=_m(metal=20, electronics=20, polymer=20), ticks=10),
        description="The heart of a colony, and its biggest score.",
    )


class SalvageRules(Group):
    """Taking buildings apart, and mending them."""

    own_damage: float = Field(
        25, ge=0, description="Building health one salvage action by its owner takes away."
    )
    hostile_damage: float = Field(
        15, ge=0, description="Building health one salvage action by another player takes away."
    )
    own_return_rate: float = Field(
        0.6,
        ge=0,
        le=1,
        description="Share of the material invested that the owner's salvage scatters on the tile.",
    )
    hostile_return_rate: float = Field(
        0.35,
        ge=0,
        le=1,
        description="Share of the material invested that another player's salvage scatters on the tile.",
    )
    repair_amount: float = Field(
        10, ge=0, description="Building health one repair action restores."
    )
    repair_cost: Materials = Field(_m(metal=1), description="Cargo one repair action spends.")


class BuildingPoints(Group):
    """Readiness points per completed building of each type."""

    charger: float = Field(
        4, description="Points per completed charger (the initial one included)."
    )
    depot: float = Field(3, description="Points per completed depot.")
    extractor: float = Field(6, description="Points per completed extractor.")
    processor: float = Field(10, description="Points per completed processor.")
    acid_processing_plant: float = Field(
        12, description="Points per completed acid processing plant."
    )
    scanner: float = Field(0, description="Points per completed scanner (sight earns nothing).")
    radar: float = Field(0, description="Points per completed radar (sight earns nothing).")
    relay_tower: float = Field(0, description="Points per completed relay tower.")
    colony_module: float = Field(100, description="Points per completed colony module.")


class MaterialPoints(Group):
    """Readiness points per unit stored in a completed building of the owner."""

    metal: float = Field(1, description="Points per stored unit of metal.")
    electronics: float = Field(3, description="Points per stored unit of electronics.")
    polymer: float = Field(4, description="Points per stored unit of polymer.")
    ore: float = Field(0.5, description="Points per stored unit of ore.")
    water: float = Field(0.5, description="Points per stored unit of water.")
    acid_canister: float = Field(1, description="Points per stored unit of acidCanister.")


class ScoringRules(Group):
    """The colony readiness score."""

    buildings: BuildingPoints = Field(
        default_factory=BuildingPoints, description="Points per completed building."
    )
    materials: MaterialPoints = Field(
        default_factory=MaterialPoints, description="Points per stored material unit."
    )


class ScriptRules(Group):
    """What one android turn may spend. Exceeding any budget is a failed turn."""

    fuel: int = Field(
        200,
        ge=0,
        le=budgets.MAX_FUEL,
        description="Interpreter ticks a turn may spend (one tick is about 10,000 loop iterations or calls).",
    )
    memory: int = Field(
        16 * 1024 * 1024,
        ge=1024 * 1024,
        le=budgets.MAX_HEAP_BYTES,
        description="Bytes of JavaScript heap a turn may use.",
    )
    timeout_ms: int = Field(
        10_000,
        ge=1,
        le=budgets.MAX_TIMEOUT_MS,
        description="Milliseconds of CPU time (the turn's own, so a busy machine does not shorten it) before the "
        "host gives up on a turn: a last resort for the host, set high enough that fuel always runs out first "
        "(at least 4x the longest a turn of this fuel can run).",
    )


class MatchRules(Group):
    """The match around the game."""

    final_round: int | None = Field(
        None,
        ge=1,
        description="The round the humans land on (scripts read it as finalTurn), or null for no arrival date.",
    )


class Rules(Group):
    """Every rule of a Nova game. `{}` is the game as it ships."""

    world: WorldRules = Field(
        default_factory=WorldRules, description="The board and how a fresh one is generated."
    )
    android: AndroidRules = Field(default_factory=AndroidRules, description="Androids.")
    buildings: Buildings = Field(default_factory=Buildings, description="Building types, by id.")
    salvage: SalvageRules = Field(default_factory=SalvageRules, description="Salvage and repair.")
    scoring: ScoringRules = Field(
        default_factory=ScoringRules, description="The colony readiness score."
    )
    script: ScriptRules = Field(
        default_factory=ScriptRules, description="Budgets of one android turn."
    )
    match: MatchRules = Field(default_factory=MatchRules, description="The match around the game.")

    def building(self, building_type: str) -> BuildingRules:
        """The rules of one building type, by its id (e.g. ``"acidProcessingPlant"``)."""
        found: BuildingRules = getattr(self.buildings, _FIELD_OF_ID[building_type])
        return found

    def to_json(self) -> dict[str, Any]:
        """The resolved rules as the JSON object scripts see as the ``rules`` global."""
        return self.model_dump(by_alias=True, mode="json")


_FIELD_OF_ID = {to_camel(name): name for name in Buildings.model_fields}
