"""Issue 27's figures, each a ratio measured in the same run: the sandbox against native QuickJS
and Node, a turn's fixed cost, and the whole game turn as the world grows.

    .venv/bin/python -m bench.native_bench                 # everything (also: python -m bench native)
    .venv/bin/python -m bench.native_bench --only native   # (native, node, game: repeatable)

The native anchor is QuickJS-NG compiled for this machine from the C sources of the PyPI sdist
``quickjs-ng==0.17.0.2``, the sandbox build's own digest-checked copy (``wasm_build.fetch_sources``),
built with the C compiler on first use into ``~/.cache/nova-tools/native-quickjs`` (nothing of it
is in the repo). Its harness
(bench/native_quickjs.c) runs the sandbox's own turn steps on the same prelude, bundle and
globals, with the state it starts from built once (as the sandbox's images are); the action it
returns must equal the sandbox's, or the line says so. Node's ``vm`` with a fresh context per
turn is bench/node_vm_anchor.js (via sandbox_bench). Each anchor runs interleaved with the
sandbox, so load on the machine hits both alike; CPU time is shown beside wall time, and the
load average is printed: figures from a busy machine are ratios, not absolutes.

Targets (issue 27): the starter's turn <= 1.0x Node's vm and <= 1.6x native; a tiny script's
fixed cost <= 100 us; a waiting script's whole game turn on a fully visible 48x48 board <= 3x
12x12; a tiny script given a 12x12 world the way a game hands it over <= 1.3x tiny globals.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.sandbox_bench import TINY, _turn_wall_and_cpu, node_anchor, starter_case
from nova_tools.sandbox import Budgets, GameGlobals, Sandbox, TurnGlobals, output, wasm_build
from nova_tools.sandbox.prelude import PRELUDE

HARNESS = Path(__file__).resolve().parent / "native_quickjs.c"
CFLAGS = ("-O2", "-w", "-D_GNU_SOURCE")
NATIVE_HEAP_FACTOR = 4
HANDOVER_PAIRS = 9  # alternations of the handover's two turns (game_turns)


def _cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "nova-tools" / "native-quickjs"


def native_harness() -> Path | str:
    """The built harness, or why it cannot be built here (a sentence)."""
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if cc is None:
        return "no C compiler (cc or gcc) on this machine"
    sdist = wasm_build.QUICKJS_SDIST
    key = hashlib.sha256(
        HARNESS.read_bytes() + wasm_build.SDIST_SHA256.encode() + " ".join(CFLAGS).encode()
    )
    folder = _cache() / key.hexdigest()[:16]
    binary = folder / "native_quickjs"
    if binary.exists():
        return binary
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="nova-native-") as temp:
        print(f"  (building native QuickJS-NG from the {sdist} sdist: once, a minute or two)")
        try:  # the sandbox build's own sources: the same sdist, digest-checked, kept in its cache
            source = wasm_build.fetch_sources(Path(temp), wasm_build.cache_dir())
        except (wasm_build.BuildFailed, OSError) as failed:
            return str(failed)
        built = subprocess.run(
            [cc, *CFLAGS, f"-I{source}", "-o", str(binary) + ".tmp", str(HARNESS)]
            + [str(source / name) for name in wasm_build.SOURCES]
            + ["-lm", "-lpthread"],
            capture_output=True,
            text=True,
        )
        if built.returncode != 0:
            return f"the native build failed: {built.stderr.strip()[-300:]}"
        os.replace(str(binary) + ".tmp", binary)
    return binary


def _value(envelope: str) -> object:
    out = output.split(envelope)
    return output.decode_value(out.value_json)[0] if out.head.get("ok") is True else out.head


def native_anchor(runs: int, rounds: int = 9) -> None:
    """The starter's turn and a tiny script's whole turn: sandbox against native QuickJS, in
    ``rounds`` alternations of a block of ``runs`` turns each. Beside the medians of the blocks,
    the fastest block of each side: on a shared VM a block's speed varies up to 2x for tens of
    seconds with what the host runs beside it, and the fastest block is the best estimate of what
    a turn costs on idle cores (the same estimator for both sides, as timeit takes the minimum)."""
    print("\nanchor: native QuickJS-NG (same turn steps, prelude, bundle and globals)")
    harness = native_harness()
    if isinstance(harness, str):
        print(f"  skipped: {harness}")
        return
    cases: list[tuple[str, str, TurnGlobals]] = [
        ("tiny script, tiny globals", TINY, TurnGlobals.of(GameGlobals("{}", None), "a-1", 1, {}))
    ]
    starter = starter_case()
    if starter is not None:
        cases.append(("starter, its game", starter[0], starter[1]))
    sandbox = Sandbox()
    # The heap limit natively: 64-bit pointers make QuickJS's objects larger than in wasm32.
    memory = Budgets().memory * NATIVE_HEAP_FACTOR
    with tempfile.TemporaryDirectory(prefix="nova-bench-") as folder:
        prelude = Path(folder) / "prelude.js"
        prelude.write_text(PRELUDE)
        for name, bundle, turn in cases:
            paths = [
                Path(folder) / f for f in ("game.json", "bundle.mjs", "payload.txt", "numbers.txt")
            ]
            handover = turn.handover()
            for path, text in zip(
                paths,
                (
                    turn.game.install_text(),
                    bundle,
                    handover.text,
                    " ".join(map(str, handover.numbers)),
                ),
                strict=True,
            ):
                path.write_text(text, encoding="utf-8")
            ours, ours_cpu, theirs, theirs_cpu = [], [], [], []
            answer: dict = {}
            for _ in range(rounds):
                done = subprocess.run(
                    [str(harness), str(prelude), *map(str, paths), str(runs), str(memory)],
                    capture_output=True,
                    text=True,
                )
                if done.returncode != 0:
                    print(f"  {name}: the native harness failed: {done.stderr.strip()[-300:]}")
                    break
                answer = json.loads(done.stdout)
                theirs.append(answer["turnUs"] / 1000)
                theirs_cpu.append(answer["turnCpuUs"] / 1000)
                wall, cpu, result = _turn_wall_and_cpu(sandbox, bundle, turn, runs)
                ours.append(wall)
                ours_cpu.append(cpu)
            if not theirs:
                continue
            mine, native = statistics.median(ours), statistics.median(theirs)
            mine_cpu, native_cpu = statistics.median(ours_cpu), statistics.median(theirs_cpu)
            fastest, fastest_native = min(ours_cpu), min(theirs_cpu)
            same = (
                "the same action"
                if _value(answer["envelope"]) == result.value
                else "a DIFFERENT action (not the same work!)"
            )
            print(
                f"  {name:26s} sandbox {mine * 1000:7.1f} us ({mine_cpu * 1000:7.1f} CPU)"
                f"   native {native * 1000:7.1f} us ({native_cpu * 1000:7.1f} CPU)"
                f"   {mine / native:5.2f}x wall, {mine_cpu / native_cpu:5.2f}x CPU   ({same})"
            )
            print(
                f"  {'':26s} native also: reading the bytecode {answer['readUs']:.1f} us a turn"
                f" (the sandbox's bundle image saves it), a turn built from nothing"
                f" {answer['afreshUs']:.1f} us ({answer['afreshCpuUs']:.1f} CPU)"
            )
            if name.startswith("tiny"):
                print(
                    f"  fixed cost (a tiny script's whole turn): {mine_cpu * 1000:.1f} us CPU"
                    f" against native {native_cpu * 1000:.1f} us; fastest of {len(ours_cpu)} blocks"
                    f" {fastest * 1000:.1f} us against {fastest_native * 1000:.1f} us"
                    f" ({fastest / fastest_native:.1f}x)   (target <= 100 us)"
                )
            else:
                print(
                    f"  starter turn / native: {mine_cpu / native_cpu:.2f}x CPU; fastest of"
                    f" {len(ours_cpu)} blocks {fastest * 1000:.1f} us against"
                    f" {fastest_native * 1000:.1f} us, {fastest / fastest_native:.2f}x"
                    f"   (target <= 1.6x)"
                )


def _game_session(size: int, bundle: str, sight: int | None):
    from nova_tools.play.session import GameSession, GameSpec, Seat
    from nova_tools.rules import Rules
    from nova_tools.toolchain.compile import CompiledScript

    rules: dict = {"world": {"width": size, "height": size}}
    if sight is not None:
        rules["android"] = {"sight": {"shape": "diamond", "range": sight}}
    spec = GameSpec(
        Rules.model_validate(rules), 5, (Seat("alice", CompiledScript.of(bundle, "main.ts")),), 0
    )
    return GameSession.start(spec, keep_events=False)


def _round_costs(session, rounds: int) -> tuple[float, float]:
    """Median wall and CPU ms of a round (one android's whole turn, round start and end)."""
    for _ in range(5):
        session.play_round()
    wall, cpu = [], []
    for _ in range(rounds):
        used, start = time.process_time(), time.perf_counter()
        session.play_round()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - used)
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000


def game_turns(runs: int, repeats: int = 3) -> None:
    """The whole game turn of a waiting script, as `nova run` plays it (GameSession.play_round:
    round start, the view, the handover, the sandbox, the action, round end)."""
    print("\nthe whole game turn of a waiting script, every tile in sight (sight range 512)")
    rounds = max(20, runs // 4)
    sizes = (12, 48)
    sessions = {size: _game_session(size, TINY, 512) for size in sizes}
    figures: dict[int, list[tuple[float, float]]] = {size: [] for size in sizes}
    for _ in range(repeats):  # alternated, so load hits each size alike
        for size in sizes:
            figures[size].append(_round_costs(sessions[size], rounds))
    medians = {
        size: tuple(statistics.median(f[i] for f in figures[size]) for i in (0, 1))
        for size in sizes
    }
    for size in sizes:
        wall, cpu = medians[size]
        print(f"  {size}x{size}: a round {wall:7.3f} ms ({cpu:7.3f} ms CPU)")
    print(
        f"  48x48 / 12x12: {medians[48][0] / medians[12][0]:.2f}x wall,"
        f" {medians[48][1] / medians[12][1]:.2f}x CPU   (target <= 3x)"
    )
    # A tiny script given a 12x12 world the way a game hands it over (the view built, the
    # globals made, the sandbox call) against the same script given tiny globals.
    session = _game_session(12, TINY, 512)
    state, runner = session.state, session.runner
    android = next(iter(state.androids.values()))
    sandbox = Sandbox()
    tiny_globals = TurnGlobals.of(runner.game_globals, android.id, 1, {})
    budgets = runner.budgets

    def handed(n: int) -> tuple[float, float]:
        wall, cpu = [], []
        for _ in range(n):
            used, start = time.process_time(), time.perf_counter()
            sandbox.run_turn(TINY, runner.globals(state, android), budgets, 1)
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - used)
        return statistics.median(wall) * 1000, statistics.median(cpu) * 1000

    # alternated in many short pairs: a busy other core slows this process by up to 2x for a
    # while, and a ratio of two blocks taken apart would catch it in one of them only
    pairs = []
    for _ in range(HANDOVER_PAIRS):
        handed(20)
        given = handed(runs // 2)
        bare = _turn_wall_and_cpu(sandbox, TINY, tiny_globals, runs // 2)[:2]
        pairs.append((given, bare))
    given = tuple(statistics.median(p[0][i] for p in pairs) for i in (0, 1))
    bare = tuple(statistics.median(p[1][i] for p in pairs) for i in (0, 1))
    ratios = sorted(p[0][1] / p[1][1] for p in pairs)
    print(
        f"  tiny script, a 12x12 world as a game hands it over: {given[0]:.3f} ms ({given[1]:.3f} CPU)"
        f"; tiny globals {bare[0]:.3f} ms ({bare[1]:.3f} CPU):"
        f" {given[0] / bare[0]:.2f}x wall, {given[1] / bare[1]:.2f}x CPU   (target <= 1.3x)"
    )
    print(
        f"  the same, per pair of {HANDOVER_PAIRS}: {statistics.median(ratios):.2f}x CPU"
        f" (median; {ratios[0]:.2f}-{ratios[-1]:.2f})"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=200, help="turns per median (default 200)")
    parser.add_argument(
        "--only", choices=("native", "node", "game"), action="append", help="repeatable"
    )
    parser.add_argument(
        "--prebuilt",
        action="store_true",
        help="run the sandbox on quickjs-wasi 3.7.0's prebuilt quickjs.wasm (sandbox builds up"
        " to 5, with the host calls they made: bench/prebuilt_shim.py) instead of our own"
        " build: the 'before' of issue 27's own-build figures",
    )
    args = parser.parse_args([] if argv is None else argv)
    parts = args.only or ["native", "node", "game"]
    if args.prebuilt:
        from bench import prebuilt_shim
        from nova_tools.sandbox import build
        from nova_tools.toolchain.paths import QUICKJS_WASM

        build.use_for_benchmark(QUICKJS_WASM.require(), build.EngineSettings())
        prebuilt_shim.install()  # its exports are not our glue's
        print("the sandbox runs the prebuilt quickjs.wasm of quickjs-wasi 3.7.0")
    print(f"load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())} (2 cores)")
    if "native" in parts:
        native_anchor(args.runs)
    if "node" in parts:
        node_anchor(args.runs)
    if "game" in parts:
        game_turns(args.runs)
    print(f"load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main(sys.argv[1:])
