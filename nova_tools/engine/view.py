"""The fogged world a script sees (rulebook section 14), built as plain JSON for speed.

Its shape is :class:`nova_tools.engine.wire.World`; a test validates real views against it.

Two forms of the same view, made of the same projections (``_tile_json``, :func:`android_json`,
:func:`building_json`, the api's frames use the last two too): :func:`world_view` (a dict, for the
api, ``get_world`` and replays) and :func:`world_texts` (each top-level key's JSON text, for the
sandbox: byte for byte ``encode(world_view(...)[key])``). The texts cost what changed: each tile's,
android's, building's, broadcast's and script list's JSON text is kept (the state's
:class:`ViewCache`) with what it was made from and encoded again only when that changed. Tiles
are values and the board logs every tile it replaces (``state.Board``), so a sight's whole tiles
text is reused while the board replaced none of its tiles and the same players see them, and
only the replaced tiles are encoded when it did; who sees which tile and the sorted list of
tiles in view are kept until visibility changes.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from typing import Any

from .materials import ordered
from .state import Android, Board, Building, GameState, Message, Script, Tile, ordered_dict

REDACTED = "[Redacted]"

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

    Every entry holds what it was made from and is checked against the state before use: a tile's
    fragment the tile it encodes (tiles are values: state.Board is the one place one changes, and
    counts it), an android's or building's the fields its JSON reads, so a change the engine makes
    anywhere is never served stale.
    """

    __slots__ = (
        "rules",
        "fragments",
        "revealed_from",
        "revealed",
        "sights",
        "androids",
        "buildings",
        "messages",
        "scripts",
    )

    def __init__(self, rules: object) -> None:
        self.rules = rules  # what buildings' "owed" was computed with
        # tile index -> (the tile, its revealedBy, the tile's JSON text)
        self.fragments: dict[int, tuple[Tile, list[str] | None, str]] = {}
        self.revealed_from: tuple[tuple[str, frozenset[int] | None], ...] | None = None
        self.revealed: dict[int, list[str]] = {}
        # (tiles, whole, the acting android's tile, the player's visible tiles) -> what is in view
        self.sights: dict[tuple[int, bool, int | None, frozenset[int]], _Sight] = {}
        # android id -> [what its JSON was made from, its public text, its private text]
        self.androids: dict[str, list[Any]] = {}
        self.buildings: dict[str, tuple[tuple[Any, ...], str]] = {}  # id -> (made from, text)
        self.messages: dict[int, tuple[Message, str]] = {}  # id(message) -> (message, text)
        self.scripts: dict[str, tuple[tuple[Script, ...], str]] = {}  # player -> (theirs, text)


# Views kept per state: the players' and androids' distinct sights of a round or two.
SIGHTS = 64


class _Sight:
    """The tiles one view includes (sorted, and as a set) and the last tiles text made of them."""

    __slots__ = ("order", "members", "text")

    def __init__(self, order: list[int], members: set[int] | frozenset[int]) -> None:
        self.order = order
        self.members = members
        self.text: _TilesText | None = None


class _TilesText:
    """A sight's tiles text, the fragments it joins (in the sight's order), and what it was made
    from: the board and its count of changes, and who saw which tile."""

    __slots__ = ("board", "changes", "revealed", "texts", "text")

    def __init__(self, board: Board, revealed: dict[int, list[str]], texts: list[str]) -> None:
        self.board, self.changes, self.revealed = board, board.changes, revealed
        self.texts, self.text = texts, "[" + ",".join(texts) + "]"


def _cache(state: GameState) -> ViewCache:
    cache = state.views
    if cache is None or cache.rules is not state.rules:
        cache = state.views = ViewCache(state.rules)
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


def _message_json(message: Message) -> dict[str, Any]:
    return {
        "round": message.round,
        "androidId": message.android,
        "ownerId": message.owner,
        "position": _position(message.x, message.y),
        "content": message.content,
    }


def _script_json(script: Script) -> dict[str, Any]:
    return {"id": script.id, "name": script.name}


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
        "messages": [_message_json(m) for m in state.messages if m.y * width + m.x in included],
        "scripts": [_script_json(s) for s in state.scripts.values() if s.owner == player],
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
    order: what the sandbox hands a script. Only what changed since a kept text was made is
    encoded again: a tile the board replaced, an android or building whose fields changed."""
    sight = _included(state, player, acting, whole)
    revealed = _revealed_by(state)
    cache = _cache(state)
    included, width = sight.members, state.width
    acting_id = acting.id if acting is not None else None
    androids = [
        _android_text(cache, a, a.id == acting_id)
        for a in state.androids.values()
        if a.y * width + a.x in included
    ]
    buildings = [
        _building_text(state, cache, b)
        for b in state.buildings.values()
        if b.y * width + b.x in included
    ]
    messages = [_message_text(cache, m) for m in state.messages if m.y * width + m.x in included]
    return {
        # ints: their JSON is their decimal text (the encoder's own int.__repr__)
        "round": int.__repr__(state.round),
        "width": int.__repr__(state.width),
        "height": int.__repr__(state.height),
        "tiles": _tiles_text(state, cache, sight, revealed),
        "androids": "[" + ",".join(androids) + "]",
        "buildings": "[" + ",".join(buildings) + "]",
        "messages": "[" + ",".join(messages) + "]",
        "scripts": _scripts_text(state, cache, player),
    }


def _tiles_text(
    state: GameState, cache: ViewCache, sight: _Sight, revealed: dict[int, list[str]]
) -> str:
    """The JSON text of the tiles in view: the last one again when the board changed none of them
    and the same players see them; with the replaced tiles' fragments encoded again when the
    board knows which it replaced; else joined from every tile's fragment, each encoded again only
    if its tile or who sees it changed."""
    board, last = state.tiles, sight.text
    if last is not None and last.board is board and last.revealed is revealed:
        if last.changes == board.changes:
            return last.text
        replaced = board.since(last.changes)
        if replaced is not None:
            members = sight.members
            hit = {index for index in replaced if index in members}
            if hit:
                texts, order = last.texts, sight.order
                for index in hit:
                    texts[bisect_left(order, index)] = _tile_text(state, cache, index, revealed)
                last.text = "[" + ",".join(texts) + "]"
            last.changes = board.changes
            return last.text
    fragments = cache.fragments
    texts = []
    for index in sight.order:
        kept = fragments.get(index)
        if kept is not None and kept[0] is board[index] and kept[1] == revealed.get(index):
            texts.append(kept[2])
        else:
            texts.append(_tile_text(state, cache, index, revealed))
    sight.text = _TilesText(board, revealed, texts)
    return sight.text.text


def _tile_text(
    state: GameState, cache: ViewCache, index: int, revealed: dict[int, list[str]]
) -> str:
    text = encode(_tile_json(state, index, revealed))
    cache.fragments[index] = (state.tiles[index], revealed.get(index), text)
    return text


def _android_text(cache: ViewCache, android: Android, private: bool) -> str:
    made = (
        android.x,
        android.y,
        android.battery,
        android.health,
        android.active,
        # 100 == 100.0 == True, but their JSON differs (a hand-edited file can bring an int)
        type(android.battery),
        type(android.health),
        type(android.active),
        repr(android.cargo),
        android.memory,
        android.recording,
        android.owner,
        android.script,
    )
    kept = cache.androids.get(android.id)
    if kept is None or kept[0] != made:
        kept = cache.androids[android.id] = [made, None, None]
    slot = 2 if private else 1
    text: str | None = kept[slot]
    if text is None:
        text = kept[slot] = encode(android_json(android, private=private))
    return text


def _building_text(state: GameState, cache: ViewCache, building: Building) -> str:
    made = (
        building.x,
        building.y,
        building.health,
        type(building.health),
        building.complete,
        building.initial,
        building.remaining_ticks,
        type(building.remaining_ticks),
        repr(building.invested),
        repr(building.storage),
        building.type,
        building.owner,
    )
    kept = cache.buildings.get(building.id)
    if kept is not None and kept[0] == made:
        return kept[1]
    text = encode(building_json(state, building))
    cache.buildings[building.id] = (made, text)
    return text


def _message_text(cache: ViewCache, message: Message) -> str:
    kept = cache.messages.get(id(message))
    if kept is not None and kept[0] is message:  # messages are values (frozen)
        return kept[1]
    text = encode(_message_json(message))
    cache.messages[id(message)] = (message, text)
    return text


def _scripts_text(state: GameState, cache: ViewCache, player: str) -> str:
    theirs = tuple(s for s in state.scripts.values() if s.owner == player)
    kept = cache.scripts.get(player)
    if kept is not None and kept[0] == theirs:  # scripts are values (frozen)
        return kept[1]
    text = encode([_script_json(s) for s in theirs])
    cache.scripts[player] = (theirs, text)
    return text
