"""One QuickJS instance in its own wasmtime Store, and the snapshot every turn starts from.

A value crosses the boundary as an i32 pointer to a heap-allocated JSValue ("handle"), the
convention of quickjs-wasi's ``c/interface.c``; handles are never freed here because the whole
instance is thrown away after the turn.

Two shortcuts through wasmtime-py internals keep a turn near 1 ms (wasmtime is pinned exactly, and
the sandbox tests exercise both paths):
- exports are looked up one by one with ``wasmtime_instance_export_get``: ``Instance.exports()``
  wraps all ~450 of them (~6-9 ms per instance);
- ``call`` builds the raw argument array itself: ``Func.__call__`` re-reads and converts the
  function type on every call, which is most of its ~8 µs.
"""

from __future__ import annotations

import ctypes
import struct
from dataclasses import dataclass

import wasmtime
from wasmtime import _ffi as ffi
from wasmtime._extern import wrap_extern
from wasmtime._func import enter_wasm

from .determinism import xorshift64star
from .wasi import TurnState

PAGE = 65536
EVAL_MODULE = 1  # JS_EVAL_TYPE_MODULE
# Intrinsics (qjs_init2's bitmask, see quickjs-wasi's `Intrinsics`): everything except WeakRef /
# FinalizationRegistry (their timing depends on the garbage collector) and `performance` (a clock).
INTRINSICS = 0xFFFFFFFF & ~((1 << 9) | (1 << 10))
# The JS call stack QuickJS allows (a catchable RangeError beyond it). It is measured on the
# wasm linear-memory stack, so the same recursion depth fails on every host.
MAX_STACK_SIZE = 128 * 1024

_I32 = ffi.WASMTIME_I32.value
# Result shape per export name: (number of results, whether the result is an f64). The module is
# fixed, so this is read from the function type once per process, not on every call.
_RESULT_SHAPES: dict[str, tuple[int, bool]] = {}


class _Export:
    __slots__ = ("func", "results", "f64")

    def __init__(self, func: wasmtime.Func, results: int, f64: bool) -> None:
        self.func = func
        self.results = results
        self.f64 = f64


class Guest:
    """A freshly instantiated ``quickjs.wasm`` and typed helpers over the exports the sandbox uses."""

    def __init__(self, engine: wasmtime.Engine, pre: wasmtime.InstancePre, state: TurnState,
                 memory_cap: int | None = None) -> None:
        self.store = wasmtime.Store(engine)
        if memory_cap is not None:
            # A hard ceiling on linear memory: a grow beyond it fails, malloc returns NULL, and
            # QuickJS reports "out of memory" as it does at its own limit.
            self.store.set_limits(memory_size=memory_cap)
        # Until the caller sets real budgets: no fuel or epoch limit (a new store has neither).
        self.store.set_fuel(1 << 62)
        self.store.set_epoch_deadline(1 << 62)
        self.instance = pre.instantiate(self.store)
        self._exports: dict[str, _Export] = {}
        self.memory: wasmtime.Memory = self.export("memory")  # type: ignore[assignment]
        state.memory = self.memory

    def export(self, name: str) -> wasmtime.Func | wasmtime.Memory | wasmtime.Global:
        item = ffi.wasmtime_extern_t()
        raw = name.encode()
        if not ffi.wasmtime_instance_export_get(self.store._context(), ctypes.byref(self.instance._instance),
                                                raw, len(raw), ctypes.byref(item)):
            raise KeyError(f"quickjs.wasm has no export {name!r}")
        return wrap_extern(item)  # type: ignore[return-value]

    def call(self, name: str, *args: int) -> int:
        """Call an export with i32 arguments; returns its result (0 for a void export)."""
        export = self._exports.get(name)
        if export is None:
            func: wasmtime.Func = self.export(name)  # type: ignore[assignment]
            shape = _RESULT_SHAPES.get(name)
            if shape is None:
                results = func.type(self.store).results
                shape = _RESULT_SHAPES[name] = (len(results), bool(results) and results[0] == wasmtime.ValType.f64())
            export = self._exports[name] = _Export(func, *shape)
        params = (ffi.wasmtime_val_t * len(args))()
        for i, arg in enumerate(args):
            params[i].kind = _I32
            params[i].of.i32 = arg
        results = (ffi.wasmtime_val_t * export.results)()
        with enter_wasm(self.store) as trap:
            error = ffi.wasmtime_func_call(self.store._context(), ctypes.byref(export.func._func),
                                           params, len(args), results, export.results, trap)
            if error:
                raise wasmtime.WasmtimeError._from_ptr(error)
        if not export.results:
            return 0
        return results[0].of.f64 if export.f64 else results[0].of.i32

    # -- memory ----------------------------------------------------------------------------------

    def _address(self, offset: int, length: int) -> int:
        if offset < 0 or offset + length > self.memory.data_len(self.store):
            raise IndexError(f"guest memory access out of bounds ({offset}+{length})")
        return ctypes.addressof(self.memory.data_ptr(self.store).contents) + offset

    def write(self, offset: int, data: bytes) -> None:
        ctypes.memmove(self._address(offset, len(data)), data, len(data))

    def read(self, offset: int, length: int) -> bytes:
        return ctypes.string_at(self._address(offset, length), length)

    def alloc(self, data: bytes) -> int:
        """Copy ``data`` into a fresh ``malloc`` block (not counted against the JS heap limit)."""
        ptr = self.call("wasm_malloc", max(len(data), 1))
        if ptr == 0:
            raise MemoryError("wasm_malloc failed")
        self.write(ptr, data)
        return ptr

    def js_string(self, handle: int) -> str | None:
        """The UTF-8 text of a JS string handle (None if QuickJS could not convert it)."""
        len_ptr = self.alloc(b"\0\0\0\0")
        cstr = self.call("qjs_get_string_len", handle, len_ptr)
        if cstr == 0:
            return None
        (length,) = struct.unpack("<I", self.read(len_ptr, 4))
        return self.read(cstr, length).decode("utf-8", "replace")

    def call_js(self, func: int, this: int, *handles: int) -> int:
        """``func.call(this, ...handles)``; returns the result handle (check ``is_exception``)."""
        argv = self.alloc(struct.pack(f"<{len(handles)}I", *handles)) if handles else 0
        return self.call("qjs_call", func, this, len(handles), argv)

    def is_exception(self, handle: int) -> bool:
        return self.call("qjs_is_exception", handle) != 0

    def stack_pointer(self) -> wasmtime.Global:
        return self.export("__stack_pointer")  # type: ignore[return-value]


@dataclass(frozen=True)
class Snapshot:
    """QuickJS right after the prelude ran: linear memory plus the few pointers outside it.

    Only the parts of memory that differ from a freshly instantiated module are kept (~200 KB of
    1.3 MB), so restoring is a couple of small copies.
    """

    size: int  # bytes of linear memory
    patches: tuple[tuple[int, bytes], ...]  # (offset, bytes) that differ from a fresh instance
    stack_pointer: int
    runtime: int
    context: int
    random_state: int  # address of QuickJS's Math.random state, reseeded every turn
    undefined: int  # handles (pointers into the snapshot) the host uses every turn
    setup: int
    run: int
    describe: int


def take_snapshot(guest: Guest, prelude: str) -> Snapshot:
    """Initialise QuickJS in a fresh ``guest``, run the prelude, and capture the result."""
    fresh = guest.read(0, guest.memory.data_len(guest.store))
    guest.call("_initialize")
    if guest.call("qjs_init2", INTRINSICS) != 0:
        raise RuntimeError("QuickJS failed to initialise")
    guest.call("qjs_set_max_stack_size", MAX_STACK_SIZE)
    guest.call("qjs_set_interrupt_handler", 1)
    random_state = _find_random_state(guest)
    drivers = _eval(guest, prelude)
    handles = [guest.call("qjs_get_prop_string", drivers, guest.alloc(index + b"\0")) for index in (b"0", b"1", b"2")]
    guest.call("qjs_run_gc")
    memory = guest.read(0, guest.memory.data_len(guest.store))
    return Snapshot(
        size=len(memory),
        patches=_diff(fresh, memory),
        stack_pointer=guest.stack_pointer().value(guest.store),
        runtime=guest.call("qjs_get_runtime_ptr"),
        context=guest.call("qjs_get_context_ptr"),
        random_state=random_state,
        undefined=guest.call("qjs_get_undefined"),
        setup=handles[0],
        run=handles[1],
        describe=handles[2],
    )


def _eval(guest: Guest, code: str) -> int:
    """Evaluate a global script during snapshot set-up; returns the result handle."""
    raw = code.encode()
    result = guest.call("qjs_eval", guest.alloc(raw + b"\0"), len(raw), guest.alloc(b"<nova prelude>\0"), 0)
    if guest.is_exception(result):
        raise RuntimeError(f"the sandbox prelude failed: {guest.js_string(guest.call('qjs_get_exception'))}")
    return result


def _find_random_state(guest: Guest) -> int:
    """The address of the JSContext's ``random_state``, the 64-bit state of the native Math.random.

    quickjs-wasi has no API to seed Math.random, and a JS replacement costs ~6x the fuel per call.
    The state is found by watching one Math.random() call: the only 8-byte field of the context
    that moves from s to xorshift64*(s) while returning the matching value. The find is then
    proven by seeding a known state and predicting the next value, so a different quickjs build
    fails loudly here instead of leaving Math.random unseeded.
    """
    context = guest.call("qjs_get_context_ptr")
    span = min(4096, guest.memory.data_len(guest.store) - context)
    before = guest.read(context, span)
    value = guest.call("qjs_get_float64", _eval(guest, "Math.random()"))
    after = guest.read(context, span)
    found = []
    for offset in range(0, span - 7, 8):
        old, new = (int.from_bytes(image[offset:offset + 8], "little") for image in (before, after))
        if old and xorshift64star(old) == (new, value):
            found.append(context + offset)
    probe = 0x9E3779B97F4A7C15
    if len(found) == 1:
        guest.write(found[0], probe.to_bytes(8, "little"))
        if guest.call("qjs_get_float64", _eval(guest, "Math.random()")) == xorshift64star(probe)[1]:
            return found[0]
    raise RuntimeError("cannot find QuickJS's Math.random state: is quickjs.wasm from quickjs-wasi 3.7.0?")


def _diff(fresh: bytes, memory: bytes, chunk: int = 4096) -> tuple[tuple[int, bytes], ...]:
    """Runs of ``chunk``-sized blocks where ``memory`` differs from ``fresh`` (zeros past its end)."""
    fresh = fresh.ljust(len(memory), b"\0")
    patches: list[tuple[int, bytes]] = []
    start = None
    for offset in range(0, len(memory) + chunk, chunk):
        differs = offset < len(memory) and memory[offset:offset + chunk] != fresh[offset:offset + chunk]
        if differs and start is None:
            start = offset
        elif not differs and start is not None:
            patches.append((start, memory[start:offset]))
            start = None
    return tuple(patches)


def restore(guest: Guest, snapshot: Snapshot) -> None:
    """Make a fresh instance continue from ``snapshot`` (quickjs-wasi's ``QuickJS.restore``)."""
    pages = snapshot.size // PAGE - guest.memory.size(guest.store)
    if pages > 0:
        guest.memory.grow(guest.store, pages)
    for offset, data in snapshot.patches:
        guest.write(offset, data)
    guest.stack_pointer().set_value(guest.store, snapshot.stack_pointer)
    guest.call("qjs_set_runtime_and_context", snapshot.runtime, snapshot.context)


def seed_math_random(guest: Guest, snapshot: Snapshot, state: int) -> None:
    guest.write(snapshot.random_state, state.to_bytes(8, "little"))
