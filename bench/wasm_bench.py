"""What the JS engine costs in wasm: the quickjs.wasm build and wasmtime's settings (issue 27).

    .venv/bin/python bench/wasm_bench.py                       # every variant, 3 rounds
    .venv/bin/python bench/wasm_bench.py --rounds 5 --runs 300
    .venv/bin/python bench/wasm_bench.py --wasm other=PATH     # also another quickjs.wasm

The builds: quickjs-wasi 3.7.0's prebuilt quickjs.wasm (the baseline: sandbox builds up to 5; run
with the host calls it needs, bench/prebuilt_shim.py) and the shipped one (wasm_build.py).

Each variant is one quickjs.wasm under one set of wasmtime settings (build.EngineSettings), run
in a process of its own (the compiled module and the snapshot are per process): the starter's
turn in its default game and a tiny script's whole turn (the fixed cost), CPU time of the process
(median of ``--runs`` warm turns) beside wall time. Variants run interleaved, one chunk each per
round, so the machine's load hits each alike; a figure is the median over rounds, and each ratio
is against the baseline (the first variant) of the same run. The load average is printed.

The variants with fuel switched off run the same turns with wasm fuel unmetered (the host's fuel
calls become no-ops in that process): what metering costs, not a way to play. The build's own
facts (size, sections, the producer the toolchain recorded) are printed first.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path

from nova_tools.sandbox.build import EngineSettings

ROOT = Path(__file__).resolve().parents[1]

# name -> settings, the first being the baseline (what ships)
SETTINGS: dict[str, EngineSettings] = {
    "shipped settings": EngineSettings(),
    "fuel off": EngineSettings(fuel=False),
    # what the watchdog cost before it moved to the tick: an epoch check on every back-edge
    "epoch checks on": EngineSettings(epoch=True),
    "Cranelift speed_and_size": EngineSettings(opt_level="speed_and_size"),
    "Cranelift none": EngineSettings(opt_level="none"),
    "NaN canonicalisation off": EngineSettings(nan_canonicalization=False),
    # 1 GiB reserved with no guard: Cranelift must check the bounds of every load and store
    "explicit bounds checks": EngineSettings(reservation=1 << 30, guard=0),
    "2 GiB guard": EngineSettings(guard=2 << 30),
}


def wasm_facts(path: Path) -> str:
    """Size, custom sections and the producers section (language, tools) of a wasm file."""
    data = path.read_bytes()

    def leb(at: int) -> tuple[int, int]:
        value = shift = 0
        while True:
            byte = data[at]
            at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return value, at

    customs, code, at = [], 0, 8
    producers = "none recorded"
    while at < len(data):
        section = data[at]
        size, at = leb(at + 1)
        if section == 0:
            length, start = leb(at)
            name = data[start : start + length].decode("utf-8", "replace")
            customs.append(f"{name} ({size} B)")
            if name == "producers":
                text = data[start + length : at + size]
                producers = "".join(chr(b) if 32 <= b < 127 else " " for b in text).strip()
                producers = " ".join(producers.split())
        elif section == 10:
            code = size
        at += size
    return (
        f"{len(data):,} B, code section {code:,} B; custom sections: "
        f"{', '.join(customs) or 'none'}; producers: {producers}"
    )


def worker(wasm: Path, settings: EngineSettings, runs: int) -> dict:
    """One variant's medians in this process (ms)."""
    from nova_tools.sandbox import build

    build.use_for_benchmark(wasm, settings)
    from bench import prebuilt_shim

    if prebuilt_shim.needed():  # quickjs-wasi's wasm: the host calls of sandbox builds up to 5
        prebuilt_shim.install()
    if not settings.fuel:
        import wasmtime

        # Unmetered: fuel calls would raise on an engine without fuel; they become no-ops.
        wasmtime.Store.set_fuel = lambda self, fuel: None  # type: ignore[method-assign]
        wasmtime.Store.get_fuel = lambda self: 1 << 62  # type: ignore[method-assign]
    from bench.sandbox_bench import TINY, _turn_wall_and_cpu, starter_case
    from nova_tools.sandbox import GameGlobals, Sandbox, TurnGlobals

    sandbox = Sandbox()
    out: dict = {}
    tiny = TurnGlobals.of(GameGlobals("{}", None), "a-1", 1, {})
    wall, cpu, result = _turn_wall_and_cpu(sandbox, TINY, tiny, runs)
    out["tiny"] = (wall, cpu, getattr(result, "wasm_fuel", 0))
    starter = starter_case()
    if starter is not None:
        wall, cpu, result = _turn_wall_and_cpu(sandbox, starter[0], starter[1], runs)
        out["starter"] = (wall, cpu, getattr(result, "wasm_fuel", 0))
        out["action"] = json.dumps(getattr(result, "value", None), sort_keys=True)
    return out


def _run_worker(wasm: Path, settings: EngineSettings, runs: int) -> dict | str:
    done = subprocess.run(
        [sys.executable, "-m", "bench.wasm_bench", "--worker", str(wasm)]
        + [json.dumps(asdict(settings)), str(runs)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if done.returncode != 0:
        return done.stderr.strip()[-300:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=200, help="warm turns per chunk")
    parser.add_argument("--rounds", type=int, default=3, help="chunks per variant, interleaved")
    parser.add_argument("--wasm", action="append", default=[], help="NAME=PATH, repeatable")
    parser.add_argument(
        "--only", action="append", help="a settings name (repeatable; default: all)"
    )
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args([] if argv is None else argv)
    if args.worker:
        wasm, settings, runs = args.worker
        print(json.dumps(worker(Path(wasm), EngineSettings(**json.loads(settings)), int(runs))))
        return

    from nova_tools.toolchain.paths import QUICKJS_WASM

    builds: dict[str, Path] = {}
    prebuilt = QUICKJS_WASM.find()
    if prebuilt is not None:
        builds["prebuilt (quickjs-wasi 3.7.0)"] = prebuilt
    from nova_tools.sandbox import wasm_build

    builds[f"shipped (QuickJS-NG {wasm_build.QUICKJS_VERSION}, -O3)"] = wasm_build.ensure_built()
    for item in args.wasm:
        name, _, path = item.partition("=")
        builds[name] = Path(path)
    names = args.only or list(SETTINGS)
    variants = [(b, s) for b in builds for s in names if s in SETTINGS]
    if not variants:
        print("  skipped: no quickjs.wasm to measure")
        return
    print(f"load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())} (2 cores)")
    for name, path in builds.items():
        print(f"  {name}: {path}\n    {wasm_facts(path)}")
    figures: dict[tuple[str, str], list[dict]] = {v: [] for v in variants}
    failed: dict[tuple[str, str], str] = {}
    started = time.perf_counter()
    for _ in range(args.rounds):
        for variant in variants:
            if variant in failed:
                continue
            got = _run_worker(builds[variant[0]], SETTINGS[variant[1]], args.runs)
            if isinstance(got, str):
                failed[variant] = got
            else:
                figures[variant].append(got)
    base = variants[0]

    def med(variant: tuple[str, str], case: str, index: int) -> float:
        return statistics.median(f[case][index] for f in figures[variant])

    print(
        f"\n{args.rounds} rounds x {args.runs} warm turns per variant, medians"
        f" ({time.perf_counter() - started:.0f} s); ratios against '{base[0]}, {base[1]}'"
    )
    for case, label in (("starter", "the starter's turn"), ("tiny", "a tiny script's turn")):
        if not figures[base] or case not in figures[base][0]:
            continue
        print(f"\n  {label}:")
        base_cpu = med(base, case, 1)
        for variant in variants:
            if variant in failed:
                print(f"    {variant[0]:30s} {variant[1]:26s} failed: {failed[variant]}")
                continue
            if not figures[variant] or case not in figures[variant][0]:
                continue
            wall, cpu, fuel = (med(variant, case, i) for i in range(3))
            action = ""
            if case == "starter" and figures[variant][0].get("action") != figures[base][0].get(
                "action"
            ):
                action = "  (a DIFFERENT action)"
            print(
                f"    {variant[0]:30s} {variant[1]:26s} {cpu * 1000:7.1f} us CPU"
                f" ({wall * 1000:7.1f} wall)  {cpu / base_cpu:5.2f}x   fuel {fuel:,.0f}{action}"
            )
    print(f"\nload average: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main(sys.argv[1:])
