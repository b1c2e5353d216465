"""Reading a long game: ``store.load``'s events per second, and ``nova play``'s memory in a pipe.

    .venv/bin/python -m bench replay [--repeats N] [--long-rounds N]
    .venv/bin/python -m bench.replay_bench --against OLD_TREE [--pairs N]   # the load only

* **load** — ``store.load`` of a real 100-round starter-vs-starter game recorded at the start of
  the run (read, parse, check, replay: every turn judged again), in events per CPU-second,
  against ``json.loads`` of the same file measured back to back (the ratio is what the load
  costs beyond merely reading the JSON). DESIGN target: 100,000 events/s. The loads after the
  first are what a process that reads games again and again pays (a server, the lab): the
  rules and the actions' forms it has seen are kept; the first load of the process is printed
  beside them.
* **against** — the same load in two worker processes, this tree's and ``OLD_TREE``'s (a
  checkout of an older commit, run by this interpreter), taking turns for ``--pairs`` rounds
  of three loads each, so both see the same machine: each tree's median and the median of the
  per-round ratios (new / old). How docs/benchmarks.md measures a change to the load.
* **stream** — the peak resident memory of ``nova play`` writing a long game (3,000 rounds of
  the starter against itself) into a pipe, against the peak of ``nova play --round 0`` on it
  (``--round 0``: it loads and replays the whole file too, and draws one frame). Issue 27's target: under 100 MiB; it was
  404-453 MiB when every frame was held before the first was written.

CPU time beside wall time; note the load average printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repo importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.user_bench import record_starter_game
from nova_tools import store

REPLAY_TARGET = 100_000  # events/s, DESIGN section 7
STREAM_TARGET_MIB = 100  # issue 27
NOVA = [sys.executable, "-m", "nova_tools.cli"]
# the child's peak resident memory, read from a wrapper's own children (Linux: KiB)
PEAK = (
    "import resource, subprocess, sys\n"
    "subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, check=True)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def _median(fn, repeats: int, clock=time.process_time) -> float:
    times = []
    for _ in range(repeats):
        start = clock()
        fn()
        times.append(clock() - start)
    return statistics.median(times)


def measure_load(path: Path, repeats: int) -> dict:
    raw = path.read_bytes()
    start = time.process_time()
    events = len(store.load(path).events)
    first = time.process_time() - start
    load_cpu, parse_cpu = [], []
    for _ in range(repeats):  # interleaved, so both see the same machine
        load_cpu.append(_median(lambda: store.load(path), 3))
        parse_cpu.append(_median(lambda: json.loads(raw), 3))
    load_s, parse_s = statistics.median(load_cpu), statistics.median(parse_cpu)
    return {
        "events": events,
        "file_bytes": len(raw),
        "load_cpu_s": load_s,
        "load_wall_s": _median(lambda: store.load(path), repeats, time.perf_counter),
        "parse_cpu_s": parse_s,
        "events_per_cpu_s": events / load_s,
        "first_load_cpu_s": first,
    }


# One worker of --against: loads the game k times for each k it reads, answers the median CPU s.
WORKER = (
    "import statistics, sys, time\n"
    "from nova_tools import store\n"
    "path = sys.argv[1]\n"
    "print(len(store.load(path).events), flush=True)\n"
    "for _ in range(10): store.load(path)\n"
    "for line in sys.stdin:\n"
    "    times = []\n"
    "    for _ in range(int(line)):\n"
    "        start = time.process_time(); store.load(path); times.append(time.process_time() - start)\n"
    "    print(statistics.median(times), flush=True)\n"
)


def measure_against(path: Path, old_tree: Path, pairs: int) -> dict:
    """store.load of ``path`` in this tree and in ``old_tree``, workers taking turns."""
    trees = {"old": old_tree.resolve(), "new": Path(__file__).resolve().parents[1]}
    workers = {
        name: subprocess.Popen(
            [sys.executable, "-c", WORKER, str(path)],
            cwd=tree,
            env={**os.environ, "PYTHONPATH": str(tree)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for name, tree in trees.items()
    }
    events = {name: int(w.stdout.readline()) for name, w in workers.items()}
    times: dict[str, list[float]] = {name: [] for name in trees}
    for i in range(pairs):
        for name in ("old", "new") if i % 2 == 0 else ("new", "old"):
            workers[name].stdin.write("3\n")
            workers[name].stdin.flush()
            times[name].append(float(workers[name].stdout.readline()))
    for worker in workers.values():
        worker.stdin.close()
        worker.wait()
    if events["old"] != events["new"]:
        raise SystemExit(f"the trees read {events['old']} and {events['new']} events")
    ratios = [new / old for old, new in zip(times["old"], times["new"], strict=True)]
    return {
        "events": events["new"],
        "pairs": pairs,
        "old_cpu_s": statistics.median(times["old"]),
        "new_cpu_s": statistics.median(times["new"]),
        "ratio": statistics.median(ratios),
        "ratio_quartiles": statistics.quantiles(ratios, n=4)[::2],
    }


def report_against(result: dict, old_tree: Path) -> str:
    old, new = result["old_cpu_s"], result["new_cpu_s"]
    low, high = result["ratio_quartiles"]
    met = "OK" if result["events"] / new >= REPLAY_TARGET else "BELOW TARGET"
    return "\n".join(
        [
            f"load average {os.getloadavg()[0]:.1f}",
            f"  store.load of a 100-round starter game ({result['events']:,} events), "
            f"{result['pairs']} alternations of 3 loads, CPU medians:",
            f"    {old_tree}: {old * 1000:.2f} ms ({result['events'] / old:,.0f} events/s)",
            f"    this tree: {new * 1000:.2f} ms ({result['events'] / new:,.0f} events/s)   "
            f"target >= {REPLAY_TARGET:,}  {met}",
            f"    this tree / {old_tree.name}: {result['ratio']:.3f} (median of the alternations; "
            f"quartiles {low:.3f}-{high:.3f})",
        ]
    )


def peak_mib(args: list[str]) -> float:
    done = subprocess.run(
        [sys.executable, "-c", PEAK, *args], capture_output=True, text=True, check=True
    )
    return int(done.stdout.split()[-1]) / 1024


def measure_stream(path: Path) -> dict:
    start = time.perf_counter()
    play = peak_mib([*NOVA, "play", "--file", str(path)])
    wall = time.perf_counter() - start
    one = peak_mib([*NOVA, "play", "--file", str(path), "--round", "0"])
    return {
        "rounds": store.load(path).state.round,
        "play_peak_mib": play,
        "play_wall_s": wall,
        "one_frame_peak_mib": one,
    }


def report(load: dict, stream: dict) -> str:
    met = "OK" if load["events_per_cpu_s"] >= REPLAY_TARGET else "BELOW TARGET"
    fits = "OK" if stream["play_peak_mib"] < STREAM_TARGET_MIB else "OVER"
    return "\n".join(
        [
            f"load average {os.getloadavg()[0]:.1f}",
            f"  store.load of a 100-round starter game ({load['events']:,} events, "
            f"{load['file_bytes'] / 1024:,.0f} KB): {load['load_cpu_s'] * 1000:.1f} ms CPU "
            f"({load['load_wall_s'] * 1000:.1f} ms wall), {load['events_per_cpu_s']:,.0f} events/s "
            f"CPU   target >= {REPLAY_TARGET:,}  {met}",
            f"    baseline json.loads of the file {load['parse_cpu_s'] * 1000:.1f} ms CPU: the load "
            f"is {load['load_cpu_s'] / load['parse_cpu_s']:.1f}x reading the JSON",
            f"    the process's first load (nothing kept yet) {load['first_load_cpu_s'] * 1000:.1f} ms CPU",
            f"  nova play of a {stream['rounds']:,}-round game into a pipe: peak "
            f"{stream['play_peak_mib']:.0f} MiB ({stream['play_wall_s']:.1f} s wall)   target < "
            f"{STREAM_TARGET_MIB} MiB  {fits}",
            f"    baseline nova play --round 0 of the same file (loads and replays it all, draws one "
            f"frame): peak {stream['one_frame_peak_mib']:.0f} MiB (the whole game is "
            f"{stream['play_peak_mib'] / stream['one_frame_peak_mib']:.2f}x it)",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench replay")
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--long-rounds", type=int, default=3000)
    parser.add_argument("--against", type=Path, help="an older checkout: alternate loads with it")
    parser.add_argument("--pairs", type=int, default=60)
    args = parser.parse_args(
        argv if argv is not None else sys.argv[1:] if __name__ == "__main__" else []
    )
    if args.against is not None:
        with tempfile.TemporaryDirectory() as tmp:
            short = record_starter_game(Path(tmp), 100)
            result = measure_against(short, args.against, args.pairs)
            print(report_against(result, args.against), flush=True)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "short").mkdir()
        (Path(tmp) / "long").mkdir()
        short = record_starter_game(Path(tmp) / "short", 100)
        long = record_starter_game(Path(tmp) / "long", args.long_rounds)
        print(report(measure_load(short, args.repeats), measure_stream(long)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
