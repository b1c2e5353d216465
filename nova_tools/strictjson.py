"""JSON from outside (a script's result, a game file, a request), read so it cannot hurt.

Python's ``json`` accepts ``NaN``/``Infinity`` and numbers like ``1e400`` (which become an
infinite float that no JSON writer can write back), hands back strings holding lone UTF-16
surrogates (which no UTF-8 file or reply can hold), and recurses once per nesting level (a value
nested a few thousand deep raises RecursionError, at a depth that depends on the host). Each
helper here closes one of those doors, with the same verdict on every host:

>>> loads('{"a": [1, 2.5]}', max_depth=2)
{'a': [1, 2.5]}
>>> loads('[[[1]]]', max_depth=2)
Traceback (most recent call last):
nova_tools.strictjson.JsonLimit: it is nested more than 2 levels deep
>>> loads('[1e400]', max_depth=2)
Traceback (most recent call last):
nova_tools.strictjson.JsonLimit: it holds 1e400, a number too large for JSON
>>> well_formed("a\\ud800b") == "a\\ufffdb", lone_surrogate("ok\\U0001F600")
(True, None)
"""

from __future__ import annotations

import json
import re
import sys
from math import isinf
from typing import Any

from pydantic_core import from_json

REPLACEMENT = "\ufffd"
_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD]")


class JsonLimit(ValueError):
    """The text is JSON but not one we accept: too deep, or a number JSON cannot carry."""


class LoneSurrogate(ValueError):
    """A decoded string holds a lone UTF-16 surrogate (only a ``\\ud800``-style escape can make
    one, and no UTF-8 text can hold it); ``at`` is where (see :func:`first_lone_surrogate`)."""

    def __init__(self, at: str) -> None:
        super().__init__(f"{at} holds a lone UTF-16 surrogate")
        self.at = at


def _refuse_constant(name: str) -> object:
    raise JsonLimit(f"it holds {name}, which is not JSON")


def _finite_float(literal: str) -> float:
    value = float(literal)
    if value in (float("inf"), float("-inf")):
        raise JsonLimit(f"it holds {literal[:40]}, a number too large for JSON")
    return value


DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)


def loads(text: str, max_depth: int, *, whole_text: bool = False) -> object:
    """Decode ``text``; :class:`JsonLimit` if it nests deeper than ``max_depth`` or holds a
    non-finite number; ``json.JSONDecodeError`` if it is not JSON at all; with ``whole_text``,
    :class:`LoneSurrogate` if a string in it holds a lone surrogate (after the other checks).

    pydantic_core's parser (``from_json``, a pydantic dependency already) reads a text a third
    faster than the json module, and gives the same value whenever it reads one and that value
    passes :func:`_unfit`: every text it refuses (a lone surrogate escape, a number too long,
    anything not JSON) and every value it makes that the json module would not (an overflowing
    number read as infinity, a nesting past ``max_depth``) is decoded again by the json module,
    which gives the verdict and the message, exactly as before. A text pydantic_core reads holds
    no lone surrogate (it refuses every such escape), so only the json module's values are
    searched for one.

    The json module's own recursion limit depends on the host, so it never decides alone: a
    text it cannot decode is far deeper than any ``max_depth`` used here, and a text it decodes
    is measured afterwards. Either way the verdict is the value's own depth.
    """
    try:
        value = from_json(text, allow_inf_nan=False)
    except (ValueError, TypeError):  # TypeError: a str holding a lone surrogate itself
        pass
    else:
        if not _unfit(value, max_depth):
            return value
    try:
        value = DECODER.decode(text)
    except RecursionError:
        raise JsonLimit(f"it is nested more than {max_depth} levels deep") from None
    except (json.JSONDecodeError, JsonLimit):
        raise
    except ValueError:  # Python's limit on converting a long integer's digits
        raise JsonLimit(
            f"it holds a number of more than {sys.get_int_max_str_digits():,} digits"
        ) from None
    if _unfit(value, max_depth):  # (the decoder refused any infinity: this is the depth)
        raise JsonLimit(f"it is nested more than {max_depth} levels deep")
    if whole_text and may_hold_surrogates(text) and (at := first_lone_surrogate(value)):
        raise LoneSurrogate(at)
    return value


def _unfit(value: object, limit: int) -> bool:
    """Whether arrays and objects nest more than ``limit`` levels deep in a decoded value, or it
    holds an infinite float (what pydantic_core's parser makes of 1e400).

    >>> _unfit({"a": [1, {"b": "[[[["}]}, 2), _unfit({"a": [1, {"b": "[[[["}]}, 3)
    (True, False)
    >>> _unfit([1.5, {"a": [2.5]}], 3), _unfit([1.5, {"a": [float("inf")]}], 3)
    (False, True)
    """
    # One comprehension a level, no call per container: a game file holds tens of thousands of
    # them, and opening one measures its depth on every load. A decoded value holds exactly dicts
    # and lists (the decoders make no subclass), so a set of the types is asked, not isinstance:
    # half the time of the walk. Floats are kept with the containers of the level below, and
    # looked at there (a game file has a few hundred).
    walked = _WALKED
    level: list[Any] = [value] if type(value) in walked else []
    try:
        for _ in range(limit):
            if not level:
                return False
            level = [
                child
                for item in level  # only dicts, lists and floats get here
                for child in (
                    item.values()
                    if type(item) is dict
                    else item
                    if type(item) is list
                    else _finite(item)
                )
                if type(child) in walked
            ]
        for item in level:  # the level past the limit: any array or object there is too deep
            if type(item) is not float or _finite(item):
                return True
    except _Infinite:
        return True
    return False


_WALKED = frozenset({dict, list, float})


class _Infinite(Exception):
    pass


def _finite(number: float) -> tuple[()]:
    """Nothing below a float (the walk's children of it), once it is known finite."""
    if isinf(number):
        raise _Infinite
    return ()


def well_formed(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (the same length in UTF-16 units)."""
    if text.isascii() or _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub(REPLACEMENT, text)


def lone_surrogate(text: str) -> int | None:
    """The index of the first lone surrogate in ``text``, or None if it is well-formed."""
    if text.isascii():
        return None
    found = _SURROGATE.search(text)
    return found.start() if found else None


def may_hold_surrogates(text: str) -> bool:
    """False when a JSON text certainly decodes without lone surrogates (a fast first check:
    ``\\uD800``-``\\uDFFF`` escapes are the only way JSON text can produce one)."""
    return _SURROGATE_ESCAPE.search(text) is not None  # one pass (two `in` tests took 3x as long)


def first_lone_surrogate(value: object, where: str = "") -> str | None:
    """Where (a dotted path) the first string holding a lone surrogate is in a decoded value."""
    stack: list[tuple[object, str]] = [(value, where)]
    while stack:
        item, at = stack.pop()
        if isinstance(item, str):
            if lone_surrogate(item) is not None:
                return at or "(top level)"
        elif isinstance(item, dict):
            for key, child in reversed(list(item.items())):
                if lone_surrogate(key) is not None:
                    return at or "(top level)"
                stack.append((child, f"{at}.{key}" if at else key))
        elif isinstance(item, list):
            stack.extend((child, f"{at}[{i}]") for i, child in reversed(list(enumerate(item))))
    return None
