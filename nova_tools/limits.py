"""The small facts every layer shares, each declared once here and imported everywhere else.

A second definition of any of these (a literal ``2**63 - 1`` or ``100_000``, another table of
building letters, another regex for ``export default``, another copy of the overwrite sentence)
fails ``tests/test_one_home.py``. This module imports nothing of the package, so the front ends,
the services and the core can all use it.

>>> MAX_SEED == 2**63 - 1, MAX_ROUNDS
(True, 100000)
>>> utf16_length("abc"), utf16_length("\\U0001F600" * 3)
(3, 6)
>>> has_default_export("const t = () => 1;\\nexport default t;\\n")
True
>>> print(overwrite_refusal(Path("/"), force=False))
/ already exists; replace it only deliberately (--force on the command line)
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final, Literal, TypeGuard, get_args

MAX_SEED: Final = 2**63 - 1
"""A game's seed is a whole number from 0 to this (it fits a signed 64-bit integer)."""

MAX_ROUNDS: Final = 100_000
"""The most rounds one game, one run or one match may play."""

NOTES: Final = ("memory", "recording")
"""The action fields in which an android keeps its notes (never shown to other players)."""

NOTE_EDITS: Final = {n: n + "Edits" for n in NOTES}
"""Each note's key for its edits against the last, in a logged action (``memoryEdits``)."""

NOTE_ORDER: Final = tuple(k for n in NOTES for k in (n, NOTE_EDITS[n]))
"""Every key a logged action may carry a note in (the note, or its edits), in a fixed order."""

NOTE_KEYS: Final = frozenset(NOTE_ORDER)
"""The same keys, as a set."""

Disclosure = Literal["full", "recording"]
"""What a peer match keeps of the other side: the whole game, or only the scores and your own
androids' recordings."""
DISCLOSURES: Final = get_args(Disclosure)


def is_disclosure(value: object) -> TypeGuard[Disclosure]:
    """Whether ``value`` names a disclosure mode."""
    return value in DISCLOSURES


BUILDING_LETTERS: Final = {
    "charger": "C",
    "depot": "D",
    "extractor": "E",
    "processor": "P",
    "acidProcessingPlant": "A",
    "scanner": "S",
    "radar": "R",
    "relayTower": "T",
    "colonyModule": "M",
}
"""The letter each building type is drawn with, on every board (terminal, picture, lab)."""

DEFAULT_EXPORT: Final = re.compile(r"^[ \t]*export[ \t]+default\b", re.MULTILINE)
"""An entry file's mark: a line that begins with ``export default`` (the modules it imports have
none; the toolchain is what refuses an entry without one)."""


def has_default_export(text: str) -> bool:
    """Whether ``text`` looks like an android's entry file (:data:`DEFAULT_EXPORT`)."""
    return DEFAULT_EXPORT.search(text) is not None


def utf16_length(text: str) -> int:
    """The length JavaScript gives ``text``: UTF-16 code units, what a script's ``.length``
    says and what every limit on a script's text counts (an emoji is 2)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def overwrite_refusal(path: Path, *, force: bool) -> str | None:
    """The sentence that refuses to replace the existing game file ``path`` (None when there is
    no file there, or ``force`` says to replace it). A refused command leaves the file as it was."""
    if force or not path.exists():
        return None
    return f"{path} already exists; replace it only deliberately (--force on the command line)"
