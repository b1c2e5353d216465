"""Sandbox benchmark: what one android turn costs, what the world handed to it costs, and anchors.

    .venv/bin/python bench/sandbox_bench.py           # per-turn cost, anchors, growth with the world
    .venv/bin/python bench/sandbox_bench.py --fuel    # also wasm fuel per tick, by kind of work

Every turn starts from a fresh QuickJS state (a memory image restored into a reused instance), as
in a game. A bundle is compiled once per process and each turn starts with its bytecode already
read ("warm"); the starter case also shows a "cold" turn, with every cache emptied before it.
The globals of each case are prepared once (``TurnGlobals``), as the game loop hands them over.

Anchors, measured side by side in the same run on the same bundle and globals:
- Node's ``vm`` with a fresh context per turn (bench/node_vm_anchor.js; skipped, and said so,
  where ``node`` is missing): the isolation Screeps-style hosts pay for. DESIGN section 7: the
  starter's turn at most 1.0x of it;
- the bare sandbox call with tiny globals: what the world costs a script that never reads it
  (DESIGN: a 12x12 world within 1.5x of tiny globals, a fully visible 48x48 one within 3x of 12x12).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from nova_tools.sandbox import SANDBOX_BUILD, Budgets, GameGlobals, Sandbox, TurnGlobals, build
from nova_tools.sandbox.bytecode import CACHE
from nova_tools.sandbox.images import BUNDLES, GAMES

NODE_ANCHOR = Path(__file__).resolve().parent / "node_vm_anchor.js"

WORLD = {
    "width": 12,
    "height": 12,
    "tiles": [
        {
            "position": {"x": x, "y": y},
            "composition": {"ore": (x * y) % 4, "acid": 0},
            "scattered": {"metal": (x + y) % 3},
        }
        for x in range(12)
        for y in range(12)
    ],
    "androids": [{"id": "and-1", "position": {"x": 3, "y": 4}, "battery": 80, "cargo": {}}],
}
GLOBALS = json.dumps(
    {
        "androidId": "and-1",
        "world": WORLD,
        "rules": {"script": {"fuel": 200}},
        "turn": 3,
        "finalTurn": None,
    }
)
SMALL_GLOBALS = json.dumps(
    {"androidId": "and-1", "world": {}, "rules": {}, "turn": 1, "finalTurn": None}
)

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
# Reads every tile and android of the world once (what a script that looks at everything pays).
READER = """
export default () => {
  let n = 0;
  for (const tile of world.tiles) n += tile.position.x + (tile.scattered.metal || 0);
  for (const a of world.androids) n += a.position.y;
  return { type: 'android.wait', recording: String(n) };
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


def _turn_wall_and_cpu(
    sandbox: Sandbox, source: str, turn: TurnGlobals, runs: int
) -> tuple[float, float, object]:
    """Median wall-clock and CPU (this process) ms of a warm turn, and the last result."""
    budgets = Budgets()
    result = sandbox.run_turn(source, turn, budgets, 1)
    assert result.ok, result.error
    for _ in range(10):
        sandbox.run_turn(source, turn, budgets, 1)
    wall, cpu = [], []
    for _ in range(runs):
        used, start = time.process_time(), time.perf_counter()
        sandbox.run_turn(source, turn, budgets, 1)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - used)
    return _median_ms(wall), _median_ms(cpu), result


def starter_case() -> tuple[str, TurnGlobals, str] | None:
    """The shipped starter android as `nova upload` bundles it and the globals of one of its turns
    in a default game (also as one JSON text, for Node); None without the toolchain (esbuild)."""
    try:
        from nova_tools import engine
        from nova_tools.play import ScriptRunner
        from nova_tools.rules import Rules
        from nova_tools.starter import ENTRY, files
        from nova_tools.toolchain import compile_sources

        bundle = compile_sources(files(), ENTRY).bundle
    except Exception as exc:  # a missing toolchain only skips this case
        print(f"(starter-sized bundle skipped: {exc})")
        return None
    state = engine.generate(Rules(), 3)
    engine.join(state, "alice")
    script = engine.add_script(state, "alice", "starter").script
    android_id = engine.launch(state, "alice", script).android
    runner = ScriptRunner(Rules(), {script: bundle})
    android = state.androids[android_id]
    as_json = json.dumps(
        {
            "androidId": android.id,
            "turn": state.round,
            "world": engine.world_view(state, android.owner, android),
            "rules": Rules().to_json(),
            "finalTurn": Rules().match.final_round,
        }
    )
    return bundle, runner.globals(state, android), as_json


def visible_world(size: int, androids: int = 1) -> dict:
    """An engine view of a generated ``size`` x ``size`` board with every tile in sight, and
    ``androids`` androids in view."""
    from nova_tools import engine
    from nova_tools.rules import Rules

    state = engine.generate(Rules.model_validate({"world": {"width": size, "height": size}}), 7)
    engine.join(state, "alice")
    state.visible["alice"] = frozenset(range(size * size))
    view = engine.world_view(state, "alice")
    view["androids"] = [
        {
            "id": f"android-{i + 1}",
            "ownerId": "bob" if i % 2 else "alice",
            "scriptId": "script-1",
            "position": {"x": i % size, "y": (i // size) % size},
            "battery": 100,
            "health": 100,
            "active": True,
            "cargo": {"metal": i % 3},
            "memory": "[Redacted]",
            "recording": "[Redacted]",
        }
        for i in range(androids)
    ]
    return view


def turn_costs(runs: int) -> None:
    start = time.perf_counter()
    sandbox = Sandbox()
    first = time.perf_counter() - start
    later = _median_ms(_time(Sandbox, 20))
    print(
        f"Sandbox(): first in this process {first * 1000:.1f} ms (compile or load the cached module,"
        f" take the snapshot), then {later:.2f} ms"
    )

    budgets = Budgets()
    cases = [
        ("tiny script, tiny globals", TINY, TurnGlobals.from_json(SMALL_GLOBALS)),
        ("tiny script, 12x12 world", TINY, TurnGlobals.from_json(GLOBALS)),
        ("scanning bot, 12x12 world", BOT, TurnGlobals.from_json(GLOBALS)),
    ]
    starter = starter_case()
    if starter is not None:
        bundle, starter_globals, _ = starter
        name = f"starter ({len(bundle) // 1024} KB), its game"
        cases += [
            (name, bundle, starter_globals),
            ("starter, its game, cold caches", bundle, starter_globals),
        ]
    for name, source, globals in cases:
        result = sandbox.run_turn(source, globals, budgets, 1)
        assert result.ok, result.error
        for _ in range(20):
            sandbox.run_turn(source, globals, budgets, 1)
        wall, cpu = [], []
        for _ in range(runs):
            if name.endswith(
                "cold caches"
            ):  # timed with the turn: clearing costs a few microseconds
                CACHE.clear()
                GAMES.clear()
                BUNDLES.clear()
            used, start = time.process_time(), time.perf_counter()
            sandbox.run_turn(source, globals, budgets, 1)
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - used)
        wall.sort()
        print(
            f"turn, {name:30s} median {_median_ms(wall):6.3f} ms ({_median_ms(cpu):6.3f} ms CPU)"
            f"   p90 {wall[int(len(wall) * 0.9)] * 1000:6.3f} ms   ({result.ticks} ticks, {result.wasm_fuel / 1e6:.2f}M wasm fuel)"
        )


def node_anchor(runs: int, rounds: int = 5) -> None:
    """The starter's turn in the sandbox against Node's vm with a fresh context, interleaved."""
    print("\nanchor: the starter's turn, sandbox against Node's vm with a fresh context per turn")
    node = shutil.which("node")
    esbuild = None
    try:
        from nova_tools.toolchain.paths import ESBUILD

        esbuild = ESBUILD.find()
    except ImportError:
        pass
    starter = starter_case()
    if node is None or esbuild is None or starter is None:
        missing = "node" if node is None else "esbuild" if esbuild is None else "the starter bundle"
        print(f"  skipped: {missing} is not available on this machine")
        return
    bundle, globals, as_json = starter
    sandbox = Sandbox()
    with tempfile.TemporaryDirectory(prefix="nova-bench-") as folder:
        module = Path(folder) / "android.mjs"
        module.write_text(bundle)
        script = Path(folder) / "android.js"
        subprocess.run(
            [
                str(esbuild),
                str(module),
                "--format=iife",
                "--global-name=__android",
                "--log-level=warning",
                f"--outfile={script}",
            ],
            check=True,
        )
        globals_path = Path(folder) / "globals.json"
        globals_path.write_text(as_json)
        ours, theirs, ours_cpu, theirs_cpu, value = [], [], [], [], None
        for _ in range(rounds):  # interleaved, so load on the machine hits both alike
            out = subprocess.run(
                [node, str(NODE_ANCHOR), str(script), str(globals_path), str(runs)],
                capture_output=True,
                text=True,
                check=True,
            )
            answer = json.loads(out.stdout)
            theirs.append(answer["medianMs"])
            theirs_cpu.append(answer["cpuMedianMs"])
            value = answer["value"]
            wall, cpu, result = _turn_wall_and_cpu(sandbox, bundle, globals, runs)
            ours.append(wall)
            ours_cpu.append(cpu)
    mine, node_ms = statistics.median(ours), statistics.median(theirs)
    mine_cpu, node_cpu = statistics.median(ours_cpu), statistics.median(theirs_cpu)
    same = "the same action" if result.value == value else "a DIFFERENT action (not the same work!)"
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    print(
        f"  Node {version} vm, fresh context: {node_ms:.3f} ms ({node_cpu:.3f} ms CPU)   sandbox: {mine:.3f} ms"
        f" ({mine_cpu:.3f} ms CPU)   ({same}; {result.wasm_fuel / 1e6:.2f}M wasm fuel charged)"
    )
    print(
        f"  starter turn / Node vm turn: {mine / node_ms:.2f}x wall clock, {mine_cpu / node_cpu:.2f}x CPU"
        f"   (target <= 1.0x)"
    )


def world_growth(runs: int) -> None:
    """What the world costs: a script that never reads it, and one that reads all of it."""
    print("\ngrowth with the world (every tile in sight), medians in ms; wasm fuel in brackets")
    sandbox = Sandbox()
    game = GameGlobals("{}", None)
    tiny_globals = TurnGlobals.of(game, "android-1", 1, {})
    baseline, baseline_cpu, _ = _turn_wall_and_cpu(sandbox, TINY, tiny_globals, runs)
    print(f"  tiny script, tiny globals: {baseline:.3f} ms ({baseline_cpu:.3f} ms CPU)")
    rows = [(f"{size}x{size}", visible_world(size)) for size in (12, 24, 48)]
    rows += [(f"12x12, {n} androids in view", visible_world(12, n)) for n in (10, 100)]
    tiny: dict[str, tuple[float, float]] = {}
    for name, world in rows:
        turn = TurnGlobals.of(game, "android-1", 1, world)
        size_kb = sum(len(text) for text in turn.world.values()) / 1024  # type: ignore[union-attr]
        wall, cpu, quiet = _turn_wall_and_cpu(sandbox, TINY, turn, runs)
        tiny[name] = (wall, cpu)
        reading, reading_cpu, reader = _turn_wall_and_cpu(sandbox, READER, turn, max(20, runs // 4))
        print(
            f"  {name:28s} ({size_kb:6.1f} KB of JSON): tiny script {wall:6.3f} ms ({cpu:.3f} CPU) [{quiet.wasm_fuel / 1e6:.2f}M],"
            f" reading it all {reading:7.3f} ms ({reading_cpu:.3f} CPU) [{reader.wasm_fuel / 1e6:.2f}M]"
        )
    small, big = tiny["12x12"], tiny["48x48"]
    print(
        f"  tiny script, 12x12 world / tiny globals: {small[0] / baseline:.2f}x, {small[1] / baseline_cpu:.2f}x CPU"
        "   (target <= 1.5x)"
    )
    print(
        f"  tiny script, 48x48 world / 12x12 world:  {big[0] / small[0]:.2f}x, {big[1] / small[1]:.2f}x CPU   (target <= 3x)"
    )


def fuel_per_tick() -> None:
    sandbox = Sandbox()
    budgets = Budgets(fuel=20_000, memory=64 * 1024 * 1024, timeout_ms=60_000)
    print(
        f"\nwasm fuel per tick by kind of work (ceiling: {build.WASM_FUEL_PER_TICK / 1e6:.0f}M per tick"
        f" + {build.WASM_FUEL_BASE / 1e6:.0f}M + {build.WASM_FUEL_PER_SOURCE_BYTE} per source byte)"
    )
    for name, code in WORKLOADS.items():
        start = time.perf_counter()
        result = sandbox.run_turn("export default () => { " + code + " }", GLOBALS, budgets, 1)
        elapsed = (time.perf_counter() - start) * 1000
        per_tick = f"{result.wasm_fuel / result.ticks / 1e6:7.2f}M" if result.ticks else "      -"
        rate = result.wasm_fuel / elapsed / 1e6 if elapsed else 0
        status = "" if result.ok else f"  ({result.error})"
        print(
            f"  {name:30s} {result.ticks:5d} ticks {result.wasm_fuel / 1e6:8.1f}M fuel  {per_tick}/tick"
            f"  {elapsed:7.1f} ms ({rate:.1f}M fuel/ms){status}"
        )


def main(argv: list[str] | None = None) -> None:
    """``argv`` defaults to no options (not sys.argv): `python -m bench` calls ``main()``."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=200, help="turns per median (default 200)")
    parser.add_argument(
        "--fuel", action="store_true", help="also measure wasm fuel per tick by kind of work"
    )
    parser.add_argument(
        "--only",
        choices=("turns", "node", "growth"),
        action="append",
        help="run only this part (repeatable; default: all three)",
    )
    args = parser.parse_args([] if argv is None else argv)
    parts = args.only or ["turns", "node", "growth"]
    print("sandbox build:", ", ".join(f"{k} {v}" for k, v in SANDBOX_BUILD.items()))
    if "turns" in parts:
        turn_costs(args.runs)
    if "node" in parts:
        node_anchor(args.runs)
    if "growth" in parts:
        world_growth(args.runs)
    if args.fuel:
        fuel_per_tick()


if __name__ == "__main__":
    main(sys.argv[1:])
