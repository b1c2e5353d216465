"""Every length the engine judges counts UTF-16 code units, what the script's own ``.length``
counts: a limit of N takes N units of any text, fewer code points of text beyond the BMP (an emoji
is 2 units), and as many of accented letters (1 unit, 2 UTF-8 bytes). Each limit, at its edge,
with text that counts differently in code points, UTF-8 bytes and UTF-16 units."""

from __future__ import annotations

import pytest
from engine_worlds import CENTRE, P1, scenario, turn

LIMIT = 8
EMOJI = "\U0001f600"  # 1 code point, 2 UTF-16 units, 4 UTF-8 bytes
ACCENTED = "\u00e9"  # 1 code point, 1 UTF-16 unit, 2 UTF-8 bytes
CJK = "\u540d"  # 1 code point, 1 UTF-16 unit, 3 UTF-8 bytes

# (rule, the action carrying the text, the refusal's code)
LIMITS = [
    ("memoryLimit", lambda text: {"type": "android.wait", "memory": text}, "memory-too-long"),
    (
        "recordingLimit",
        lambda text: {"type": "android.wait", "recording": text},
        "recording-too-long",
    ),
    ("broadcastLimit", lambda text: {"type": "android.broadcast", "content": text}, "too-long"),
]

# (text, fits in LIMIT units)
TEXTS = [
    (EMOJI * 4, True),  # 8 units, 4 code points
    (EMOJI * 4 + "a", False),  # 9 units, 5 code points
    (EMOJI * 5, False),  # 10 units, only 5 code points: a count of code points lets it in
    (ACCENTED * 8, True),  # 8 units, 16 UTF-8 bytes: a count of bytes refuses it
    (CJK * 8, True),  # 8 units, 24 UTF-8 bytes
    (CJK * 9, False),
    ("a" * 7 + EMOJI, False),  # 9 units: the last character is the one too many
    ("a" * 6 + EMOJI, True),
    ("", True),
]


@pytest.mark.parametrize("rule,action,code", LIMITS, ids=[rule for rule, _, _ in LIMITS])
@pytest.mark.parametrize("text,fits", TEXTS)
def test_a_limit_counts_utf16_code_units(rule, action, code, text: str, fits: bool) -> None:
    world = scenario({"android": {rule: LIMIT}})
    android = world.android(P1, CENTRE)
    state = world.build()
    event = turn(state, android, action(text))
    units = len(text.encode("utf-16-le")) // 2
    if fits:
        assert event.outcome == "accepted", event
    else:
        assert (event.outcome, event.code) == ("refused", code), event
        assert f"got {units}" in event.reason or f"has {units}" in event.reason, event


def test_an_accepted_memory_is_kept_whole_and_a_refused_one_leaves_the_old() -> None:
    world = scenario({"android": {"memoryLimit": LIMIT}})
    android = world.android(P1, CENTRE)
    state = world.build()
    turn(state, android, {"type": "android.wait", "memory": EMOJI * 4})
    assert state.androids[android].memory == EMOJI * 4
    turn(state, android, {"type": "android.wait", "memory": EMOJI * 5})
    assert state.androids[android].memory == EMOJI * 4
