"""Text drawings of a game, round by round, for `nova play` (fits an 80-column terminal).

Each tile is three characters: the first two show what is there — a building (its letter, upper
case when complete, lower case for a site, then its owner's seat number) or else the ground
(``~3`` acid, ``!2`` radiation, ``*5`` five units of loose material, ``o`` ore, ``w`` water,
``.`` nothing) — and the third shows androids: the seat number of the owner, ``+`` for several
owners, blank for none. Wrecks are not drawn (rulebook section 5).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from . import engine
from .engine.events import Replayer
from .engine.materials import total
from .store import Game

GLYPHS = {
    "charger": "C",
    "depot": "D",
    "extractor": "X",
    "processor": "P",
    "acidProcessingPlant": "A",
    "scanner": "S",
    "radar": "R",
    "relayTower": "T",
    "colonyModule": "M",
}
MAX_COLUMNS = 25  # 3 characters a tile + 3 for the row label stays within 80 columns


def _seat_mark(seat: int) -> str:
    return str(seat + 1) if seat < 9 else "#"


def _ground(tile) -> str:
    c = tile.composition
    if c.get("acid"):
        return "~" + str(min(c["acid"], 9))
    if c.get("radiation"):
        return "!" + str(min(c["radiation"], 9))
    loose = total(tile.scattered)
    if loose:
        return "*" + (str(loose) if loose < 10 else "+")
    if c.get("ore"):
        return "o "
    if c.get("water"):
        return "w "
    return ". "


def draw(state: engine.GameState) -> list[str]:
    seats = {p.id: p.seat for p in state.players.values()}
    androids: dict[tuple[int, int], set[int]] = {}
    for a in state.androids.values():
        if a.active:
            androids.setdefault((a.x, a.y), set()).add(seats.get(a.owner, 0))
    columns = min(state.width, MAX_COLUMNS)
    lines = ["   " + "".join(f"{x:<3d}" for x in range(columns)).rstrip()]
    for y in range(state.height):
        row = [f"{y:>2} "]
        for x in range(columns):
            building = state.building_on(x, y)
            if building is not None:
                glyph = GLYPHS.get(building.type, "?")
                head = (glyph if building.complete else glyph.lower()) + _seat_mark(seats.get(building.owner, 0))
            else:
                head = _ground(state.tile(x, y))
            owners = androids.get((x, y))
            tail = " " if not owners else (_seat_mark(next(iter(owners))) if len(owners) == 1 else "+")
            row.append(head + tail)
        lines.append("".join(row).rstrip())
    if state.width > columns:
        lines.append(f"   (columns {columns}-{state.width - 1} not shown)")
    return lines


def legend(state: engine.GameState) -> list[str]:
    players = "  ".join(f"{_seat_mark(p.seat)}={p.id}" for p in state.players.values())
    return [
        f"players: {players}" if players else "players: none yet",
        "buildings: C charger D depot X extractor P processor A acid plant S scanner",
        "  R radar T relay M module (lower case: a site; then the owner's number)",
        "ground: ~ acid  ! radiation  * loose material  o ore  w water (then amount)",
        "androids: last character of a tile, the owner's number (+ for several)",
    ]


@dataclass(frozen=True)
class Frame:
    round: int
    board: list[str]
    events: list[dict]
    scores: list[tuple[str, float]]


def frames(game: Game) -> Iterator[Frame]:
    """The game as it stood after setup and after each round, with that round's events."""
    state = engine.from_json(game.initial, game.rules)
    replayer = Replayer(state)
    pending: list[dict] = []
    for index, event in enumerate(game.events):
        replayer.apply(index, event)
        pending.append(event)
        if event["type"] == "round.started" and len(pending) > 1:
            # setup events before the first round make a frame of their own
            yield Frame(state.round - 1, draw(state), pending[:-1], _scores(state))
            pending = pending[-1:]
        if event["type"] == "round.ended":
            yield Frame(state.round, draw(state), pending, _scores(state))
            pending = []
    if pending or not game.events:
        yield Frame(state.round, draw(state), pending, _scores(state))


def _scores(state: engine.GameState) -> list[tuple[str, float]]:
    return [(s.player, s.points) for s in engine.scores(state)]
