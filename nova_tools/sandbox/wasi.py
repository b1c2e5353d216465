"""Every import ``quickjs.wasm`` asks for, stubbed so a script can reach nothing outside its turn.

The module imports six ``env`` functions and six WASI functions (found by listing the module's
imports; the calling conventions follow quickjs-wasi's own ``dist/index.js`` and
``dist/wasi-shim.js``). None of them gives access to files, the network, the environment or the
real clock: file descriptors answer EBADF, the clock is frozen and randomness comes from the seed.
A host function must never raise (wasmtime-py would turn it into a trap and keep the exception in
a process-global slot), so each one only does arithmetic on its ``TurnState``.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

import wasmtime

from .determinism import FIXED_EPOCH_NS, ByteStream

ERRNO_SUCCESS = 0
ERRNO_BADF = 8
ERRNO_INVAL = 28
ERRNO_NOSYS = 52

_CLOCK_REALTIME, _CLOCK_MONOTONIC = 0, 1


@dataclass
class TurnState:
    """What the host functions need to know about the turn being run."""

    fuel: int = 0  # ticks allowed; the interrupt fires on tick fuel + 1
    ticks: int = 0
    memory: wasmtime.Memory | None = None
    random: ByteStream = field(default_factory=lambda: ByteStream(0))


def define_imports(linker: wasmtime.Linker, state: TurnState) -> None:
    i32, i64 = wasmtime.ValType.i32(), wasmtime.ValType.i64()

    def func(module: str, name: str, params: list, results: list, fn, caller: bool = False) -> None:
        linker.define_func(module, name, wasmtime.FuncType(params, results), fn, access_caller=caller)

    # -- env: the QuickJS embedding hooks --------------------------------------------------------

    def host_interrupt() -> int:
        # QuickJS calls this once per 10,000 poll points; one call is one tick. Returning non-zero
        # throws an uncatchable "interrupted" error in the guest, and keeps doing so on every later
        # poll, so code that runs after the budget is gone (a finally block...) is cut off too.
        state.ticks += 1
        return 1 if state.ticks > state.fuel else 0

    func("env", "host_interrupt", [], [i32], host_interrupt)
    # UTC everywhere: local-time Date methods must not depend on the host's time zone.
    func("env", "host_get_timezone_offset", [i32, i32], [i32], lambda hi, lo: 0)
    # Never enabled (qjs_set_promise_rejection_handler is not called), so never called.
    func("env", "host_promise_rejection", [i32, i32, i32], [], lambda promise, reason, handled: None)
    # The module loader is never enabled either: QuickJS then refuses every import by itself
    # ("could not load module"). Should it be called anyway, NULL means "refused".
    func("env", "host_module_normalize", [i32, i32], [i32], lambda base, name: 0)
    func("env", "host_module_load", [i32, i32], [i32], lambda name, out_len: 0)
    # No host function is ever registered, so there is nothing a script could call here.
    func("env", "host_call", [i32, i32, i32, i32, i32], [i32], lambda *args: 0)

    # -- WASI ------------------------------------------------------------------------------------

    def clock_time_get(caller: wasmtime.Caller, clock_id: int, precision: int, result_ptr: int) -> int:
        if clock_id not in (_CLOCK_REALTIME, _CLOCK_MONOTONIC) or state.memory is None:
            return ERRNO_NOSYS
        if result_ptr < 0:
            return ERRNO_INVAL
        try:
            state.memory.write(caller, struct.pack("<Q", FIXED_EPOCH_NS), result_ptr)
        except (IndexError, ValueError, wasmtime.WasmtimeError):
            return ERRNO_INVAL
        return ERRNO_SUCCESS

    def random_get(caller: wasmtime.Caller, buf_ptr: int, buf_len: int) -> int:
        if state.memory is None or buf_ptr < 0 or not 0 <= buf_len <= 1 << 20:
            return ERRNO_INVAL
        try:
            state.memory.write(caller, state.random.take(buf_len), buf_ptr)
        except (IndexError, ValueError, wasmtime.WasmtimeError):
            return ERRNO_INVAL
        return ERRNO_SUCCESS

    wasi = "wasi_snapshot_preview1"
    func(wasi, "clock_time_get", [i32, i64, i32], [i32], clock_time_get, caller=True)
    func(wasi, "random_get", [i32, i32], [i32], random_get, caller=True)
    # No file descriptor exists, not even stdout/stderr: QuickJS's own diagnostics go nowhere.
    func(wasi, "fd_write", [i32, i32, i32, i32], [i32], lambda fd, iovs, n, nwritten: ERRNO_BADF)
    func(wasi, "fd_close", [i32], [i32], lambda fd: ERRNO_BADF)
    func(wasi, "fd_fdstat_get", [i32, i32], [i32], lambda fd, stat: ERRNO_BADF)
    func(wasi, "fd_seek", [i32, i64, i32, i32], [i32], lambda fd, offset, whence, result: ERRNO_BADF)
