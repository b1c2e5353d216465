"""Runs one android turn of a compiled script, deterministically, under budgets.

    sandbox = Sandbox()   # once per process (or per thread): loads the compiled quickjs.wasm
    result = sandbox.run_turn(bundle, globals_json, Budgets(fuel=200), seed=42)
    result.value, result.error, result.ticks, result.kind, result.logs

QuickJS-NG (``quickjs.wasm`` of the npm package quickjs-wasi 3.7.0) runs inside wasmtime 50.0.1,
from a fresh interpreter every turn (DESIGN.md section 3, rulebook 7.1). Each distinct bundle is
compiled to bytecode once per process (``bytecode.py``, an in-memory LRU keyed by the bundle's
sha256); every turn loads that bytecode and runs the module's top-level code afresh, and is charged
the compile's wasm fuel, so a turn comes out the same whether its bundle was compiled for it or
earlier. What a script sees:

- the globals ``androidId``, ``world``, ``rules``, ``turn`` and ``finalTurn`` (undefined when the
  game has no arrival round), and ``console.log`` (lines come back in ``TurnResult.logs``);
- a frozen clock: ``Date.now()`` is always 4102444800000 (2100-01-01T00:00:00Z), time zone UTC;
- ``Math.random`` seeded per turn from ``seed``: the same values on every replay, different ones
  for each android and round;
- no ``WeakRef``, ``FinalizationRegistry``, ``performance``, ``require``, ``process``, ``fetch``,
  ``std``/``os`` or module loading: no file, network, environment or real clock.

Limits, each ending the turn with a sentence a player can act on (``TurnResult.error``):

- ``fuel`` ticks: one tick per 10,000 interpreter poll points (calls, loop back-edges); the turn
  fails on tick fuel + 1. A simple turn spends 0 ticks; ``for (let i = 0; i < 1e6; i++) {}``
  spends 200. Built-in work that polls rarely (join, sort, JSON, Date) is bounded by wasm fuel:
  ``build.WASM_FUEL_PER_TICK`` (25M) per tick, plus a base and a per-source-byte allowance that
  covers compiling the bundle (``build.wasm_fuel_ceiling``; the numbers live in
  ``rules/budgets.py``, measured by ``bench/calibration_bench.py``: CALIBRATION.md);
- ``memory`` bytes of JS heap (the parsed globals count too; at most 960 MiB); running out cannot
  be caught;
- a 128 KiB call stack (a catchable RangeError, ~540 plain recursive calls);
- ``timeout_ms`` of wall-clock time, a last resort: the rules keep it at least 4x the longest the
  ceilings above can take, so the clock never decides a turn on the reference machine;
- a bundle of at most 1 MiB, and a returned action of at most 2 MiB of JSON, nested at most 32
  levels deep (``output.py`` judges what comes back: lone surrogates become U+FFFD, every text is
  clipped, nothing a script returns, throws or prints can raise in the host).
"""

from .build import SANDBOX_BUILD
from .errors import SandboxUnavailable
from .results import Budgets, TurnKind, TurnResult
from .runner import Sandbox

__all__ = ["SANDBOX_BUILD", "Budgets", "Sandbox", "SandboxUnavailable", "TurnKind", "TurnResult"]
