"""The complete game state: plain mutable records, owned and changed only by the engine.

Everything here round-trips through JSON (:func:`to_json` / :func:`from_json`), which is how the
initial world is stored in a game file and how a state hash is computed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..rules import Rules
from .materials import EMPTY, Bag, FrozenBag, ordered


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile's ground (ore, water, acid, radiation) and the loose material on it: a value. A
    tile never changes: a changed tile is a new one put on the board (:meth:`GameState.put_tile`),
    the one place the board changes, which logs it (:class:`Board`)."""

    composition: Mapping[str, int] = EMPTY  # a FrozenBag
    scattered: Mapping[str, int] = EMPTY

    def __post_init__(self) -> None:
        # a dict given (a test, a scenario) is frozen; one already frozen is taken as it is
        if type(self.composition) is not FrozenBag:
            object.__setattr__(self, "composition", _frozen(self.composition))
        if type(self.scattered) is not FrozenBag:
            object.__setattr__(self, "scattered", _frozen(self.scattered))

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, _memo: object) -> Tile:
        return self


def _frozen(bag: Mapping[str, int]) -> FrozenBag:
    return FrozenBag(bag) if bag else EMPTY


class Board(list[Tile]):
    """A state's tiles, row-major (index = y * width + x): the one place a tile changes.

    A tile is replaced whole (``board[index] = tile``, :meth:`GameState.put_tile`); tiles and their
    bags cannot change in place, and the board never grows, shrinks or reorders. ``changes``
    counts the replacements, and :meth:`since` says which tiles were replaced after a count was
    read, so a view made then re-encodes only those (engine/view.py)."""

    __slots__ = ("changes", "_log", "_log_from")

    def __init__(self, tiles: Iterable[Tile] = (), changes: int = 0) -> None:
        super().__init__(tiles)
        self.changes = changes
        self._log: list[int] = []  # the index of each replacement since the count _log_from
        self._log_from = changes

    def __setitem__(self, index: int, tile: Tile) -> None:  # type: ignore[override]
        if type(index) is not int or type(tile) is not Tile:
            raise TypeError("a board's tile is replaced one at a time, by a Tile")
        if index < 0:
            index += len(self)
        list.__setitem__(self, index, tile)
        self.changes += 1
        log = self._log
        log.append(index)
        if len(log) > max(64, len(self)):  # bounded: older views then compare every tile
            del log[: len(log) // 2]
            self._log_from = self.changes - len(log)

    def since(self, changes: int) -> list[int] | None:
        """The indices of the tiles replaced after the count was ``changes`` (in order, repeats
        kept), or None when the board no longer knows (the count is older than its log)."""
        if changes < self._log_from or changes > self.changes:
            return None
        return self._log[changes - self._log_from :]

    def _fixed(self, *_args: object, **_kwargs: object) -> Any:
        raise TypeError("a board's tiles are replaced one at a time, never added, removed or moved")

    __delitem__ = append = extend = insert = pop = remove = clear = sort = reverse = _fixed
    __iadd__ = __imul__ = _fixed

    def __reduce__(self) -> tuple[type[Board], tuple[list[Tile], int]]:
        return Board, (list(self), self.changes)

    def __copy__(self) -> Board:
        return Board(self, self.changes)

    def __deepcopy__(self, _memo: object) -> Board:
        return Board(self, self.changes)  # tiles are values: shared


@dataclass(slots=True)
class Building:
    id: str
    type: str
    owner: str
    x: int
    y: int
    health: float
    complete: bool
    initial: bool = False
    remaining_ticks: int = 0
    invested: Bag = field(default_factory=dict)
    storage: Bag = field(default_factory=dict)


@dataclass(slots=True)
class Android:
    id: str
    owner: str
    script: str
    x: int
    y: int
    battery: float
    health: float
    active: bool = True
    cargo: Bag = field(default_factory=dict)
    memory: str = ""
    recording: str = ""


@dataclass(slots=True)
class Player:
    id: str
    seat: int


@dataclass(frozen=True, slots=True)
class Script:
    id: str
    owner: str
    name: str


@dataclass(frozen=True, slots=True)
class Message:
    round: int
    android: str
    owner: str
    x: int
    y: int
    content: str


@dataclass
class GameState:
    rules: Rules
    seed: int
    width: int
    height: int
    tiles: Board  # row-major: index = y * width + x (a list given is made a Board)
    round: int = 0
    players: dict[str, Player] = field(default_factory=dict)  # join (seat) order
    scripts: dict[str, Script] = field(default_factory=dict)
    androids: dict[str, Android] = field(default_factory=dict)  # launch order
    buildings: dict[str, Building] = field(default_factory=dict)
    messages: list[Message] = field(default_factory=list)
    counters: dict[str, int] = field(
        default_factory=lambda: {"android": 0, "building": 0, "script": 0}
    )
    # derived, rebuilt by the engine; not part of the JSON form
    building_at: dict[tuple[int, int], str] = field(default_factory=dict)
    visible: dict[str, frozenset[int]] = field(default_factory=dict)
    # what the world views keep between turns (view.ViewCache; checked before every use)
    views: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if type(self.tiles) is not Board:
            self.tiles = Board(self.tiles)

    def tile(self, x: int, y: int) -> Tile:
        return self.tiles[y * self.width + x]

    def put_tile(
        self,
        x: int,
        y: int,
        *,
        composition: Mapping[str, int] | None = None,
        scattered: Mapping[str, int] | None = None,
    ) -> Tile:
        """Change the tile at (x, y): its composition, its scattered material or both (the bag
        given replaces the tile's). Returns the new tile."""
        index = y * self.width + x
        old = self.tiles[index]
        tile = Tile(
            old.composition if composition is None else composition,
            old.scattered if scattered is None else scattered,
        )
        self.tiles[index] = tile
        return tile

    def on_map(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def building_on(self, x: int, y: int) -> Building | None:
        building_id = self.building_at.get((x, y))
        return self.buildings[building_id] if building_id else None

    def new_id(self, kind: str) -> str:
        self.counters[kind] += 1
        return f"{kind}-{self.counters[kind]}"


def to_json(state: GameState) -> dict[str, Any]:
    """The whole state as canonical JSON data (rules are stored beside it, not inside)."""
    return {
        "seed": state.seed,
        "round": state.round,
        "width": state.width,
        "height": state.height,
        "tiles": [[ordered_dict(t.composition), ordered(t.scattered)] for t in state.tiles],
        **_records(state),
    }


def _records(state: GameState) -> dict[str, Any]:
    """Everything of :func:`to_json` but the board (the seed, round and board size, the tiles)."""
    return {
        "players": [[p.id, p.seat] for p in state.players.values()],
        "scripts": [[s.id, s.owner, s.name] for s in state.scripts.values()],
        "androids": [
            {
                "id": a.id,
                "owner": a.owner,
                "script": a.script,
                "x": a.x,
                "y": a.y,
                "battery": a.battery,
                "health": a.health,
                "active": a.active,
                "cargo": ordered(a.cargo),
                "memory": a.memory,
                "recording": a.recording,
            }
            for a in state.androids.values()
        ],
        "buildings": [
            {
                "id": b.id,
                "type": b.type,
                "owner": b.owner,
                "x": b.x,
                "y": b.y,
                "health": b.health,
                "complete": b.complete,
                "initial": b.initial,
                "remainingTicks": b.remaining_ticks,
                "invested": ordered(b.invested),
                "storage": ordered(b.storage),
            }
            for b in state.buildings.values()
        ],
        "messages": [[m.round, m.android, m.owner, m.x, m.y, m.content] for m in state.messages],
        "counters": dict(state.counters),
    }


_COMPOSITION_ORDER = ("ore", "water", "acid", "radiation")


def ordered_dict(composition: Mapping[str, int]) -> Bag:
    return {k: composition[k] for k in _COMPOSITION_ORDER if composition.get(k)}


def from_json(data: dict[str, Any], rules: Rules) -> GameState:
    """Rebuild a state from :func:`to_json` output (derived indexes included)."""
    state = GameState(
        rules=rules,
        seed=data["seed"],
        width=data["width"],
        height=data["height"],
        tiles=Board([Tile(_frozen(c), _frozen(s)) for c, s in data["tiles"]]),
        round=data["round"],
        counters=dict(data["counters"]),
    )
    if len(state.tiles) != state.width * state.height:
        raise ValueError(
            f"the world has {len(state.tiles)} tiles, expected {state.width} x {state.height}"
        )
    for pid, seat in data["players"]:
        state.players[pid] = Player(pid, seat)
    for sid, owner, name in data["scripts"]:
        state.scripts[sid] = Script(sid, owner, name)
    for a in data["androids"]:
        state.androids[a["id"]] = Android(
            a["id"],
            a["owner"],
            a["script"],
            a["x"],
            a["y"],
            a["battery"],
            a["health"],
            a["active"],
            dict(a["cargo"]),
            a["memory"],
            a["recording"],
        )
    for b in data["buildings"]:
        state.buildings[b["id"]] = Building(
            b["id"],
            b["type"],
            b["owner"],
            b["x"],
            b["y"],
            b["health"],
            b["complete"],
            b["initial"],
            b["remainingTicks"],
            dict(b["invested"]),
            dict(b["storage"]),
        )
    state.messages = [Message(*m) for m in data["messages"]]
    reindex(state)
    return state


def reindex(state: GameState) -> None:
    """Rebuild the derived building index and visibility from the records."""
    from .visibility import recompute  # local: visibility depends on this module

    state.building_at = {(b.x, b.y): b.id for b in state.buildings.values()}
    recompute(state)


def canonical(data: object) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


def state_hash(state: GameState) -> str:
    """sha256 of the canonical JSON form: equal hashes mean equal games.

    The bytes hashed are exactly ``canonical(to_json(state))``, assembled faster: the board is
    most of them (a 128x128 board is 16,384 tiles, while a peer match hashes every round), and
    most tiles look like many others, so each distinct tile is encoded once."""
    rest = canonical(
        {**_records(state), "height": state.height, "round": state.round, "seed": state.seed}
    )
    # canonical() sorts the keys: every key in ``rest`` sorts before "tiles", and "tiles" before "width"
    digest = hashlib.sha256(rest[:-1])
    digest.update(b',"tiles":')
    digest.update(_tiles_json(state.tiles))
    digest.update(b',"width":' + canonical(state.width) + b"}")
    return digest.hexdigest()


_EMPTY_TILE = canonical([{}, {}])


def _tiles_json(tiles: list[Tile]) -> bytes:
    """``canonical`` of to_json's "tiles", each distinct tile encoded once."""
    encoded: dict[tuple[str, str], bytes] = {}
    parts = []
    for tile in tiles:
        composition, scattered = tile.composition, tile.scattered
        if not composition and not scattered:
            parts.append(_EMPTY_TILE)
            continue
        # repr, not the items: 1, 1.0 and True are equal as keys but not as JSON (a hand-edited
        # file can bring a float into a tile)
        key = (repr(composition), repr(scattered))
        part = encoded.get(key)
        if part is None:
            part = encoded[key] = canonical([ordered_dict(composition), ordered(scattered)])
        parts.append(part)
    return b"[" + b",".join(parts) + b"]"
