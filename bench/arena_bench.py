"""`nova compare` against the shell loop it replaces, in the same run.

    .venv/bin/python -m bench arena            (or: python -m bench.arena_bench [SEEDS] [CLI_GAMES])

The measure: `nova compare STARTER STARTER --seeds 1-20 --rounds 100 --jobs 2`, 40 games, wall
time of the real command (start-up, compiling, worker start, every game). The baseline, measured
in the same run: the same games played through the CLI as a player did before `nova compare`
existed (create-game, two uploads, two launches, run --rounds 100, one game after another), on a
sample of CLI_GAMES games whose time is extrapolated to the 40 (the sample's scores are checked
against the comparison's: they are the same games). DESIGN section 7: under 30 s with --jobs 2 on
the 2-core machine; the shell loop took 98-187 s.

Both also report their CPU time (the command's and its workers'), which other jobs on a shared
machine inflate far less than wall time: half of the comparison's CPU time is what its wall time
would be with both cores free.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
STARTER = REPO / "nova_tools" / "starter" / "src" / "main.ts"
ROUNDS = 100


def children_cpu() -> float:
    """CPU seconds (user + system) of every finished child process so far, their own children
    included: ``nova compare`` and the pool workers it waited for."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def nova(*args: object) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "nova_tools.cli", *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"nova {args[0]} failed: {done.stderr.strip()}")
    return done.stdout


def cli_game(folder: Path, rules: Path, seed: int, index: int) -> tuple[float, list[float]]:
    """One game the way a shell loop plays it; (seconds, scores in seat order)."""
    game = folder / f"game-{index}.json"
    start = time.perf_counter()
    nova("create-game", "--file", game, "--rules", rules, "--seed", seed, "--force")
    for player in ("p1", "p2"):
        script = json.loads(nova("upload", "--file", game, "--player", player, STARTER, "--json"))[
            "scriptId"
        ]
        nova("launch", "--file", game, "--player", player, "--script", script)
    nova("run", "--file", game, "--rounds", ROUNDS, "--json")
    status = json.loads(nova("status", "--file", game, "--json"))
    return time.perf_counter() - start, [p["score"] for p in status["players"]]


def main(seeds: int = 20, cli_games: int = 4) -> None:
    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores; figures are noisy above ~1)")
    start, cpu_start = time.perf_counter(), children_cpu()
    report = json.loads(
        nova(
            "compare",
            STARTER,
            STARTER,
            "--seeds",
            f"1-{seeds}",
            "--rounds",
            ROUNDS,
            "--jobs",
            2,
            "--json",
        )
    )
    compare_seconds = time.perf_counter() - start
    compare_cpu = children_cpu() - cpu_start
    games = report["games"]
    timing = report["timing"]
    print(
        f"nova compare, {games} games x {ROUNDS} rounds, --jobs 2: {compare_seconds:.1f} s wall "
        f"(games {timing['seconds']:.1f} s; median game {timing['gameSecondsMedian']:.2f} s on one worker)"
    )
    # What the command itself needs, whatever else runs: its CPU time and that of its workers. With
    # both cores to itself it could not finish faster than half of it (two workers in parallel).
    print(
        f"  its CPU time, workers included: {compare_cpu:.1f} s; on 2 free cores at least {compare_cpu / 2:.1f} s wall "
        f"(wall / that bound: {compare_seconds / (compare_cpu / 2):.1f}x, the share other jobs took)"
    )

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rules = folder / "rules.json"
        rules.write_text(
            json.dumps({"world": {"symmetry": "rotational"}, "match": {"finalRound": ROUNDS}})
        )
        times = []
        cli_cpu_start = children_cpu()
        for index, result in enumerate(report["results"][:cli_games]):
            seconds, scores = cli_game(folder, rules, result["seed"], index)
            if (
                scores != result["scores"]
            ):  # both seats run the starter, so seat order does not change the game
                raise SystemExit(
                    f"the CLI game of seed {result['seed']} scored {scores}, nova compare {result['scores']}"
                )
            times.append(seconds)
        cli_cpu = (children_cpu() - cli_cpu_start) / len(times) * games
    per_game = statistics.median(times)
    loop = per_game * games
    print(
        f"the same games through the CLI, one after another: median {per_game:.2f} s a game over {len(times)} games "
        f"(scores identical), {loop:.0f} s for {games} extrapolated"
    )
    print(f"  their CPU time: {cli_cpu:.0f} s for {games} extrapolated")
    print(
        f"ratio: nova compare --jobs 2 takes {compare_seconds / loop:.2f}x the shell loop's time ({loop / compare_seconds:.1f}x faster); "
        f"CPU time {compare_cpu / cli_cpu:.2f}x"
    )
    print(
        f"target: under 30 s -> {'met' if compare_seconds < 30 else 'NOT met'} ({compare_seconds:.1f} s)"
    )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main(*map(int, sys.argv[1:]))
