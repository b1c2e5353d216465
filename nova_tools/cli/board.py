"""The board of one frame of a recorded game, drawn for reading in a terminal (`nova play`).

Each tile is a cell of three characters with a space between cells, so cells never run together:

* the first two say what is there: a building (its letter, upper case when complete, lower case
  for a site, then its owner's mark), else loose material (``$`` and the material's letter, ``$+``
  for several), else the ground (``~3`` acid, ``!2`` radiation, ``o4`` ore, ``w2`` water with
  their amounts, ``.`` nothing);
* the third shows androids: the owner's mark, ``+`` when androids of several owners share it.

A player's mark is a letter of their id (``a`` for alice), and their colour on a terminal. Beside
the board, each player's score, androids (id, position, battery, health, cargo) and the storage of
their buildings, under the ids every other command uses. Wrecks are not drawn (rulebook section 5).

A board wider than the terminal shows a window of it (``--at X,Y`` and the arrow keys of `nova
play` move it), and so does a board taller than the rows left for it.

Lines are :class:`rich.text.Text`: styled on a terminal, ``.plain`` in a pipe.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text

from ..api.wording import MATERIAL_ORDER, points
from ..limits import BUILDING_LETTERS

if TYPE_CHECKING:
    from ..api import Frame

GLYPHS = BUILDING_LETTERS
#: The legend's words for the building types whose ids are long.
_SHORT_NAMES = {
    "acidProcessingPlant": "acid plant",
    "relayTower": "relay",
    "colonyModule": "module",
}
LOOSE = {
    "metal": "m",
    "electronics": "e",
    "polymer": "p",
    "ore": "o",
    "water": "w",
    "acidCanister": "c",
}
GROUND = (
    ("acid", "~", "green"),
    ("radiation", "!", "red"),
    ("ore", "o", "yellow"),
    ("water", "w", "blue"),
)
PLAYER_COLOURS = (
    "bright_cyan",
    "bright_magenta",
    "bright_yellow",
    "bright_blue",
    "bright_red",
    "bright_green",
    "white",
)
CELL = 4  # three characters and a space
LABEL = 3  # the row number and a space
PANEL = 28  # the column beside the board


@dataclass(frozen=True)
class Window:
    """The part of the board shown: columns ``x0`` .. ``x0 + columns - 1``, rows likewise."""

    x0: int
    y0: int
    columns: int
    rows: int

    @classmethod
    def around(
        cls, frame: Frame, centre: tuple[int, int] | None, columns: int, rows: int
    ) -> Window:
        """A window of at most ``columns`` x ``rows`` tiles, centred on ``centre`` where the board allows."""
        columns, rows = max(1, min(columns, frame.width)), max(1, min(rows, frame.height))
        cx, cy = centre if centre is not None else (frame.width // 2, frame.height // 2)
        x0 = min(max(0, cx - columns // 2), frame.width - columns)
        y0 = min(max(0, cy - rows // 2), frame.height - rows)
        return cls(x0, y0, columns, rows)

    def whole(self, frame: Frame) -> bool:
        return self.columns >= frame.width and self.rows >= frame.height

    def moved(self, frame: Frame, dx: int, dy: int) -> Window:
        x0 = min(max(0, self.x0 + dx), frame.width - self.columns)
        y0 = min(max(0, self.y0 + dy), frame.height - self.rows)
        return Window(x0, y0, self.columns, self.rows)


def marks(frame: Frame) -> dict[str, str]:
    """Each player's one-letter mark: a letter of their id, first letters first, none shared."""
    taken: set[str] = set()
    out: dict[str, str] = {}
    for player in sorted(frame.players, key=lambda p: p.seat):
        candidates = [c.lower() for c in player.id if c.isalnum()] + list(
            "abcdefghijklmnopqrstuvwxyz0123456789"
        )
        mark = next((c for c in candidates if c not in taken), "?")
        taken.add(mark)
        out[player.id] = mark
    return out


def colours(frame: Frame) -> dict[str, str]:
    return {p.id: PLAYER_COLOURS[p.seat % len(PLAYER_COLOURS)] for p in frame.players}


def _ground(tile) -> Text:
    if tile is None:
        return Text(". ", style="bright_black")
    if tile.scattered:
        kinds = [m for m in MATERIAL_ORDER if tile.scattered.get(m)]
        letter = LOOSE.get(kinds[0], "+") if len(kinds) == 1 else "+"
        return Text("$" + letter, style="bold bright_white")
    for kind, glyph, style in GROUND:
        amount = tile.composition.get(kind)
        if amount:
            return Text(glyph + (str(amount) if amount < 10 else "+"), style=style)
    return Text(". ", style="bright_black")


def board_lines(frame: Frame, window: Window) -> list[Text]:
    """The column header and one line per row of ``window``."""
    mark, colour = marks(frame), colours(frame)
    tiles = {(t.position.x, t.position.y): t for t in frame.tiles}
    buildings = {(b.position.x, b.position.y): b for b in frame.buildings}
    androids: dict[tuple[int, int], list[str]] = {}
    for a in frame.androids:
        if a.active:
            androids.setdefault((a.position.x, a.position.y), []).append(a.owner_id)
    xs = range(window.x0, window.x0 + window.columns)
    header = Text(" " * LABEL + "".join(f"{x:<{CELL}d}" for x in xs).rstrip(), style="bright_black")
    lines = [header]
    for y in range(window.y0, window.y0 + window.rows):
        line = Text(f"{y:>2} ", style="bright_black")
        for x in xs:
            building = buildings.get((x, y))
            if building is not None:
                glyph = GLYPHS.get(building.type, "?")
                owner = building.owner_id
                style = (
                    f"bold {colour.get(owner, 'white')}"
                    if building.complete
                    else f"{colour.get(owner, 'white')}"
                )
                line.append(
                    (glyph if building.complete else glyph.lower()) + mark.get(owner, "?"),
                    style=style,
                )
            else:
                line.append_text(_ground(tiles.get((x, y))))
            owners = androids.get((x, y))
            if not owners:
                line.append(" ")
            elif len(set(owners)) == 1:
                line.append(
                    mark.get(owners[0], "?"), style=f"reverse bold {colour.get(owners[0], 'white')}"
                )
            else:
                line.append("+", style="reverse bold white")
            line.append(" ")
        line.rstrip()
        lines.append(line)
    return lines


def _short(bag: dict[str, int]) -> str:
    """``12m 3o``: amounts with the material letters of the legend."""
    return " ".join(f"{bag[m]}{LOOSE[m]}" for m in MATERIAL_ORDER if bag.get(m)) or "empty"


def panel_lines(frame: Frame) -> list[Text]:
    """Beside the board: each player's score, androids and stored material, by their ids."""
    mark, colour = marks(frame), colours(frame)
    out: list[Text] = []
    for player in sorted(frame.players, key=lambda p: p.seat):
        style = f"bold {colour[player.id]}"
        out.append(
            Text.assemble(
                (f"{mark[player.id]} {player.id}", style), f"  {points(player.score)} points"
            )
        )
        for a in frame.androids:
            if a.owner_id != player.id or not a.active:
                continue
            # two lines, so that a full battery and health beside a two-digit position still fit PANEL
            out.append(
                Text(f" {a.id} ({a.position.x},{a.position.y}) hp {points(round(a.health))}")
            )
            out.append(
                Text(
                    f"   bat {points(round(a.battery))}"
                    + (f", cargo {_short(a.cargo)}" if a.cargo else "")
                )
            )
        wrecks = sum(1 for a in frame.androids if a.owner_id == player.id and not a.active)
        if wrecks:
            out.append(Text(f" {wrecks} wreck{'s' if wrecks != 1 else ''}", style="bright_black"))
        for b in frame.buildings:
            if b.owner_id == player.id and b.storage:
                out.append(Text(f" {GLYPHS.get(b.type, '?')} {b.id}: {_short(b.storage)}"))
    return out


def legend_lines(frame: Frame, compact: bool = False) -> list[Text]:
    """What the marks mean; ``compact`` (a short terminal) leaves out the note on amounts."""
    mark, colour = marks(frame), colours(frame)
    players = Text("players: ")
    for player in sorted(frame.players, key=lambda p: p.seat):
        players.append(f"{mark[player.id]} {player.id}", style=f"bold {colour[player.id]}")
        players.append("  ")
    if not frame.players:
        players.append("none yet")
    players.rstrip()
    kinds = [f"{letter} {_SHORT_NAMES.get(kind, kind)}" for kind, letter in GLYPHS.items()]
    return [
        players,
        Text("buildings: " + " ".join(kinds[:6])),
        Text("  " + " ".join(kinds[6:]) + "; lower case: a site; then the owner's mark"),
        Text("loose: $m metal $e electronics $p polymer $o ore $w water $c canister $+ mixed"),
        *(
            []
            if compact
            else [Text("  (beside the board, amounts use the same letters: 12m = 12 metal)")]
        ),
        Text("ground: ~ acid ! radiation o ore w water, with the amount; 3rd char: android"),
    ]


def side_by_side(left: list[Text], right: list[Text], left_width: int, width: int) -> list[Text]:
    """``left`` padded to ``left_width`` with ``right`` beside it, every line cut to ``width``."""
    out = []
    for i in range(max(len(left), len(right))):
        line = left[i].copy() if i < len(left) else Text("")
        if i < len(right):
            line.pad_right(left_width - line.cell_len)
            line.append_text(right[i])
        line.truncate(width, overflow="ellipsis")
        out.append(line)
    return out
