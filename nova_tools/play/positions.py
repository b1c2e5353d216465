"""Where a script failed, in the files the player wrote: the one place bundle positions are mapped.

The sandbox reports a thrown error, a syntax error or a load failure at a line and column of the
bundle, with the error's stack (sandbox ``TurnResult.line``/``column``/``stack``). The player
never wrote the bundle: the game loop turns those positions into their own files, lines and
columns with the script's source map (toolchain/sourcemap.py) before the turn is judged, so the
game log, ``nova events``, ``get_events``, a dry-run and the language server all show
``lib/nav.ts:4:11``, and none of them maps anything itself.

The log keeps the mapped sentence. It stays a pure function of the game: the map is stored in the
game file beside the bundle (made by the pinned esbuild from the same sources), the mapping is
plain arithmetic, and no script ever reads an event's reason (the world a script sees holds no
log), so a game plays the same with or without maps. A script kept without a map (a game file
from before maps, a peer's script in a match) keeps the bundle's ``at line N``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..toolchain.sourcemap import Place, SourceMap

if TYPE_CHECKING:
    from ..sandbox.results import TurnResult

#: Callers named after the place an error was thrown (the rest of the stack is left out).
MAX_CALLERS = 4


@dataclass(frozen=True)
class Located:
    """A failed turn's sentence with its place in the player's files, and its mapped stack."""

    error: str
    stack: tuple[tuple[str | None, Place], ...] = ()  # (function, place), innermost first

    @property
    def place(self) -> Place | None:
        return self.stack[0][1] if self.stack else None


class SourceMaps:
    """Each script's source map (script id -> the map's JSON object), decoded on first use."""

    def __init__(self, maps: Mapping[str, object] | None = None) -> None:
        self.raw: dict[str, object] = dict(maps or {})
        self._decoded: dict[str, SourceMap] = {}

    def __setitem__(self, script: str, data: object) -> None:
        self.raw[script] = data
        self._decoded.pop(script, None)

    def get(self, script: str) -> SourceMap | None:
        found = self._decoded.get(script)
        raw = self.raw.get(script)
        if found is None and isinstance(raw, Mapping):
            found = self._decoded[script] = SourceMap(raw)
        return found


def locate(result: TurnResult, source_map: SourceMap | None) -> Located | None:
    """The failed turn ``result`` (a sandbox TurnResult) placed in the player's files, or None
    when it has no place to map (no error position, no map, or code the player did not write)."""
    if result.error is None or result.line is None or source_map is None:
        return None
    thrown = source_map.place(result.line, result.column or 1)
    if thrown is None:
        return None
    frames = result.stack
    # the stack's first frame is where it was thrown (the sandbox reads both from the same text)
    on_top = bool(frames) and (frames[0].line, frames[0].column) == (result.line, result.column)
    stack: list[tuple[str | None, Place]] = [(frames[0].function if on_top else None, thrown)]
    for frame in frames[1:] if on_top else ():
        place = source_map.place(frame.line, frame.column)
        if place is not None:
            stack.append((frame.function, place))
    from ..sandbox.results import without_place

    worded = without_place(result.error, result.line)
    if worded == result.error:  # a failure the sandbox does not place (memory, fuel ...)
        return None
    return Located(worded + where(stack), tuple(stack))


def where(stack: list[tuple[str | None, Place]]) -> str:
    """`` at lib/nav.ts:4:11 in pick, called from turn at main.ts:4:13``."""
    function, place = stack[0]
    text = f" at {place}" + (f" in {function}" if function else "")
    callers = stack[1 : 1 + MAX_CALLERS]
    for caller, at in callers:
        text += f", called from {caller + ' at ' if caller else ''}{at}"
    if len(stack) > 1 + MAX_CALLERS:
        text += f" (and {len(stack) - 1 - MAX_CALLERS} more)"
    return text
