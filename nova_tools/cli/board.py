"""Text drawings of a game, round by round, for `nova play` (fits an 80-column terminal).

Each tile is three characters: the first two show what is there — a building (its letter, upper
case when complete, lower case for a site, then its owner's seat number) or else the ground
(``~3`` acid, ``!2`` radiation, ``*5`` five units of loose material, ``o`` ore, ``w`` water,
``.`` nothing) — and the third shows androids: the seat number of the owner, ``+`` for several
owners, blank for none. Wrecks are not drawn (rulebook section 5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..api import Frame, VisibleTile

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


def _ground(tile: VisibleTile | None) -> str:
    if tile is None:
        return ". "
    c = tile.composition
    if c.get("acid"):
        return "~" + str(min(c["acid"], 9))
    if c.get("radiation"):
        return "!" + str(min(c["radiation"], 9))
    loose = sum(tile.scattered.values())
    if loose:
        return "*" + (str(loose) if loose < 10 else "+")
    if c.get("ore"):
        return "o "
    if c.get("water"):
        return "w "
    return ". "


def draw(frame: Frame) -> list[str]:
    """The board of one frame, a line a row (with a header line of column numbers)."""
    seats = {p.id: p.seat for p in frame.players}
    tiles = {(t.position.x, t.position.y): t for t in frame.tiles}
    buildings = {(b.position.x, b.position.y): b for b in frame.buildings}
    androids: dict[tuple[int, int], set[int]] = {}
    for a in frame.androids:
        if a.active:
            androids.setdefault((a.position.x, a.position.y), set()).add(seats.get(a.owner_id, 0))
    columns = min(frame.width, MAX_COLUMNS)
    lines = ["   " + "".join(f"{x:<3d}" for x in range(columns)).rstrip()]
    for y in range(frame.height):
        row = [f"{y:>2} "]
        for x in range(columns):
            building = buildings.get((x, y))
            if building is not None:
                glyph = GLYPHS.get(building.type, "?")
                head = (glyph if building.complete else glyph.lower()) + _seat_mark(seats.get(building.owner_id, 0))
            else:
                head = _ground(tiles.get((x, y)))
            owners = androids.get((x, y))
            tail = " " if not owners else (_seat_mark(next(iter(owners))) if len(owners) == 1 else "+")
            row.append(head + tail)
        lines.append("".join(row).rstrip())
    if frame.width > columns:
        lines.append(f"   (columns {columns}-{frame.width - 1} not shown)")
    return lines


def legend(frame: Frame) -> list[str]:
    players = "  ".join(f"{_seat_mark(p.seat)}={p.id}" for p in frame.players)
    return [
        f"players: {players}" if players else "players: none yet",
        "buildings: C charger D depot X extractor P processor A acid plant S scanner",
        "  R radar T relay M module (lower case: a site; then the owner's number)",
        "ground: ~ acid  ! radiation  * loose material  o ore  w water (then amount)",
        "androids: last character of a tile, the owner's number (+ for several)",
    ]
