"""One QuickJS instance in its own wasmtime Store, the memory images a turn starts from, and the
snapshot taken after the prelude (the first image).

A value crosses the boundary either as an i32 pointer to a heap-allocated JSValue ("handle"), the
convention of quickjs-wasi's ``c/interface.c``, or, on the per-turn path, as the 64-bit JSValue
itself for the raw ``JS_*`` exports. Nothing is ever freed here: the next turn restores an image
over whatever the last one left.

Reusing one instance is safe because an instance's whole state is its linear memory and one
mutable global, ``__stack_pointer`` (the module has no other globals, and its table is never
written): restoring both makes it indistinguishable from a fresh instance holding the same image.
A test checks it byte for byte.

Two shortcuts through wasmtime-py internals keep a turn near 1 ms (wasmtime is pinned exactly, and
the sandbox tests exercise both paths):
- exports are looked up one by one with ``wasmtime_instance_export_get``: ``Instance.exports()``
  wraps all ~450 of them (~6-9 ms per instance);
- ``call`` fills a raw argument array kept per export and checks for a trap itself:
  ``Func.__call__`` re-reads and converts the function type on every call, which is most of its
  ~8 µs, and wasmtime's ``enter_wasm`` is a generator-based context manager.
"""

from __future__ import annotations

import ctypes
import struct
from dataclasses import dataclass, field

import wasmtime
from wasmtime import _ffi as ffi
from wasmtime._extern import wrap_extern
from wasmtime._func import maybe_raise_last_exn

from .determinism import xorshift64star
from .globals import MARK
from .wasi import TurnState
from .zeroing import Clearing, chunks_of

PAGE = 65536
EVAL_MODULE = 1  # JS_EVAL_TYPE_MODULE
# Intrinsics (qjs_init2's bitmask, see quickjs-wasi's `Intrinsics`): everything except WeakRef /
# FinalizationRegistry (their timing depends on the garbage collector) and `performance` (a clock).
INTRINSICS = 0xFFFFFFFF & ~((1 << 9) | (1 << 10))
# The JS call stack QuickJS allows (a catchable RangeError beyond it). It is measured on the
# wasm linear-memory stack, so the same recursion depth fails on every host.
MAX_STACK_SIZE = 128 * 1024

_func_call = ffi.wasmtime_func_call
_I32 = ffi.WASMTIME_I32.value
_I64 = ffi.WASMTIME_I64.value
# Per export name: (whether each parameter is an i64, number of results, the result's kind). The
# module is fixed, so this is read from the function type once per process, not on every call.
_SHAPES: dict[str, tuple[tuple[bool, ...], int, str]] = {}


class _Export:
    """One export, with argument and result arrays allocated once (a guest runs one call at a time).

    ``slots`` are the argument unions with the field each argument goes in ("i32" or "i64"), and
    ``ref`` the function's reference, so a call sets one attribute per argument and builds nothing.
    """

    __slots__ = ("func", "ref", "wide", "results", "kind", "params", "out", "slots", "count")

    def __init__(
        self, func: wasmtime.Func, wide: tuple[bool, ...], results: int, kind: str
    ) -> None:
        self.func = func
        self.ref = ctypes.byref(func._func)
        self.wide = wide
        self.results = results
        self.kind = kind
        self.params = (ffi.wasmtime_val_t * len(wide))()
        for i, is_wide in enumerate(wide):
            # ctypes fields take a Python int; wasmtime's stubs type this one as c_ubyte
            self.params[i].kind = _I64 if is_wide else _I32  # type: ignore[assignment]
        self.slots = tuple(
            (self.params[i].of, "i64" if is_wide else "i32") for i, is_wide in enumerate(wide)
        )
        self.count = len(wide)
        self.out = (ffi.wasmtime_val_t * results)()


def _shape(store: wasmtime.Store, func: wasmtime.Func) -> tuple[tuple[bool, ...], int, str]:
    kind = func.type(store)
    wide = tuple(p == wasmtime.ValType.i64() for p in kind.params)
    results = kind.results
    if not results:
        return wide, 0, "i32"
    first = results[0]
    return (
        wide,
        len(results),
        "f64"
        if first == wasmtime.ValType.f64()
        else "i64"
        if first == wasmtime.ValType.i64()
        else "i32",
    )


class Guest:
    """A freshly instantiated ``quickjs.wasm`` and typed helpers over the exports the sandbox uses.

    One guest serves many turns (``restore`` puts a whole image back before each); ``fresh`` says
    nothing has run in it since it was instantiated, so only the pages that differ from the module
    need writing.
    """

    def __init__(
        self,
        engine: wasmtime.Engine,
        pre: wasmtime.InstancePre,
        state: TurnState,
        memory_cap: int | None = None,
    ) -> None:
        self.store = wasmtime.Store(engine)
        if memory_cap is not None:
            # A hard ceiling on linear memory: a grow beyond it fails, malloc returns NULL, and
            # QuickJS reports "out of memory" as it does at its own limit.
            self.store.set_limits(memory_size=memory_cap)
        # Until the caller sets real budgets: no fuel limit (a new store has none). An epoch
        # deadline matters only to bench/wasm_bench.py's engines with epoch checks.
        self.store.set_fuel(1 << 62)
        self.store.set_epoch_deadline(1 << 62)
        self.instance = pre.instantiate(self.store)
        self._exports: dict[str, _Export] = {}
        # export() gives any extern; these two are a memory and a global by quickjs.wasm's build
        self.memory: wasmtime.Memory = self.export("memory")  # type: ignore[assignment]
        self._stack_pointer: wasmtime.Global = self.export("__stack_pointer")  # type: ignore[assignment]
        self._context = self.store._context()  # the store's context: fixed for its lifetime
        self._base = 0  # the address of linear memory, and its size when last read (_address)
        self._size = -1
        self.fresh = True
        self.scratch = 0  # Snapshot.scratch once the guest holds an image built on the snapshot
        self.cap = memory_cap  # the store's limit on linear memory
        state.memory = self.memory
        self.state = state  # what the host functions read (ticks: _find_interrupt_counter)

    def export(self, name: str) -> wasmtime.Func | wasmtime.Memory | wasmtime.Global:
        item = ffi.wasmtime_extern_t()
        raw = name.encode()
        if not ffi.wasmtime_instance_export_get(
            self.store._context(),
            ctypes.byref(self.instance._instance),
            raw,
            len(raw),
            ctypes.byref(item),
        ):
            raise KeyError(f"quickjs.wasm has no export {name!r}")
        return wrap_extern(item)  # type: ignore[return-value]  # wasmtime's wrap_extern is untyped

    def call(self, name: str, *args: int) -> int:
        """Call an export with integer arguments (i32, or i64 where the export takes a JSValue);
        returns its result (0 for a void export)."""
        export = self._exports.get(name)
        if export is None:
            export = self._bind(name)
        if len(args) != export.count:
            raise TypeError(f"{name} takes {export.count} arguments, not {len(args)}")
        for (slot, member), arg in zip(export.slots, args, strict=True):
            setattr(slot, member, arg)
        out = export.out
        # What wasmtime's enter_wasm does, without a generator-based context manager per call.
        trap = ctypes.POINTER(ffi.wasm_trap_t)()
        try:
            error = _func_call(
                self._context,
                export.ref,
                export.params,
                export.count,
                out,
                export.results,
                ctypes.byref(trap),
            )
            if error:
                raise wasmtime.WasmtimeError._from_ptr(error)
        except wasmtime.WasmtimeError:
            maybe_raise_last_exn()
            raise
        if trap:
            raised = wasmtime.Trap._from_ptr(trap)
            maybe_raise_last_exn()
            raise raised
        if not export.results:
            return 0
        kind = export.kind
        if kind == "f64":  # no export called through call() returns one; passed on whole
            return out[0].of.f64  # type: ignore[return-value]
        return out[0].of.i32 if kind == "i32" else out[0].of.i64

    def _bind(self, name: str) -> _Export:
        func: wasmtime.Func = self.export(name)  # type: ignore[assignment]
        shape = _SHAPES.get(name)
        if shape is None:
            shape = _SHAPES[name] = _shape(self.store, func)
        export = self._exports[name] = _Export(func, *shape)
        return export

    # -- memory ----------------------------------------------------------------------------------

    def _address(self, offset: int, length: int) -> int:
        # Linear memory never moves (build.py: memory_may_move is off), so its base is read once;
        # its size is read again only when an access reaches past the size last seen (it grew).
        if offset < 0 or offset + length > self._size:
            context, memory = self._context, ctypes.byref(self.memory._memory)
            self._size = ffi.wasmtime_memory_data_size(context, memory)
            self._base = ctypes.addressof(ffi.wasmtime_memory_data(context, memory).contents)
            if offset < 0 or offset + length > self._size:
                raise IndexError(f"guest memory access out of bounds ({offset}+{length})")
        return self._base + offset

    def write(self, offset: int, data: bytes) -> None:
        ctypes.memmove(self._address(offset, len(data)), data, len(data))

    def read(self, offset: int, length: int) -> bytes:
        return ctypes.string_at(self._address(offset, length), length)

    def pages(self) -> int:
        return self.memory.size(self.store)

    def alloc(self, data: bytes) -> int:
        """Copy ``data`` into a fresh ``malloc`` block (not counted against the JS heap limit)."""
        ptr = self.call("wasm_malloc", max(len(data), 1))
        if ptr == 0:
            raise MemoryError("wasm_malloc failed")
        self.write(ptr, data)
        return ptr

    def js_string(self, handle: int) -> str | None:
        """The UTF-8 text of a JS string handle (None if QuickJS could not convert it)."""
        len_ptr = self.scratch + 8 if self.scratch else self.alloc(b"\0\0\0\0")
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

    def handle(self, value: int, at: int = 0) -> int:
        """A handle (a pointer to a JSValue, what the ``qjs_*`` exports take) holding ``value``:
        at ``at``, or in a new malloc block."""
        if at:
            self.write(at, struct.pack("<q", value))
            return at
        return self.alloc(struct.pack("<q", value))

    def stack_pointer(self) -> wasmtime.Global:
        return self._stack_pointer

    def set_stack_pointer(self, value: int) -> None:
        # Global.set_value re-reads the global's type on every call; it is an i32, always.
        raw = ffi.wasmtime_val_t()
        raw.kind = _I32  # type: ignore[assignment]  # an int, as above
        raw.of.i32 = value
        error = ffi.wasmtime_global_set(
            self.store._context(), ctypes.byref(self._stack_pointer._global), ctypes.byref(raw)
        )
        if error:
            raise wasmtime.WasmtimeError._from_ptr(error)


# -- JSValues ---------------------------------------------------------------------------------------
# The raw QuickJS API (``JS_*`` exports) passes values as 64-bit NaN-boxed JSValues: the tag in the
# high 32 bits, a pointer or small integer in the low 32. Used on the per-turn path, where the
# ``qjs_*`` wrappers would malloc a handle for every value.

TAG_MODULE = -3
TAG_EXCEPTION = 6
UNDEFINED = 3 << 32


def tag(value: int) -> int:
    return value >> 32


def pointer(value: int) -> int:
    return value & 0xFFFFFFFF


# QuickJS's binary object format (JS_WriteObject / JS_ReadObject), for one string: a version byte,
# a checksum (all ones: "not checked", which the reader allows), no atoms, the string tag, then
# LEB128(length << 1 | wide) and the characters, one byte each or UTF-16LE. Reading it is a
# memcpy, where JS_NewStringLen scans the UTF-8 byte by byte (~10 wasm fuel per byte).
_BC_TAG_STRING = 7


def encode_string(text: str, version: int) -> bytes:
    """``text`` as QuickJS's JS_ReadObject reads it back (``version``: Snapshot.object_version)."""
    try:
        chars, wide, length = text.encode("latin-1"), 0, len(text)
    except UnicodeEncodeError:
        chars, wide = text.encode("utf-16-le", "surrogatepass"), 1
        length = len(chars) // 2
    value = length << 1 | wide
    leb = bytearray()
    while value >= 0x80:
        leb.append(value & 0x7F | 0x80)
        value >>= 7
    leb.append(value)
    return bytes((version, 0xFF, 0xFF, 0xFF, 0xFF, 0, _BC_TAG_STRING)) + leb + chars


# -- images -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Image:
    """A QuickJS state a turn can start from: linear memory and the stack pointer.

    A guest that already ran something gets all of memory written back (``runs``: most of an image
    is zeros, the unused C stack and free heap, which are cleared; the rest is copied: ~30 µs for
    1.5 MB); a freshly instantiated one only needs ``patches``, the 4 KiB blocks that differ from
    the module's own initial memory (writing every page of a fresh instance would fault each in).
    The big stretches of zeros are whole chunks that ``clearing`` discards or clears (zeroing.py);
    ``runs`` holds the rest.
    """

    size: int  # bytes of linear memory
    free: tuple[int, int]  # (offset, length) of the longest run of zeros above the stack: free heap
    stack_pointer: int
    runs: tuple[
        tuple[int, bytes | int], ...
    ]  # (offset, bytes to copy) or (offset, length of zeros)
    patches: tuple[tuple[int, bytes], ...]
    clearing: Clearing = field(default_factory=lambda: Clearing(()), compare=False, repr=False)

    @property
    def pages(self) -> int:
        return self.size // PAGE


def capture(guest: Guest, initial: bytes) -> Image:
    """The guest's state now, as an Image (``initial``: the module's memory before anything ran)."""
    memory = guest.read(0, guest.memory.data_len(guest.store))
    stack_pointer = guest.stack_pointer().value(guest.store)
    runs = _runs(memory)
    free = max(
        ((offset, run) for offset, run in runs if isinstance(run, int) and offset >= stack_pointer),
        key=lambda zeros: zeros[1],
        default=(len(memory), 0),
    )
    chunks, rest = chunks_of([(o, r) for o, r in runs if isinstance(r, int)], initial)
    kept: list[tuple[int, bytes | int]] = [(o, r) for o, r in runs if not isinstance(r, int)]
    kept = sorted(kept + list(rest), key=lambda r: r[0])
    return Image(
        len(memory), free, stack_pointer, tuple(kept), _diff(initial, memory), Clearing(chunks)
    )


def _runs(memory: bytes) -> tuple[tuple[int, bytes | int], ...]:
    """``memory`` as alternating runs: (offset, length) of zeros, (offset, bytes) of data."""
    runs: list[tuple[int, bytes | int]] = []
    for start, end, data in _spans(_differs(memory, b"")):
        runs.append(
            (start * CHUNK, memory[start * CHUNK : end * CHUNK])
            if data
            else (start * CHUNK, (end - start) * CHUNK)
        )
    return tuple(runs)


CHUNK = 4096  # the unit of images' runs and patches
_BLOCK = 16 * CHUNK  # compared first, so the many equal stretches cost one comparison each


def _differs(memory: bytes, reference: bytes) -> list[bool]:
    """For each CHUNK of ``memory``: whether it differs from ``reference`` (zeros past its end)."""
    zeros = bytes(_BLOCK)
    flags: list[bool] = []
    for block in range(
        0, len(memory), _BLOCK
    ):  # bytes slices compare with memcmp (memoryviews do not)
        end = min(block + _BLOCK, len(memory))
        other = (
            reference[block:end]
            if end <= len(reference)
            else (reference[block:end] + zeros)[: end - block]
        )
        if memory[block:end] == other:
            flags += [False] * ((end - block + CHUNK - 1) // CHUNK)
        else:
            flags += [
                memory[at : at + CHUNK] != other[at - block : at - block + CHUNK]
                for at in range(block, end, CHUNK)
            ]
    return flags


def _spans(flags: list[bool]) -> list[tuple[int, int, bool]]:
    """Runs of equal flags: (first index, end index, flag)."""
    spans: list[tuple[int, int, bool]] = []
    start = 0
    for index in range(1, len(flags) + 1):
        if index == len(flags) or flags[index] != flags[start]:
            spans.append((start, index, flags[start]))
            start = index
    return spans


def restore(guest: Guest, image: Image) -> None:
    """Put ``image`` in ``guest``: afterwards it is indistinguishable from any other guest holding it.

    The guest's memory must not be larger than the image's (memory cannot shrink, and a larger one
    would change where the allocator finds new pages): the caller makes a new guest instead.
    """
    pages = image.pages - guest.pages()
    if pages < 0:
        raise ValueError("a guest whose memory grew past the image cannot hold it")
    if pages > 0:
        guest.memory.grow(guest.store, pages)
    if guest.fresh:
        for offset, data in image.patches:
            guest.write(offset, data)
    else:
        base = guest._address(0, image.size)
        image.clearing.zero(base)
        for offset, run in image.runs:
            if isinstance(run, int):
                ctypes.memset(base + offset, 0, run)
            else:
                ctypes.memmove(base + offset, run, len(run))
    guest.fresh = False
    guest.set_stack_pointer(image.stack_pointer)


@dataclass(frozen=True)
class Snapshot:
    """QuickJS right after the prelude ran (every turn's first layer), and pointers into it."""

    image: Image
    initial: bytes  # the module's own memory before ``_initialize``: what fresh guests hold
    context: int
    random_state: int  # address of QuickJS's Math.random state, reseeded every turn
    interrupt_counter: int  # address of the context's poll countdown, full at every turn's start
    numbers: int  # address of the prelude's N, the turn's numbers (globals.Handover)
    scratch: int  # a malloc'd block for arguments, out-parameters and small turn payloads
    object_version: int  # the version byte of QuickJS's binary object format (encode_string)
    undefined: int  # handles (pointers into the snapshot) of values the host uses
    install_game: int
    setup_turn: int
    run: int
    describe: int
    arm_top_level: int  # images.py: the module's top level evaluated once, watched
    disarm_top_level: int
    setup_turn_value: int  # the same drivers as JSValues, for the raw JS_Call on the per-turn path
    run_value: int

    @property
    def size(self) -> int:
        return self.image.size


# The scratch block: two JSValues (arguments, out-parameters), then room for a turn's payload
# (the starter's is ~3 KB; a bigger one gets its own malloc).
SCRATCH_BYTES = 64 * 1024
SCRATCH_PAYLOAD = 16


def take_snapshot(guest: Guest, prelude: str) -> Snapshot:
    """Initialise QuickJS in a fresh ``guest``, run the prelude, and capture the result."""
    initial = guest.read(0, guest.memory.data_len(guest.store))
    guest.call("_initialize")
    if guest.call("qjs_init2", INTRINSICS) != 0:
        raise RuntimeError("QuickJS failed to initialise")
    guest.call("qjs_set_max_stack_size", MAX_STACK_SIZE)
    guest.call("qjs_set_interrupt_handler", 1)
    random_state = _find_random_state(guest)
    interrupt_counter = _find_interrupt_counter(guest)
    drivers = _eval(guest, prelude)
    numbers = _find_numbers(guest)
    handles = [
        guest.call("qjs_get_prop_string", drivers, guest.alloc(str(i).encode() + b"\0"))
        for i in range(6)
    ]
    values = [struct.unpack("<q", guest.read(h, 8))[0] for h in handles]
    scratch = guest.alloc(bytes(SCRATCH_BYTES))
    undefined = guest.call("qjs_get_undefined")
    version = _object_version(guest, scratch)
    guest.call("qjs_run_gc")
    return Snapshot(
        image=capture(guest, initial),
        initial=initial,
        context=guest.call("qjs_get_context_ptr"),
        random_state=random_state,
        interrupt_counter=interrupt_counter,
        numbers=numbers,
        scratch=scratch,
        object_version=version,
        undefined=undefined,
        install_game=handles[0],
        setup_turn=handles[1],
        run=handles[2],
        describe=handles[3],
        arm_top_level=handles[4],
        disarm_top_level=handles[5],
        setup_turn_value=values[1],
        run_value=values[2],
    )


def _object_version(guest: Guest, scratch: int) -> int:
    """The version byte QuickJS writes in front of a binary object (it refuses any other)."""
    context = guest.call("qjs_get_context_ptr")
    empty = guest.call("JS_NewStringLen", context, scratch, 0)
    written = guest.call("JS_WriteObject", context, scratch, empty, 0)
    if written == 0:
        raise RuntimeError("QuickJS could not write a binary object")
    version = guest.read(written, 1)[0]
    guest.call("js_free", context, written)
    guest.write(scratch, bytes(8))
    return version


def _eval(guest: Guest, code: str) -> int:
    """Evaluate a global script during snapshot set-up; returns the result handle."""
    raw = code.encode()
    result = guest.call(
        "qjs_eval", guest.alloc(raw + b"\0"), len(raw), guest.alloc(b"<nova prelude>\0"), 0
    )
    if guest.is_exception(result):
        raise RuntimeError(
            f"the sandbox prelude failed: {guest.js_string(guest.call('qjs_get_exception'))}"
        )
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
        old, new = (
            int.from_bytes(image[offset : offset + 8], "little") for image in (before, after)
        )
        if old and xorshift64star(old) == (new, value):
            found.append(context + offset)
    probe = 0x9E3779B97F4A7C15
    if len(found) == 1:
        guest.write(found[0], probe.to_bytes(8, "little"))
        if guest.call("qjs_get_float64", _eval(guest, "Math.random()")) == xorshift64star(probe)[1]:
            return found[0]
    raise RuntimeError("cannot find QuickJS's Math.random state: is quickjs.wasm the pinned build?")


def _find_numbers(guest: Guest) -> int:
    """The address of the prelude's ``N`` (an Int32Array's memory, which never moves): the one
    place linear memory holds the mark the prelude filled it with (globals.MARK)."""
    mark = struct.pack(f"<{len(MARK)}i", *MARK)
    memory = guest.read(0, guest.memory.data_len(guest.store))
    at = memory.find(mark)
    if at < 0 or memory.find(mark, at + 1) >= 0:
        raise RuntimeError("cannot find the prelude's turn numbers: is the prelude this build's?")
    return at


INTERRUPT_COUNTER_INIT = 10_000  # QuickJS's JS_INTERRUPT_COUNTER_INIT: polls per tick
FULL_COUNTDOWN = struct.pack("<i", INTERRUPT_COUNTER_INIT)


def _find_interrupt_counter(guest: Guest) -> int:
    """The address of the JSContext's ``interrupt_counter``, which counts down the poll points
    left before the next tick (the interrupt handler's call), and is reset to 10,000 there.

    Found as the only 32-bit field of the context that a loop of n iterations lowers by a multiple
    of n plus a constant (evaluating the loop's script polls a few times besides), within
    (0, 10,000]; the
    find is proven by filling it and predicting when the first tick falls, so a different build
    fails loudly here instead of leaving the phase of ticks to whatever ran before.
    """
    context = guest.call("qjs_get_context_ptr")
    span = min(4096, guest.memory.data_len(guest.store) - context)

    def fields() -> list[int]:
        return list(struct.unpack(f"<{span // 4}i", guest.read(context, span - span % 4)))

    def loop(n: int) -> list[int]:
        before = fields()
        _eval(guest, f"for (let i = 0; i < {n}; i++) {{}}")
        after = fields()
        return [b - a for b, a in zip(before, after, strict=True)]

    small, large = loop(10), loop(110)
    now = fields()
    found = [
        (context + 4 * i, (d2 - d1) // 100, d1 - (d2 - d1) // 10)
        for i, (d1, d2) in enumerate(zip(small, large, strict=True))
        if d2 > d1 > 0 and (d2 - d1) % 100 == 0 and 0 < now[i] <= INTERRUPT_COUNTER_INIT
    ]
    if len(found) == 1:
        address, per_iteration, overhead = found[0]
        state = guest.state
        guest.write(address, struct.pack("<i", INTERRUPT_COUNTER_INIT))
        ticks = state.ticks
        _eval(guest, "for (let i = 0; i < 15000; i++) {}")
        if state.ticks - ticks == (overhead + 15000 * per_iteration) // INTERRUPT_COUNTER_INIT:
            return address
    raise RuntimeError(
        "cannot find QuickJS's interrupt counter: is quickjs.wasm the pinned QuickJS-NG build?"
    )


def _diff(fresh: bytes, memory: bytes) -> tuple[tuple[int, bytes], ...]:
    """Runs of CHUNK-sized blocks where ``memory`` differs from ``fresh`` (zeros past its end)."""
    return tuple(
        (start * CHUNK, memory[start * CHUNK : end * CHUNK])
        for start, end, differs in _spans(_differs(memory, fresh))
        if differs
    )


def seed_math_random(guest: Guest, snapshot: Snapshot, state: int) -> None:
    guest.write(snapshot.random_state, state.to_bytes(8, "little"))
