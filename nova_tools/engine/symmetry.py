"""Fair maps: the rotations a ``rules.world.symmetry`` of ``"rotational"`` keeps the world under.

A rotational map looks the same from every seat: a half turn about the board's centre maps it
onto itself, and on a square board so does a quarter turn. :func:`images` lists where a tile goes
under those turns *in seat order* (seat 0 keeps the tile, seat 1 gets its half-turn image, seats 2
and 3 its quarter-turn images), so the same list places the pods and the initial chargers.

>>> images(1, 2, 6, 4, "rotational")
((1, 2), (4, 1))
>>> images(1, 2, 5, 5, "rotational")
((1, 2), (3, 2), (2, 1), (2, 3))
>>> images(1, 2, 5, 5, "none")
((1, 2),)
"""

from __future__ import annotations


def group_size(width: int, height: int, symmetry: str) -> int:
    """How many seats a map is fair to: 1 (none), 2 (half turn), or 4 (a square board)."""
    if symmetry != "rotational":
        return 1
    return 4 if width == height else 2


def images(x: int, y: int, width: int, height: int, symmetry: str) -> tuple[tuple[int, int], ...]:
    """The tile and its rotated twins, in seat order: identity, half turn, quarter turn, three quarters.

    On the centre tile of an odd board every image is the tile itself (the list keeps its length)."""
    size = group_size(width, height, symmetry)
    if size == 1:
        return ((x, y),)
    half = (width - 1 - x, height - 1 - y)
    if size == 2:
        return ((x, y), half)
    n = width
    return ((x, y), half, (n - 1 - y, x), (y, n - 1 - x))
