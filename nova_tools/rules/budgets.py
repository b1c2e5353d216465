"""What a turn's budgets buy, and the rule that keeps the clock from deciding a turn.

A turn is stopped deterministically by its ticks (``script.fuel``) and by a wasm-fuel ceiling that
bounds the work built-in functions and the compiler do between ticks; ``script.timeoutMs`` is a
watchdog on the turn's CPU time that only protects the host (CPU time, so that the load of the
machine cannot shorten it: sandbox/watchdog.py). For a game to replay the same on every machine,
every deterministic ceiling must run out well before the watchdog (DESIGN section 3): the most
expensive thing a script can do inside the ceilings must take at most a quarter of
``timeoutMs`` on the 2-core development machine. Rules that break this are refused when they are
validated (``nova rules validate``, ``create-game``, the editor), naming ``script.fuel`` or
``script.timeoutMs``; the rules stored in an existing game are taken as they are.

The numbers below are measured by ``bench/calibration_bench.py`` (``make bench``); the sandbox
reads its ceilings from here, so the rule and the sandbox cannot drift apart. How they were
measured, and the figures, are in ``nova_tools/sandbox/CALIBRATION.md``.
"""

from __future__ import annotations

import math

# --- the sandbox's deterministic ceilings ------------------------------------------------------

#: Wasm fuel per tick of ``script.fuel``: ordinary JS spends 2-25M per tick, so a script spending
#: its ticks on ordinary code meets the tick limit first; built-ins that do large work without
#: polling (join, sort, repeat, BigInt, JSON) meet this ceiling instead.
WASM_FUEL_PER_TICK = 25_000_000
#: A fixed allowance, so a zero-tick budget still loads and calls a small script.
WASM_FUEL_BASE = 50_000_000
#: Per UTF-8 byte of the bundle: compiling costs 26-1,100 fuel per byte for linear kinds of
#: source (comments cheapest, many short statements dearest); a turn is charged its bundle's
#: compile as if it had parsed it itself.
WASM_FUEL_PER_SOURCE_BYTE = 1_500
#: The largest bundle the sandbox runs (and an upload accepts): the starter's is 17 KB.
MAX_BUNDLE_BYTES = 1024 * 1024
#: The largest JS heap a turn may have: with the sandbox's own memory (snapshot, copies of the
#: bundle and globals, allocator slack) the guest's linear memory stays under 1 GiB, far below
#: the 2 GiB where a wasm32 pointer would turn negative.
MAX_HEAP_BYTES = 1024 * 1024 * 1024 - 64 * 1024 * 1024

# --- what they cost in time (bench/calibration_bench.py) ----------------------------------------

#: The slowest rate, in wasm fuel per millisecond, of anything a script can make the sandbox do
#: (a built-in or the compiler working flat out). Measured on the 2-core development machine:
#: 4.8-5.1M per ms (Object.keys of a big object, String.prototype.repeat: the slowest of 29
#: workloads); set about 30% below that.
SLOWEST_FUEL_PER_MS = 3_500_000
#: Heap a script touches for the first time costs the host page faults and zeroing that wasm fuel
#: barely sees (1 fuel per byte at best): measured 0.4-1.4 ms per MiB; set at 1.5.
FRESH_MEMORY_MS_PER_MIB = 1.5
#: The worst case must fit this many times into ``timeoutMs``.
TIMEOUT_SHARE = 4

#: Upper bounds on the budgets themselves: a turn of the largest allowed budgets takes minutes,
#: not days, on any host.
MAX_FUEL = 20_000
MAX_TIMEOUT_MS = 600_000


def wasm_fuel_ceiling(ticks: int, source_bytes: int) -> int:
    """The wasm fuel a turn of ``ticks`` fuel may spend on a bundle of ``source_bytes`` (UTF-8)."""
    return WASM_FUEL_BASE + WASM_FUEL_PER_TICK * ticks + WASM_FUEL_PER_SOURCE_BYTE * source_bytes


def worst_case_ms(ticks: int, memory: int) -> float:
    """How long the most expensive turn of ``ticks`` fuel and a ``memory``-byte heap can run on the
    development machine: its whole wasm-fuel ceiling (the largest bundle) spent at the slowest rate,
    plus every byte of its heap touched for the first time."""
    return (
        wasm_fuel_ceiling(ticks, MAX_BUNDLE_BYTES) / SLOWEST_FUEL_PER_MS
        + memory / (1024 * 1024) * FRESH_MEMORY_MS_PER_MIB
    )


def min_timeout_ms(ticks: int, memory: int) -> int:
    """The smallest ``timeoutMs`` that keeps the clock out of such a turn."""
    return math.ceil(worst_case_ms(ticks, memory) * TIMEOUT_SHARE)


def clock_problem(ticks: int, memory: int, timeout_ms: int) -> str | None:
    """Why ``script.fuel`` = ``ticks``, ``script.memory`` = ``memory`` and ``script.timeoutMs`` =
    ``timeout_ms`` would let the clock decide a turn (None when they keep the invariant)."""
    needed = min_timeout_ms(ticks, memory)
    if timeout_ms >= needed:
        return None
    return (
        f"a turn of {ticks} ticks and {memory / (1024 * 1024):g} MiB can run for up to "
        f"{worst_case_ms(ticks, memory) / 1000:.1f} s before its budgets stop it, so script.timeoutMs must be at least "
        f"{needed} ({TIMEOUT_SHARE}x that) for the clock never to decide a turn: raise script.timeoutMs to {needed}, "
        f"or lower script.fuel or script.memory"
    )
