"""The memory images a turn starts from, one layer for each thing that stays fixed across turns.

    base    QuickJS after the prelude (once per process: guest.take_snapshot)
    game    + ``rules`` and ``finalTurn`` parsed, the heap limit set   (once per game)
    bundle  + the script's bytecode read into the heap (JS_ReadObject)  (once per game and script)
            + its module's top level evaluated, when it cannot tell (evaluate_top_level)

A turn restores the deepest layer it can (a memcpy of ~1.5 MB into a guest that is reused from
turn to turn), so it neither re-parses the game's rules nor re-reads its script's bytecode. Every
layer is built the same way from the one below, in any process, so a turn starts from the same
bytes whichever process runs it and whatever it ran before.

What a layer saves is still charged, so a turn's outcome does not depend on which layers were
cached: reading the bytecode is charged to every turn as the wasm fuel it cost when the layer was
built (``BundleImage.load_fuel``), as compiling it is (bytecode.py), and so is the top level's
fuel and ticks (``top_fuel``, ``top_ticks``); what either left in the heap
counts against the turn's heap limit, since it is there.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from typing import Generic, TypeVar

import wasmtime

from .bytecode import Compiled
from .determinism import ByteStream
from .globals import GameGlobals
from .guest import (
    FULL_COUNTDOWN,
    TAG_EXCEPTION,
    Guest,
    Image,
    Snapshot,
    capture,
    pointer,
    restore,
    tag,
)
from .wasi import TurnState

# An image holds ~0.5 MB of data (the rest is zeros), plus its patches for fresh guests: a process
# keeps a few games, and a few scripts per game: what a game, a tournament worker or an editor
# session cycles through.
GAME_IMAGES = 8
BUNDLE_IMAGES = 16

READ_OBJ_BYTECODE = 1  # JS_READ_OBJ_BYTECODE
PROMISE_PENDING, PROMISE_FULFILLED, PROMISE_REJECTED = 0, 1, 2  # JS_PromiseState
# Module evaluation needs a few promise jobs; a script that queues thousands at top level is
# looping through promises, which ticks would only catch after ~2M jobs of host round trips.
MAX_JOBS = 10_000

# Free heap the game layer keeps at the top of its image. A turn whose allocations outgrow the
# image's memory grows it, and a guest whose memory grew cannot hold the image again (memory never
# shrinks): the next turn then needs a new instance, ~0.2 ms more. This much room lets ordinary
# turns (a 48x48 world handed to a script, a 24x24 one parsed) stay in the reused instance; its
# zeros cost ~12 µs per MiB to clear each turn.
HEAP_RESERVE = 1024 * 1024


@dataclass(frozen=True)
class GameImage:
    key: tuple[str, int]
    image: Image


@dataclass(frozen=True)
class BundleImage:
    image: Image
    module: int  # the module's JSValue (its imports resolved; evaluated if ``namespace``)
    load_fuel: int  # wasm fuel reading it cost, charged to every turn that starts here
    # The module's top level already ran in the image (evaluate_top_level): its namespace's
    # JSValue, and the wasm fuel and ticks the top level spent, charged to every turn. 0: the top
    # level runs in every turn, after the turn's globals are installed.
    namespace: int = 0
    top_fuel: int = 0
    top_ticks: int = 0
    countdown: bytes = FULL_COUNTDOWN  # the poll countdown as the top level left it

    @property
    def evaluated(self) -> bool:
        return self.namespace != 0


K = TypeVar("K")
V = TypeVar("V")


class _Lru(Generic[K, V]):
    def __init__(self, entries: int) -> None:
        self._entries = entries
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self.builds = 0  # how many entries were stored (for tests and benchmarks)

    def get(self, key: K) -> V | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            self.builds += 1
            while len(self._items) > self._entries:
                self._items.popitem(last=False)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._items

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


GAMES: _Lru[tuple[str, int], GameImage] = _Lru(GAME_IMAGES)
# Keyed by the game layer's key, the bundle's compile key (sha256 of the source, heap budget) and
# the tick budget (whether the top level fits in a turn: evaluate_top_level); None: the bytecode
# could not be read within the heap budget, so every turn reads it and fails.
BUNDLES: _Lru[tuple[tuple[str, int], tuple[str, int], int], BundleImage | None] = _Lru(
    BUNDLE_IMAGES
)


@lru_cache(maxsize=64)  # a game hands the same GameGlobals every turn: hash the rules once
def game_key(game: GameGlobals, memory: int) -> tuple[str, int]:
    return hashlib.sha256(game.install_text().encode("utf-8", "surrogatepass")).hexdigest(), memory


def build_game_image(guest: Guest, snap: Snapshot, game: GameGlobals, memory: int) -> GameImage:
    """Install ``game`` in the base image (in ``guest``) and capture the result.

    The rules are parsed before the heap limit is set, so a limit smaller than the rules fails the
    turns (at their first allocation, as "out of memory"), not the layer.
    """
    restore(guest, snap.image)
    text = game.install_text().encode("utf-8", "surrogatepass")
    handle = guest.call("qjs_new_string", guest.alloc(text), len(text))
    result = guest.call_js(snap.install_game, snap.undefined, handle)
    if guest.is_exception(result):
        raise ValueError("the game's rules and finalTurn must be JSON")
    guest.call("qjs_run_gc")
    # Grows the heap by the reserve, which stays free at its top (the allocator never gives memory
    # back: linear memory cannot shrink).
    guest.call("wasm_free", guest.call("wasm_malloc", HEAP_RESERVE))
    guest.call("qjs_set_memory_limit", max(1, memory))  # 0 would mean "unlimited"
    return GameImage(game_key(game, memory), capture(guest, snap.initial))


def build_bundle_image(
    guest: Guest, snap: Snapshot, game: GameImage, compiled: Compiled
) -> BundleImage | None:
    """Read ``compiled``'s bytecode into ``game``'s image (in ``guest``) and capture the result;
    None if the read fails (the heap budget is too small for the script)."""
    assert compiled.bytecode is not None
    restore(guest, game.image)
    bytecode = guest.alloc(compiled.bytecode)
    before = guest.store.get_fuel()
    module = guest.call(
        "JS_ReadObject", snap.context, bytecode, len(compiled.bytecode), READ_OBJ_BYTECODE
    )
    if tag(module) == TAG_EXCEPTION or guest.call("JS_ResolveModule", snap.context, module) < 0:
        return None
    load_fuel = before - guest.store.get_fuel()
    guest.call("wasm_free", bytecode)  # read into the heap: the bytes are no longer needed
    return BundleImage(capture(guest, snap.initial), module, load_fuel)


class _WatchedStream(ByteStream):
    """WASI ``random_get`` while a top level is evaluated into an image: the turn's own stream
    would differ, so any use means the top level must run every turn."""

    def __init__(self) -> None:
        super().__init__(0)
        self.used = False

    def take(self, n: int) -> bytes:
        self.used = True
        return super().take(n)


def evaluate_top_level(
    guest: Guest,
    snap: Snapshot,
    state: TurnState,
    bundle: BundleImage,
    compiled: Compiled,
    ticks: int,
    ceiling: int,
) -> tuple[BundleImage | None, wasmtime.Trap | None]:
    """Evaluate ``bundle``'s module once, into a new image its turns start from; None when its top
    level must run every turn instead (as it did before sandbox revision 7), with the trap that
    ended the attempt (the caller then replaces ``guest``).

    A turn starting from the evaluated image behaves as if it had evaluated the module itself,
    because the evaluation is kept only when the top level could not have told the difference:

    - it finished (its promise fulfilled, its jobs drained) within this turn's budgets: ``ticks``
      and the wasm fuel left of ``ceiling`` once compiling and reading the bytecode are charged,
      under the game image's heap limit. A top level that throws, loops or runs out of memory
      therefore runs in every turn and fails there exactly as before;
    - it neither read nor wrote ``androidId``, ``world`` or ``turn`` (installed per turn, after it),
      nor looked at how they are defined (the prelude's tripwires, armTopLevel), nor drew from
      ``Math.random`` or WASI's random stream (seeded per turn). The clock and the time zone are
      fixed (determinism.py), and ``rules`` and ``finalTurn`` are in the game image already.

    What it saves is still charged: every turn starting here is charged ``top_fuel`` of wasm fuel
    and ``top_ticks`` ticks, as reading the bytecode is (``load_fuel``), so budgets stay exact.
    """
    room = ceiling - compiled.fuel - bundle.load_fuel
    if room <= 0:
        return None, None
    restore(guest, bundle.image)
    ctx = snap.context
    if guest.is_exception(guest.call_js(snap.arm_top_level, snap.undefined)):
        return None, None
    random_before = guest.read(snap.random_state, 8)
    stream = _WatchedStream()
    state.ticks, state.fuel, state.random = 0, ticks, stream
    guest.store.set_fuel(room)
    guest.write(snap.interrupt_counter, FULL_COUNTDOWN)  # as every turn starts (runner.py)
    try:
        promise = guest.call("JS_EvalFunction", ctx, bundle.module)
        finished = tag(promise) != TAG_EXCEPTION and _drained(guest)
        finished = finished and guest.call("JS_PromiseState", ctx, promise) == PROMISE_FULFILLED
        namespace = (
            guest.call("JS_GetModuleNamespace", ctx, pointer(bundle.module)) if finished else 0
        )
        top_fuel = room - guest.store.get_fuel()
    except wasmtime.Trap as trap:  # out of wasm fuel, the wasm stack, the watchdog
        return None, trap
    finally:
        state.fuel = 1 << 62  # the interrupt would fire on every poll past the budget
    top_ticks = state.ticks
    countdown = guest.read(snap.interrupt_counter, 4)  # where the top level left it
    guest.store.set_fuel(1 << 62)
    if not finished or tag(namespace) == TAG_EXCEPTION:
        return None, None
    clean = guest.call_js(snap.disarm_top_level, snap.undefined)
    if guest.is_exception(clean) or guest.read(clean, 8) != _ONE:
        return None, None
    if stream.used or guest.read(snap.random_state, 8) != random_before:
        return None, None
    guest.call("qjs_run_gc")
    guest.call("wasm_free", guest.call("wasm_malloc", HEAP_RESERVE))  # the reserve, as before
    guest.write(snap.interrupt_counter, countdown)  # disarming's polls are not the turn's
    return (
        BundleImage(
            capture(guest, snap.initial),
            bundle.module,
            bundle.load_fuel,
            namespace=namespace,
            top_fuel=top_fuel,
            top_ticks=top_ticks,
            countdown=countdown,
        ),
        None,
    )


_ONE = (1).to_bytes(8, "little")  # the JSValue of the integer 1 (tag 0 in the high half)


def _drained(guest: Guest) -> bool:
    """Run the top level's promise jobs; False if one threw past its promise or there were more
    than MAX_JOBS (the turn then meets the same outcome itself)."""
    for _ in range(MAX_JOBS):
        status = guest.call("qjs_execute_pending_job")
        if status == 0:
            return True
        if status < 0:
            return False
    return False
