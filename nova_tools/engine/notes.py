"""Logging an android's notes (memory and recording) compactly.

A script returns its whole memory and recording every turn. Most turns change little: the same
memory with a field rewritten, the same recording with a line added (and, once it is full, its
oldest line dropped). The event log keeps only the change, as ``<note>Edits``: a list of
``[start, end, text]`` splices on the old note, in order and not overlapping, each replacing
``old[start:end]`` by ``text``. A note that did not change is left out, and one that changed too
much to pay is logged whole. Replay rebuilds the whole note from the android's current one
before judging the turn again.

>>> old = "r1 (2,6): launch a sibling\\nr2 (2,6): gather at (3,4) on the way\\nr4 (3,4): collect 2 metal\\n"
>>> compact("recording", old, old + "r5 (3,4): carry 2 metal to the depot\\n")
{'recordingEdits': [[90, 90, 'r5 (3,4): carry 2 metal to the depot\\n']]}
>>> compact("recording", old, old[27:] + "r5 (3,4): carry 2 metal to the depot\\n")  # oldest line dropped
{'recordingEdits': [[0, 27, ''], [90, 90, 'r5 (3,4): carry 2 metal to the depot\\n']]}
>>> expand(old, {"recordingEdits": [[0, 27, ""], [90, 90, "r5\\n"]]}, "recording")
'r2 (2,6): gather at (3,4) on the way\\nr4 (3,4): collect 2 metal\\nr5\\n'
>>> compact("memory", '{"v":2,"loot":[[5,3,0]],"waypoint":1,"intent":"gather"}', '{"v":2,"loot":[],"waypoint":1,"intent":"gather"}')
{'memoryEdits': [[15, 22, '']]}
>>> compact("memory", "{}", '{"v":2}')  # too little in common to pay: logged whole
{'memory': '{"v":2}'}
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..limits import NOTE_EDITS
from ..limits import NOTE_KEYS as NOTE_KEYS
from ..limits import NOTES as NOTES
from .events import AndroidLaunched, Event, Turn
from .reasons import Outcome

_PROBE = 32  # characters of the new note used to find where the old one continues
_WORTH = 16  # an edit must save at least this many characters over the whole note


def _common_prefix(a: str, b: str) -> int:
    # binary search over slice comparisons: the comparisons run in C
    low, high = 0, min(len(a), len(b))
    while low < high:
        mid = (low + high + 1) // 2
        if a[:mid] == b[:mid]:
            low = mid
        else:
            high = mid - 1
    return low


def _common_suffix(a: str, b: str, limit: int) -> int:
    low, high = 0, limit
    while low < high:
        mid = (low + high + 1) // 2
        if a[len(a) - mid :] == b[len(b) - mid :]:
            low = mid
        else:
            high = mid - 1
    return low


def _continued_from(old: str, new: str) -> int | None:
    """The smallest k > 0 such that the new note starts with old[k:] (a log that dropped its
    oldest lines and went on), if any."""
    probe = new[:_PROBE]
    if len(probe) < _PROBE:
        return None
    start = old.find(probe, 1)
    while start >= 0:
        if new.startswith(old[start:]):
            return start
        start = old.find(probe, start + 1)
    return None


def _size(edits: list[Any]) -> int:
    return sum(len(text) + 12 for _, _, text in edits)


def compact(name: str, old: str, new: str) -> dict[str, Any]:
    """The log entry for a note changing from ``old`` to ``new``."""
    if new == old:
        return {}
    if len(new) < _WORTH + 12:  # no edit can be that much smaller than the note itself
        return {name: new}
    prefix = _common_prefix(old, new)
    suffix = _common_suffix(old, new, min(len(old), len(new)) - prefix)
    edits = [[prefix, len(old) - suffix, new[prefix : len(new) - suffix]]]
    kept = _continued_from(old, new) if prefix < len(old) else None
    if kept is not None:
        rolled = [[0, kept, ""], [len(old), len(old), new[len(old) - kept :]]]
        if _size(rolled) < _size(edits):
            edits = rolled
    if _size(edits) + _WORTH <= len(new):
        return {NOTE_EDITS[name]: edits}
    return {name: new}


def expand(old: str, logged: dict[str, Any], name: str) -> str | None:
    """The whole note a logged action set, given the android's note before it (None: unchanged)."""
    if name in logged:
        whole: str = logged[name]
        return whole
    edits = logged.get(NOTE_EDITS[name])
    if edits is None:
        return None
    # a replay expands every turn's notes: no list made per edit, the note's length read once,
    # and the usual single edit spliced without a list at all
    if type(edits) is list and len(edits) == 1:
        start, end, text = edits[0]
        if (
            isinstance(start, int)
            and isinstance(end, int)
            and isinstance(text, str)
            and 0 <= start <= end <= len(old)
        ):
            return old[:start] + text + old[end:]
    parts: list[str] = []
    add, at, size = parts.append, 0, len(old)
    for edit in edits:
        start, end, text = edit
        if not (
            isinstance(start, int)
            and isinstance(end, int)
            and isinstance(text, str)
            and at <= start <= end <= size
        ):
            raise ValueError(f"{name}Edits {edit!r} does not fit a note of {size} characters")
        add(old[at:start])
        add(text)
        at = end
    add(old[at:])
    return "".join(parts)


class NoteTracker:
    """Follows every android's notes along a log, to show logged turns with their notes whole.

    ``initial`` is the stored initial world's android list (each with ``id``, ``memory`` and
    ``recording``). Feed it every event in order with :meth:`whole`: a turn that logged its notes
    as edits comes back with the whole notes it set, as the script returned them.

    >>> from .events import AndroidLaunched, Turn
    >>> tracker = NoteTracker([])
    >>> tracker.whole(AndroidLaunched("alice", "script-1", "android-1", "building-1")).kind
    'android.launched'
    >>> turn = Turn(1, "android-1", 0, Outcome.ACCEPTED, {"type": "android.wait", "memory": "abc"})
    >>> tracker.whole(turn).action["memory"]
    'abc'
    >>> edit = Turn(2, "android-1", 0, Outcome.ACCEPTED, {"type": "android.wait", "memoryEdits": [[3, 3, "d"]]})
    >>> tracker.whole(edit).action
    {'type': 'android.wait', 'memory': 'abcd'}
    """

    def __init__(self, initial: list[dict[str, Any]]) -> None:
        self.notes: dict[str, dict[str, str]] = {
            a["id"]: {n: a.get(n, "") for n in NOTES} for a in initial
        }

    def whole(self, event: Event) -> Event:
        if type(event) is AndroidLaunched:
            self.notes[event.android] = {n: "" for n in NOTES}
            return event
        if type(event) is not Turn:
            return event
        action = event.action
        if event.outcome is not Outcome.ACCEPTED or action is None or not NOTE_KEYS & action.keys():
            return event
        held = self.notes.setdefault(event.android, {n: "" for n in NOTES})
        shown = {k: v for k, v in action.items() if k not in NOTE_KEYS}
        for name in NOTES:
            note = expand(held[name], action, name)
            if note is not None:
                held[name] = shown[name] = note
        return replace(event, action=shown)
