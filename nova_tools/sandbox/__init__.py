"""Runs one android turn of a compiled script, deterministically, under budgets.

    sandbox = Sandbox()   # once per process (or per thread): loads the compiled quickjs.wasm
    game = GameGlobals(rules_json, final_turn)                    # once per game
    turn = TurnGlobals.of(game, android_id, round, world_view)    # every turn
    result = sandbox.run_turn(bundle, turn, Budgets(fuel=200), seed=42)
    result.value, result.error, result.ticks, result.kind, result.logs

(``run_turn`` also takes the five globals as one JSON text, for tools and tests.)

QuickJS-NG 0.17.0 (our own ``quickjs.wasm``, built by wasm_build.py) runs inside wasmtime 50.0.1,
from a fresh interpreter state every turn (DESIGN.md section 3, rulebook 7.1): a memory image
restored into a reused instance, with the game's rules already parsed and the script's bytecode
already read (images.py). Each distinct bundle is compiled to bytecode once per process
(``bytecode.py``); every turn runs the module's top-level code afresh and is charged the fuel that
compiling and reading it cost, so a turn comes out the same whatever was cached. README.md in this
folder explains the design and the measurements behind it. What a script sees:

- the globals ``androidId``, ``world``, ``rules``, ``turn`` and ``finalTurn`` (undefined when the
  game has no arrival round), and ``console.log`` (lines come back in ``TurnResult.logs``); each
  top-level key of ``world`` is parsed when first read, charged to the turn (globals.py);
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
- ``memory`` bytes of JS heap (the rules, the script's code and the world keys it reads count
  too; at most 960 MiB); running out cannot be caught;
- a 128 KiB call stack (a catchable RangeError, ~540 plain recursive calls);
- ``timeout_ms`` of the turn thread's CPU time, a last resort (``watchdog.py``): the rules keep it
  at least 4x the longest the ceilings above can take, so the clock never decides a turn on the
  reference machine, however busy it is (wall time would: ten turns at once on two loaded cores
  took 12 s each for 1 s of CPU);
- a bundle of at most 1 MiB, and a returned action of at most 2 MiB of JSON, nested at most 32
  levels deep (``output.py`` judges what comes back: lone surrogates become U+FFFD, every text is
  clipped, nothing a script returns, throws or prints can raise in the host).
"""

from .build import SANDBOX_BUILD
from .errors import SandboxUnavailable
from .globals import GameGlobals, TurnGlobals
from .results import Budgets, TurnKind, TurnResult
from .runner import Sandbox

__all__ = [
    "SANDBOX_BUILD",
    "Budgets",
    "GameGlobals",
    "Sandbox",
    "SandboxUnavailable",
    "TurnGlobals",
    "TurnKind",
    "TurnResult",
]
