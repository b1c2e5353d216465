"""Sandbox benchmark: what one android turn costs, and the measurements behind the wasm-fuel factor.

    .venv/bin/python bench/sandbox_bench.py           # per-turn cost (medians over 200 turns)
    .venv/bin/python bench/sandbox_bench.py --fuel    # also wasm fuel per tick, by kind of work

Every turn runs in a fresh QuickJS (restored from the post-prelude snapshot), as in a game. A
bundle is compiled once per process and each turn loads its bytecode ("warm"); the starter-sized
case also shows a "cold" turn, with the bytecode cache emptied before it (compile + turn).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable

from nova_tools.sandbox import SANDBOX_BUILD, Budgets, Sandbox, build
from nova_tools.sandbox.bytecode import CACHE

WORLD = {
    "width": 12,
    "height": 12,
    "tiles": [
        {"position": {"x": x, "y": y}, "composition": {"ore": (x * y) % 4, "acid": 0}, "scattered": {"metal": (x + y) % 3}}
        for x in range(12)
        for y in range(12)
    ],
    "androids": [{"id": "and-1", "position": {"x": 3, "y": 4}, "battery": 80, "cargo": {}}],
}
GLOBALS = json.dumps({"androidId": "and-1", "world": WORLD, "rules": {"script": {"fuel": 200}}, "turn": 3, "finalTurn": None})
SMALL_GLOBALS = json.dumps({"androidId": "and-1", "world": {}, "rules": {}, "turn": 1, "finalTurn": None})

TINY = "export default () => ({ type: 'android.wait' });"
BOT = """
export default () => {
  const me = world.androids.find((a) => a.id === androidId);
  let best = null, bestDistance = Infinity;
  for (const tile of world.tiles) {
    if (!tile.scattered.metal) continue;
    const d = Math.abs(tile.position.x - me.position.x) + Math.abs(tile.position.y - me.position.y);
    if (d > 0 && d < bestDistance) { best = tile; bestDistance = d; }
  }
  return { type: 'android.move', direction: best.position.x > me.position.x ? 'east' : 'west' };
};
"""

# Kinds of work and the wasm fuel one tick of each costs (see build.WASM_FUEL_PER_TICK).
WORKLOADS = {
    "empty loop": "let i = 0; while (i < 3e6) i++; return i",
    "integer arithmetic": "let s = 0; for (let i = 0; i < 1e6; i++) s = (s * 31 + i) | 0; return s",
    "function calls": "const f = (a, b) => a + b; let s = 0; for (let i = 0; i < 3e5; i++) s = f(s, i); return s",
    "array push": "const a = []; for (let i = 0; i < 3e5; i++) a.push(i * 2); return a.length",
    "object allocation": "let s = 0; for (let i = 0; i < 2e5; i++) { const o = { x: i, y: i + 1 }; s += o.x + o.y } return s",
    "closures": "const fs = []; for (let i = 0; i < 5e4; i++) fs.push(() => i); let s = 0; for (const f of fs) s += f(); return s",
    "class methods": "class P { constructor(x, y) { this.x = x; this.y = y } add(o) { return new P(this.x + o.x, this.y + o.y) } }"
                     " let p = new P(0, 0); const d = new P(1, 1); for (let i = 0; i < 1e5; i++) p = p.add(d); return p.x",
    "Map get/set": "const m = new Map(); for (let i = 0; i < 1e5; i++) { m.set('k' + (i % 500), i); m.get('k' + (i % 300)) } return m.size",
    "string building": "let s = ''; for (let i = 0; i < 1e5; i++) s += String.fromCharCode(65 + i % 26); return s.length",
    "template literals": "let n = 0; for (let i = 0; i < 1e5; i++) n += `${i},${i + 1}`.length; return n",
    "map/filter over tiles": "let n = 0; for (let k = 0; k < 300; k++) n += world.tiles.filter(t => t.scattered.metal > 0).map(t => t.position.x).length; return n",
    "BFS over the grid": "let n = 0; for (let r = 0; r < 100; r++) { const seen = new Set(); const q = [[0, 0]]; while (q.length) {"
                         " const [x, y] = q.shift(); const k = x * 100 + y; if (seen.has(k) || x < 0 || y < 0 || x >= 12 || y >= 12) continue;"
                         " seen.add(k); n++; q.push([x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]) } } return n",
    "Math.random": "let s = 0; for (let i = 0; i < 3e5; i++) s += Math.random(); return s",
    "Date.now (a host call)": "let s = 0; for (let i = 0; i < 2e4; i++) s += Date.now(); return s",
    "regex exec": "let n = 0; for (let k = 0; k < 20000; k++) n += /(\\d+)-(\\d+)/.exec('abc 123-456 def')[1].length; return n",
    "JSON.stringify per iteration": "let n = 0; for (let i = 0; i < 2e4; i++) n += JSON.stringify({ x: i, y: i }).length; return n",
    "indexOf on 1k items": "const a = []; for (let i = 0; i < 1000; i++) a.push(i); let n = 0; for (let i = 0; i < 5000; i++) n += a.indexOf(999); return n",
    "join of 1M items (0 ticks)": "return Array(1e6).fill(1).join(',').length",
}


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def _time(fn: Callable[[], object], runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return samples


def starter_case() -> tuple[str, str] | None:
    """The shipped starter android as `nova upload` bundles it (~17 KB) and the globals of one of
    its turns in a default game; None without the toolchain (esbuild)."""
    try:
        from nova_tools import engine
        from nova_tools.play import ScriptRunner
        from nova_tools.rules import Rules
        from nova_tools.starter import ENTRY, files
        from nova_tools.toolchain import compile_sources

        bundle = compile_sources(files(), ENTRY).bundle
    except Exception as exc:  # noqa: BLE001 - a missing toolchain only skips this case
        print(f"(starter-sized bundle skipped: {exc})")
        return None
    state = engine.generate(Rules(), 3)
    engine.join(state, "alice")
    script = engine.add_script(state, "alice", "starter")["script"]
    android_id = engine.launch(state, "alice", script)["android"]
    runner = ScriptRunner(Rules(), {script: bundle})
    return bundle, runner.globals_json(state, state.androids[android_id])


def turn_costs(runs: int) -> None:
    start = time.perf_counter()
    sandbox = Sandbox()
    first = time.perf_counter() - start
    later = _median_ms(_time(Sandbox, 20))
    print(f"Sandbox(): first in this process {first * 1000:.1f} ms (compile or load the cached module,"
          f" take the snapshot), then {later:.2f} ms")

    budgets = Budgets()
    cases = [("tiny script, tiny globals", TINY, SMALL_GLOBALS), ("tiny script, 12x12 world", TINY, GLOBALS),
             ("scanning bot, 12x12 world", BOT, GLOBALS)]
    starter = starter_case()
    if starter is not None:
        bundle, starter_globals = starter
        name = f"starter ({len(bundle) // 1024} KB), its game"
        cases += [(name, bundle, starter_globals), ("starter, its game, cold cache", bundle, starter_globals)]
    for name, source, globals_json in cases:
        result = sandbox.run_turn(source, globals_json, budgets, 1)
        assert result.ok, result.error
        for _ in range(20):
            sandbox.run_turn(source, globals_json, budgets, 1)
        if name.endswith("cold cache"):
            def turn() -> object:
                CACHE.clear()  # timed with the turn: clearing costs about a microsecond
                return sandbox.run_turn(source, globals_json, budgets, 1)
        else:
            def turn() -> object:
                return sandbox.run_turn(source, globals_json, budgets, 1)
        samples = sorted(_time(turn, runs))
        print(f"turn, {name:30s} median {_median_ms(samples):6.3f} ms   p90 {samples[int(len(samples) * 0.9)] * 1000:6.3f} ms"
              f"   ({result.ticks} ticks, {result.wasm_fuel / 1e6:.2f}M wasm fuel)")


def fuel_per_tick() -> None:
    sandbox = Sandbox()
    budgets = Budgets(fuel=20_000, memory=64 * 1024 * 1024, timeout_ms=60_000)
    print(f"\nwasm fuel per tick by kind of work (ceiling: {build.WASM_FUEL_PER_TICK / 1e6:.0f}M per tick"
          f" + {build.WASM_FUEL_BASE / 1e6:.0f}M + {build.WASM_FUEL_PER_SOURCE_BYTE} per source byte)")
    for name, code in WORKLOADS.items():
        start = time.perf_counter()
        result = sandbox.run_turn("export default () => { " + code + " }", GLOBALS, budgets, 1)
        elapsed = (time.perf_counter() - start) * 1000
        per_tick = f"{result.wasm_fuel / result.ticks / 1e6:7.2f}M" if result.ticks else "      -"
        rate = result.wasm_fuel / elapsed / 1e6 if elapsed else 0
        status = "" if result.ok else f"  ({result.error})"
        print(f"  {name:30s} {result.ticks:5d} ticks {result.wasm_fuel / 1e6:8.1f}M fuel  {per_tick}/tick"
              f"  {elapsed:7.1f} ms ({rate:.1f}M fuel/ms){status}")


def main(argv: list[str] | None = None) -> None:
    """``argv`` defaults to no options (not sys.argv): `python -m bench` calls ``main()``."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=200, help="turns per median (default 200)")
    parser.add_argument("--fuel", action="store_true", help="also measure wasm fuel per tick by kind of work")
    args = parser.parse_args([] if argv is None else argv)
    print("sandbox build:", ", ".join(f"{k} {v}" for k, v in SANDBOX_BUILD.items()))
    turn_costs(args.runs)
    if args.fuel:
        fuel_per_tick()


if __name__ == "__main__":
    main(sys.argv[1:])
