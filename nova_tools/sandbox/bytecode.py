"""Compiling a bundle once: QuickJS bytecode per bundle, kept in memory for the process.

Parsing and compiling a bundle is most of a turn's cost (a 17 KB esbuild bundle: ~1.4 ms and
~11M wasm fuel to parse; ~0.15 ms and ~1.2M fuel to load its bytecode), and the result is the same
every turn. So each distinct bundle is compiled once, in a throwaway QuickJS restored from the
same post-prelude snapshot as every turn (``qjs_compile``: ``JS_Eval`` with COMPILE_ONLY, then
``JS_WriteObject``), and every turn, the first one included, loads that bytecode into its own
fresh interpreter with ``qjs_eval_bytecode`` (``JS_ReadObject``, then the module is evaluated
exactly as ``qjs_eval`` would after parsing). A turn therefore runs identically whether the cache
was cold or warm; only the wall-clock time differs.

What the turn is charged, deterministically:

- wasm fuel: the compile's own fuel, which is a function of the bundle alone (same snapshot, same
  wasmtime), is charged to the turn as if the turn had parsed the source itself; the compile runs
  under the turn's own ceiling, so parse plus run stay bounded by it. A compile that used up its
  ceiling is remembered as "needs more than that": a turn with a higher ceiling compiles again.
- heap: the compile runs under the turn's memory budget (the cache is keyed by it); the compiled
  code then lives in the turn's heap, where loading it counts against the same budget.
- ticks: none. Parsing polls no interrupt (a test checks it).

Trust: bytecode is never read from anywhere but this process's own compile of the bundle (QuickJS
does not verify bytecode, so bytes from elsewhere could corrupt the guest); nothing is written to
disk. The compile never runs script code: module loading is disabled, so ``import`` fails there.
The source is kept in the bytecode (no STRIP_SOURCE/STRIP_DEBUG), so ``Function.prototype
.toString`` and line numbers in errors are what they are when the source is parsed per turn.
"""

from __future__ import annotations

import hashlib
import struct
import threading
from collections import OrderedDict
from dataclasses import dataclass

import wasmtime

from . import output
from .guest import EVAL_MODULE, Guest, Image, Snapshot
from .prelude import SCRIPT_FILENAME

# Keep the bytecode of this many bundles (a game has one per uploaded script), and at most this
# many bytes of it (bytecode with its source is ~2x the bundle; bundles may be up to 4 MiB).
CACHE_ENTRIES = 32
CACHE_BYTES = 64 * 1024 * 1024

# Head-room for describing a failure (the prelude's `describe`) after a script or its compile
# exhausted its heap or wasm fuel.
DESCRIBE_MEMORY = 4 * 1024 * 1024
DESCRIBE_FUEL = 50_000_000


@dataclass(frozen=True)
class Compiled:
    """The outcome of compiling one bundle under one heap budget and one wasm-fuel ceiling."""

    fuel: int  # wasm fuel the compile spent; when ``exhausted``, the ceiling it ran out at
    bytecode: bytes | None = None  # the module, for qjs_eval_bytecode
    failure: dict | None = None  # the prelude's describe() envelope of a syntax or import error
    heap_exhausted: bool = False  # with ``failure``: the heap came close to its limit meanwhile
    exhausted: bool = False  # ran out of wasm fuel: any ceiling up to ``fuel`` does the same
    trap: wasmtime.Trap | None = None  # stopped by a trap other than fuel (timeout...): not kept

    def serves(self, ceiling: int) -> bool:
        """Whether this outcome is what compiling under ``ceiling`` would give."""
        return self.trap is None and (not self.exhausted or ceiling <= self.fuel)

    @property
    def size(self) -> int:
        return len(self.bytecode or b"")


def cache_key(code: bytes, memory: int) -> tuple[str, int]:
    return hashlib.sha256(code).hexdigest(), memory


class BytecodeCache:
    """A small LRU of compile outcomes, keyed by (sha256 of the bundle, heap budget)."""

    def __init__(self, entries: int = CACHE_ENTRIES, max_bytes: int = CACHE_BYTES) -> None:
        self._entries = entries
        self._max_bytes = max_bytes
        self._items: OrderedDict[tuple[str, int], Compiled] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.compiles = 0  # how many compiles were stored (for tests and benchmarks)

    def get(self, key: tuple[str, int], ceiling: int) -> Compiled | None:
        with self._lock:
            found = self._items.get(key)
            if found is None or not found.serves(ceiling):
                return None
            self._items.move_to_end(key)
            return found

    def put(self, key: tuple[str, int], compiled: Compiled) -> None:
        if compiled.trap is not None:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= old.size
            self._items[key] = compiled
            self._bytes += compiled.size
            self.compiles += 1
            while len(self._items) > 1 and (
                len(self._items) > self._entries or self._bytes > self._max_bytes
            ):
                _, dropped = self._items.popitem(last=False)
                self._bytes -= dropped.size

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0

    def __len__(self) -> int:
        return len(self._items)


CACHE = BytecodeCache()


def compile_bundle(
    guest: Guest, snap: Snapshot, code: bytes, memory: int, ceiling: int
) -> Compiled:
    """Compile ``code`` as an ES module in ``guest`` (fresh, restored from ``snap``).

    Spends at most ``ceiling`` wasm fuel under a ``memory``-byte heap limit. Raises only what
    wasmtime raises for a broken sandbox (never for a bad script).
    """
    guest.call("qjs_set_memory_limit", max(1, memory))  # 0 would mean "unlimited"
    code_ptr = guest.alloc(code + b"\0")  # QuickJS's parser wants a NUL after the source
    name_ptr = guest.alloc(SCRIPT_FILENAME.encode() + b"\0")
    length_ptr = guest.alloc(b"\0\0\0\0")
    guest.store.set_fuel(ceiling)
    try:
        buffer = guest.call(
            "qjs_compile", code_ptr, len(code), name_ptr, EVAL_MODULE, 0, length_ptr
        )
    except wasmtime.Trap as trap:
        if trap.trap_code == wasmtime.TrapCode.OUT_OF_FUEL:
            return Compiled(fuel=ceiling, exhausted=True)
        # The watchdog, or the parser overflowing the wasm stack (a source nested ~100k deep):
        # reported as such, and compiled again next time rather than remembered.
        return Compiled(fuel=ceiling - guest.store.get_fuel(), trap=trap)
    remaining = guest.store.get_fuel()
    if remaining == 0:
        # wasmtime checks fuel at calls and loop heads: a compile may end just past its ceiling
        # without trapping. Either way it did not finish within it.
        return Compiled(fuel=ceiling, exhausted=True)
    spent = ceiling - remaining
    if buffer != 0:
        (length,) = struct.unpack("<I", guest.read(length_ptr, 4))
        return Compiled(fuel=spent, bytecode=guest.read(buffer, length))
    exhausted_heap = heap_was_exhausted(guest, snap.image, memory)  # before describing grows it
    return Compiled(
        fuel=spent, failure=_describe(guest, snap, memory), heap_exhausted=exhausted_heap
    )


def _describe(guest: Guest, snap: Snapshot, memory: int) -> dict:
    """The describe() envelope of the exception that stopped the compile ({} if none can be had)."""
    exception = guest.call("qjs_get_exception")
    guest.call("qjs_set_memory_limit", memory + DESCRIBE_MEMORY)
    guest.store.set_fuel(DESCRIBE_FUEL)
    try:
        described = guest.call_js(snap.describe, snap.undefined, exception)
        if guest.is_exception(described):
            return {}
        return output.split(guest.js_string(described)).head
    except wasmtime.Trap as trap:
        if trap.trap_code == wasmtime.TrapCode.INTERRUPT:
            raise  # the watchdog: not an outcome to remember
        return {}
    except output.Unreadable:
        return {}


def heap_was_exhausted(guest: Guest, image: Image, memory: int) -> bool:
    """Whether the heap came close to ``memory`` bytes since ``image`` was restored.

    quickjs-wasi 3.7.0 sometimes fails an allocation at the heap limit without raising its "out of
    memory" error (growing a large array, for one), and the script sees `null` thrown; how far the
    heap grew tells whether that is what happened (a deliberate `throw null` after the heap came
    close is worded as memory too). The heap grew by how far into the image's free heap (its longest
    run of zeros) the allocator wrote, plus how much linear memory grew (it never shrinks).
    """
    start, length = image.free
    size = guest.memory.data_len(guest.store)
    used = len(guest.read(start, length).rstrip(b"\0")) + max(0, size - image.size)
    return used >= memory - max(memory // 8, 256 * 1024)
