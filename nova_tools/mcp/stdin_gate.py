"""What reaches the MCP SDK over stdio: every line a JSON-RPC message it can read.

The SDK reads each line with pydantic's JSON parser, which refuses two things that valid JSON may
hold: a lone UTF-16 surrogate escape (``"\\ud800"``, which a JavaScript client writes for a string
holding half an emoji) and nesting deeper than 200 levels. A line it refuses is dropped without a
reply, so the client waited for ever on that request (issue 9: a tool name, a game name, a
script's source or a rules object could each do it). The gate stands between the process's stdin
and the SDK and rewrites such a line into one the SDK reads, keeping its id, so the request gets
an answer like any other:

- a lone surrogate becomes U+FFFD, as everywhere else a script's text is made well-formed;
- a value nested deeper than ``MAX_DEPTH`` levels becomes the string ``NESTED_TOO_DEEP``, which
  the tool's argument checks then refuse in their usual sentence.

Lines that need neither (all of them, from a well-behaved client) pass through unchanged: a
substring test and one scan of the line's brackets, strings skipped by a regular expression.
"""

from __future__ import annotations

import json
import os
import re
import threading

from ..strictjson import may_hold_surrogates, well_formed

# JSON-RPC's envelope and a tool's arguments (rules objects included) nest about ten levels.
MAX_DEPTH = 64
NESTED_TOO_DEEP = f"[nested more than {MAX_DEPTH} levels deep]"

# A JSON string (unrolled: no backtracking, no recursion however long), or a bracket.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


def readable(line: str) -> str:
    """``line`` as the SDK can read it (itself, unless it holds lone surrogates or nests too deep)."""
    deep = _deep_spans(line)
    if not deep and not may_hold_surrogates(line):
        return line
    shallow = _replace_spans(line, deep, json.dumps(NESTED_TOO_DEEP)) if deep else line
    try:
        value = json.loads(shallow)
    except (ValueError, RecursionError):
        return line  # not JSON: the SDK answers it (or not) as it does any unreadable line
    return json.dumps(_well_formed(value), ensure_ascii=False, separators=(",", ":"))


def _deep_spans(line: str) -> list[tuple[int, int]]:
    """Where values nested deeper than ``MAX_DEPTH`` start and end (the outermost ones)."""
    spans: list[tuple[int, int]] = []
    depth = 0
    start = -1
    for token in _TOKENS.finditer(line):
        kind = token.group()
        if kind in "[{":
            depth += 1
            if depth == MAX_DEPTH + 1:
                start = token.start()
        elif kind in "]}":
            if depth == MAX_DEPTH + 1 and start >= 0:
                spans.append((start, token.end()))
                start = -1
            depth -= 1
    return spans


def _replace_spans(line: str, spans: list[tuple[int, int]], by: str) -> str:
    parts, at = [], 0
    for start, end in spans:
        parts += [line[at:start], by]
        at = end
    parts.append(line[at:])
    return "".join(parts)


def _well_formed(value: object) -> object:
    """The decoded value with every lone surrogate, in keys and strings, replaced by U+FFFD."""
    if isinstance(value, str):
        return well_formed(value)
    if isinstance(value, list):
        return [_well_formed(item) for item in value]
    if isinstance(value, dict):
        return {well_formed(key): _well_formed(item) for key, item in value.items()}
    return value


def install() -> None:
    """Put the gate in front of fd 0 for the rest of the process: fd 0 becomes a pipe that a
    thread fills with the real stdin's lines, each made readable. The SDK then claims fd 0 as it
    claims any stdin (children and handlers read nothing from it)."""
    wire = os.dup(0)  # the real stdin (not inherited by children)
    out, into = os.pipe()
    os.dup2(out, 0)
    os.close(out)
    threading.Thread(
        target=_pump, args=(wire, into), name="nova-mcp-stdin-gate", daemon=True
    ).start()


def _pump(wire: int, into: int) -> None:
    with (
        open(wire, "rb", closefd=True) as source,
        open(into, "wb", buffering=0, closefd=True) as sink,
    ):
        try:
            for raw in source:
                line = raw.decode("utf-8", errors="replace")
                ending = "\n" if line.endswith("\n") else ""
                sink.write(
                    (readable(line.rstrip("\r\n")) + ending).encode("utf-8", errors="replace")
                )
        except (BrokenPipeError, ValueError, OSError):
            pass  # the server stopped reading: nothing left to hand on
