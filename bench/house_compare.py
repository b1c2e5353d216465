"""How strong are the house androids? `nova compare` of each against the one below it and
against the starter, and of the strongest against the androids kept in bench/androids, 20 seeds x
2 seat orders (rotational maps, the final round announced as `finalTurn`); plus the starter's
20-round games against a script that throws every turn. The figures in
nova_tools/starter/house/README.md come from this command:

    python -m bench.house_compare                      # every check, 20 seeds x 2 seats
    python -m bench.house_compare --seeds 1-6          # a quicker look while developing
    python -m bench.house_compare --only champion      # the checks naming one android
    python -m bench.house_compare --json               # one JSON object per check, a line each

A script is `house:NAME`, the name of a folder in bench/androids (`previous-starter`, the starter
before issue 23; `extractors-first`, that starter with its build order changed in one line;
`raider`, a newcomer's raider; `wise-raider`, that raider with two conditions added so that it
skips unpaid construction sites, the champion's decoys), `thrower`
(tests/arena/androids/thrower.ts) or a path.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ANDROIDS = Path(__file__).resolve().parent / "androids"
THROWER = ROOT / "tests" / "arena" / "androids" / "thrower.ts"

#: (A, B, rounds): A is expected to score more than B.
CHECKS: tuple[tuple[str, str, int], ...] = (
    ("house:starter", "previous-starter", 100),
    ("house:raider", "house:starter", 100),
    ("house:marauder", "house:raider", 100),
    ("house:marauder", "house:starter", 100),
    ("house:champion", "house:marauder", 100),
    ("house:champion", "house:starter", 100),
    ("house:champion", "previous-starter", 100),
    ("house:champion", "raider", 100),
    ("house:champion", "wise-raider", 100),
    ("house:champion", "extractors-first", 100),
    ("house:starter", "thrower", 20),
    ("previous-starter", "thrower", 20),
)


def script(name: str) -> str:
    if name.startswith("house:"):
        return name
    if name == "thrower":
        return str(THROWER)
    if (ANDROIDS / name / "main.ts").is_file():
        return str(ANDROIDS / name / "main.ts")
    return name


def compare(a: str, b: str, rounds: int, seeds: str, jobs: int) -> dict:
    command = [sys.executable, "-m", "nova_tools.cli", "compare", script(a), script(b)]
    command += ["--seeds", seeds, "--rounds", str(rounds), "--jobs", str(jobs), "--json"]
    ran = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(ran.stdout)


def summary(a: str, b: str, rounds: int, report: dict, seconds: float) -> dict:
    first, second = report["scripts"]
    # a's points in each game, and the initial charger's points (what a player starts with)
    mine = [r["scores"][0 if r["seats"][0] == first["name"] else 1] for r in report["results"]]
    diff = report.get("difference") or {}
    return {
        "a": a,
        "b": b,
        "rounds": rounds,
        "games": report["games"],
        "wins": [first["wins"], second["wins"]],
        "draws": report["draws"],
        "meanScore": [first["meanScore"], second["meanScore"]],
        "difference": [diff.get("mean"), diff.get("low"), diff.get("high")],
        "verdict": report["verdict"],
        "aAbove4": sum(1 for s in mine if s > 4),
        "seconds": round(seconds, 1),
    }


def row(s: dict) -> str:
    mean, low, high = s["difference"]
    interval = "-" if low is None else f"{mean:+.1f} ({low:+.1f} .. {high:+.1f})"
    return (
        f"| {s['a']} vs {s['b']} | {s['rounds']} | {s['games']} | {s['wins'][0]} - {s['wins'][1]}"
        f" ({s['draws']} draws) | {s['meanScore'][0]:.1f} - {s['meanScore'][1]:.1f} | {interval}"
        f" | {s['verdict']} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1-20")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", help="only the checks naming this android (house:NAME or NAME)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    checks = [
        c
        for c in CHECKS
        if not args.only or any(args.only in (n, n.removeprefix("house:")) for n in c[:2])
    ]
    if not args.json:
        print(
            "| A vs B | rounds | games | wins A - B | mean score A - B | A - B (95% interval) | verdict |"
        )
        print("|---|---|---|---|---|---|---|")
    for a, b, rounds in checks:
        started = time.monotonic()
        s = summary(a, b, rounds, compare(a, b, rounds, args.seeds, args.jobs), 0)
        s["seconds"] = round(time.monotonic() - started, 1)
        print(json.dumps(s) if args.json else row(s), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
