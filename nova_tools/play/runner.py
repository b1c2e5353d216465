"""Running android turns: the glue between the engine's ``decide`` callback and the sandbox.

One :class:`ScriptRunner` per game (it holds the game's bundles and its rules, handed to the
sandbox once per game). Sandboxes come from a pool (:func:`sandbox_lease`): a Sandbox runs one
turn at a time, so a thread playing a turn leases one, and threads playing at the same time (the
MCP server's workers, one slow game beside another) each get their own instead of queueing behind
one lock. Every sandbox of the process shares the compiled QuickJS, its snapshot, the bytecode
cache and the per-game images, so a bundle is still compiled once however many games run it, and
a turn comes out the same whichever sandbox plays it.
"""

from __future__ import annotations

import atexit
import json
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING

from .. import engine
from ..engine.reasons import Reason
from ..engine.state import Android, GameState
from ..rules import Rules
from .positions import Located, SourceMaps, locate

if TYPE_CHECKING:
    from ..sandbox import Sandbox, TurnGlobals


class _Pool:
    """Sandboxes not in use, and every one made (at most as many as turns ever ran at once)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.free: list[Sandbox] = []
        self.made: list[Sandbox] = []

    def take(self) -> Sandbox:
        with self.lock:
            if self.free:
                return self.free.pop()
        from ..sandbox import (
            Sandbox,
        )  # imported on first use: loading the game loop does not load wasmtime

        made = Sandbox()  # outside the lock: the first one compiles or loads QuickJS (~1 s)
        with self.lock:
            if not self.made:
                # let go of the wasmtime objects while the interpreter is whole: at its teardown
                # their finalisers would find wasmtime's own module half gone (and print a TypeError)
                atexit.register(self.clear)
            self.made.append(made)
        return made

    def give_back(self, sandbox: Sandbox) -> None:
        with self.lock:
            self.free.append(sandbox)

    def clear(self) -> None:
        with self.lock:
            self.free.clear()
            self.made.clear()


_POOL = _Pool()


@contextmanager
def sandbox_lease() -> Iterator[Sandbox]:
    """A sandbox for this thread's turn; given back afterwards for the next turn of any thread."""
    leased = _POOL.take()
    try:
        yield leased
    finally:
        _POOL.give_back(leased)


def sandbox() -> Sandbox:
    """A sandbox of the pool, for a caller that plays turns one at a time (benchmarks)."""
    with sandbox_lease() as leased:
        return leased


def sandboxes_made() -> int:
    """How many sandboxes the process has made: the most turns that ever ran at once."""
    return len(_POOL.made)


def sandbox_build() -> dict[str, str]:
    """The sandbox build a game file records (it fixes how much fuel a turn spends)."""
    from ..sandbox import SANDBOX_BUILD

    return dict(SANDBOX_BUILD)


# A failed turn's reason code, from the sandbox's kind of failure (sandbox.TurnKind): what a
# script can branch on when it reads its own events, and what `nova events --failed` shows.
FAILURE_CODES: Mapping[str, Reason] = {
    "fuel": Reason.OUT_OF_FUEL,
    "memory": Reason.OUT_OF_MEMORY,
    "stack": Reason.STACK_OVERFLOW,
    "timeout": Reason.TIMEOUT,
    "syntax": Reason.SYNTAX_ERROR,
    "error": Reason.SCRIPT_ERROR,
    "no-action": Reason.NOT_AN_ACTION,
    "crash": Reason.SANDBOX_CRASH,
}


def failure_code(kind: object) -> Reason:
    """The reason code of a sandbox failure kind (an unknown kind counts as the script's error)."""
    return FAILURE_CODES.get(str(kind), Reason.SCRIPT_ERROR)


class ScriptRunner:
    """Decides turns by running each android's script (``bundles``: script id -> bundle) in the
    sandbox, under the budgets of ``rules.script``; a failure's place in the bundle is reworded
    in the player's files with the script's source map (``source_maps``: script id -> map), in
    this one place (positions.py)."""

    def __init__(
        self,
        rules: Rules,
        bundles: Mapping[str, str],
        source_maps: Mapping[str, object] | None = None,
    ) -> None:
        from ..sandbox import Budgets, GameGlobals

        self.bundles = dict(bundles)
        self.source_maps = SourceMaps(source_maps)
        self.last_logs: tuple[str, ...] = ()
        self.last_place: Located | None = None  # where the last turn failed, in the player's files
        # The rules and finalTurn are the same for every turn: the sandbox parses them once per
        # game into the snapshot the game's turns start from.
        rules_json = json.dumps(rules.to_json(), separators=(",", ":"), ensure_ascii=False)
        self.game_globals = GameGlobals(rules_json, rules.match.final_round)
        self.budgets = Budgets(
            fuel=rules.script.fuel, memory=rules.script.memory, timeout_ms=rules.script.timeout_ms
        )

    def globals(self, state: GameState, android: Android) -> TurnGlobals:
        """What ``android``'s script sees this turn (its fogged world, the rules, ...): the glue
        between the engine's view and the sandbox's globals, in this one place."""
        from ..sandbox import TurnGlobals

        # each key's JSON text, as TurnGlobals.of would encode world_view's (kept per tile)
        texts = engine.world_texts(state, android.owner, android)
        return TurnGlobals(self.game_globals, android.id, state.round, texts)

    def decide(self, state: GameState, android: Android) -> engine.Decision:
        bundle = self.bundles.get(android.script)
        if bundle is None:
            return engine.Decision(error=f"its script {android.script} is not stored in this game")
        with sandbox_lease() as leased:
            result = leased.run_turn(
                bundle,
                self.globals(state, android),
                self.budgets,
                engine.turn_seed(state, android.id),
            )
        self.last_logs = result.logs  # console.log output: shown by dry-runs, not kept in games
        self.last_place = located = (
            locate(result, self.source_maps.get(android.script)) if result.error else None
        )
        error = located.error if located is not None else result.error
        return engine.Decision(
            value=result.value, error=error, ticks=result.ticks, code=failure_code(result.kind)
        )
