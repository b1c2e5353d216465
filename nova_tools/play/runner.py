"""Running android turns: the glue between the engine's ``decide`` callback and the sandbox.

One :class:`ScriptRunner` per game (it holds the game's bundles and its rules, handed to the
sandbox once per game). Sandboxes come from a pool (:func:`sandbox_lease`): a Sandbox runs one
turn at a time, so a thread playing a turn leases one, and threads playing at the same time (the
MCP server's workers, one slow game beside another) each get their own instead of queueing behind
one lock, up to the process's limit (:func:`limit_turns`; by default from the machine's cores and
memory): a turn beyond it waits, bounded, then is refused in one sentence (:class:`TurnsBusy`).
A sandbox given back lets go of a large heap at once, so a server returns near its idle size. Every sandbox of the process shares the compiled QuickJS, its snapshot, the bytecode
cache and the per-game images, so a bundle is still compiled once however many games run it, and
a turn comes out the same whichever sandbox plays it.
"""

from __future__ import annotations

import atexit
import json
import os
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING

from .. import engine
from ..engine.reasons import Reason
from ..engine.state import Android, GameState
from ..errors import NovaError
from ..rules import Rules
from ..rules.budgets import MAX_HEAP_BYTES
from .positions import Located, SourceMaps, locate

if TYPE_CHECKING:
    from ..sandbox import Sandbox, TurnGlobals


#: A sandbox whose instance holds more linear memory than this after a turn lets it go (the next
#: turn starts a fresh instance): a turn at the default 16 MiB heap stays under it, one that grew a
#: 900 MiB heap gives the memory back as soon as it ends.
KEEP_MEMORY_BYTES = 64 * 1024 * 1024
#: How long a turn waits for a sandbox when the process already runs its most turns at once.
TURN_WAIT_S = 60.0


class TurnsBusy(NovaError):
    """Every sandbox of the process is playing a turn, and none came free within the wait."""


def machine_turns() -> int:
    """How many turns this process runs at once by default: one per core (at least two), and no
    more than half the machine's memory holds at the largest heap the rules allow."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count() or 1
    try:
        pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not on Linux
        pages = 0
    by_memory = pages // 2 // (MAX_HEAP_BYTES + KEEP_MEMORY_BYTES) if pages else 2
    return max(1, min(max(2, cores), by_memory))


class _Pool:
    """Sandboxes not in use, and every one made: at most ``limit``, so at most ``limit`` turns run
    at once in this process; a turn beyond them waits up to ``wait_s`` for one, then is refused."""

    def __init__(self) -> None:
        self.lock = threading.Condition()
        self.free: list[Sandbox] = []
        self.made: list[Sandbox] = []
        self.making = 0
        self.limit: int | None = None  # machine_turns(), on first use
        self.wait_s = TURN_WAIT_S

    def take(self) -> Sandbox:
        deadline = time.monotonic() + self.wait_s
        with self.lock:
            if self.limit is None:
                self.limit = machine_turns()
            while self.busy() >= self.limit:
                left = deadline - time.monotonic()
                if left <= 0 or not self.lock.wait(left):
                    if self.busy() < self.limit:
                        break
                    raise TurnsBusy(
                        f"this server runs at most {self.limit} turn{'s' if self.limit != 1 else ''} "
                        f"at once and none came free within {self.wait_s:g} s; try again in a "
                        "moment (nova mcp --max-turns sets the limit)"
                    )
            if self.free:
                return self.free.pop()
            self.making += 1
        from ..sandbox import (
            Sandbox,
        )  # imported on first use: loading the game loop does not load wasmtime

        try:
            made = Sandbox()  # outside the lock: the first one compiles or loads QuickJS (~1 s)
        except BaseException:
            with self.lock:
                self.making -= 1
                self.lock.notify()
            raise
        with self.lock:
            self.making -= 1
            if not self.made:
                # let go of the wasmtime objects while the interpreter is whole: at its teardown
                # their finalisers would find wasmtime's own module half gone (and print a TypeError)
                atexit.register(self.clear)
            self.made.append(made)
        return made

    def busy(self) -> int:
        """Sandboxes playing a turn now, or being made for one (with the lock held)."""
        return len(self.made) - len(self.free) + self.making

    def give_back(self, sandbox: Sandbox) -> None:
        sandbox.release_memory(above=KEEP_MEMORY_BYTES)  # a large heap goes back at once
        with self.lock:
            self.free.append(sandbox)
            self.lock.notify()

    def clear(self) -> None:
        with self.lock:
            self.free.clear()
            self.made.clear()


_POOL = _Pool()


def limit_turns(most: int, wait_s: float = TURN_WAIT_S) -> None:
    """Run at most ``most`` turns at once in this process (a server's ``--max-turns``); a turn
    beyond them waits up to ``wait_s`` seconds for one to finish, then is refused (TurnsBusy)."""
    if most < 1:
        raise ValueError(f"at least one turn must be able to run, not {most}")
    with _POOL.lock:
        _POOL.limit = most
        _POOL.wait_s = wait_s
        _POOL.lock.notify_all()


def turns_limit() -> int:
    """How many turns this process runs at once (``limit_turns``, or the machine's default)."""
    with _POOL.lock:
        if _POOL.limit is None:
            _POOL.limit = machine_turns()
        return _POOL.limit


@contextmanager
def sandbox_lease() -> Iterator[Sandbox]:
    """A sandbox for this thread's turn (waiting, bounded, when the process runs its most turns
    at once); given back afterwards for the next turn of any thread, its memory trimmed."""
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

        # each key's JSON text, as TurnGlobals.of would encode world_view's (kept per tile,
        # android, building, broadcast and script list: engine/view.py)
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
