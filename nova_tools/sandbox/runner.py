"""``Sandbox.run_turn``: one android turn of a compiled script, from a fresh QuickJS, under budgets.

A turn:

0. finds the bundle's compiled bytecode in the process's cache, or compiles it in a throwaway
   interpreter restored from the same snapshot (bytecode.py: the outcome, and what the turn is
   charged for it, are the same whether the cache was cold or warm);
1. instantiates ``quickjs.wasm`` in a new Store and restores the snapshot taken after the prelude
   (so the interpreter, its tick-counter phase and its heap layout are identical every turn);
2. seeds Math.random, sets the heap limit and calls the prelude's ``setup`` with the globals;
3. gives the store the script's wasm fuel less what compiling it cost, loads the bytecode and
   evaluates it as an ES module (its top-level code runs now, after the globals are installed)
   and drains its promise jobs (module evaluation is asynchronous in QuickJS); a bundle that did
   not compile (a syntax error, an import) fails here, as if it had just been parsed;
4. calls the prelude's ``run`` with the module namespace, which calls ``export default`` and
   returns a JSON envelope; or, when anything threw, ``describe`` words the exception.

Failures of every kind come back as a TurnResult; only a bad ``globals_json`` (the caller's bug)
or a missing sandbox raise.
"""

from __future__ import annotations

import threading
import time

import wasmtime

from . import output
from . import results as say
from .build import MAX_BUNDLE_BYTES, compiled_quickjs, wasm_fuel_ceiling
from .bytecode import (CACHE, DESCRIBE_FUEL, DESCRIBE_MEMORY, Compiled, cache_key, compile_bundle,
                       heap_was_exhausted)
from .determinism import ByteStream, math_random_state
from .guest import Guest, Snapshot, restore, seed_math_random, take_snapshot
from .prelude import MAX_LOG_CHARS, MAX_LOG_LINES, PRELUDE
from .results import Budgets, TurnKind, TurnResult
from .wasi import TurnState, define_imports
from .watchdog import watchdog_for

# Module evaluation needs a few promise jobs; a script that queues thousands at top level is
# looping through promises, which ticks would only catch after ~2M jobs of host round trips.
MAX_JOBS = 10_000
# Wasm fuel for reading a finished turn's envelope (at most 2 MiB of JSON plus 16 KiB of logs).
READ_FUEL = 500_000_000
# Linear memory beyond the snapshot, on top of the JS heap budget: the allocator's own overhead
# and the copies of the inputs (which are plain malloc, outside the JS heap accounting).
MEMORY_SLACK = 16 * 1024 * 1024

_PROMISE_PENDING, _PROMISE_FULFILLED, _PROMISE_REJECTED = 0, 1, 2


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
        define_imports(linker, self._state)
        self._pre = linker.instantiate_pre(compiled.module)
        self._watchdog = watchdog_for(self._engine)
        self._lock = threading.Lock()
        self._snapshot = self._shared_snapshot()

    def _shared_snapshot(self) -> Snapshot:
        # The snapshot is plain bytes and pointers, valid for any instance of the same module.
        global _snapshot
        with _snapshot_lock:
            if _snapshot is None:
                self._state.fuel = 1 << 62
                self._state.random = ByteStream(0)
                try:
                    _snapshot = take_snapshot(Guest(self._engine, self._pre, self._state), PRELUDE)
                finally:
                    self._state.memory = None
            return _snapshot

    def run_turn(self, bundle: str, globals_json: str, budgets: Budgets, seed: int) -> TurnResult:
        with self._lock:
            code = bundle.encode("utf-8", "surrogatepass")
            if len(code) > MAX_BUNDLE_BYTES:  # a game file's bundle, not one an upload accepted
                return TurnResult(value=None, error=say.bundle_too_big_message(len(code)), ticks=0, kind=TurnKind.ERROR)
            ceiling = wasm_fuel_ceiling(budgets.fuel, len(code))
            started = time.monotonic()
            compiled = self._compiled(code, budgets, ceiling)
            # A cold turn's compile counts towards its wall-clock timeout, as parsing did.
            timeout_ms = max(0, budgets.timeout_ms - int((time.monotonic() - started) * 1000))
            state = self._state
            state.ticks = 0
            state.fuel = budgets.fuel
            state.random = ByteStream(seed)
            cap = (self._snapshot.size + budgets.memory + MEMORY_SLACK + 2 * (len(bundle) + len(globals_json))
                   + compiled.size)
            guest = Guest(self._engine, self._pre, state, memory_cap=cap)
            try:
                with self._watchdog.armed(guest.store, timeout_ms):
                    return _Turn(guest, self._snapshot, state, budgets, ceiling).run(compiled, globals_json, seed)
            finally:
                state.memory = None

    def _compiled(self, code: bytes, budgets: Budgets, ceiling: int) -> Compiled:
        """The bundle's compile outcome under these budgets: cached, or compiled now and cached."""
        key = cache_key(code, budgets.memory)
        found = CACHE.get(key, ceiling)
        if found is not None:
            return found
        state = self._state
        state.ticks = 0
        # No tick limit: parsing polls no interrupt, and describing a syntax error must not
        # depend on the turn's tick budget (the outcome is cached for every budget).
        state.fuel = 1 << 62
        state.random = ByteStream(0)
        cap = self._snapshot.size + budgets.memory + MEMORY_SLACK + 2 * len(code)
        guest = Guest(self._engine, self._pre, state, memory_cap=cap)
        try:
            with self._watchdog.armed(guest.store, budgets.timeout_ms):
                restore(guest, self._snapshot)
                compiled = compile_bundle(guest, self._snapshot, code, budgets.memory, ceiling)
        except wasmtime.Trap as trap:  # the watchdog, while describing a syntax error
            compiled = Compiled(fuel=ceiling, trap=trap)
        finally:
            state.memory = None
        CACHE.put(key, compiled)  # not if it was cut short by something non-deterministic
        return compiled


class _Turn:
    """The steps of one turn on one guest."""

    def __init__(self, guest: Guest, snapshot: Snapshot, state: TurnState, budgets: Budgets, ceiling: int) -> None:
        self.guest = guest
        self.snap = snapshot
        self.state = state
        self.budgets = budgets
        self.script_fuel = ceiling  # build.wasm_fuel_ceiling: compiling the bundle is charged to it
        self.script_started = False
        # Fixed when the script stops, before describing a failure runs more guest code.
        self.fuel_spent: int | None = None
        self.ticks: int | None = None

    def run(self, compiled: Compiled, globals_json: str, seed: int) -> TurnResult:
        try:
            return self._steps(compiled, globals_json, seed)
        except _Failed as failed:
            return failed.result
        except wasmtime.Trap as trap:
            self._script_stopped()
            return self._trapped(trap)

    def _steps(self, compiled: Compiled, globals_json: str, seed: int) -> TurnResult:
        g, snap = self.guest, self.snap
        restore(g, snap)
        seed_math_random(g, snap, math_random_state(seed))
        g.call("qjs_set_memory_limit", max(1, self.budgets.memory))  # 0 would mean "unlimited"

        payload = globals_json.encode("utf-8", "surrogatepass")
        payload_ptr = g.alloc(payload)
        result = g.call_js(snap.setup, snap.undefined, g.call("qjs_new_string", payload_ptr, len(payload)))
        if g.is_exception(result):
            failure = self._failure(phase="setup")
            if failure.kind is TurnKind.MEMORY:
                return failure
            raise ValueError(f"globals_json must be a JSON object: {failure.error}")

        bytecode = compiled.bytecode
        bytecode_ptr = g.alloc(bytecode) if bytecode is not None else 0
        if compiled.trap is not None:  # the compile was cut short (the watchdog, the wasm stack)
            g.store.set_fuel(max(0, self.script_fuel - compiled.fuel))
            self.script_started = True
            return self._trapped(compiled.trap)
        if compiled.exhausted or compiled.fuel >= self.script_fuel:
            # The compile did not finish within this turn's ceiling.
            g.store.set_fuel(0)
            self.script_started = True
            return self._result(TurnKind.FUEL, say.fuel_message(self.budgets.fuel, by_builtins=True))
        g.store.set_fuel(self.script_fuel - compiled.fuel)  # charged as if this turn had parsed it
        self.script_started = True
        if bytecode is None:
            return self._worded(compiled.failure or {}, "load", heap_exhausted=compiled.heap_exhausted)

        promise = g.call("qjs_eval_bytecode", bytecode_ptr, len(bytecode))
        if g.is_exception(promise):
            return self._failure(phase="load")
        self._drain_jobs()
        status = g.call("qjs_promise_state", promise)
        if status == _PROMISE_REJECTED:
            return self._failure(phase="run", exception=g.call("qjs_promise_result", promise))
        if status != _PROMISE_FULFILLED:
            return self._result(TurnKind.ERROR, say.pending_message())

        namespace = g.call("qjs_promise_result", promise)
        envelope_handle = g.call_js(snap.run, snap.undefined, namespace)
        self._script_stopped()
        # Reading the envelope out is the host's work, not the script's: a turn that finished
        # within its fuel is not failed for want of fuel here.
        g.store.set_fuel(READ_FUEL)
        if g.is_exception(envelope_handle):
            return self._failure(phase="run")
        out = self._output(envelope_handle)
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

    def _drain_jobs(self) -> None:
        g = self.guest
        for _ in range(MAX_JOBS):
            status = g.call("qjs_execute_pending_job")
            if status == 0:
                return
            if status < 0:  # a job threw past its promise: only an interrupt does that
                raise _Failed(self._failure(phase="run"))
        raise _Failed(self._result(TurnKind.ERROR, say.too_many_jobs_message(MAX_JOBS)))

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
        return self._worded(envelope, phase, heap_exhausted=heap_was_exhausted(g, snap, self.budgets.memory))

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
            return self._result(TurnKind.NO_ACTION, say.too_big_message(output.head_int(envelope, "size") or 0), envelope)
        got = output.head_text(envelope, "got", output.MAX_NAME_CHARS) or "nothing"
        type_name = output.head_text(envelope, "type", output.MAX_NAME_CHARS)
        return self._result(TurnKind.NO_ACTION, say.no_action_message(got, type_name), envelope)

    def _trapped(self, trap: wasmtime.Trap) -> TurnResult:
        code = trap.trap_code
        if code == wasmtime.TrapCode.OUT_OF_FUEL:
            return self._result(TurnKind.FUEL, say.fuel_message(self.budgets.fuel, by_builtins=True))
        if code == wasmtime.TrapCode.INTERRUPT:
            return self._result(TurnKind.TIMEOUT, say.timeout_message(self.budgets.timeout_ms))
        if code == wasmtime.TrapCode.STACK_OVERFLOW:
            return self._result(TurnKind.STACK, say.stack_message())
        detail = str(trap.message).splitlines()[0] if trap.message else "wasm trap"
        return self._result(TurnKind.CRASH, say.crash_message(detail))

    def _result(self, kind: TurnKind, error: str | None, envelope: dict | None = None,
                value: object = None, notes: list[str] | None = None) -> TurnResult:
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
