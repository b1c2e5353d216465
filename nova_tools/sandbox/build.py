"""The sandbox build: one wasmtime engine and the compiled ``quickjs.wasm``, shared by the process.

``quickjs.wasm`` is our own build of QuickJS-NG (wasm_build.py: built once per machine into the
cache, the same bytes everywhere, refused unless its sha256 is the pinned one). Compiling it to
machine code takes 0.5-1 s, deserializing the compiled artifact ~2 ms, so the
artifact is cached on disk per user, keyed by the wasm's sha256, the wasmtime version and the
engine settings below (an artifact only loads into an engine built with the same settings).
The cache is an optimisation only: an unreadable, unwritable or corrupt cache costs one compile.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import platform
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import wasmtime

from nova_tools.rules import budgets

from . import wasm_build
from .errors import SandboxUnavailable

WASMTIME_VERSION = importlib.metadata.version("wasmtime")

# The wasm stack wasmtime lets guest code use. QuickJS needs well under 1 MiB for the 128 KiB JS
# stack it enforces itself; at 4 MiB or more a guest overflow aborts the whole Python process.
MAX_WASM_STACK = 1 << 20

# Wasm fuel (wasmtime's instruction counter) a turn may burn, on top of its ticks. Ticks only
# count interpreter poll points, so a built-in like `Array(1e6).fill(1).join(',')` does ~1G fuel
# of work for 0 ticks; this ceiling stops such work deterministically. The numbers live in
# rules/budgets.py, beside the rule they serve (the clock never decides a turn: every ceiling runs
# out within a quarter of script.timeoutMs), and are measured by bench/calibration_bench.py; the
# figures are in CALIBRATION.md beside this file. Measured with `bench/sandbox_bench.py --fuel`: a
# tick of ordinary JS costs 2-25M fuel (loops, calls, arrays 2-7M; classes, strings, Map, closures,
# object allocation, grid BFS 12-25M); regex-heavy code ~45M; built-in-heavy loops far more. A
# normal bot spends ~1M fuel and 0 ticks. Compiling costs ~0.65M fuel per KB of a typical bundle
# (the 17 KB starter bundle: 11M), loading the compiled bytecode in a turn ~0.07M per KB. A bundle
# is compiled once per process (bytecode.py), but every turn is charged the compile's fuel as if it
# had parsed the source itself, so the ceiling bounds parse plus run exactly as when each turn
# parsed.
WASM_FUEL_PER_TICK = budgets.WASM_FUEL_PER_TICK
WASM_FUEL_BASE = budgets.WASM_FUEL_BASE
WASM_FUEL_PER_SOURCE_BYTE = budgets.WASM_FUEL_PER_SOURCE_BYTE
MAX_BUNDLE_BYTES = budgets.MAX_BUNDLE_BYTES


def wasm_fuel_ceiling(ticks: int, source_bytes: int) -> int:
    """The wasm fuel a turn of ``ticks`` fuel may spend on a bundle of ``source_bytes`` (UTF-8);
    the same as ``budgets.wasm_fuel_ceiling``, read from this module (tests narrow it here)."""
    return WASM_FUEL_BASE + WASM_FUEL_PER_TICK * ticks + WASM_FUEL_PER_SOURCE_BYTE * source_bytes


# Bump when anything that changes how a script behaves changes (prelude, PRNG, clock, limits):
# it is recorded in every game file so a replay can tell it was played by another sandbox.
# 2: bundles are compiled once and each turn loads their bytecode; a turn is charged the compile's
#    fuel plus loading's (not parsing's), and the parser's scratch heap is no longer counted with
#    the turn's globals, so wasm-fuel and memory cut-off points moved slightly (ticks did not).
# 3: turns start from per-game memory images (rules parsed once per game, the bytecode read once
#    per game and script, each charged as before) and each top-level key of `world` is parsed on
#    first read, charged to the script's wasm fuel and heap: wasm-fuel and memory cut-off points
#    moved (a script that never reads the world no longer pays for it), and a turn's interpreter
#    ticks may differ by one where its poll count straddles a multiple of 10,000.
# 4: the output a script hands back is judged in one place (sandbox/output.py: depth, lone
#    surrogates, clipped error text), console and describe read hostile values safely, and the
#    source allowance is 1,500 fuel per byte of a bundle of at most 1 MiB (was 2,000, unbounded):
#    console.log and error paths spend slightly different wasm fuel, big bundles run out sooner.
# 5: describe() hands back the thrown error's stack (clipped to 2,000 characters) so the host can
#    name the player's own files and lines; the prelude's code grew, so wasm-fuel and memory
#    cut-off points moved slightly (ticks did not).
# 6: QuickJS-NG 0.17.0 built by us for wasm32-wasi at -O3 (wasm_build.py) replaces quickjs-wasi
#    3.7.0's size-optimised build of 0.18.0: every turn spends other wasm fuel (less: fewer wasm
#    instructions for the same JS), so fuel, memory and stack cut-off points moved; running out
#    of heap is still uncatchable, and now always the "out of memory" InternalError.
# 7: the module's top level is evaluated once, into the script's image (images.evaluate_top_level),
#    unless it reads, writes or inspects androidId/world/turn, draws random numbers, or does not
#    finish within the turn's budgets (it then runs every turn, as before); its wasm fuel and ticks
#    are charged to every turn. The top level now runs before setupTurn rather than after it, so
#    the heap's layout and the garbage collector's timing differ: wasm-fuel and memory cut-off
#    points moved slightly, and a turn's ticks may differ by one where its poll count straddles a
#    multiple of 10,000 (the top level's poll phase no longer follows setupTurn's).
# 8: a turn's host calls are fewer (nova_setup_turn and nova_evaluate in our glue do the work
#    of five to seven): a turn whose top level runs every turn spends a few dozen more wasm fuel
#    (the glue's own instructions); setup is the host's work and not charged, so a turn whose
#    top level is in the image spends the same (the pinned figures did not move).
# 9: the world handed over with one shared accessor per usual world key (made once, in the
#    snapshot) instead of a closure and an accessor per key per turn, and eager keys settled with
#    one reused descriptor; and every turn's polls count from a full countdown (10,000 polls to
#    the first tick) instead of from wherever the image's interrupt counter was left: a turn's
#    ticks no longer move when the prelude or the images change. Wasm-fuel and memory cut-off
#    points moved slightly; ticks by at most one.
# 10: the turn handed over by numbers the host writes into the prelude's memory (androidId's
#    length, turn, which world keys are lazy and their lengths, the eager integers) instead of a
#    JSON head the guest parsed, into world objects made in the snapshot with the usual keys'
#    accessors in place (globals.Handover, prelude's setupTurn); a world other than the usual
#    one is still handed over by a JSON head. What a script sees is unchanged (the same keys,
#    values, order and property kinds). Setup's polls are no longer the turn's, as its fuel never
#    was: a turn's ticks count its own polls (and its evaluated top level's) only, so they may
#    differ by one from revision 9's where a poll count straddles a multiple of 10,000, and a
#    change to setup can no longer move them. Wasm-fuel and memory cut-off points moved slightly.
SANDBOX_REVISION = "10"

SANDBOX_BUILD: dict[str, str] = {
    "wasmtime": WASMTIME_VERSION,
    "quickjs": wasm_build.QUICKJS_VERSION,  # the QuickJS-NG inside (checked by a test)
    "zig": wasm_build.ZIG_VERSION,  # the compiler that built it
    "quickjsWasm": wasm_build.WASM_SHA256,  # the wasm's own sha256 (the same on every machine)
    "wasmFuelPerTick": str(WASM_FUEL_PER_TICK),
    "wasmFuelPerSourceByte": str(WASM_FUEL_PER_SOURCE_BYTE),
    "sandbox": SANDBOX_REVISION,
}


@dataclass(frozen=True)
class EngineSettings:
    """wasmtime's settings for the sandbox. The defaults are the shipped ones; the others exist
    for bench/wasm_bench.py, which measures what each costs (a turn's result never depends on
    them: wasm fuel counts wasm instructions, not machine code)."""

    fuel: bool = True  # the deterministic ceiling on built-in work
    # wasmtime's epoch checks at every function entry and loop back-edge: the watchdog's until it
    # moved to the tick (watchdog.py); bench/wasm_bench.py measures what they cost
    epoch: bool = False
    opt_level: str = "speed"  # Cranelift's: "none", "speed" or "speed_and_size"
    nan_canonicalization: bool = True
    # Linear memory's virtual reservation and guard region (None: wasmtime's defaults, 4 GiB and
    # 32 MiB on 64-bit hosts, which let Cranelift drop the bounds check of every access). A small
    # reservation makes every load and store check its bounds.
    reservation: int | None = None
    guard: int | None = None

    def key(self) -> str:
        """Part of the compiled-artifact cache key (an artifact only loads into an engine built
        with the same settings)."""
        parts = ["fuel" if self.fuel else "nofuel", "epoch" if self.epoch else "noepoch"]
        parts.append(f"stack={MAX_WASM_STACK}")
        parts.append("nancanon" if self.nan_canonicalization else "nonan")
        parts.append("nomove")
        if self.opt_level != "speed":
            parts.append(f"opt={self.opt_level}")
        if self.reservation is not None:
            parts.append(f"reserve={self.reservation}")
        if self.guard is not None:
            parts.append(f"guard={self.guard}")
        return ",".join(parts)


SHIPPED = EngineSettings()


def _engine_config(settings: EngineSettings = SHIPPED) -> wasmtime.Config:
    config = wasmtime.Config()
    config.consume_fuel = settings.fuel
    config.epoch_interruption = settings.epoch
    config.max_wasm_stack = MAX_WASM_STACK
    # Canonical NaN bit patterns keep float results identical on x86 and ARM hosts.
    config.cranelift_nan_canonicalization = settings.nan_canonicalization
    config.cranelift_opt_level = settings.opt_level
    # Linear memory stays where it was first mapped (it grows within its reservation, the whole
    # 4 GiB a wasm32 memory can address), so the host can keep its address (guest.py).
    config.memory_may_move = False
    if settings.reservation is not None:
        config.memory_reservation = settings.reservation
    if settings.guard is not None:
        config.memory_guard_size = settings.guard
    return config


@dataclass(frozen=True)
class CompiledQuickJS:
    engine: wasmtime.Engine
    module: wasmtime.Module
    wasm_sha256: str


_lock = threading.Lock()
_compiled: CompiledQuickJS | None = None


def compiled_quickjs() -> CompiledQuickJS:
    """The process-wide engine and compiled module (compiled or loaded from cache on first use)."""
    global _compiled
    with _lock:
        if _compiled is None:
            _compiled = _load()
        return _compiled


def use_for_benchmark(wasm: Path, settings: EngineSettings) -> None:
    """Make this process's sandbox run ``wasm`` under ``settings`` (bench/wasm_bench.py only: a
    game must never be played by anything but the shipped build). Call before any Sandbox."""
    global _compiled
    with _lock:
        if _compiled is not None:
            raise RuntimeError("the sandbox build was already chosen in this process")
        _compiled = _load(wasm, settings)


cache_dir = wasm_build.cache_dir  # the built wasm and its compiled artifacts share one folder


def _load(wasm_path: Path | None = None, settings: EngineSettings = SHIPPED) -> CompiledQuickJS:
    shipped = wasm_path is None
    try:
        wasm_path = wasm_path or wasm_build.ensure_built()
        wasm = wasm_path.read_bytes()
    except wasm_build.BuildFailed as exc:
        raise SandboxUnavailable(
            f"The script sandbox cannot start: its quickjs.wasm could not be built ({exc}); "
            "run `make setup` in a checkout, or `python -m nova_tools.sandbox.wasm_build`"
        ) from exc
    except OSError as exc:
        raise SandboxUnavailable(f"The script sandbox cannot start: {exc}") from exc
    digest = hashlib.sha256(wasm).hexdigest()
    if shipped and digest != wasm_build.WASM_SHA256:
        raise SandboxUnavailable(
            f"The script sandbox cannot start: {wasm_path} is not the pinned build (sha256 "
            f"{digest[:12]}..., expected {wasm_build.WASM_SHA256[:12]}...); delete it and run "
            "`python -m nova_tools.sandbox.wasm_build` again"
        )
    engine = wasmtime.Engine(_engine_config(settings))
    key = hashlib.sha256(
        f"{digest}|{WASMTIME_VERSION}|{settings.key()}|{platform.machine()}".encode()
    ).hexdigest()[:32]
    cached = cache_dir() / f"quickjs-{key}.cwasm"
    module = _read_cache(engine, cached)
    if module is None:
        try:
            module = wasmtime.Module(engine, wasm)
        except wasmtime.WasmtimeError as exc:
            raise SandboxUnavailable(
                f"The script sandbox cannot start: {wasm_path} did not compile ({exc})"
            ) from exc
        _write_cache(module, cached)
    return CompiledQuickJS(engine, module, digest)


def _read_cache(engine: wasmtime.Engine, path: Path) -> wasmtime.Module | None:
    # The cache is the user's own folder: loading an artifact from it is as trusted as loading
    # the wasm itself. A stale or damaged file is simply recompiled over.
    try:
        return wasmtime.Module.deserialize_file(engine, str(path))
    except (wasmtime.WasmtimeError, OSError, ValueError):
        return None


def _write_cache(module: wasmtime.Module, path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".cwasm")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(module.serialize())
            os.replace(tmp, path)  # atomic: a concurrent reader sees the old file or the new one
        except BaseException:
            os.unlink(tmp)
            raise
    except (OSError, wasmtime.WasmtimeError):
        pass  # read-only home, full disk...: run uncached
