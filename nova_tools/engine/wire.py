"""The shapes a script sees and returns: the fogged ``world`` and the ``Action`` union.

These pydantic models are the single source for the TypeScript typings (``typings/nova.d.ts``)
and for validating what a turn function returns. The engine builds the world view as plain JSON
for speed; a test checks that view against :class:`World`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from pydantic.alias_generators import to_camel

from ..rules.models import BuildingType

Direction = Literal["north", "south", "east", "west"]


class _Wire(BaseModel):
    model_config = ConfigDict(
        extra="forbid", frozen=True, alias_generator=to_camel, populate_by_name=True, strict=True
    )


class Position(_Wire):
    """A tile's coordinates: x grows to the east, y grows to the south, both from 0."""

    x: int = Field(description="Column, from 0 (west edge) to rules.world.width - 1.")
    y: int = Field(description="Row, from 0 (north edge) to rules.world.height - 1.")


class MaterialAmounts(_Wire):
    """Units of each material; a material that is absent means zero."""

    metal: int | None = Field(None, ge=0, description="Units of metal.")
    electronics: int | None = Field(None, ge=0, description="Units of electronics.")
    polymer: int | None = Field(None, ge=0, description="Units of polymer.")
    ore: int | None = Field(None, ge=0, description="Units of ore.")
    water: int | None = Field(None, ge=0, description="Units of water.")
    acid_canister: int | None = Field(None, ge=0, description="Units of canned acid.")


class Composition(_Wire):
    """What is in a tile's ground; a kind that is absent means zero."""

    ore: int | None = Field(None, description="Natural ore an extractor on this tile harvests.")
    water: int | None = Field(None, description="Natural water an extractor on this tile harvests.")
    acid: int | None = Field(
        None,
        description="Acid: rules.android.acidDamagePerPoint health per point to an android ending a round here.",
    )
    radiation: int | None = Field(
        None,
        description="Radiation: rules.android.radiationDamagePerPoint health per point to an android ending a round here.",
    )


class Tile(_Wire):
    """One tile of the board, as the acting android's owner can see it now."""

    position: Position = Field(description="Where the tile is.")
    composition: Composition = Field(
        description="Materials and hazards in the ground (not collectable directly)."
    )
    scattered: MaterialAmounts = Field(
        description="Loose material on the surface, collectable with android.collect."
    )
    revealed_by: list[str] | None = Field(
        None, description="Ids of the players that can see this tile now."
    )


class Android(_Wire):
    """An android on a visible tile (wrecks included: filter on `active`)."""

    id: str = Field(description="The android's id, e.g. 'android-3'.")
    owner_id: str = Field(description="The player who owns it.")
    script_id: str = Field(description="The script it runs.")
    position: Position = Field(description="The tile it stands on.")
    battery: float = Field(
        description="Battery left; at or below 0 at a round end, the android is destroyed."
    )
    health: float = Field(
        description="Health left; at or below 0 at a round end, the android is destroyed."
    )
    active: bool = Field(
        description="False for a wreck: a destroyed or dismantled android, which takes no more turns."
    )
    cargo: MaterialAmounts = Field(
        description="Material it carries (rules.android.cargoCapacity units at most)."
    )
    memory: str = Field(
        description="Its private working state; '[Redacted]' unless it is the acting android."
    )
    recording: str = Field(
        description="Its log for the player; '[Redacted]' unless it is the acting android."
    )


class Building(_Wire):
    """A building or construction site on a visible tile."""

    id: str = Field(description="The building's id, e.g. 'building-2'.")
    type: BuildingType = Field(description="Its type: the key of its entry in rules.buildings.")
    owner_id: str = Field(description="The player who owns it.")
    position: Position = Field(description="The tile it stands on.")
    health: float = Field(description="Health left; salvage takes it away, repair restores it.")
    complete: bool = Field(
        description="False while it is a construction site: a site does nothing and scores nothing."
    )
    initial: bool = Field(
        description="True for a player's initial charger, which nobody can salvage."
    )
    remaining_ticks: int = Field(
        description="Continue-construction actions still needed once paid for (0 when complete)."
    )
    invested: MaterialAmounts = Field(
        description="Material delivered to it so far; salvage returns a share of this."
    )
    owed: MaterialAmounts = Field(
        description="Material it still needs before construction can progress."
    )
    storage: MaterialAmounts = Field(description="Material stored in it.")


class Message(_Wire):
    """A public broadcast, on the tile it was sent from."""

    round: int = Field(description="The round it was sent in.")
    android_id: str = Field(description="The android that sent it.")
    owner_id: str = Field(description="The player whose android sent it.")
    position: Position = Field(description="Where the sender stood.")
    content: str = Field(description="The text (rules.android.broadcastLimit characters at most).")


class ScriptInfo(_Wire):
    """One of your own uploaded scripts, launchable with android.launch."""

    id: str = Field(description="The script id, e.g. 'script-2'.")
    name: str = Field(description="The name it was uploaded under.")


class World(_Wire):
    """The world as your android's owner sees it this turn: the visible tiles (plus the acting
    android's own tile) and what stands on them."""

    round: int = Field(
        description="The round now being played, counting from 1 (the same as the turn global)."
    )
    width: int = Field(description="Board width (rules.world.width).")
    height: int = Field(description="Board height (rules.world.height).")
    tiles: list[Tile] = Field(
        description="Every tile you can see now, plus the acting android's own tile."
    )
    androids: list[Android] = Field(description="Androids on those tiles, wrecks included.")
    buildings: list[Building] = Field(
        description="Buildings and construction sites on those tiles."
    )
    messages: list[Message] = Field(description="Broadcasts sent from those tiles.")
    scripts: list[ScriptInfo] = Field(description="Your own scripts.")


# --- actions ---------------------------------------------------------------------------------------


class _ActionBase(_Wire):
    memory: str | None = Field(
        None,
        description="Replaces the android's memory if the action is accepted (rules.android.memoryLimit characters at most).",
    )
    recording: str | None = Field(
        None,
        description="Replaces the android's recording if the action is accepted (rules.android.recordingLimit characters at most).",
    )


class WaitAction(_ActionBase):
    """Do nothing this round. Always accepted (a safe way to write memory or recording)."""

    type: Literal["android.wait"]


class MoveAction(_ActionBase):
    """Move one tile for rules.android.moveBatteryCost battery. Refused (off-map, no-battery) when the
    tile is off the board or the battery is short."""

    type: Literal["android.move"]
    direction: Direction = Field(
        description="Which way: north (y - 1), south (y + 1), east (x + 1) or west (x - 1)."
    )


class ChargeAction(_ActionBase):
    """Recharge on your own completed building on this tile whose rules charge is above zero (the
    charger): adds that much battery, capped at rules.android.batteryCapacity. Refused (no-building,
    not-owner, not-complete, cannot-charge) anywhere else."""

    type: Literal["android.charge"]


class CollectAction(_ActionBase):
    """Pick up scattered material from this tile into cargo; without resources, as much as fits.
    Refused (nothing-here, not-here, cargo-full) when the tile lacks it or the cargo
    (rules.android.cargoCapacity) has no room."""

    type: Literal["android.collect"]
    resources: MaterialAmounts | None = Field(
        None, description="Exactly what to pick up; omit to take what fits."
    )


class DepositAction(_ActionBase):
    """Put cargo into your own completed building on this tile that accepts deposits (depot,
    processor, acid processing plant); without resources, all of it. Refused (no-building,
    not-owner, not-complete, no-deposit, cargo-empty, not-in-cargo) otherwise."""

    type: Literal["android.deposit"]
    resources: MaterialAmounts | None = Field(
        None, description="Exactly what to deposit; omit to deposit all cargo."
    )


class WithdrawAction(_ActionBase):
    """Take stored material from your own completed building on this tile that allows withdrawals.
    Refused (no-withdraw, not-stored, cargo-full) when it is not allowed, not stored or does not fit."""

    type: Literal["android.withdraw"]
    resources: MaterialAmounts = Field(
        description="Exactly what to take; it must be stored there and fit in cargo."
    )


class StartConstructionAction(_ActionBase):
    """Place a construction site on this empty tile, paying what you supply from cargo. Refused
    (tile-occupied, not-in-cost, more-than-cost, not-in-cargo) on an occupied tile, or for material
    the cost does not name, more than it asks, or material you do not carry."""

    type: Literal["android.start-construction"]
    building_type: BuildingType = Field(description="Which building (a key of rules.buildings).")
    resources: MaterialAmounts | None = Field(
        None, description="Material to pay now: only what the cost names, never more than it asks."
    )


class ContinueConstructionAction(_ActionBase):
    """Deliver material to your own site on this tile and, once it is paid for, build one tick
    (rules.buildings[type].ticks in all). Refused (no-site, not-owner, unpaid, not-in-cost) when
    there is no site of yours here or it still needs material and none is supplied."""

    type: Literal["android.continue-construction"]
    resources: MaterialAmounts | None = Field(
        None, description="Material to deliver: only what the site still owes."
    )


class SalvageAction(_ActionBase):
    """Damage the building on this tile (rules.salvage.ownDamage, or hostileDamage for another
    player's); at 0 health a share of what was invested, and everything stored, is scattered here.
    Refused (initial-charger, protected) for initial chargers and for types another player may
    not salvage (the depot)."""

    type: Literal["android.salvage"]


class RepairAction(_ActionBase):
    """Restore rules.salvage.repairAmount health to your own damaged completed building on this
    tile, for rules.salvage.repairCost from cargo. Refused (not-damaged, not-in-cargo) at full
    health or without the material."""

    type: Literal["android.repair"]


class BroadcastAction(_ActionBase):
    """Send a public message from this tile. Refused (too-long) over rules.android.broadcastLimit
    characters."""

    type: Literal["android.broadcast"]
    content: str = Field(description="The text, rules.android.broadcastLimit characters at most.")


class CleanAcidAction(_ActionBase):
    """Remove rules.android.cleanAcidAmount acid from the adjacent tile in a direction, for
    rules.android.cleanAcidBatteryCost battery; the canister is stored in your plant. Refused
    (no-acid-plant, no-acid, off-map, no-battery) without a completed acid processing plant, on a
    tile with no acid, off the board, or short of battery."""

    type: Literal["android.clean-acid"]
    direction: Direction = Field(description="Which adjacent tile to clean.")


class LaunchAction(_ActionBase):
    """Launch a new android of yours on this tile, which must hold your completed charger; it acts
    from the next round. Refused (not-on-charger, unknown-script, at-capacity) elsewhere, for a
    script that is not yours, or when your chargers allow no more active androids."""

    type: Literal["android.launch"]
    script_id: str = Field(description="One of your scripts, as listed in world.scripts.")


class DismantleAction(_ActionBase):
    """Deactivate this android (it stays as a wreck), or with targetAndroidId another of yours while
    standing on your completed charger. Refused (self-target, not-on-charger, bad-target) when the
    target is itself, you are not on your charger, or it is not one of your active androids."""

    type: Literal["android.dismantle"]
    target_android_id: str | None = Field(
        None,
        description="Another of your active androids to dismantle; omit to dismantle yourself.",
    )


AnyAction = (
    WaitAction
    | MoveAction
    | ChargeAction
    | CollectAction
    | DepositAction
    | WithdrawAction
    | StartConstructionAction
    | ContinueConstructionAction
    | SalvageAction
    | RepairAction
    | BroadcastAction
    | CleanAcidAction
    | LaunchAction
    | DismantleAction
)
"""Every action model, as one union."""
ACTION_MODELS: tuple[type[BaseModel], ...] = get_args(AnyAction)
Action = Annotated[AnyAction, Field(discriminator="type")]
ACTION_ADAPTER: TypeAdapter[Any] = TypeAdapter(Action)
ACTION_TYPES: tuple[str, ...] = tuple(
    get_args(m.model_fields["type"].annotation)[0] for m in ACTION_MODELS
)
