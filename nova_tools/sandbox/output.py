"""What a script hands back, decoded and judged in one place: the host side of the output.

Whatever a turn returns, throws or prints reaches the host as one text the prelude builds (its
``run`` or ``describe``): a *head* of fixed shape (``{"ok": ..., "kind": ..., "logs": [...],
...}``) immediately followed by the returned value's JSON, if any. Nothing in that text is
trusted. This module turns it into Python values that are always safe to judge, store and send:

- **depth**: the value's JSON is measured before it is decoded; nesting deeper than
  ``MAX_VALUE_DEPTH`` is a failed turn (an action is two levels deep), never a RecursionError,
  and the limit is the same on every host (Python's own recursion limit is not);
- **lone UTF-16 surrogates** (a JS string may hold one; UTF-8, and so the game file and every
  reply, cannot): replaced by U+FFFD, which keeps the string's ``.length``, as ``TextEncoder``
  does; a note in the turn's console lines says where. So ``rec.slice(-limit)`` cutting an emoji
  in half costs a replacement character, not a failed turn;
- **non-finite numbers** cannot come out of ``JSON.stringify``; a text holding one (or a number
  too large for a float) is unreadable, a sandbox crash;
- **sizes**: every string taken from the head is clipped here too (the prelude already clips),
  so a hostile or broken guest cannot hand the host megabytes of error text.

Why both sides. The guest (prelude.py) is the only place a thrown value's properties can be read
(they may be getters, proxies, 8 MB strings): it reads each under ``try``, clips before it
concatenates, and never lets a script-defined ``toJSON`` reshape the head. The host is the only
place that can be trusted: it never assumes the guest did its part, and it alone decides what a
string may contain and how deep a value may be, because those decide what the game file holds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import strictjson
from ..strictjson import well_formed

# An action is an object whose deepest field is an object of numbers ({"resources": {...}}):
# two levels. Anything nested deeper than this cannot be an action.
MAX_VALUE_DEPTH = 32
# Longest text kept from a head field that words a failure (the prelude clips at 500 too).
MAX_WHAT_CHARS = 500
MAX_NAME_CHARS = 200


class Unreadable(ValueError):
    """The guest's text is not what the prelude writes: a sandbox bug, never the player's fault."""


class TooDeep(ValueError):
    """The value nests deeper than ``MAX_VALUE_DEPTH``: the player's fault, a failed turn."""


@dataclass(frozen=True)
class Output:
    """The head of a turn's output, with the returned value's JSON text still undecoded."""

    head: dict
    value_json: str  # "" when the turn returned nothing (a failure, or a no-action)


def split(text: str | None) -> Output:
    """Split the guest's output into its head (decoded) and the value's JSON (not decoded yet)."""
    if text is None:
        raise Unreadable("the result is not a string")
    try:
        # Heads are flat (their deepest part is the list of console lines): raw_decode cannot
        # recurse far on anything the prelude writes.
        head, end = strictjson.DECODER.raw_decode(text)
    except (ValueError, RecursionError) as error:
        raise Unreadable(f"unreadable result head ({error.__class__.__name__})") from None
    if not isinstance(head, dict):
        raise Unreadable("the result head is not an object")
    return Output(head, text[end:])


def decode_value(value_json: str) -> tuple[object, list[str]]:
    """The returned value, decoded: ``(value, notes)``; notes say what was made well-formed.

    Raises :class:`TooDeep` for nesting beyond ``MAX_VALUE_DEPTH`` (the verdict is the value's
    own depth on every host, see ``strictjson.loads``) and :class:`Unreadable` for text
    ``JSON.stringify`` cannot have written (NaN, Infinity, a number too large for a float).
    """
    try:
        value = strictjson.loads(value_json, MAX_VALUE_DEPTH)
    except strictjson.JsonLimit as error:
        if "nested" in str(error):
            raise TooDeep(f"nested more than {MAX_VALUE_DEPTH} levels deep") from None
        raise Unreadable(f"unreadable result value: {error}") from None
    except ValueError as error:
        raise Unreadable(f"unreadable result value ({error.__class__.__name__})") from None
    if not strictjson.may_hold_surrogates(value_json):
        return value, []
    notes: list[str] = []
    return _well_formed_value(value, "", notes), notes


def _well_formed_value(value: object, where: str, notes: list[str]) -> object:
    if isinstance(value, str):
        found = strictjson.lone_surrogate(value)
        if found is None:
            return value
        if len(notes) < 5:
            notes.append(
                f"(nova) {where or 'the returned string'} held a lone UTF-16 surrogate at index "
                f"{utf16_index(value, found)}; it was replaced by U+FFFD"
            )
        return well_formed(value)
    if isinstance(value, list):
        return [_well_formed_value(v, f"{where}[{i}]", notes) for i, v in enumerate(value)]
    if isinstance(value, dict):
        return {
            well_formed(k): _well_formed_value(
                v,
                f"{where}.{clip(well_formed(k), 40)}" if where else clip(well_formed(k), 40),
                notes,
            )
            for k, v in value.items()
        }
    return value


def utf16_index(text: str, index: int) -> int:
    """The UTF-16 index (what JS counts) of the code point at Python index ``index``."""
    return index + sum(1 for c in text[:index] if ord(c) > 0xFFFF)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def head_text(head: dict, key: str, limit: int = MAX_WHAT_CHARS) -> str | None:
    """A string field of the head, well-formed and clipped (None when absent or not a string)."""
    value = head.get(key)
    return clip(well_formed(value), limit) if isinstance(value, str) else None


def head_int(head: dict, key: str) -> int | None:
    value = head.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# A frame of a QuickJS stack in the script's module: "    at name (android.js:3:19)", or
# "    at android.js:3:19" for code outside any function.
_FRAME = re.compile(r"^\s*at (?:(.{1,200}?) \()?%s:(\d{1,9}):(\d{1,9})\)?\s*$")
MAX_FRAMES = 16


def head_frames(head: dict, filename: str) -> tuple[tuple[str | None, int, int], ...]:
    """The frames of the head's ``stack`` text that are in the script's module (``filename``), as
    ``(function, line, column)``, innermost first, at most ``MAX_FRAMES``; anything else in the
    text (the prelude's frames, a stack the script rewrote) is passed over."""
    stack = head_text(head, "stack", 4000)
    if not stack:
        return ()
    pattern = re.compile(_FRAME.pattern % re.escape(filename))
    frames = []
    for line in stack.splitlines():
        if (m := pattern.match(line)) is not None:
            name = m.group(1)
            frames.append(
                (
                    None if name in (None, "<anonymous>", "<eval>") else name,
                    int(m.group(2)),
                    int(m.group(3)),
                )
            )
            if len(frames) == MAX_FRAMES:
                break
    return tuple(frames)


def head_logs(head: dict, max_lines: int, max_chars: int) -> tuple[str, ...]:
    """The console lines of a head, well-formed, at most ``max_lines`` and ``max_chars`` in all."""
    logs = head.get("logs")
    if not isinstance(logs, list):
        return ()
    kept: list[str] = []
    budget = max_chars
    for line in logs[:max_lines]:
        if not isinstance(line, str) or budget <= 0:
            continue
        line = well_formed(line[:budget])
        budget -= len(line)
        kept.append(line)
    return tuple(kept)
