"""The watchdog: a turn that runs longer than ``timeoutMs`` of its own thread's CPU time traps.

It counts CPU time, not wall time: on a loaded machine (ten turns at once on two busy cores, a
tournament's process pool, an MCP server playing several games) a turn that needs one second of
CPU can take twelve of wall time, and a wall-clock watchdog then decided turns that the fuel
ceiling would have ended: the same game came out differently with the machine's load (issue 9:
the clock never decides a turn). A turn's CPU time follows the fuel it spends (CALIBRATION.md), so
the ceilings run out well before it, however busy the machine is.

How: wasmtime checks the engine's epoch at function entries and loop back-edges. One ticker thread
advances the epoch every ``EPOCH_SECONDS`` while any turn runs (an epoch is engine-wide, so per-turn
timers would cut each other's turns short). A store's deadline is always the next tick; reaching it
calls ``_on_deadline`` *on the thread running the turn*, which reads that thread's CPU clock and
either lets the turn go on to the next tick or ends it with an error that :func:`as_trap` turns
into wasmtime's own Interrupt trap (what callers already treat as the timeout). This is the last
line of defence: wasm fuel stops a runaway script deterministically long before it fires.
"""

from __future__ import annotations

import ctypes
import math
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import wasmtime
from wasmtime import _ffi as ffi

EPOCH_SECONDS = 0.01  # how often a running turn's CPU time is looked at
_NEVER = math.inf
_TIMED_OUT = "nova: the turn ran past its timeout (CPU time)"

_DeadlineCallback = ctypes.CFUNCTYPE(
    ctypes.c_size_t,
    ctypes.POINTER(ffi.wasmtime_context_t),
    ctypes.c_void_p,
    ctypes.POINTER(ctypes.c_uint64),
    ctypes.POINTER(ffi.wasmtime_update_deadline_kind_t),
)
_NO_FINALIZER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)()  # a null function pointer
_CONTINUE = 0  # WASMTIME_UPDATE_DEADLINE_CONTINUE


class _CpuLimit:
    """One store's limit: the thread CPU time (``time.thread_time``) its turn may run until."""

    def __init__(self, store: wasmtime.Store) -> None:
        self.until = _NEVER
        self.callback = _DeadlineCallback(self._on_deadline)  # kept alive as long as the store
        ffi.wasmtime_store_epoch_deadline_callback(store.ptr(), self.callback, None, _NO_FINALIZER)

    def _on_deadline(self, _context, _data, delta, kind) -> int:
        if time.thread_time() >= self.until:
            return (
                ctypes.cast(ffi.wasmtime_error_new(_TIMED_OUT.encode()), ctypes.c_void_p).value or 0
            )
        delta[0] = 1
        kind[0] = _CONTINUE
        return 0


def _limit_of(store: wasmtime.Store) -> _CpuLimit:
    limit = getattr(store, "_nova_cpu_limit", None)
    if limit is None:
        limit = _CpuLimit(store)
        # kept on the store it limits (wasmtime.Store has no slot of ours for it)
        store._nova_cpu_limit = limit  # type: ignore[attr-defined]
    return limit


class WatchdogTrap(wasmtime.Trap):
    """The watchdog's timeout, shaped as wasmtime's Interrupt trap (its ``trap_code``)."""

    @property
    def trap_code(self) -> wasmtime.TrapCode:
        return wasmtime.TrapCode.INTERRUPT


def as_trap(error: wasmtime.WasmtimeError) -> wasmtime.WasmtimeError | WatchdogTrap:
    """The error a call raised, or the watchdog's trap if it was the watchdog that ended it."""
    return WatchdogTrap(_TIMED_OUT) if _TIMED_OUT in str(error) else error


class Watchdog:
    def __init__(self, engine: wasmtime.Engine) -> None:
        self._engine = engine
        self._active = 0
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None

    @contextmanager
    def armed(self, store: wasmtime.Store, timeout_ms: int) -> Iterator[None]:
        """Run the block (on this thread) with ``store`` trapping (Interrupt) once this thread has
        spent ``timeout_ms`` of CPU time from now."""
        limit = self.arm(store, timeout_ms)
        try:
            yield
        finally:
            self.disarm(limit)

    def arm(self, store: wasmtime.Store, timeout_ms: int, now: float | None = None) -> _CpuLimit:
        """What ``armed`` does on entry (for the per-turn path, which saves the generator);
        every ``arm`` must be followed by ``disarm``, in a ``finally``. ``now``: this thread's
        CPU time (``time.thread_time()``) if the caller just read it."""
        limit = _limit_of(store)
        limit.until = (time.thread_time() if now is None else now) + max(0, timeout_ms) / 1000
        store.set_epoch_deadline(1)
        with self._wake:
            self._active += 1
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._tick, name="nova-sandbox-watchdog", daemon=True
                )
                self._thread.start()
            self._wake.notify()
        return limit

    def disarm(self, limit: _CpuLimit) -> None:
        limit.until = _NEVER
        with self._wake:
            self._active -= 1

    def _tick(self) -> None:
        while True:
            with self._wake:
                while self._active == 0:
                    self._wake.wait()
            self._engine.increment_epoch()
            time.sleep(EPOCH_SECONDS)


_watchdogs: dict[int, Watchdog] = {}
_lock = threading.Lock()


def watchdog_for(engine: wasmtime.Engine) -> Watchdog:
    with _lock:
        dog = _watchdogs.get(id(engine))
        if dog is None:
            dog = _watchdogs[id(engine)] = Watchdog(engine)
        return dog
