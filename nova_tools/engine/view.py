"""The fogged world a script sees (rulebook section 14), built as plain JSON for speed.

Its shape is :class:`nova_tools.engine.wire.World`; a test validates real views against it.

Two forms of the same view: :func:`world_view` (a dict, for the api, the lab and replays) and
:func:`world_texts` (each top-level key's JSON text, for the sandbox: byte for byte
``encode(world_view(...)[key])``). The texts cost what changed: each tile's fragment is kept with
the composition, scattered materials and ``revealedBy`` it was made from (the state's
:class:`ViewCache`) and re-encoded only when one of them differs; who sees which tile and the
sorted list of tiles in view are kept until visibility changes.
"""

from __future__ import annotations

import json

from .materials import ordered
from .state import Android, Building, GameState, ordered_dict

REDACTED = "[Redacted]"

# The one JSON encoding of a view's values (the sandbox hands these texts to scripts).
encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def _position(x: int, y: int) -> dict:
    return {"x": x, "y": y}


def android_json(android: Android, *, private: bool) -> dict:
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


def building_json(state: GameState, building: Building) -> dict:
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


class ViewCache:
    """What the views of one state keep between turns (derived: never part of the game's form).

    Every entry holds what it was made from and is checked against the state before it is used,
    so a change the engine makes anywhere (or a test makes by hand) is never served stale.
    """

    __slots__ = ("fragments", "revealed_from", "revealed", "order_from", "order")

    def __init__(self) -> None:
        # tile index -> (composition, scattered, revealedBy, the tile's JSON text)
        self.fragments: dict[int, tuple[dict, dict, list[str] | None, str]] = {}
        self.revealed_from: tuple[tuple[str, frozenset[int] | None], ...] | None = None
        self.revealed: dict[int, list[str]] = {}
        self.order_from: tuple[object, ...] | None = None
        self.order: list[int] = []


def _cache(state: GameState) -> ViewCache:
    cache = state.views
    if cache is None:
        cache = state.views = ViewCache()
    return cache


def _revealed_by(state: GameState) -> dict[int, list[str]]:
    cache = _cache(state)
    # the visible sets are frozensets, replaced (not changed) when visibility is recomputed:
    # comparing the key is an identity check per player when nothing changed
    key = tuple((player, state.visible.get(player)) for player in state.players)
    if cache.revealed_from == key:
        return cache.revealed
    seen: dict[int, list[str]] = {}
    for player in state.players:  # join order, so the list order is stable
        for index in state.visible.get(player, ()):
            seen.setdefault(index, []).append(player)
    cache.revealed_from, cache.revealed = key, seen
    return seen


def _included(
    state: GameState, player: str, acting: Android | None, whole: bool
) -> tuple[list[int], set[int] | frozenset[int]]:
    """The indices of the tiles in view, sorted, and as a set."""
    width = state.width
    visible = state.visible.get(player, frozenset())
    own = acting.y * width + acting.x if acting is not None else None
    cache = _cache(state)
    key = (len(state.tiles), whole, own, visible)
    if cache.order_from != key:
        included = set(range(len(state.tiles))) if whole else set(visible)
        if own is not None:
            included.add(own)
        cache.order_from, cache.order = key, sorted(included)
    order = cache.order
    if whole or own is None or own in visible:
        return order, (visible if not whole else set(order))
    return order, set(order)


def _tile_json(state: GameState, index: int, revealed: dict[int, list[str]]) -> dict:
    tile = state.tiles[index]
    entry = {
        "position": _position(index % state.width, index // state.width),
        "composition": ordered_dict(tile.composition),
        "scattered": ordered(tile.scattered),
    }
    if index in revealed:
        entry["revealedBy"] = list(revealed[index])
    return entry


def _rest(state: GameState, player: str, acting: Android | None, included) -> dict:
    width = state.width
    acting_id = acting.id if acting is not None else None
    return {
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


def world_view(
    state: GameState, player: str, acting: Android | None = None, *, whole: bool = False
) -> dict:
    """What ``player`` can see now; with ``acting``, also that android's own tile, and its own
    memory and recording (every other android's are redacted). With ``whole``, every tile, as a
    player-facing replay keeps the world (rulebook section on replays): nothing fogged, and
    every android's memory and recording still redacted."""
    order, included = _included(state, player, acting, whole)
    revealed = _revealed_by(state)
    return {
        "round": state.round,
        "width": state.width,
        "height": state.height,
        "tiles": [_tile_json(state, index, revealed) for index in order],
        **_rest(state, player, acting, included),
    }


def world_texts(
    state: GameState, player: str, acting: Android | None = None, *, whole: bool = False
) -> dict[str, str]:
    """``{key: encode(value)}`` for every key of :func:`world_view` (same arguments), in its
    order: what the sandbox hands a script. Tiles whose fragment is kept are not re-encoded."""
    order, included = _included(state, player, acting, whole)
    revealed = _revealed_by(state)
    fragments = _cache(state).fragments
    tiles = state.tiles
    texts = []
    for index in order:
        tile = tiles[index]
        seen = revealed.get(index)
        kept = fragments.get(index)
        if (
            kept is None
            or kept[0] != tile.composition
            or kept[1] != tile.scattered
            or kept[2] != seen
        ):
            text = encode(_tile_json(state, index, revealed))
            fragments[index] = (dict(tile.composition), dict(tile.scattered), seen, text)
            texts.append(text)
        else:
            texts.append(kept[3])
    out = {
        "round": encode(state.round),
        "width": encode(state.width),
        "height": encode(state.height),
        "tiles": "[" + ",".join(texts) + "]",
    }
    for key, value in _rest(state, player, acting, included).items():
        out[key] = encode(value)
    return out
