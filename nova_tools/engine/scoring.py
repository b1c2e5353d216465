"""Colony readiness (rulebook section 16): completed buildings and material stored in them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..rules import BUILDING_TYPES, MATERIALS
from .state import GameState


@dataclass(frozen=True)
class Contribution:
    source: (
        str  # "buildings.<type>" or "materials.<material>", the rules.scoring path it comes from
    )
    points: float


@dataclass(frozen=True)
class Score:
    player: str
    points: float
    breakdown: tuple[Contribution, ...]


# Each rules' scoring tables as plain dicts, by the identity of their (frozen) scoring model: a
# score is asked for after every game and every frame, and dumping the model each time cost more
# than the counting. The model is kept beside its tables, so an id is never reused while cached.
_TABLES: dict[int, tuple[object, dict[str, Any]]] = {}


def _tables(state: GameState) -> dict[str, Any]:
    scoring = state.rules.scoring
    cached = _TABLES.get(id(scoring))
    if cached is not None and cached[0] is scoring:
        return cached[1]
    if len(_TABLES) >= 64:
        _TABLES.clear()
    tables = scoring.model_dump(by_alias=True)
    _TABLES[id(scoring)] = (scoring, tables)
    return tables


def score(state: GameState, player: str) -> Score:
    scoring = _tables(state)
    building_points: dict[str, float] = {}
    material_units: dict[str, int] = {}
    for building in state.buildings.values():
        if building.owner != player or not building.complete:
            continue
        building_points[building.type] = (
            building_points.get(building.type, 0) + scoring["buildings"][building.type]
        )
        for material, units in building.storage.items():
            material_units[material] = material_units.get(material, 0) + units
    lines = [
        Contribution(f"buildings.{t}", round(building_points[t], 6))
        for t in BUILDING_TYPES
        if building_points.get(t)
    ]
    lines += [
        Contribution(f"materials.{m}", round(material_units[m] * scoring["materials"][m], 6))
        for m in MATERIALS
        if material_units.get(m) and scoring["materials"][m]
    ]
    return Score(player, round(sum(line.points for line in lines), 6), tuple(lines))


def scores(state: GameState) -> list[Score]:
    return [score(state, player) for player in state.players]
