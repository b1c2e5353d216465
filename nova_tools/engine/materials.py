"""Sparse material bags: ``{"metal": 3}``; a missing key is zero, a zero is never stored."""

from __future__ import annotations

from typing import Any

from ..rules.models import MATERIALS, Materials

Bag = dict[str, int]


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


def total(items: Bag) -> int:
    return sum(items.values())


def add(target: Bag, extra: Bag) -> None:
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


def covers(have: Bag, need: Bag) -> bool:
    return all(have.get(m, 0) >= units for m, units in need.items())


def missing(have: Bag, need: Bag) -> Bag:
    """What ``need`` asks for beyond what ``have`` holds."""
    return {m: units - have.get(m, 0) for m, units in need.items() if units > have.get(m, 0)}


def ordered(items: Bag) -> Bag:
    """The same bag with keys in the fixed material order (canonical for hashing and output)."""
    # a loop, not a comprehension (a call of its own in this Python): a round end and most
    # actions order a bag or two, and a replay does them all again
    out: Bag = {}
    for material in MATERIALS:
        units = items.get(material)
        if units:
            out[material] = units
    return out


def describe(items: Bag) -> str:
    """'3 metal and 1 electronics' — for messages a player reads."""
    parts = [f"{units} {material}" for material, units in ordered(items).items()]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
