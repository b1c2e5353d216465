"""Just enough lexing of TypeScript source for what tsc cannot tell us: the editor's features,
and where an upload's default export is written (so its type error lands on the player's line).

Nothing here parses TypeScript. The features only need to know where comments and string
literals are (so a pattern never matches inside them), which string literal or member chain the
cursor is on, and how deep in braces a position is. :func:`scan` finds the comment and string
spans once; :class:`Source` keeps them with a *masked* copy of the text in which comments and
string contents are blanked out (same length, newlines kept), so regular expressions run on
``masked`` see only code, and offsets stay valid in the original text.

Known blind spots, accepted: regular expression literals are not recognised (a quote inside one
may confuse the scanner until the end of its line), and the code inside template literal
``${...}`` holes is treated as part of the string.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from ..limits import DEFAULT_EXPORT

IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_IDENT_CHAR = re.compile(r"[\w$]")


@dataclass(frozen=True)
class Span:
    kind: str  # "comment" | "string" | "template"
    start: int  # offset of the first character (the quote, or the slash of the comment)
    end: int  # offset just past the last character

    def contains(self, offset: int) -> bool:
        return self.start <= offset < self.end


def scan(text: str) -> list[Span]:
    """Comment and string literal spans, in order."""
    spans: list[Span] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            spans.append(Span("comment", i, end))
            i = end
        elif c == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            spans.append(Span("comment", i, end))
            i = end
        elif c in "'\"":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            end = (
                min(j + 1, n) if j < n and text[j] == c else j
            )  # an unclosed string stops at the line end
            spans.append(Span("string", i, end))
            i = end
        elif c == "`":
            j = i + 1
            while j < n and text[j] != "`":
                j += 2 if text[j] == "\\" else 1
            end = min(j + 1, n)
            spans.append(Span("template", i, end))
            i = end
        else:
            i += 1
    return spans


def _mask(text: str, spans: list[Span]) -> str:
    out = list(text)
    for span in spans:
        # Keep the quotes of a string so that `'a'` still reads as "some value" to a pattern.
        inner_start = span.start if span.kind == "comment" else span.start + 1
        inner_end = span.end if span.kind == "comment" else max(inner_start, span.end - 1)
        for k in range(inner_start, inner_end):
            if out[k] != "\n":
                out[k] = " "
    return "".join(out)


@dataclass(frozen=True)
class StringLiteral:
    start: int  # the opening quote
    end: int  # just past the closing quote
    value: str  # the contents, escapes left as written


@dataclass(frozen=True)
class Segment:
    name: str
    start: int
    end: int


@dataclass
class Source:
    """A TypeScript text with its comment/string spans and a masked copy."""

    text: str
    spans: list[Span] = field(init=False)

    def __post_init__(self) -> None:
        self.spans = scan(self.text)

    @cached_property
    def masked(self) -> str:
        return _mask(self.text, self.spans)

    @cached_property
    def without_comments(self) -> str:
        """The text with only the comments blanked out (strings kept)."""
        return _mask(self.text, [s for s in self.spans if s.kind == "comment"])

    @cached_property
    def depths(self) -> list[int]:
        """Brace depth at every offset (0 = module level), from the masked text."""
        depth, out = 0, []
        for ch in self.masked:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth = max(0, depth - 1)
            out.append(depth)
        return out

    def span_at(self, offset: int) -> Span | None:
        for span in self.spans:
            if span.start > offset:
                return None
            if span.contains(offset):
                return span
        return None

    def in_code(self, offset: int) -> bool:
        return self.span_at(offset) is None

    def string_at(self, offset: int) -> StringLiteral | None:
        """The plain string literal ('...' or "...") the offset is inside, quotes included."""
        span = self.span_at(offset)
        if span is None or span.kind != "string":
            return None
        closed = span.end - span.start >= 2 and self.text[span.end - 1] == self.text[span.start]
        value = self.text[span.start + 1 : span.end - 1 if closed else span.end]
        return StringLiteral(span.start, span.end, value)

    def member_chain_at(self, offset: int) -> tuple[list[Segment], int] | None:
        """The member chain the offset is on, up to and including the segment under the cursor.

        ``rules.android.cargoCapacity`` with the cursor in ``android`` gives the segments
        ``rules``, ``android`` and the index 1. Bracket access with a string literal
        (``rules.buildings['depot']``) counts as a segment. Returns None when the cursor is not on
        an identifier or bracketed string, or the chain's first segment is itself a member of
        something else that is not a plain identifier (a call, an index expression).
        """
        literal = self.string_at(offset)
        if literal is not None:
            current = self._bracket_segment_ending(self._skip_space_forward(literal.end) + 1)
            if current is None or current[0].start != literal.start:
                return None
        elif self.in_code(offset):
            current = self._identifier_segment(offset)
        else:
            return None
        if current is None:
            return None
        segments = [current[0]]
        obj_end = current[1]
        while obj_end is not None:
            before = self.text[obj_end - 1] if obj_end > 0 else ""
            if before == "]":
                found = self._bracket_segment_ending(obj_end)
            elif before and _IDENT_CHAR.match(before):
                found = self._identifier_segment(obj_end - 1)
            else:
                return None  # a call, a parenthesised expression ...: not a path we can name
            if found is None:
                return None
            segments.append(found[0])
            obj_end = found[1]
        segments.reverse()
        return segments, len(segments) - 1

    def _identifier_segment(self, offset: int) -> tuple[Segment, int | None] | None:
        """The identifier around ``offset`` and where the object it is a member of ends (None
        when it is the head of its chain)."""
        text = self.text
        start = offset
        while start > 0 and _IDENT_CHAR.match(text[start - 1]):
            start -= 1
        end = offset
        while end < len(text) and _IDENT_CHAR.match(text[end]):
            end += 1
        word = text[start:end]
        if not IDENT.fullmatch(word or "-"):
            return None
        k = self._skip_space_back(start)
        if k >= 1 and text[k - 1] == "." and not (k >= 2 and text[k - 2] == "."):
            k -= 1
            if k >= 1 and text[k - 1] == "?":  # optional chaining
                k -= 1
            return Segment(word, start, end), self._skip_space_back(k)
        return Segment(word, start, end), None

    def _bracket_segment_ending(self, end: int) -> tuple[Segment, int | None] | None:
        """The ``['name']`` access whose ``]`` is just before ``end``."""
        text = self.text
        if end < 1 or end > len(text) or text[end - 1] != "]":
            return None
        literal = self.string_at(self._skip_space_back(end - 1) - 1)
        if literal is None:
            return None
        open_bracket = self._skip_space_back(literal.start) - 1
        if open_bracket < 0 or text[open_bracket] != "[":
            return None
        k = self._skip_space_back(open_bracket)
        if k >= 2 and text[k - 2 : k] == "?.":
            k = self._skip_space_back(k - 2)
        return Segment(literal.value, literal.start, literal.end), k

    def _skip_space_back(self, offset: int) -> int:
        while offset > 0 and self.text[offset - 1] in " \t\r\n":
            offset -= 1
        return offset

    def _skip_space_forward(self, offset: int) -> int:
        while offset < len(self.text) and self.text[offset] in " \t\r\n":
            offset += 1
        return offset


_EXPORT_AS_DEFAULT = re.compile(r"\bexport\s*\{[^}]*?\bas\s+default\b")


def export_default_span(text: str) -> tuple[int, int] | None:
    """Where the module's default export is written (an ``export default`` line, else ``export {
    x as default }``, at module level, never in a comment or a string), or None."""
    source = Source(text)
    for m in DEFAULT_EXPORT.finditer(source.masked):  # strings and comments masked out
        start = m.start() + m.group(0).index("export")
        if source.depths[start] == 0:
            return start, m.end()
    for m in _EXPORT_AS_DEFAULT.finditer(source.masked):
        if source.depths[m.start()] == 0:
            return m.span()
    return None


def camel_words(name: str) -> list[str]:
    """``failedTurnHealthPenalty`` -> ``['failed', 'turn', 'health', 'penalty']``."""
    return [w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", name)]
