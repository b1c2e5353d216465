"""Who can see which tiles. Recomputed from scratch at the start and the end of every round.

Androids and diamond-sighted buildings count orthogonal steps (|dx| + |dy| <= range); disc-sighted
buildings (radars) use true distance (dx^2 + dy^2 <= range^2). See rulebook section 14.
"""

from __future__ import annotations

from functools import lru_cache
from math import isqrt

from ..rules import Sight
from .state import GameState


@lru_cache(maxsize=64)
def footprint(shape: str, reach: int) -> tuple[tuple[int, int], ...]:
    """The (dx, dy) offsets a sight covers.

    >>> len(footprint("diamond", 3)), len(footprint("diamond", 4)), len(footprint("disc", 5))
    (25, 41, 81)
    """
    offsets = []
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            inside = (
                abs(dx) + abs(dy) <= reach
                if shape == "diamond"
                else dx * dx + dy * dy <= reach * reach
            )
            if inside:
                offsets.append((dx, dy))
    return tuple(offsets)


_COVERAGE: dict[tuple[str, int, int, int], dict[int, frozenset[int]]] = {}


def _coverage_table(sight: Sight, width: int, height: int) -> dict[int, frozenset[int]]:
    key = (sight.shape, sight.range, width, height)
    table = _COVERAGE.get(key)
    if table is None:
        if len(_COVERAGE) >= 64:  # many board sizes in one process (tests): start afresh
            _COVERAGE.clear()
        table = _COVERAGE[key] = {}
    return table


def covered(sight: Sight, x: int, y: int, width: int, height: int) -> frozenset[int]:
    """The tile indices a sight standing on (x, y) reveals, clipped to the board.

    Memoised per sight shape, range and board size: recomputing visibility is then a union of
    ready-made sets, which keeps round starts and ends (and replays) cheap.
    """
    table = _coverage_table(sight, width, height)
    index = y * width + x
    tiles = table.get(index)
    if tiles is None:
        tiles = table[index] = frozenset(_on_board(sight, x, y, width, height))
    return tiles


def _on_board(sight: Sight, x: int, y: int, width: int, height: int) -> list[int]:
    """The indices of :func:`footprint` around (x, y) that lie on the board, row by row: only
    the board's rows and columns are walked (a sight of range 512 on a 12x12 board walks 144
    cells, not the footprint's 525,313 offsets)."""
    reach = sight.range
    cells: list[int] = []
    for dy in range(max(-reach, -y), min(reach, height - 1 - y) + 1):
        # the widest |dx| of this row: |dx| + |dy| <= reach, or dx^2 + dy^2 <= reach^2
        span = reach - abs(dy) if sight.shape == "diamond" else isqrt(reach * reach - dy * dy)
        row = (y + dy) * width
        cells.extend(range(row + max(x - span, 0), row + min(x + span, width - 1) + 1))
    return cells


def recompute(state: GameState) -> None:
    """Set ``state.visible[player]`` to the tiles that player's active androids and completed
    sight buildings reveal now. An android whose sight rule is null sees its own tile only; a
    building whose sight rule is null reveals nothing."""
    rules = state.rules
    width, height = state.width, state.height
    parts: dict[str, list[frozenset[int]]] = {pid: [] for pid in state.players}
    android_sight = rules.android.sight
    table = _coverage_table(android_sight, width, height) if android_sight is not None else None
    for android in state.androids.values():
        if android.active and android.owner in parts:
            index = android.y * width + android.x
            if table is None or android_sight is None:
                parts[android.owner].append(frozenset((index,)))
            else:
                tiles = table.get(index)
                if tiles is None:
                    tiles = covered(android_sight, android.x, android.y, width, height)
                parts[android.owner].append(tiles)
    for building in state.buildings.values():
        if building.complete and building.owner in parts:
            sight = rules.building(building.type).sight
            if sight is not None:
                parts[building.owner].append(covered(sight, building.x, building.y, width, height))
    # a player whose sight did not change keeps the same set: views made with it stay valid
    # (engine/view.py compares it by identity first)
    before = state.visible
    visible = {}
    for pid, sights in parts.items():
        seen = frozenset().union(*sights)
        kept = before.get(pid)
        visible[pid] = kept if type(kept) is frozenset and kept == seen else seen
    state.visible = visible
