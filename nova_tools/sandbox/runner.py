"""``Sandbox.run_turn``: one android turn of a compiled script, from a fresh QuickJS, under budgets.

A turn:

0. finds the bundle's compiled bytecode in the process's cache, or compiles it in an interpreter
   restored from the post-prelude snapshot (bytecode.py: the outcome, and what the turn is charged
   for it, are the same whether the cache was cold or warm); then the game's image (its rules
   installed, the heap limit set) and the bundle's image on top of it (its bytecode read), built
   once and cached (images.py);
1. restores the deepest of those images into the Sandbox's one instance of ``quickjs.wasm`` (a new
   instance after a trap, or when a turn grew its memory), so the interpreter, its tick-counter
   phase and its heap layout are identical every turn, whatever ran before;
2. seeds Math.random and calls the prelude's ``setupTurn`` with ``androidId``, ``turn`` and the
   world's JSON texts, one string read with JS_ReadObject (globals.py);
3. gives the store the script's wasm fuel less what compiling and reading the bytecode cost (and
   the module's top level, where the bundle image holds it evaluated: images.evaluate_top_level,
   whose ticks the turn starts with); otherwise evaluates the module (its top-level code runs
   now, after the globals are installed) and drains its promise jobs (module evaluation is
   asynchronous in QuickJS); a bundle that did not compile (a syntax error, an import) fails
   here, as if it had just been parsed;
4. calls the prelude's ``run`` with the module namespace, which calls ``export default`` and
   returns a JSON envelope; or, when anything threw, ``describe`` words the exception.

The per-turn path passes JSValues as i64 rather than through the ``qjs_*`` wrappers (which malloc
a handle for every value), and the glue of our quickjs.wasm does the work of several calls in one
(``nova_setup_turn``, ``nova_evaluate``): 3 host-to-guest calls a turn whose top level is in the
image, 4 when it runs every turn (before build 8: 4 and 8).

Failures of every kind come back as a TurnResult; only globals that are not JSON (the caller's
bug) or a missing sandbox raise.
"""

from __future__ import annotations

import struct
import threading
import time
from collections import OrderedDict

import wasmtime

from . import output, watchdog
from . import results as say
from .build import MAX_BUNDLE_BYTES, compiled_quickjs, wasm_fuel_ceiling
from .bytecode import (
    CACHE,
    DESCRIBE_FUEL,
    DESCRIBE_MEMORY,
    Compiled,
    cache_key,
    compile_bundle,
    heap_was_exhausted,
)
from .determinism import ByteStream, math_random_state
from .globals import NUMBERS, GameGlobals, TurnGlobals
from .guest import (
    FULL_COUNTDOWN,
    PAGE,
    SCRATCH_BYTES,
    SCRATCH_PAYLOAD,
    TAG_EXCEPTION,
    UNDEFINED,
    Guest,
    Image,
    Snapshot,
    encode_string,
    restore,
    seed_math_random,
    tag,
    take_snapshot,
)
from .images import (
    BUNDLES,
    GAMES,
    MAX_JOBS,
    BundleImage,
    GameImage,
    build_bundle_image,
    build_game_image,
    evaluate_top_level,
    game_key,
)
from .prelude import MAX_LOG_CHARS, MAX_LOG_LINES, PRELUDE, SCRIPT_FILENAME
from .results import Budgets, Frame, TurnKind, TurnResult
from .wasi import TurnState, define_imports

# Wasm fuel for reading a finished turn's envelope (at most 2 MiB of JSON plus 16 KiB of logs).
READ_FUEL = 500_000_000
# Linear memory beyond the image, on top of the JS heap budget: the allocator's own overhead
# and the copies of the inputs (which are plain malloc, outside the JS heap accounting).
MEMORY_SLACK = 16 * 1024 * 1024

# What nova_evaluate found (wasm/nova_quickjs.c; a job throwing and the namespace throwing, 2 and
# 6, are worded alike).
_EVALUATED, _EVAL_THREW, _TOO_MANY_JOBS, _REJECTED, _PENDING = 0, 1, 3, 4, 5
_NUMBERS = struct.Struct(f"<{NUMBERS}i")  # the prelude's N, as the host writes it


class _Failed(Exception):
    """Internal: ends a turn early with a ready TurnResult."""

    def __init__(self, result: TurnResult) -> None:
        self.result = result


_snapshot_lock = threading.Lock()
_snapshot: Snapshot | None = None


class Sandbox:
    """Runs turns one at a time (a lock serialises callers); use one Sandbox per thread for
    parallel turns. Construction compiles or loads ``quickjs.wasm`` once per process."""

    def __init__(self) -> None:
        compiled = compiled_quickjs()  # raises SandboxUnavailable
        self._engine = compiled.engine
        self._state = TurnState()
        linker = wasmtime.Linker(self._engine)
        self._imports = define_imports(linker, self._state)  # kept alive with the linker
        self._pre = linker.instantiate_pre(compiled.module)
        self._lock = threading.Lock()
        self._built = False  # whether this turn compiled or built an image (its timeout: run_turn)
        # The guest every turn runs in, restored from an image first; replaced after a trap, or
        # when its memory grew past the next image's (memory cannot shrink).
        self._guest: Guest | None = None
        self._snapshot = self._shared_snapshot()

    def _shared_snapshot(self) -> Snapshot:
        # The snapshot is plain bytes and pointers, valid for any instance of the same module.
        global _snapshot
        with _snapshot_lock:
            if _snapshot is None:
                self._state.fuel = 1 << 62
                self._state.random = ByteStream(0)
                _snapshot = take_snapshot(Guest(self._engine, self._pre, self._state), PRELUDE)
            return _snapshot

    def run_turn(
        self, bundle: str, globals: TurnGlobals | str, budgets: Budgets, seed: int
    ) -> TurnResult:
        """Run one turn of ``bundle`` (an ES module whose default export is the turn function).

        ``globals`` is what the script sees (globals.py); a JSON text of the five globals is also
        accepted (parsed into a TurnGlobals, which raises ValueError if it is not one).
        """
        if isinstance(globals, str):
            globals = TurnGlobals.from_json(globals)
        with self._lock:
            code, digest = _source(bundle)
            if len(code) > MAX_BUNDLE_BYTES:  # a game file's bundle, not one an upload accepted
                return TurnResult(
                    value=None,
                    error=say.bundle_too_big_message(len(code)),
                    ticks=0,
                    kind=TurnKind.ERROR,
                )
            handover = globals.handover()
            payload = encode_string(handover.text, self._snapshot.object_version)
            numbers = _NUMBERS.pack(*handover.numbers)
            ceiling = wasm_fuel_ceiling(budgets.fuel, len(code))
            started = time.thread_time()  # a system call (~2 µs): read once on a warm turn
            self._built = False
            compiled = self._compiled(code, budgets, ceiling, digest)
            game = self._game_image(globals.game, budgets.memory)
            loaded = self._bundle_image(game, compiled, (digest, budgets.memory), budgets, ceiling)
            # A cold turn's compile counts towards its timeout (CPU time: watchdog.py), as parsing
            # did; a warm turn's clock starts here, a few microseconds before the script does.
            clock: float | None = started
            timeout_ms = budgets.timeout_ms
            if self._built:
                timeout_ms = max(0, timeout_ms - int((time.thread_time() - started) * 1000))
                clock = None  # the watchdog reads the clock again
            image = loaded.image if loaded is not None else game.image
            state = self._state
            cap = image.size + budgets.memory + MEMORY_SLACK + 2 * (len(payload) + compiled.size)
            guest = self._guest_for(image, cap)
            state.ticks = 0
            state.fuel = budgets.fuel
            state.random = ByteStream(seed)
            turn = _Turn(guest, self._snapshot, image, state, budgets, ceiling)
            watchdog.arm(state, timeout_ms, now=clock)
            try:
                result = turn.run(compiled, loaded, payload, numbers, seed)
                if result.kind is not TurnKind.TIMEOUT and watchdog.overran(state):
                    # built-in work that reached no tick after the deadline (watchdog.py)
                    result = turn.timed_out()
                return result
            finally:
                watchdog.disarm(state)
                if turn.trapped:
                    self._let_go()  # its state is whatever the trap left: start afresh

    def memory_bytes(self) -> int:
        """The linear memory this sandbox holds between turns (0 when it holds no instance)."""
        with self._lock:
            return self._guest.pages() * PAGE if self._guest is not None else 0

    def release_memory(self, above: int = 0) -> bool:
        """Let go of the instance when its linear memory is more than ``above`` bytes: wasm memory
        never shrinks, so a turn that grew a large heap would keep it until the instance goes. The
        next turn starts a fresh instance from its image, as after a trap (the same result).
        Returns whether it let go."""
        with self._lock:
            guest = self._guest
            if guest is None or guest.pages() * PAGE <= above:
                return False
            self._let_go()
            return True

    def _let_go(self) -> None:
        """Drop the instance and close its store at once: a Guest sits in reference cycles, so
        without closing, its linear memory would wait for Python's cycle collector."""
        guest, self._guest = self._guest, None
        if guest is not None:
            self._state.memory = None
            guest.store.close()

    # -- images ----------------------------------------------------------------------------------

    def _guest_for(self, image: Image, cap: int) -> Guest:
        """The reusable guest, holding ``image`` and limited to ``cap`` bytes of linear memory."""
        guest = self._guest
        if guest is None or guest.pages() > image.pages:
            self._let_go()
            guest = self._guest = Guest(self._engine, self._pre, self._state)
            guest.scratch = self._snapshot.scratch
        if guest.cap != cap:
            guest.store.set_limits(memory_size=cap)
            guest.cap = cap
        guest.store.set_fuel(1 << 62)  # until the script's own fuel is set
        self._state.memory = guest.memory
        restore(guest, image)
        return guest

    def _building(self, image: Image) -> Guest:
        """The guest, ready to build a layer on ``image`` (no budgets: building is the host's work)."""
        self._state.ticks = 0
        self._state.fuel = 1 << 62
        self._state.random = ByteStream(0)
        return self._guest_for(image, 1 << 32)

    def _game_image(self, game: GameGlobals, memory: int) -> GameImage:
        key = game_key(game, memory)
        found = GAMES.get(key)
        if found is None:
            self._built = True
            try:
                found = build_game_image(
                    self._building(self._snapshot.image), self._snapshot, game, memory
                )
            except BaseException:
                self._let_go()
                raise
            GAMES.put(key, found)
        return found

    def _bundle_image(
        self,
        game: GameImage,
        compiled: Compiled,
        code_key: tuple[str, int],
        budgets: Budgets,
        ceiling: int,
    ) -> BundleImage | None:
        if compiled.bytecode is None or compiled.trap is not None:
            return None
        # The tick budget is part of the key: whether the top level fits in a turn depends on it
        # (and the wasm-fuel ceiling on it and the bundle's size).
        key = (game.key, code_key, budgets.fuel)
        found = BUNDLES.get(key)
        if found is None and key not in BUNDLES:
            self._built = True
            try:
                found = build_bundle_image(
                    self._building(game.image), self._snapshot, game, compiled
                )
                trap = None
                if found is not None:
                    guest = self._guest
                    assert guest is not None
                    with watchdog.armed(self._state, budgets.timeout_ms):
                        evaluated, trap = evaluate_top_level(
                            guest,
                            self._snapshot,
                            self._state,
                            found,
                            compiled,
                            budgets.fuel,
                            ceiling,
                        )
                    if trap is not None:
                        self._let_go()
                    found = evaluated or found
            except BaseException:
                self._let_go()
                raise
            if trap is not None and trap.trap_code == wasmtime.TrapCode.INTERRUPT:
                return found  # the clock decided: not kept, so the next turn tries again
            BUNDLES.put(key, found)
        return found

    def _compiled(
        self, code: bytes, budgets: Budgets, ceiling: int, digest: str | None = None
    ) -> Compiled:
        """The bundle's compile outcome under these budgets: cached, or compiled now and cached."""
        key = (digest, budgets.memory) if digest is not None else cache_key(code, budgets.memory)
        found = CACHE.get(key, ceiling)
        if found is not None:
            return found
        self._built = True
        state = self._state
        state.ticks = 0
        # No tick limit: parsing polls no interrupt, and describing a syntax error must not
        # depend on the turn's tick budget (the outcome is cached for every budget).
        state.fuel = 1 << 62
        state.random = ByteStream(0)
        cap = self._snapshot.size + budgets.memory + MEMORY_SLACK + 2 * len(code)
        guest = self._guest_for(self._snapshot.image, cap)
        try:
            with watchdog.armed(state, budgets.timeout_ms):
                compiled = compile_bundle(guest, self._snapshot, code, budgets.memory, ceiling)
        except wasmtime.Trap as trap:  # the watchdog, while describing a syntax error
            compiled = Compiled(fuel=ceiling, trap=trap)
        if compiled.trap is not None:
            self._let_go()
        CACHE.put(key, compiled)  # not if it was cut short by something non-deterministic
        return compiled


_sources: OrderedDict[str, tuple[bytes, str]] = OrderedDict()
_sources_lock = threading.Lock()


def _source(bundle: str) -> tuple[bytes, str]:
    """The bundle's UTF-8 bytes and their sha256, remembered for the last few bundles: a game hands
    the same string every turn, whose hash Python keeps, so this is a dict lookup, not a rehash."""
    with _sources_lock:
        found = _sources.get(bundle)
        if found is not None:
            _sources.move_to_end(bundle)
            return found
    code = bundle.encode("utf-8", "surrogatepass")
    found = (code, cache_key(code, 0)[0])
    with _sources_lock:
        _sources[bundle] = found
        while len(_sources) > 32:
            _sources.popitem(last=False)
    return found


class _Turn:
    """The steps of one turn on one guest (restored from ``image``)."""

    def __init__(
        self,
        guest: Guest,
        snapshot: Snapshot,
        image: Image,
        state: TurnState,
        budgets: Budgets,
        ceiling: int,
    ) -> None:
        self.guest = guest
        self.snap = snapshot
        self.image = image
        self.state = state
        self.budgets = budgets
        self.script_fuel = ceiling  # build.wasm_fuel_ceiling: compiling the bundle is charged to it
        self.script_started = False
        self.trapped = False
        # Fixed when the script stops, before describing a failure runs more guest code.
        self.fuel_spent: int | None = None
        self.ticks: int | None = None

    def run(
        self,
        compiled: Compiled,
        loaded: BundleImage | None,
        payload: bytes,
        numbers: bytes,
        seed: int,
    ) -> TurnResult:
        try:
            return self._steps(compiled, loaded, payload, numbers, seed)
        except _Failed as failed:
            return failed.result
        except wasmtime.Trap as trap:
            self.trapped = True
            self._script_stopped()
            return self._trapped(trap)
        except BaseException:
            self.trapped = True
            raise

    def _steps(
        self,
        compiled: Compiled,
        loaded: BundleImage | None,
        payload: bytes,
        numbers: bytes,
        seed: int,
    ) -> TurnResult:
        g, snap = self.guest, self.snap
        ctx, scratch = snap.context, snap.scratch
        seed_math_random(g, snap, math_random_state(seed))
        g.write(snap.interrupt_counter, FULL_COUNTDOWN)  # setup's polls are far from a tick
        g.write(snap.numbers, numbers)
        if len(payload) <= SCRATCH_BYTES - SCRATCH_PAYLOAD:
            at = scratch + SCRATCH_PAYLOAD
            g.write(at, payload)
        else:
            at = g.alloc(payload)
        # the globals read and handed to setupTurn in one host call (wasm/nova_quickjs.c)
        text = g.call("nova_setup_turn", at, len(payload), snap.setup_turn_value)
        if tag(text) == TAG_EXCEPTION:
            failure = self._failure(phase="setup")
            if failure.kind is TurnKind.MEMORY:
                return failure
            raise ValueError(f"the turn's globals could not be installed: {failure.error}")
        # Setup is the host's work: neither its fuel nor its polls are the turn's.
        if loaded is not None and loaded.evaluated:
            # the top level ran first, from a full poll countdown: its ticks, and the countdown
            # as it left it, are the image's (images.evaluate_top_level)
            self.state.ticks = loaded.top_ticks
            g.write(snap.interrupt_counter, loaded.countdown)
        else:  # every turn's polls count from a full countdown: 10,000 polls to the first tick
            self.state.ticks = 0
            g.write(snap.interrupt_counter, FULL_COUNTDOWN)

        if compiled.trap is not None:  # the compile was cut short (the watchdog, the wasm stack)
            g.store.set_fuel(max(0, self.script_fuel - compiled.fuel))
            self.script_started = True
            self.trapped = True
            return self._trapped(compiled.trap)
        # Reading the bytecode, and evaluating the module's top level where the bundle image
        # holds it evaluated, done once for the image, are charged as if done now (images.py).
        charged = compiled.fuel
        if loaded is not None:
            charged += loaded.load_fuel + loaded.top_fuel
        if compiled.exhausted or charged >= self.script_fuel:
            # The compile (or the read) did not finish within this turn's ceiling.
            g.store.set_fuel(0)
            self.script_started = True
            return self._result(
                TurnKind.FUEL, say.fuel_message(self.budgets.fuel, by_builtins=True)
            )
        g.store.set_fuel(self.script_fuel - charged)  # charged as if this turn had parsed it
        self.script_started = True
        if compiled.bytecode is None:
            return self._worded(
                compiled.failure or {}, "load", heap_exhausted=compiled.heap_exhausted
            )

        if loaded is not None and loaded.evaluated:
            namespace = loaded.namespace  # the top level ran in the image (images.py)
            return self._call_default(namespace)
        if loaded is not None:
            module = loaded.module
        else:  # the heap budget is too small to hold the script: reading it fails, every turn
            module = g.call(
                "JS_ReadObject", ctx, g.alloc(compiled.bytecode), len(compiled.bytecode), 1
            )
            if tag(module) == TAG_EXCEPTION or g.call("JS_ResolveModule", ctx, module) < 0:
                return self._failure(phase="load")
        # The module evaluated, its promise jobs run and its namespace read, in one host call;
        # the namespace (or the rejection value) lands in scratch, run()'s argument below.
        evaluated = g.call("nova_evaluate", module, MAX_JOBS, scratch)
        if evaluated == _EVAL_THREW:
            return self._failure(phase="load")
        if evaluated == _TOO_MANY_JOBS:
            return self._result(TurnKind.ERROR, say.too_many_jobs_message(MAX_JOBS))
        if evaluated == _REJECTED:
            return self._failure(phase="run", exception=scratch)
        if evaluated == _PENDING:
            return self._result(TurnKind.ERROR, say.pending_message())
        if evaluated != _EVALUATED:  # a job threw past its promise, or the namespace threw
            return self._failure(phase="run")
        return self._call_default(struct.unpack("<q", g.read(scratch, 8))[0])

    def _call_default(self, namespace: int) -> TurnResult:
        """Call the prelude's ``run`` on the module's namespace and judge what comes back."""
        g, snap = self.guest, self.snap
        ctx, scratch = snap.context, snap.scratch
        g.write(scratch, struct.pack("<q", namespace))
        envelope = g.call("JS_Call", ctx, snap.run_value, UNDEFINED, 1, scratch)
        self._script_stopped()
        # Reading the envelope out is the host's work, not the script's: a turn that finished
        # within its fuel is not failed for want of fuel here.
        g.store.set_fuel(READ_FUEL)
        if tag(envelope) == TAG_EXCEPTION:
            return self._failure(phase="run")
        out = self._output(g.handle(envelope, at=scratch))
        if out.head.get("ok") is not True:
            return self._refusal(out.head)
        try:
            value, notes = output.decode_value(out.value_json)
        except output.TooDeep as deep:
            return self._result(TurnKind.NO_ACTION, say.too_deep_message(str(deep)), out.head)
        except output.Unreadable as error:
            return self._result(TurnKind.CRASH, say.crash_message(str(error)), out.head)
        return self._result(TurnKind.OK, None, out.head, value=value, notes=notes)

    # -- steps -----------------------------------------------------------------------------------

    def _output(self, handle: int) -> output.Output:
        try:
            return output.split(self.guest.js_string(handle))
        except output.Unreadable as error:
            raise _Failed(self._result(TurnKind.CRASH, say.crash_message(str(error)))) from None

    def _failure(self, phase: str, exception: int | None = None) -> TurnResult:
        """Word the pending exception (or ``exception``) that ended the turn."""
        g, snap = self.guest, self.snap
        self._script_stopped()
        if exception is None:
            exception = g.call("qjs_get_exception")
        out_of_ticks = self.state.ticks > self.state.fuel
        # Describing runs guest code: give it room even if the script used everything up.
        g.call("qjs_set_memory_limit", self.budgets.memory + DESCRIBE_MEMORY)
        g.store.set_fuel(DESCRIBE_FUEL)
        envelope: dict = {}
        try:
            described = g.call_js(snap.describe, snap.undefined, exception)
            if not g.is_exception(described):
                envelope = self._output(described).head
        except (wasmtime.Trap, _Failed):
            pass
        if out_of_ticks:
            return self._result(TurnKind.FUEL, say.fuel_message(self.budgets.fuel), envelope)
        return self._worded(
            envelope, phase, heap_exhausted=heap_was_exhausted(g, self.image, self.budgets.memory)
        )

    def _worded(self, envelope: dict, phase: str, heap_exhausted: bool) -> TurnResult:
        """The result for an exception ``describe`` turned into ``envelope`` (a head)."""
        kind = envelope.get("kind")
        what = output.head_text(envelope, "what") or "a value that could not be described"
        line = output.head_int(envelope, "line")
        # quickjs-wasi sometimes fails an allocation at the heap limit without its "out of memory"
        # error: the script then sees `null` thrown, or the exception slot holds no value at all
        # ("[uninitialized]", which no script can throw: a thrown string is shown quoted)
        if kind == "memory" or (what in ("null", "[uninitialized]") and heap_exhausted):
            return self._result(TurnKind.MEMORY, say.memory_message(self.budgets.memory), envelope)
        if kind == "stack":
            return self._result(TurnKind.STACK, say.stack_message(), envelope)
        if phase == "load" and envelope.get("name") == "SyntaxError":
            message = output.head_text(envelope, "message") or what
            return self._result(TurnKind.SYNTAX, say.syntax_message(message, line), envelope)
        if phase == "load":
            return self._result(TurnKind.ERROR, say.load_message(what, line), envelope)
        return self._result(TurnKind.ERROR, say.thrown_message(what, line), envelope)

    def _refusal(self, envelope: dict) -> TurnResult:
        kind = envelope.get("kind")
        if kind == "not-json":
            what = output.head_text(envelope, "what") or "?"
            return self._result(TurnKind.NO_ACTION, say.not_json_message(what), envelope)
        if kind == "too-big":
            return self._result(
                TurnKind.NO_ACTION,
                say.too_big_message(output.head_int(envelope, "size") or 0),
                envelope,
            )
        got = output.head_text(envelope, "got", output.MAX_NAME_CHARS) or "nothing"
        type_name = output.head_text(envelope, "type", output.MAX_NAME_CHARS)
        return self._result(TurnKind.NO_ACTION, say.no_action_message(got, type_name), envelope)

    def _trapped(self, trap: wasmtime.Trap) -> TurnResult:
        code = trap.trap_code
        if code == wasmtime.TrapCode.OUT_OF_FUEL:
            return self._result(
                TurnKind.FUEL, say.fuel_message(self.budgets.fuel, by_builtins=True)
            )
        if code == wasmtime.TrapCode.INTERRUPT:
            return self.timed_out()
        if code == wasmtime.TrapCode.STACK_OVERFLOW:
            return self._result(TurnKind.STACK, say.stack_message())
        detail = str(trap.message).splitlines()[0] if trap.message else "wasm trap"
        return self._result(TurnKind.CRASH, say.crash_message(detail))

    def timed_out(self) -> TurnResult:
        """The result of a turn the watchdog ended (or found past its deadline at the end)."""
        return self._result(TurnKind.TIMEOUT, say.timeout_message(self.budgets.timeout_ms))

    def _result(
        self,
        kind: TurnKind,
        error: str | None,
        envelope: dict | None = None,
        value: object = None,
        notes: list[str] | None = None,
    ) -> TurnResult:
        self._script_stopped()
        envelope = envelope or {}
        logs = output.head_logs(envelope, MAX_LOG_LINES, MAX_LOG_CHARS + MAX_LOG_LINES * 3)
        dropped = output.head_int(envelope, "droppedLogs")
        if dropped:
            logs += (f"... {dropped} more console line(s) not kept",)
        logs += tuple(notes or ())
        return TurnResult(
            value=value if kind is TurnKind.OK else None,
            error=output.well_formed(error) if error is not None else None,
            ticks=self.ticks if self.ticks is not None else self.state.ticks,
            kind=kind,
            logs=logs,
            line=output.head_int(envelope, "line"),
            column=output.head_int(envelope, "column"),
            stack=tuple(Frame(*frame) for frame in output.head_frames(envelope, SCRIPT_FILENAME)),
            wasm_fuel=self.fuel_spent or 0,
        )

    def _script_stopped(self) -> None:
        if self.ticks is None and self.script_started:
            self.ticks = self.state.ticks
        if self.fuel_spent is None and self.script_started:
            try:
                self.fuel_spent = max(0, self.script_fuel - self.guest.store.get_fuel())
            except wasmtime.WasmtimeError:
                self.fuel_spent = self.script_fuel
