"""Is the starter worth beating? Plays two androids against each other over many seeds, once in
each seat order, and prints wins, mean scores (overall and per seat) and failed turns.

    python -m bench.starter_compare starter starter-v1            # 20 seeds x 2 seats, 100 rounds
    python -m bench.starter_compare starter raider --rounds 400 --seeds 1-5
    python -m bench.starter_compare starter raider --final-round 100 --json

An android is named by a folder under ``bench/androids/`` (``starter-v1``: the starter as it was
before issue 14; ``raider``: an attacker that salvages other players' extractors and chargers),
``starter`` (the shipped one, ``nova_tools/starter/src``), or a path to a ``main.ts``.

Each game is one world from its seed, both players joining in seat order with one android on their
initial charger, played in-process through the engine and the sandbox (no game files, scripts
compiled once). ``--jobs`` spreads the games over processes; results do not depend on it.
Until ``nova compare`` (issue 11) lands this is the comparison the starter's README quotes.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ANDROIDS = Path(__file__).resolve().parent / "androids"


def entry_of(name: str) -> Path:
    if name == "starter":
        return ROOT / "nova_tools" / "starter" / "src" / "main.ts"
    if (ANDROIDS / name / "main.ts").is_file():
        return ANDROIDS / name / "main.ts"
    path = Path(name)
    if path.is_dir():
        path = path / "main.ts"
    if not path.is_file():
        raise SystemExit(f"no android named {name!r}: give a folder of bench/androids, 'starter', or a main.ts")
    return path


def parse_seeds(text: str) -> list[int]:
    seeds: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        seeds += range(int(low), int(high or low) + 1)
    return seeds


def player_id(name: str, taken: str = "") -> str:
    """A player id from how the android was named on the command line (``raider``, ``bot/main.ts``)."""
    path = Path(name)
    stem = path.parent.name if path.name == "main.ts" else path.stem
    base = "".join(c if c.isalnum() or c in "-_." else "-" for c in stem) or "p"
    return base + "-2" if base == taken else base


_BUNDLES: dict[str, str] = {}


def _bundle(entry: str) -> str:
    if entry not in _BUNDLES:
        from nova_tools.toolchain import compile_android

        _BUNDLES[entry] = compile_android(entry).bundle
    return _BUNDLES[entry]


def play(job: tuple) -> dict:
    """One game: ``(seed, rounds, rules_json, [(player, entry), ...] in seat order)``."""
    seed, rounds, rules_json, seats = job
    from nova_tools import engine
    from nova_tools.play import ScriptRunner
    from nova_tools.rules import resolve

    rules = resolve(rules_json)
    state = engine.generate(rules, seed)
    bundles = {}
    for player, entry in seats:
        engine.join(state, player)
        script = engine.add_script(state, player, player)["script"]
        bundles[script] = _bundle(entry)
        engine.launch(state, player, script)
    runner = ScriptRunner(rules, bundles)
    failed: Counter = Counter()
    ticks = Counter()
    turns = Counter()
    owner = {}
    for _ in range(rounds):
        for event in engine.play_round(state, runner.decide):
            if event["type"] != "turn":
                continue
            who = owner.get(event["android"]) or state.androids[event["android"]].owner
            owner[event["android"]] = who
            turns[who] += 1
            ticks[who] = max(ticks[who], event.get("ticks", 0))
            if event["outcome"] != "accepted":
                failed[(who, event.get("code", event["outcome"]))] += 1
    points = {s.player: s.points for s in engine.scores(state)}
    return {
        "seed": seed,
        "seats": [p for p, _ in seats],
        "scores": [points[p] for p, _ in seats],
        "failed": {f"{p}:{code}": n for (p, code), n in sorted(failed.items())},
        "maxTicks": {p: ticks[p] for p, _ in seats},
        "extractors": {p: sum(1 for b in state.buildings.values() if b.owner == p and b.type == "extractor" and b.complete) for p, _ in seats},
    }


def summarize(a: str, b: str, results: list[dict]) -> dict:
    out = {"games": len(results), "draws": 0, "scripts": []}
    for name in (a, b):
        mine = [r["scores"][r["seats"].index(name)] for r in results]
        other = [r["scores"][1 - r["seats"].index(name)] for r in results]
        by_seat = {
            seat: [r["scores"][seat] for r in results if r["seats"][seat] == name] for seat in (0, 1)
        }
        out["scripts"].append(
            {
                "name": name,
                "wins": sum(1 for x, y in zip(mine, other) if x > y),
                "meanScore": round(statistics.fmean(mine), 1),
                "meanScoreSeat1": round(statistics.fmean(by_seat[0]), 1) if by_seat[0] else None,
                "meanScoreSeat2": round(statistics.fmean(by_seat[1]), 1) if by_seat[1] else None,
                "winsSeat1": sum(1 for r in results if r["seats"][0] == name and r["scores"][0] > r["scores"][1]),
                "winsSeat2": sum(1 for r in results if r["seats"][1] == name and r["scores"][1] > r["scores"][0]),
                "failedTurns": sum(n for r in results for k, n in r["failed"].items() if k.startswith(name + ":")),
                "maxTicks": max(r["maxTicks"][name] for r in results),
            }
        )
    out["draws"] = sum(1 for r in results if r["scores"][0] == r["scores"][1])
    diffs = [r["scores"][r["seats"].index(a)] - r["scores"][r["seats"].index(b)] for r in results]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else float("nan")
    out["meanDifference"] = {"value": round(mean, 1), "ci95": [round(mean - half, 1), round(mean + half, 1)]}
    out["results"] = results
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="the android to measure (e.g. starter)")
    parser.add_argument("b", help="its opponent (e.g. starter-v1, raider)")
    parser.add_argument("--seeds", default="1-20", help="seeds, e.g. 1-20 or 1,3,7 (default 1-20)")
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--final-round", type=int, default=None, help="give the games an arrival date (rules.match.finalRound)")
    parser.add_argument("--rules", default=None, help="a rules JSON file (default: the shipped rules)")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--json", action="store_true", help="print the summary and every game as JSON")
    args = parser.parse_args(argv)

    rules_json: dict = json.loads(Path(args.rules).read_text()) if args.rules else {}
    if args.final_round is not None:
        rules_json.setdefault("match", {})["finalRound"] = args.final_round
    ea, eb = entry_of(args.a), entry_of(args.b)
    pa = player_id(args.a)
    pb = player_id(args.b, taken=pa)
    from nova_tools.toolchain import CompileError

    for entry in (ea, eb):
        try:
            _bundle(str(entry))
        except CompileError as error:
            raise SystemExit(str(error)) from None
    jobs = []
    for seed in parse_seeds(args.seeds):
        jobs.append((seed, args.rounds, rules_json, [(pa, str(ea)), (pb, str(eb))]))
        jobs.append((seed, args.rounds, rules_json, [(pb, str(eb)), (pa, str(ea))]))
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(play, jobs))
    else:
        results = [play(job) for job in jobs]
    elapsed = time.perf_counter() - start
    summary = summarize(pa, pb, results)
    if args.json:
        print(json.dumps(summary, indent=1))
        return 0
    print(f"{pa} vs {pb}: {len(results)} games ({len(results) // 2} seeds x 2 seat orders), {args.rounds} rounds"
          f"{f', finalTurn {args.final_round}' if args.final_round else ''}, {elapsed:.0f} s")
    print(f"{'android':<14}{'wins':>6}{'mean':>8}{'seat 1':>14}{'seat 2':>14}{'failed':>8}{'ticks':>7}")
    for s in summary["scripts"]:
        print(
            f"{s['name']:<14}{s['wins']:>6}{s['meanScore']:>8}"
            f"{s['meanScoreSeat1']:>8} ({s['winsSeat1']:>2}w){s['meanScoreSeat2']:>8} ({s['winsSeat2']:>2}w)"
            f"{s['failedTurns']:>8}{s['maxTicks']:>7}"
        )
    d = summary["meanDifference"]
    print(f"draws {summary['draws']}; mean difference {pa} - {pb}: {d['value']} (95% CI {d['ci95'][0]} .. {d['ci95'][1]})")
    for r in results:
        print(f"  seed {r['seed']:>3} {r['seats'][0]:>12} {r['scores'][0]:>7} - {r['scores'][1]:<7} {r['seats'][1]:<12}"
              f" extractors {r['extractors'][r['seats'][0]]}-{r['extractors'][r['seats'][1]]}"
              f"{'  failed ' + json.dumps(r['failed']) if r['failed'] else ''}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
