"""Source maps: from a place in the bundle back to the TypeScript the player wrote.

esbuild writes a version 3 source map beside each bundle (``--sourcemap=external``, so the bundle's
bytes carry no ``sourceMappingURL`` comment and stay what they were without a map). We keep it
without ``sourcesContent`` (the game file already holds the bundle; a map needs only the file
names and the ``mappings``), with ``sources`` named relative to the entry's folder (``main.ts``,
``lib/nav.ts``), never by a machine path.

:class:`SourceMap` answers ``place(line, column)`` for a 1-based bundle position (what QuickJS
reports) with the 1-based :class:`Place` in a source file, or None where the bundle has code the
player did not write (esbuild's own glue). A map is decoded on its first lookup, and a damaged
one (hand-edited, truncated) answers None rather than raising: a position it cannot map is shown
as the bundle's, never a crash.

esbuild writes a segment for nearly every expression; we keep, on each line of the bundle, only
the first segment for each of the player's lines it holds (``compact``). Every position then maps
to the right file and line, and to the column where that line's code in the bundle starts (a
statement's first token, like the ``throw`` of a thrown error): the starter's map goes from 37 KB
to 7 KB of game file. Lookups follow the version 3 rule (the last segment at or before the column),
so any tool reading a stored map gets the same answers.

>>> m = SourceMap({"version": 3, "sources": ["lib/nav.ts"], "names": [], "mappings": ";AACA,EAAE"})
>>> m.place(2, 1), m.place(2, 5)
(Place(file='lib/nav.ts', line=2, column=1), Place(file='lib/nav.ts', line=2, column=3))
>>> SourceMap({"mappings": 7}).place(1, 1) is None
True
"""

from __future__ import annotations

import bisect
import json
import os
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_BASE64 = {c: i for i, c in enumerate(_DIGITS)}

#: The most ``mappings`` text decoded (a map far larger than any bundle's is damage, not a map).
MAX_MAPPINGS_CHARS = 8 * 1024 * 1024


@dataclass(frozen=True)
class Place:
    """A place in a source file: the file as the player named it, line and column from 1."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class SourceMap:
    """A version 3 source map (the parsed JSON object), looked up by bundle line and column."""

    def __init__(self, data: Mapping) -> None:
        self.data = data
        self._lines: list[tuple[list[int], list[tuple[int, int, int]]]] | None = None
        self._sources: list[str] = []

    def place(self, line: int, column: int) -> Place | None:
        """Where bundle ``line``:``column`` (from 1) came from, or None if nowhere known."""
        lines = self._decoded()
        if not 1 <= line <= len(lines):
            return None
        columns, targets = lines[line - 1]
        at = bisect.bisect_right(columns, max(0, column - 1)) - 1
        if at < 0:
            return None
        source, source_line, source_column = targets[at]
        if not 0 <= source < len(self._sources):
            return None
        return Place(self._sources[source], source_line + 1, source_column + 1)

    def _decoded(self) -> list:
        if self._lines is None:
            try:
                self._lines = self._decode()
            except (ValueError, TypeError, KeyError, AttributeError):
                self._lines = []
        return self._lines

    def _decode(self) -> list:
        data = self.data
        if not isinstance(data, Mapping):
            raise TypeError("not an object")
        sources, mappings = data.get("sources"), data.get("mappings")
        if not isinstance(sources, list) or not all(isinstance(s, str) for s in sources):
            raise TypeError("sources")
        if not isinstance(mappings, str) or len(mappings) > MAX_MAPPINGS_CHARS:
            raise TypeError("mappings")
        self._sources = sources
        lines = []
        source = source_line = source_column = 0  # these run on across lines; the column does not
        for text in mappings.split(";"):
            columns: list[int] = []
            targets: list[tuple[int, int, int]] = []
            column = 0
            for segment in text.split(","):
                if not segment:
                    continue
                fields = _vlq(segment)
                column += fields[0]
                if len(fields) >= 4:
                    source += fields[1]
                    source_line += fields[2]
                    source_column += fields[3]
                    columns.append(column)
                    targets.append((source, source_line, source_column))
            order = sorted(range(len(columns)), key=columns.__getitem__)
            lines.append(([columns[i] for i in order], [targets[i] for i in order]))
        return lines


def compact(data: Mapping) -> dict:
    """``data`` with, on each line of the bundle, only the first segment for each source line it
    maps to: the same file and line for every position, at a fifth of the text."""
    lines = SourceMap(data)._decoded()
    out = []
    previous = (0, 0, 0)  # source, line, column: these run on across lines
    for columns, targets in lines:
        segments = []
        last_column, kept = 0, None  # the target of the last segment written on this line
        for column, target in zip(columns, targets, strict=True):
            if kept is not None and target[:2] == kept[:2]:
                continue
            segments.append(
                _encode(
                    [column - last_column, *(t - p for t, p in zip(target, previous, strict=False))]
                )
            )
            last_column, previous, kept = column, target, target
        out.append(",".join(segments))
    return {**data, "mappings": ";".join(out)}


def _encode(values: list[int]) -> str:
    """Base64 VLQ of signed numbers."""
    text = []
    for value in values:
        bits = (-value << 1) | 1 if value < 0 else value << 1
        while True:
            digit, bits = bits & 31, bits >> 5
            text.append(_DIGITS[digit | (32 if bits else 0)])
            if not bits:
                break
    return "".join(text)


def _vlq(segment: str) -> list[int]:
    """The signed numbers of one Base64 VLQ segment."""
    values = []
    value = shift = 0
    for char in segment:
        digit = _BASE64[char]
        value += (digit & 31) << shift
        if digit & 32:
            shift += 5
            continue
        values.append(-(value >> 1) if value & 1 else value >> 1)
        value = shift = 0
    if shift:
        raise ValueError("a segment ends inside a number")
    return values


def read_esbuild_map(map_file: Path, root: Path) -> dict:
    """The map esbuild wrote to ``map_file``, compacted, its ``sources`` renamed relative to
    ``root`` (the entry's folder: where the player's file names start) with ``/`` separators."""
    data = json.loads(map_file.read_text(encoding="utf-8"))
    out_dir = map_file.parent
    sources = []
    for name in data.get("sources", []):
        absolute = os.path.normpath(os.path.join(out_dir, name))
        try:
            relative = os.path.relpath(absolute, root)
        except ValueError:  # another drive (Windows): keep the file's own name
            relative = os.path.basename(absolute)
        sources.append(posixpath.normpath(relative.replace(os.sep, "/")))
    return compact(
        {
            "version": 3,
            "sources": sources,
            "names": data.get("names", []),
            "mappings": data.get("mappings", ""),
        }
    )
