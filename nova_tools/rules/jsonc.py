"""JSON with comments and trailing commas, parsed with the source range of every value.

Rules files are JSONC (the rulebook's own example ends a group with a trailing comma). The
parser keeps, for each JSON path, the character range of the value and of its key, so that
errors — in the CLI and in the language server — can point at the exact place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Path = tuple[str | int, ...]


class JsoncError(ValueError):
    """The text is not JSON (with comments). ``offset`` is where it went wrong."""

    def __init__(self, message: str, offset: int, text: str) -> None:
        self.offset = offset
        self.line, self.column = line_col(text, offset)
        super().__init__(f"line {self.line}, column {self.column}: {message}")


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


@dataclass
class Parsed:
    value: object
    value_ranges: dict[Path, tuple[int, int]] = field(default_factory=dict)
    key_ranges: dict[Path, tuple[int, int]] = field(default_factory=dict)

    def range_of(self, path: Path, *, prefer_key: bool = True) -> tuple[int, int]:
        """The best source range for a path: its key if it has one, else its value, else the
        nearest enclosing path that exists."""
        while True:
            if prefer_key and path in self.key_ranges:
                return self.key_ranges[path]
            if path in self.value_ranges:
                return self.value_ranges[path]
            if not path:
                return (0, 0)
            path = path[:-1]


_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
# A rules file is a few levels deep (rules.buildings.processor.conversion[0].inputs.ore: 6);
# anything far deeper is refused in one sentence before it could exhaust the parser's stack.
MAX_DEPTH = 64


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.depth = 0
        self.parsed = Parsed(None)

    def fail(self, message: str, offset: int | None = None) -> JsoncError:
        return JsoncError(message, self.pos if offset is None else offset, self.text)

    def skip(self) -> None:
        text, n = self.text, len(self.text)
        while self.pos < n:
            c = text[self.pos]
            if c in " \t\r\n\ufeff":
                self.pos += 1
            elif text.startswith("//", self.pos):
                end = text.find("\n", self.pos)
                self.pos = n if end < 0 else end + 1
            elif text.startswith("/*", self.pos):
                end = text.find("*/", self.pos + 2)
                if end < 0:
                    raise self.fail("a /* comment is never closed")
                self.pos = end + 2
            else:
                return

    def parse(self) -> Parsed:
        self.skip()
        self.parsed.value = self.value(())
        self.skip()
        if self.pos != len(self.text):
            raise self.fail("unexpected text after the end of the JSON value")
        return self.parsed

    def value(self, path: Path) -> object:
        if self.pos >= len(self.text):
            raise self.fail("the file ends where a value was expected")
        start = self.pos
        c = self.text[self.pos]
        if c in "{[":
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise self.fail(f"objects and arrays are nested more than {MAX_DEPTH} levels deep")
            result: object = self.obj(path) if c == "{" else self.array(path)
            self.depth -= 1
        elif c == '"':
            result = self.string()
        elif c == "-" or c.isdigit():
            result = self.number()
        else:
            for word, val in (("true", True), ("false", False), ("null", None)):
                if self.text.startswith(word, self.pos):
                    self.pos += len(word)
                    result = val
                    break
            else:
                raise self.fail(f"unexpected character {c!r} where a value was expected")
        self.parsed.value_ranges[path] = (start, self.pos)
        return result

    def obj(self, path: Path) -> dict[str, Any]:
        self.pos += 1
        result: dict[str, Any] = {}
        while True:
            self.skip()
            if self.pos < len(self.text) and self.text[self.pos] == "}":
                self.pos += 1
                return result
            if self.pos >= len(self.text) or self.text[self.pos] != '"':
                raise self.fail("expected a quoted key or '}'")
            key_start = self.pos
            key = self.string()
            if key in result:
                raise self.fail(f"the key {key!r} appears twice", key_start)
            self.parsed.key_ranges[path + (key,)] = (key_start, self.pos)
            self.skip()
            if self.pos >= len(self.text) or self.text[self.pos] != ":":
                raise self.fail(f"expected ':' after the key {key!r}")
            self.pos += 1
            self.skip()
            result[key] = self.value(path + (key,))
            self.skip()
            if self.pos < len(self.text) and self.text[self.pos] == ",":
                self.pos += 1
                continue
            if self.pos < len(self.text) and self.text[self.pos] == "}":
                self.pos += 1
                return result
            raise self.fail("expected ',' or '}' in an object")

    def array(self, path: Path) -> list[Any]:
        self.pos += 1
        result: list[Any] = []
        while True:
            self.skip()
            if self.pos < len(self.text) and self.text[self.pos] == "]":
                self.pos += 1
                return result
            result.append(self.value(path + (len(result),)))
            self.skip()
            if self.pos < len(self.text) and self.text[self.pos] == ",":
                self.pos += 1
                continue
            if self.pos < len(self.text) and self.text[self.pos] == "]":
                self.pos += 1
                return result
            raise self.fail("expected ',' or ']' in an array")

    def string(self) -> str:
        text, start = self.text, self.pos
        self.pos += 1
        out: list[str] = []
        while True:
            if self.pos >= len(text):
                raise self.fail("a string is never closed", start)
            c = text[self.pos]
            if c == '"':
                self.pos += 1
                return "".join(out)
            if c == "\\":
                esc = text[self.pos + 1 : self.pos + 2]
                if esc in _ESCAPES:
                    out.append(_ESCAPES[esc])
                    self.pos += 2
                elif esc == "u":
                    out.append(self.unicode_escape())
                else:
                    raise self.fail(f"unknown escape \\{esc}")
            elif c == "\n":
                raise self.fail("a string runs past the end of the line", start)
            else:
                out.append(c)
                self.pos += 1

    def unicode_escape(self) -> str:
        """One ``\\uXXXX`` escape (two for a surrogate pair); a lone surrogate is refused, since
        no UTF-8 file (and so no game file) could hold it."""
        code = self.hex4(self.pos)
        self.pos += 6
        if 0xDC00 <= code <= 0xDFFF:
            raise self.fail(
                f"\\u{code:04x} is half of a UTF-16 surrogate pair with no first half", self.pos - 6
            )
        if 0xD800 <= code <= 0xDBFF:
            low = self.hex4(self.pos) if self.text.startswith("\\u", self.pos) else None
            if low is None or not 0xDC00 <= low <= 0xDFFF:
                raise self.fail(
                    f"\\u{code:04x} is half of a UTF-16 surrogate pair with no second half",
                    self.pos - 6,
                )
            self.pos += 6
            return chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
        return chr(code)

    def hex4(self, at: int) -> int:
        digits = self.text[at + 2 : at + 6]
        if len(digits) != 4 or any(d not in "0123456789abcdefABCDEF" for d in digits):
            raise self.fail("a \\u escape needs four hex digits", at)
        return int(digits, 16)

    def number(self) -> int | float:
        text, start = self.text, self.pos
        if text[self.pos] == "-":
            self.pos += 1
        while self.pos < len(text) and (text[self.pos].isdigit() or text[self.pos] in ".eE+-"):
            self.pos += 1
        literal = text[start : self.pos]
        try:
            value: int | float = (
                float(literal) if any(ch in literal for ch in ".eE") else int(literal)
            )
        except ValueError:
            raise self.fail(f"{literal[:40]!r} is not a number", start) from None
        if value in (float("inf"), float("-inf")):
            raise self.fail(
                f"{literal[:40]} is too large a number (a rule must be a finite number)", start
            )
        return value


def parse(text: str) -> Parsed:
    """Parse JSON-with-comments text, keeping the source range of every key and value.

    >>> parse('{"a": [1, 2,], // note\\n}').value
    {'a': [1, 2]}
    """
    return _Parser(text).parse()
