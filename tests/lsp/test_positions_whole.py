"""Editor positions compared whole: line *and* character of both ends of a range, on lines whose
text before the range is not ASCII (an emoji is 2 UTF-16 units, an accented or CJK letter 1), so
a range that lands on the right line but the wrong column fails here."""

from __future__ import annotations

import pytest
from lsprotocol.types import Position, Range

from nova_tools.lsp.features import rules_files
from nova_tools.lsp.textpos import LineIndex

TEXT = (
    "const plain = 1;\n"  # line 0
    "const s = '\U0001f600\U0001f600'; const target = 2;\n"  # line 1: two emoji before `target`
    "const 名前 = '\u00e9t\u00e9'; const target2 = 3;\n"  # line 2: CJK and accents before it
    "\U0001f680target3\n"  # line 3: an emoji right before it
)


@pytest.mark.parametrize(
    "word,expected",
    [
        ("plain", Range(start=Position(line=0, character=6), end=Position(line=0, character=11))),
        # "const s = '" 11 units, two emoji 4, "'; const " 9: target starts at unit 24
        (
            "target ",
            Range(start=Position(line=1, character=24), end=Position(line=1, character=31)),
        ),
        # 'const ' 6, 名前 2, " = '" 4, été 3, "'; const " 9: 24
        (
            "target2",
            Range(start=Position(line=2, character=24), end=Position(line=2, character=31)),
        ),
        ("target3", Range(start=Position(line=3, character=2), end=Position(line=3, character=9))),
    ],
)
def test_a_range_after_non_ascii_text_is_right_to_the_character(word: str, expected: Range) -> None:
    start = TEXT.index(word)
    got = LineIndex(TEXT).range(start, start + len(word))
    assert got == expected


def test_every_offset_survives_the_round_trip_to_a_position() -> None:
    index = LineIndex(TEXT)
    for offset in range(len(TEXT) + 1):
        assert index.offset(index.position(offset)) == offset, offset


def test_a_position_inside_an_emoji_lands_after_it() -> None:
    index = LineIndex(TEXT)
    start_of_emoji = TEXT.index("\U0001f600")
    assert index.offset(Position(line=1, character=11)) == start_of_emoji
    assert index.offset(Position(line=1, character=12)) == start_of_emoji + 1


def test_a_rules_file_problem_after_non_ascii_text_is_marked_at_its_whole_key_or_value() -> None:
    text = '{\n  "world": {"width": 12}, "android": {"\u540d\U0001f600": 1, "memoryLimit": "lots"}\n}\n'
    index = LineIndex(text)
    ranges = {p.message.split(":")[0]: index.range(p.start, p.end) for p in rules_files.check(text)}
    key = next(r for m, r in ranges.items() if "\u540d" in m)
    value = next(r for m, r in ranges.items() if "memoryLimit" in m)
    # line 1: '  "world": {"width": 12}, "android": {' is 38 units; the key '"名😀"' is 5 units
    assert key == Range(start=Position(line=1, character=38), end=Position(line=1, character=43))
    # then ': 1, "memoryLimit": ' 20 units; the value '"lots"' 6
    assert value == Range(start=Position(line=1, character=63), end=Position(line=1, character=69))
