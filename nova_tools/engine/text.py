"""Text a script wrote, as the engine measures and quotes it.

Lengths are counted in UTF-16 code units, what the script's own ``.length`` counts (DESIGN
section 3): an emoji is 2, so a script that checks ``memory.length <= rules.android.memoryLimit``
is never surprised by the engine. Text quoted back in a refusal is clipped, so an action can never
make a reason (and the game file that keeps it) as large as itself.

>>> utf16_length("abc"), utf16_length("\\U0001F600" * 3)
(3, 6)
>>> quoted("x" * 100)
"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (100 characters)"
"""

from __future__ import annotations

from ..limits import utf16_length as utf16_length

QUOTE_CHARS = 40


def quoted(text: object, limit: int = QUOTE_CHARS) -> str:
    """``repr`` of a script's value for a sentence, clipped to about ``limit`` characters."""
    if isinstance(text, str) and len(text) > limit:
        shown = repr(text[:limit])
        return f"{shown[:-1]}...{shown[-1]} ({utf16_length(text)} characters)"
    shown = repr(text)
    return shown if len(shown) <= limit + 2 else shown[:limit] + "..."


def clip(text: str, limit: int = QUOTE_CHARS) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when it was longer."""
    return text if len(text) <= limit else text[:limit] + "..."


def a(noun: str) -> str:
    """``noun`` with its indefinite article: "a depot", "an extractor".

    >>> a("extractor"), a("charger"), a("acidProcessingPlant")
    ('an extractor', 'a charger', 'an acidProcessingPlant')
    """
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def is_plain_text(text: str) -> bool:
    """Whether ``text`` can be stored and shown on one line: valid Unicode (no lone surrogate)
    and no control characters.

    >>> is_plain_text("starter v2 🚀"), is_plain_text("a\\udcffb"), is_plain_text("two\\nlines")
    (True, False, False)
    """
    return not any(
        ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 or 0xD800 <= ord(c) <= 0xDFFF for c in text
    )
