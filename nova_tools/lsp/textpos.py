"""Character offsets <-> LSP positions.

The server always speaks UTF-16 positions (the LSP default, and what the tsc child speaks), so a
position's ``character`` counts UTF-16 code units while Python offsets count code points.
"""

from __future__ import annotations

from bisect import bisect_right

from lsprotocol import types

from ..limits import utf16_length  # a lone surrogate (JSON's "\ud800") is one unit


class LineIndex:
    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        find = text.find
        i = find("\n")
        while i >= 0:
            self.starts.append(i + 1)
            i = find("\n", i + 1)

    def position(self, offset: int) -> types.Position:
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.starts, offset) - 1
        return types.Position(
            line=line, character=utf16_length(self.text[self.starts[line] : offset])
        )

    def range(self, start: int, end: int) -> types.Range:
        return types.Range(start=self.position(start), end=self.position(end))

    def offset(self, position: types.Position) -> int:
        if position.line >= len(self.starts):
            return len(self.text)
        start = self.starts[position.line]
        end = (
            self.starts[position.line + 1] - 1
            if position.line + 1 < len(self.starts)
            else len(self.text)
        )
        line = self.text[start:end]
        if line.isascii():
            return start + min(position.character, len(line))
        units = 0
        for k, ch in enumerate(line):
            if units >= position.character:
                return start + k
            units += 2 if ord(ch) > 0xFFFF else 1
        return end
