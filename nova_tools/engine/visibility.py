"""Who can see which tiles. Recomputed from scratch at the start and the end of every round.

Androids and diamond-sighted buildings count orthogonal steps (|dx| + |dy| <= range); disc-sighted
buildings (radars) use true distance (dx^2 + dy^2 <= range^2). See rulebook section 14.
"""

from __future__ import annotations

from functools import lru_cache

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
            inside = abs(dx) + abs(dy) <= reach if shape == "diamond" else dx * dx + dy * dy <= reach * reach
            if inside:
                offsets.append((dx, dy))
    return tuple(offsets)


def _reveal(seen: set[int], sight: Sight | None, x: int, y: int, width: int, height: int) -> None:
    if sight is None:
        seen.add(y * width + x)
        return
    for dx, dy in footprint(sight.shape, sight.range):
        tx, ty = x + dx, y + dy
        if 0 <= tx < width and 0 <= ty < height:
            seen.add(ty * width + tx)


def recompute(state: GameState) -> None:
    """Set ``state.visible[player]`` to the tiles that player's active androids and completed
    sight buildings reveal now."""
    rules = state.rules
    seen: dict[str, set[int]] = {pid: set() for pid in state.players}
    android_sight = rules.android.sight
    for android in state.androids.values():
        if android.active and android.owner in seen:
            _reveal(seen[android.owner], android_sight, android.x, android.y, state.width, state.height)
    for building in state.buildings.values():
        if building.complete and building.owner in seen:
            sight = rules.building(building.type).sight
            if sight is not None:
                _reveal(seen[building.owner], sight, building.x, building.y, state.width, state.height)
    state.visible = {pid: frozenset(tiles) for pid, tiles in seen.items()}
