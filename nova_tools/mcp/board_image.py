"""A picture of the board as one player saw it, for agents that can see (``get_board_image``).

Drawing only: every fact comes from the player's world as :func:`nova_tools.api.player_world`
gives it (the visible tiles, and the androids and buildings on them). A tile that is not among
the visible ones is fog, and is drawn as fog: nothing of what lies under it is known here.

The picture is ``width * tile`` by ``height * tile`` pixels, ``tile`` = :func:`tile_size`, so a
12x12 board is 384 pixels square and a 48x48 one 768: small enough for an agent's context, big
enough to tell an android from a building.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Protocol

from PIL import Image, ImageDraw

from ..limits import BUILDING_LETTERS

MAX_SIDE_PX = 768
MIN_TILE_PX, MAX_TILE_PX = 8, 32

FOG = (43, 47, 54)
FOG_HATCH = (62, 67, 76)
GROUND = (216, 207, 184)
GRID = (190, 181, 160)
# The ground's colour leans towards what is in it, more the more there is.
COMPOSITION = {
    "ore": (166, 98, 52),
    "water": (64, 132, 214),
    "acid": (150, 200, 40),
    "radiation": (150, 70, 190),
}
COMPOSITION_FULL = 6  # this much of a material colours the tile fully
LOOSE = (250, 244, 200)
YOU = (40, 104, 224)
OTHERS = [(214, 48, 49), (230, 126, 34), (190, 40, 160), (22, 160, 133), (120, 120, 40)]
WRECK = (110, 110, 110)
GLYPH = BUILDING_LETTERS


class _Position(Protocol):
    x: int
    y: int


def tile_size(width: int, height: int) -> int:
    """Pixels per tile: as big as fits in MAX_SIDE_PX, within MIN_TILE_PX..MAX_TILE_PX."""
    return max(MIN_TILE_PX, min(MAX_TILE_PX, MAX_SIDE_PX // max(width, height, 1)))


def owner_colours(viewer: str, owners: Iterable[str]) -> dict[str, tuple[int, int, int]]:
    """The viewer in blue; every other player a colour of its own, in the order of their ids."""
    colours = {viewer: YOU}
    for index, owner in enumerate(sorted(set(owners) - {viewer})):
        colours[owner] = OTHERS[index % len(OTHERS)]
    return colours


def _blend(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    (r, g, b_), (r2, g2, b2) = a, b
    return round(r + (r2 - r) * t), round(g + (g2 - g) * t), round(b_ + (b2 - b_) * t)


def ground_colour(composition: dict[str, int]) -> tuple[int, int, int]:
    amounts = {k: v for k, v in composition.items() if k in COMPOSITION and v > 0}
    if not amounts:
        return GROUND
    main = max(amounts, key=lambda k: (amounts[k], k))
    return _blend(
        GROUND, COMPOSITION[main], min(1.0, 0.35 + 0.65 * amounts[main] / COMPOSITION_FULL)
    )


def _fog_tile(size: int) -> Image.Image:
    """One tile of fog: the fog colour with diagonal hatching (drawn once, pasted everywhere)."""
    tile = Image.new("RGB", (size, size), FOG)
    draw = ImageDraw.Draw(tile)
    step = max(4, size // 4)
    for offset in range(-size, size, step):
        start = (max(0, offset), max(0, -offset))
        end = (min(size - 1, size - 1 + offset), min(size - 1, size - 1 - offset))
        if start[0] <= end[0]:
            draw.line([start, end], fill=FOG_HATCH)
    return tile


def render(world, viewer: str) -> tuple[bytes, dict[str, tuple[int, int, int]]]:
    """The PNG of ``world`` (a :class:`~nova_tools.api.results.PlayerWorld`, or anything with its
    ``width``, ``height``, ``tiles``, ``androids`` and ``buildings``) and the colour of each owner."""
    size = tile_size(world.width, world.height)
    image = Image.new("RGB", (world.width * size, world.height * size), FOG)
    draw = ImageDraw.Draw(image)
    visible = {(t.position.x, t.position.y): t for t in world.tiles}
    fog = _fog_tile(size)
    for y in range(world.height):
        for x in range(world.width):
            x0, y0 = x * size, y * size
            tile = visible.get((x, y))
            if tile is None:
                image.paste(fog, (x0, y0))
                continue
            draw.rectangle(
                [x0, y0, x0 + size - 1, y0 + size - 1],
                fill=ground_colour(dict(tile.composition)),
                outline=GRID,
            )
            if any(v > 0 for v in tile.scattered.values()):
                dot = max(2, size // 6)
                draw.rectangle(
                    [x0 + size - 2 - dot, y0 + 1, x0 + size - 2, y0 + 1 + dot],
                    fill=LOOSE,
                    outline=(0, 0, 0),
                )
    colours = owner_colours(
        viewer, [b.owner_id for b in world.buildings] + [a.owner_id for a in world.androids]
    )
    inset = max(1, size // 8)
    for building in world.buildings:
        x0, y0 = building.position.x * size, building.position.y * size
        box = [x0 + inset, y0 + inset, x0 + size - 1 - inset, y0 + size - 1 - inset]
        colour = colours[building.owner_id]
        if building.complete:
            draw.rectangle(
                box,
                fill=_blend(colour, (255, 255, 255), 0.45),
                outline=colour,
                width=max(1, size // 12),
            )
        else:  # a construction site: the outline of what it will be
            draw.rectangle(box, outline=colour, width=max(1, size // 12))
        if size >= 14:
            glyph = GLYPH.get(building.type, building.type[:1].upper())
            draw.text((x0 + size / 2, y0 + size / 2), glyph, fill=(20, 20, 20), anchor="mm")
    radius = max(2, size // 4)
    for android in world.androids:
        cx = android.position.x * size + size // 2
        cy = android.position.y * size + size // 2
        if android.active:
            draw.ellipse(
                [cx - radius, cy - radius, cx + radius, cy + radius],
                fill=colours[android.owner_id],
                outline=(255, 255, 255),
            )
        else:  # a wreck
            draw.line(
                [cx - radius, cy - radius, cx + radius, cy + radius],
                fill=WRECK,
                width=max(1, size // 10),
            )
            draw.line(
                [cx - radius, cy + radius, cx + radius, cy - radius],
                fill=WRECK,
                width=max(1, size // 10),
            )
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue(), colours


def legend(world, viewer: str, colours: dict[str, tuple[int, int, int]]) -> str:
    """What the colours and marks mean, for the text beside the picture."""
    names = {
        YOU: "blue",
        OTHERS[0]: "red",
        OTHERS[1]: "orange",
        OTHERS[2]: "magenta",
        OTHERS[3]: "teal",
        OTHERS[4]: "olive",
    }
    players = ", ".join(
        f"{owner} {names.get(colour, 'grey')}" + (" (you)" if owner == viewer else "")
        for owner, colour in colours.items()
    )
    glyphs = ", ".join(f"{letter} {kind}" for kind, letter in GLYPH.items())
    size = tile_size(world.width, world.height)
    return (
        f"Round {world.round}, the {world.width}x{world.height} board as {viewer} saw it; {size} px per tile, "
        f"(0,0) at the top left, x to the right, y down. Dark hatched tiles: fog (not visible to {viewer}). "
        f"Ground: sand; tinted brown ore, blue water, green acid, purple radiation (stronger = more). "
        f"Pale square in a corner: loose material. Circles: androids; grey X: wrecks. "
        f"Squares: buildings ({glyphs}); outline only: a construction site. Players: {players}."
    )
