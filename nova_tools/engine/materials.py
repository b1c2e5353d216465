"""Sparse material bags: ``{"metal": 3}``; a missing key is zero, a zero is never stored."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..rules.models import MATERIALS, Materials

Bag = dict[str, int]


class FrozenBag(dict[str, int]):
    """A bag that never changes in place: a tile's (state.Tile). Reading it is reading a dict (the
    JSON encoder, ``==`` and ``repr`` see a plain dict); changing it raises TypeError, so a change
    is a new bag on a new tile, which the board logs (state.Board). Hashable, so tiles are."""

    __slots__ = ()

    def _frozen(self, *_args: object, **_kwargs: object) -> Any:
        raise TypeError("a tile's bag never changes in place: put a new tile (GameState.put_tile)")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _frozen

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[type[FrozenBag], tuple[dict[str, int]]]:
        return FrozenBag, (dict(self),)

    def __copy__(self) -> FrozenBag:
        return self

    def __deepcopy__(self, _memo: object) -> FrozenBag:
        return self


EMPTY = FrozenBag()


def bag(source: Materials | dict[str, Any] | None) -> Bag:
    """A sparse bag from rules Materials, a wire dict, or None, in the fixed material order."""
    if source is None:
        return {}
    if isinstance(source, Materials):
        return dict(source.items())
    out: Bag = {}
    for material in MATERIALS:  # a loop: see ordered()
        units = source.get(material)
        if units:
            out[material] = int(units)
    return out


def total(items: Mapping[str, int]) -> int:
    return sum(items.values())


def add(target: Bag, extra: Mapping[str, int]) -> None:
    for material, units in extra.items():
        if units:
            target[material] = target.get(material, 0) + units


def take(target: Bag, removed: Bag) -> None:
    """Remove units that the caller has checked are there."""
    for material, units in removed.items():
        left = target.get(material, 0) - units
        if left < 0:
            raise AssertionError(
                f"took {units} {material} from a bag holding {target.get(material, 0)}"
            )
        if left:
            target[material] = left
        else:
            target.pop(material, None)


def covers(have: Mapping[str, int], need: Mapping[str, int]) -> bool:
    return all(have.get(m, 0) >= units for m, units in need.items())


def missing(have: Mapping[str, int], need: Mapping[str, int]) -> Bag:
    """What ``need`` asks for beyond what ``have`` holds."""
    return {m: units - have.get(m, 0) for m, units in need.items() if units > have.get(m, 0)}


def ordered(items: Mapping[str, int]) -> Bag:
    """The same bag with keys in the fixed material order (canonical for hashing and output)."""
    # a loop, not a comprehension (a call of its own in this Python): a round end and most
    # actions order a bag or two, and a replay does them all again
    out: Bag = {}
    for material in MATERIALS:
        units = items.get(material)
        if units:
            out[material] = units
    return out


def describe(items: Mapping[str, int]) -> str:
    """'3 metal and 1 electronics' — for messages a player reads."""
    parts = [f"{units} {material}" for material, units in ordered(items).items()]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
