"""Every import ``quickjs.wasm`` asks for, stubbed so a script can reach nothing outside its turn.

The module imports six ``env`` functions and six WASI functions (found by listing the module's
imports; the calling conventions follow quickjs-wasi's own ``dist/index.js`` and
``dist/wasi-shim.js``). None of them gives access to files, the network, the environment or the
real clock: file descriptors answer EBADF, the clock is frozen and randomness comes from the seed.
A host function must never raise (wasmtime-py would turn it into a trap and keep the exception in
a process-global slot), so each one only does arithmetic on its ``TurnState``.

A call into Python costs 10-15 µs while the guest's own work runs at ~10M wasm fuel per ms, so a
loop of ``Date.now()`` or ``getHours()`` would spend seconds for little fuel and meet the
timeout instead of a deterministic limit. Every host call a script can trigger at will
therefore also burns ``HOST_CALL_FUEL`` of wasm fuel, keeping fuel and time in proportion.
(``host_interrupt``, the tick, needs no charge: it runs once per 10,000 poll points, bounded by
the ticks; it is the watchdog's too, and lives in watchdog.py.)
"""

from __future__ import annotations

import ctypes
import math
import struct
from dataclasses import dataclass, field

import wasmtime
from wasmtime import _ffi as ffi

from .determinism import FIXED_EPOCH_NS, ByteStream
from .watchdog import define_interrupt

ERRNO_SUCCESS = 0
ERRNO_BADF = 8
ERRNO_INVAL = 28
ERRNO_NOSYS = 52

_CLOCK_REALTIME, _CLOCK_MONOTONIC = 0, 1
_FIXED_CLOCK = struct.pack("<Q", FIXED_EPOCH_NS)

# Wasm fuel burnt per host call a script can trigger (clock, time zone, random): a host call
# takes 10-15 µs, about what the guest does with this much fuel.
HOST_CALL_FUEL = 150_000


@dataclass
class TurnState:
    """What the host functions need to know about the turn being run."""

    fuel: int = 0  # ticks allowed; the interrupt fires on tick fuel + 1
    ticks: int = 0
    memory: wasmtime.Memory | None = None
    random: ByteStream = field(default_factory=lambda: ByteStream(0))
    deadline: float = math.inf  # the thread CPU time the turn may run until (watchdog.arm)


def define_imports(linker: wasmtime.Linker, state: TurnState) -> object:
    """Define every import; returns what must be kept alive as long as the linker."""
    i32, i64 = wasmtime.ValType.i32(), wasmtime.ValType.i64()

    def func(module: str, name: str, params: list, results: list, fn, caller: bool = False) -> None:
        linker.define_func(
            module, name, wasmtime.FuncType(params, results), fn, access_caller=caller
        )

    # -- env: the QuickJS embedding hooks --------------------------------------------------------

    def host_get_timezone_offset(caller: wasmtime.Caller, hi: int, lo: int) -> int:
        _charge(caller)
        return 0  # UTC everywhere: local-time Date methods must not depend on the host's zone

    tick = define_interrupt(linker, state)  # one call per 10,000 poll points: one tick
    func(
        "env", "host_get_timezone_offset", [i32, i32], [i32], host_get_timezone_offset, caller=True
    )
    # Never enabled (qjs_set_promise_rejection_handler is not called), so never called.
    func(
        "env", "host_promise_rejection", [i32, i32, i32], [], lambda promise, reason, handled: None
    )
    # The module loader is never enabled either: QuickJS then refuses every import by itself
    # ("could not load module"). Should it be called anyway, NULL means "refused".
    func("env", "host_module_normalize", [i32, i32], [i32], lambda base, name: 0)
    func("env", "host_module_load", [i32, i32], [i32], lambda name, out_len: 0)
    # No host function is ever registered, so there is nothing a script could call here.
    func("env", "host_call", [i32, i32, i32, i32, i32], [i32], lambda *args: 0)

    # -- WASI ------------------------------------------------------------------------------------

    def clock_time_get(
        caller: wasmtime.Caller, clock_id: int, precision: int, result_ptr: int
    ) -> int:
        _charge(caller)
        if clock_id not in (_CLOCK_REALTIME, _CLOCK_MONOTONIC):
            return ERRNO_NOSYS
        return _write(caller, state.memory, result_ptr, _FIXED_CLOCK)

    def random_get(caller: wasmtime.Caller, buf_ptr: int, buf_len: int) -> int:
        _charge(caller)
        if not 0 <= buf_len <= 1 << 20:
            return ERRNO_INVAL
        return _write(caller, state.memory, buf_ptr, state.random.take(buf_len))

    wasi = "wasi_snapshot_preview1"
    func(wasi, "clock_time_get", [i32, i64, i32], [i32], clock_time_get, caller=True)
    func(wasi, "random_get", [i32, i32], [i32], random_get, caller=True)
    # No file descriptor exists, not even stdout/stderr: QuickJS's own diagnostics go nowhere.
    func(wasi, "fd_write", [i32, i32, i32, i32], [i32], lambda fd, iovs, n, nwritten: ERRNO_BADF)
    func(wasi, "fd_close", [i32], [i32], lambda fd: ERRNO_BADF)
    func(wasi, "fd_fdstat_get", [i32, i32], [i32], lambda fd, stat: ERRNO_BADF)
    func(
        wasi, "fd_seek", [i32, i64, i32, i32], [i32], lambda fd, offset, whence, result: ERRNO_BADF
    )
    return tick


def _charge(caller: wasmtime.Caller) -> None:
    """Burn HOST_CALL_FUEL of the calling store's fuel (the next wasm instruction traps at 0)."""
    context = caller._context()
    remaining = ctypes.c_uint64(0)
    if not ffi.wasmtime_context_get_fuel(context, ctypes.byref(remaining)):
        ffi.wasmtime_context_set_fuel(context, max(0, remaining.value - HOST_CALL_FUEL))


def _write(caller: wasmtime.Caller, memory: wasmtime.Memory | None, ptr: int, data: bytes) -> int:
    if memory is None or ptr < 0 or ptr + len(data) > memory.data_len(caller):
        return ERRNO_INVAL
    ctypes.memmove(ctypes.addressof(memory.data_ptr(caller).contents) + ptr, data, len(data))
    return ERRNO_SUCCESS
