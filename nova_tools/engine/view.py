"""The fogged world a script sees (rulebook section 14), built as plain JSON for speed.

Its shape is :class:`nova_tools.engine.wire.World`; a test validates real views against it.
"""

from __future__ import annotations

from typing import Any

from .materials import ordered
from .state import Android, Building, GameState, ordered_dict

REDACTED = "[Redacted]"


def _position(x: int, y: int) -> dict[str, Any]:
    return {"x": x, "y": y}


def android_json(android: Android, *, private: bool) -> dict[str, Any]:
    return {
        "id": android.id,
        "ownerId": android.owner,
        "scriptId": android.script,
        "position": _position(android.x, android.y),
        "battery": android.battery,
        "health": android.health,
        "active": android.active,
        "cargo": ordered(android.cargo),
        "memory": android.memory if private else REDACTED,
        "recording": android.recording if private else REDACTED,
    }


def building_json(state: GameState, building: Building) -> dict[str, Any]:
    from .actions import owed

    return {
        "id": building.id,
        "type": building.type,
        "ownerId": building.owner,
        "position": _position(building.x, building.y),
        "health": building.health,
        "complete": building.complete,
        "initial": building.initial,
        "remainingTicks": building.remaining_ticks,
        "invested": ordered(building.invested),
        "owed": ordered(owed(state, building)) if not building.complete else {},
        "storage": ordered(building.storage),
    }


def _revealed_by(state: GameState) -> dict[int, list[str]]:
    seen: dict[int, list[str]] = {}
    for player in state.players:  # join order, so the list order is stable
        for index in state.visible.get(player, ()):
            seen.setdefault(index, []).append(player)
    return seen


def world_view(
    state: GameState, player: str, acting: Android | None = None, *, whole: bool = False
) -> dict[str, Any]:
    """What ``player`` can see now; with ``acting``, also that android's own tile, and its own
    memory and recording (every other android's are redacted). With ``whole``, every tile, as a
    player-facing replay keeps the world (rulebook section on replays): nothing fogged, and
    every android's memory and recording still redacted."""
    width = state.width
    included = set(range(len(state.tiles))) if whole else set(state.visible.get(player, ()))
    if acting is not None:
        included.add(acting.y * width + acting.x)
    revealed = _revealed_by(state)
    tiles = []
    for index in sorted(included):
        tile = state.tiles[index]
        entry: dict[str, Any] = {
            "position": _position(index % width, index // width),
            "composition": ordered_dict(tile.composition),
            "scattered": ordered(tile.scattered),
        }
        if index in revealed:
            entry["revealedBy"] = revealed[index]
        tiles.append(entry)
    acting_id = acting.id if acting is not None else None
    return {
        "round": state.round,
        "width": state.width,
        "height": state.height,
        "tiles": tiles,
        "androids": [
            android_json(a, private=a.id == acting_id)
            for a in state.androids.values()
            if a.y * width + a.x in included
        ],
        "buildings": [
            building_json(state, b)
            for b in state.buildings.values()
            if b.y * width + b.x in included
        ],
        "messages": [
            {
                "round": m.round,
                "androidId": m.android,
                "ownerId": m.owner,
                "position": _position(m.x, m.y),
                "content": m.content,
            }
            for m in state.messages
            if m.y * width + m.x in included
        ],
        "scripts": [
            {"id": s.id, "name": s.name} for s in state.scripts.values() if s.owner == player
        ],
    }
