"""The watchdog: a turn that runs longer than ``timeoutMs`` of its own thread's CPU time traps.

It counts CPU time, not wall time: on a loaded machine (ten turns at once on two busy cores, a
tournament's process pool, an MCP server playing several games) a turn that needs one second of
CPU can take twelve of wall time, and a wall-clock watchdog then decided turns that the fuel
ceiling would have ended: the same game came out differently with the machine's load (issue 9:
the clock never decides a turn). A turn's CPU time follows the fuel it spends (CALIBRATION.md), so
the ceilings run out well before it, however busy the machine is.

How: QuickJS calls its interrupt handler once every 10,000 poll points (calls, loop back-edges,
regex backtracking): one tick (``TurnState.ticks``). That call, ``define_interrupt``'s, reads the
turn thread's CPU clock, and once the turn's deadline is past it ends the turn with wasmtime's own
Interrupt trap (what callers treat as the timeout). Built-in work polls rarely (a join of a
million items runs without a tick), so the caller also looks at the clock once the turn is over
(``overran``): such work is bounded by wasm fuel, deterministically and well inside the timeout
(DESIGN section 3), and the watchdog is only the last line of defence.

Until sandbox build 10 wasmtime checked an engine epoch at every function entry and loop
back-edge, advanced every 10 ms by a ticker thread: those checks cost a tenth to a quarter of a
script's turn (docs/benchmarks.md) to enforce a limit that the fuel ceiling already enforces.
Where the watchdog looks changes no turn's result: fuel and ticks are counted as before.
"""

from __future__ import annotations

import ctypes
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import wasmtime
from wasmtime import _ffi as ffi

if TYPE_CHECKING:
    from .wasi import TurnState

NEVER = math.inf  # the deadline while no turn is armed (building images is the host's own work)
_INTERRUPT = wasmtime.TrapCode.INTERRUPT.value
_I32 = ffi.WASMTIME_I32.value
_NO_FINALIZER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)()  # a null function pointer


def arm(state: TurnState, timeout_ms: int, now: float | None = None) -> None:
    """Let the turn about to run on this thread spend ``timeout_ms`` of CPU time from now
    (``now``: this thread's CPU time, ``time.thread_time()``, if the caller just read it)."""
    state.deadline = (time.thread_time() if now is None else now) + max(0, timeout_ms) / 1000


def disarm(state: TurnState) -> None:
    state.deadline = NEVER


@contextmanager
def armed(state: TurnState, timeout_ms: int) -> Iterator[None]:
    """Run the block (on this thread) with the guest trapping (Interrupt) at its first tick after
    this thread has spent ``timeout_ms`` of CPU time from now."""
    arm(state, timeout_ms)
    try:
        yield
    finally:
        disarm(state)


def overran(state: TurnState) -> bool:
    """Whether this thread has passed the armed deadline (work that reached no tick after it)."""
    return time.thread_time() >= state.deadline


def define_interrupt(linker: wasmtime.Linker, state: TurnState) -> object:
    """Define ``env.host_interrupt``, QuickJS's interrupt handler: one call is one tick.

    Returning non-zero throws an uncatchable "interrupted" error in the guest, and it keeps doing
    so on every later poll, so code that runs after the budget is gone (a finally block...) is cut
    off too; past the deadline the call traps instead. Defined through wasmtime's C API, not
    ``Linker.define_func``: a trap made here carries wasmtime's Interrupt code, where a Python
    exception would travel through wasmtime-py's one process-wide slot (another thread's turn
    could pick it up). Returns the callback, which must be kept alive as long as the linker."""

    def tick(_env, _caller, _args, _nargs, results, _nresults) -> int:
        state.ticks += 1
        if state.ticks <= state.fuel and time.thread_time() >= state.deadline:
            trap = ffi.wasmtime_trap_new_code(_INTERRUPT)
            return ctypes.cast(trap, ctypes.c_void_p).value or 0
        result = results[0]
        result.kind = _I32
        result.of.i32 = 1 if state.ticks > state.fuel else 0
        return 0

    callback = ffi.wasmtime_func_callback_t(tick)
    kind = wasmtime.FuncType([], [wasmtime.ValType.i32()])
    module, name = b"env", b"host_interrupt"
    error = ffi.wasmtime_linker_define_func(
        linker.ptr(),
        ctypes.create_string_buffer(module),
        len(module),
        ctypes.create_string_buffer(name),
        len(name),
        kind.ptr(),
        callback,
        None,
        _NO_FINALIZER,
    )
    if error:
        raise wasmtime.WasmtimeError._from_ptr(error)
    return callback
