"""The fogged world a script sees (rulebook section 14), built as plain JSON for speed.

Its shape is :class:`nova_tools.engine.wire.World`; a test validates real views against it.

Two forms of the same view, made of the same projections (:func:`tile_json`, :func:`android_json`,
:func:`building_json`, which the api's replay frames use too): :func:`world_view` (a dict, for the
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
from collections.abc import Collection
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from operator import attrgetter
from typing import Any

from ..limits import NOTES
from .materials import ordered
from .state import Android, Board, Building, GameState, Message, Script, ordered_dict

REDACTED = "[Redacted]"

# The one JSON encoding of a view's values (the sandbox hands these texts to scripts): what
# json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode writes, through one C
# encoder made once (that method makes one per call, a third of a small value's time).
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
_C_ENCODER = (
    None
    if c_make_encoder is None
    else c_make_encoder(
        None, _ENCODER.default, encode_basestring, None, ":", ",", False, False, True
    )
)


def encode(value: object) -> str:
    """``value`` as JSON text (no circular check: a view's values are trees)."""
    if _C_ENCODER is None:
        return _ENCODER.encode(value)
    return "".join(_C_ENCODER(value, 0))


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

    Every entry is dropped or checked when what it was made from changes, so a change the engine
    makes anywhere is never served stale: a tile's text when the board replaces the tile (tiles
    are values: state.Board is the one place one changes, and logs it) or when who sees it
    changes; an android's or building's text holds the fields its JSON reads and is checked
    against them.
    """

    __slots__ = (
        "rules",
        "tiles",
        "board",
        "board_changes",
        "width",
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
        # tile index -> its JSON text, for the board, its count of changes and the width here
        self.tiles: dict[int, str] = {}
        self.board: Board | None = None
        self.board_changes = 0
        self.width: object = None
        # (the players, their visible sets) the map below was made from
        self.revealed_from: tuple[tuple[str, ...], tuple[frozenset[int] | None, ...]] | None = None
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
    """The tiles one view includes (sorted, and as a set) and the last tiles text made of them,
    with what it was made from: (the board, its count of changes, who saw which tile, text)."""

    __slots__ = ("order", "members", "text")

    def __init__(self, order: list[int], members: Collection[int]) -> None:
        self.order = order
        self.members = members
        self.text: tuple[Board, int, dict[int, list[str]], str] | None = None


def _cache(state: GameState) -> ViewCache:
    cache = state.views
    if cache is None or cache.rules is not state.rules:
        cache = state.views = ViewCache(state.rules)
    kept: ViewCache = cache
    return kept


def _revealed_by(state: GameState) -> dict[int, list[str]]:
    """Who sees each tile (players in join order). When that changes, the kept texts of the
    tiles whose list changed are dropped: those a player began or stopped seeing."""
    cache = _cache(state)
    # the visible sets are frozensets, replaced (not changed) when visibility is recomputed:
    # comparing the key is an identity check per player when nothing changed
    players = tuple(state.players)
    key = (players, tuple(map(state.visible.get, players)))
    if cache.revealed_from == key:
        return cache.revealed
    seen: dict[int, list[str]] = {}
    for player in state.players:  # join order, so the list order is stable
        for index in state.visible.get(player, ()):
            seen.setdefault(index, []).append(player)
    if cache.revealed_from is None:
        cache.tiles.clear()
    else:
        texts, before = cache.tiles, dict(zip(*cache.revealed_from, strict=True))
        for player, visible in zip(*key, strict=True):
            was = before.pop(player, None)
            if was is not visible:
                for index in frozenset(visible or ()) ^ frozenset(was or ()):
                    texts.pop(index, None)
        for was in before.values():  # a player no longer in the game
            for index in was or ():
                texts.pop(index, None)
    cache.revealed_from, cache.revealed = key, seen
    return seen


def _tile_texts(state: GameState, cache: ViewCache) -> dict[int, str]:
    """The kept tile texts, without those of the tiles the board replaced since they were made."""
    board, texts = state.tiles, cache.tiles
    if cache.board is not board or cache.width != state.width:
        texts.clear()
        cache.board, cache.width = board, state.width
    elif cache.board_changes != board.changes:
        replaced = board.since(cache.board_changes)
        if replaced is None:
            texts.clear()
        else:
            for index in replaced:
                texts.pop(index, None)
    cache.board_changes = board.changes
    return texts


def _included(state: GameState, player: str, acting: Android | None, whole: bool) -> _Sight:
    """The tiles in view: sorted, and as a set (kept per sight: see ViewCache.sights)."""
    width = state.width
    visible = state.visible.get(player, frozenset())
    if not isinstance(visible, frozenset):  # a set put there by hand: keys must be hashable
        visible = frozenset(visible)
    own = acting.y * width + acting.x if acting is not None else None
    if whole or own in visible:
        own = None  # the acting android's tile adds nothing: one sight wherever it stands
    sights = _cache(state).sights
    key = (len(state.tiles), whole, own, visible)  # a frozenset keeps its hash: a cheap lookup
    sight = sights.get(key)
    if sight is None:
        if whole:
            sight = _Sight(list(range(len(state.tiles))), range(len(state.tiles)))
        elif own is None:
            sight = _Sight(sorted(visible), visible)
        else:
            included = set(visible)
            included.add(own)
            sight = _Sight(sorted(included), included)
        if len(sights) >= SIGHTS:
            sights.clear()
        sights[key] = sight
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


def tile_json(
    state: GameState, index: int, revealed: dict[int, list[str]] | None = None
) -> dict[str, Any]:
    """The tile at ``index`` as a view shows it; ``revealed`` (who sees which tile) adds its
    ``revealedBy`` (None: a frame of the whole world, which has none)."""
    tile = state.tiles[index]
    entry: dict[str, Any] = {
        "position": _position(index % state.width, index // state.width),
        "composition": ordered_dict(tile.composition),
        "scattered": ordered(tile.scattered),
    }
    if revealed is not None and index in revealed:
        entry["revealedBy"] = list(revealed[index])
    return entry


def _rest(
    state: GameState, player: str, acting: Android | None, included: Collection[int]
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
        "tiles": [tile_json(state, index, revealed) for index in order],
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
    # plain loops: a comprehension is a call of its own, and this runs every turn
    androids = []
    for a in state.androids.values():
        if a.y * width + a.x in included:
            androids.append(_android_text(cache, a, a.id == acting_id))
    buildings = []
    for b in state.buildings.values():
        if b.y * width + b.x in included:
            buildings.append(_building_text(state, cache, b))
    messages = []
    for m in state.messages:
        if m.y * width + m.x in included:
            messages.append(_message_text(cache, m))
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
    """The JSON text of the tiles in view: the last one again while the board replaced none of
    them and the same players see them; else joined from the tiles' kept texts, encoding only
    those of tiles replaced or newly seen (or seen by other players) since."""
    board, last, members = state.tiles, sight.text, sight.members
    if last is not None and last[0] is board and last[2] is revealed:
        if last[1] == board.changes:
            return last[3]
        replaced = board.since(last[1])
        if replaced is not None and not any(index in members for index in replaced):
            sight.text = (board, board.changes, revealed, last[3])
            return last[3]
    texts = _tile_texts(state, cache)
    for index in members - texts.keys():
        texts[index] = encode(tile_json(state, index, revealed))
    text = "[" + ",".join(map(texts.__getitem__, sight.order)) + "]"
    sight.text = (board, board.changes, revealed, text)
    return text


# What an android's or a building's JSON is made of (with the types of its numbers: 100 == 100.0
# == True, but their JSON differs, and a hand-edited file can bring an int), read at C speed.
_ANDROID_FIELDS = attrgetter("x", "y", "battery", "health", "active", *NOTES, "owner", "script")
_BUILDING_FIELDS = attrgetter(
    "x", "y", "health", "complete", "initial", "remaining_ticks", "type", "owner"
)


def _android_text(cache: ViewCache, android: Android, private: bool) -> str:
    made = (
        _ANDROID_FIELDS(android),
        type(android.battery),
        type(android.health),
        type(android.active),
        repr(android.cargo),
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
        _BUILDING_FIELDS(building),
        type(building.health),
        type(building.remaining_ticks),
        repr(building.invested),
        repr(building.storage),
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
    theirs = tuple([s for s in state.scripts.values() if s.owner == player])
    kept = cache.scripts.get(player)
    if kept is not None and kept[0] == theirs:  # scripts are values (frozen)
        return kept[1]
    text = encode([_script_json(s) for s in theirs])
    cache.scripts[player] = (theirs, text)
    return text
