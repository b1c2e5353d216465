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
from operator import attrgetter
from typing import Any

from .materials import ordered
from .state import Android, Building, GameState, ordered_dict

REDACTED = "[Redacted]"
_composition, _scattered = attrgetter("composition"), attrgetter("scattered")

# The one JSON encoding of a view's values (the sandbox hands these texts to scripts).
encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


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


class ViewCache:
    """What the views of one state keep between turns (derived: never part of the game's form).

    Every entry holds what it was made from and is checked against the state before it is used,
    so a change the engine makes anywhere (or a test makes by hand) is never served stale.
    """

    __slots__ = ("fragments", "revealed_from", "revealed", "sights")

    def __init__(self) -> None:
        # tile index -> (composition, scattered, revealedBy, the tile's JSON text)
        self.fragments: dict[int, tuple[dict[str, Any], dict[str, Any], list[str] | None, str]] = {}
        self.revealed_from: tuple[tuple[str, frozenset[int] | None], ...] | None = None
        self.revealed: dict[int, list[str]] = {}
        # (tiles, whole, the acting android's tile, the player's visible tiles) -> what is in view
        self.sights: dict[tuple[int, bool, int | None, frozenset[int]], _Sight] = {}


# Views kept per state: the players' and androids' distinct sights of a round or two.
SIGHTS = 64


class _Sight:
    """The tiles one view includes (sorted, and as a set) and the last tiles text made of them:
    (revealed, compositions, scattered, text), the first three being what it was made from."""

    __slots__ = ("order", "members", "text")

    def __init__(self, order: list[int], members: set[int] | frozenset[int]) -> None:
        self.order = order
        self.members = members
        self.text: (
            tuple[dict[int, list[str]], list[dict[str, Any]], list[dict[str, Any]], str] | None
        ) = None


def _cache(state: GameState) -> ViewCache:
    cache = state.views
    if cache is None:
        cache = state.views = ViewCache()
    kept: ViewCache = cache
    return kept


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


def _included(state: GameState, player: str, acting: Android | None, whole: bool) -> _Sight:
    """The tiles in view: sorted, and as a set (kept per sight: see ViewCache.sights)."""
    width = state.width
    visible = state.visible.get(player, frozenset())
    if not isinstance(visible, frozenset):  # a set put there by hand: keys must be hashable
        visible = frozenset(visible)
    own = acting.y * width + acting.x if acting is not None else None
    sights = _cache(state).sights
    key = (len(state.tiles), whole, own, visible)  # a frozenset keeps its hash: a cheap lookup
    sight = sights.get(key)
    if sight is None:
        included = set(range(len(state.tiles))) if whole else set(visible)
        if own is not None:
            included.add(own)
        if len(sights) >= SIGHTS:
            sights.clear()
        members = visible if not whole and (own is None or own in visible) else included
        sight = sights[key] = _Sight(sorted(included), members)
    return sight


def _tile_json(state: GameState, index: int, revealed: dict[int, list[str]]) -> dict[str, Any]:
    tile = state.tiles[index]
    entry: dict[str, Any] = {
        "position": _position(index % state.width, index // state.width),
        "composition": ordered_dict(tile.composition),
        "scattered": ordered(tile.scattered),
    }
    if index in revealed:
        entry["revealedBy"] = list(revealed[index])
    return entry


def _rest(
    state: GameState, player: str, acting: Android | None, included: set[int] | frozenset[int]
) -> dict[str, Any]:
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


# The keys of a world view, in order (world_view, world_texts); the sandbox's prelude makes one
# shared lazy accessor for each.
WORLD_KEYS = ("round", "width", "height", "tiles", "androids", "buildings", "messages", "scripts")


def world_view(
    state: GameState, player: str, acting: Android | None = None, *, whole: bool = False
) -> dict[str, Any]:
    """What ``player`` can see now; with ``acting``, also that android's own tile, and its own
    memory and recording (every other android's are redacted). With ``whole``, every tile, as a
    player-facing replay keeps the world (rulebook section on replays): nothing fogged, and
    every android's memory and recording still redacted."""
    sight = _included(state, player, acting, whole)
    order, included = sight.order, sight.members
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
    sight = _included(state, player, acting, whole)
    revealed = _revealed_by(state)
    cache = _cache(state)
    out = {
        # ints: their JSON is their decimal text (the encoder's own int.__repr__)
        "round": int.__repr__(state.round),
        "width": int.__repr__(state.width),
        "height": int.__repr__(state.height),
        "tiles": _tiles_text(state, cache, sight, revealed),
    }
    for key, value in _rest(state, player, acting, sight.members).items():
        out[key] = encode(value) if value else "[]"  # every other key holds a list
    return out


def _tiles_text(
    state: GameState, cache: ViewCache, sight: _Sight, revealed: dict[int, list[str]]
) -> str:
    """The JSON text of the tiles at ``order``: the last one again when the same tiles are in
    view, seen by the same players, and none of them changed (two list comparisons); else joined
    from the tiles' fragments, each re-encoded only if its tile changed."""
    tiles, order, last = state.tiles, sight.order, sight.text
    if last is not None and last[0] is revealed:
        picked = list(map(tiles.__getitem__, order))  # C-level loops: ~25 ns a tile
        if list(map(_composition, picked)) == last[1] and list(map(_scattered, picked)) == last[2]:
            return last[3]
    fragments = cache.fragments
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
    text = "[" + ",".join(texts) + "]"
    # the fragments hold copies of what they were made from: compared, not the tiles' own dicts
    sight.text = (
        revealed,
        [fragments[i][0] for i in order],
        [fragments[i][1] for i in order],
        text,
    )
    return text
