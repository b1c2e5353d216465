"""Is the starter worth beating? `nova compare` of the shipped starter against the androids kept
in bench/androids: today's starter before issue 14 (`starter-v1`) and a raider that salvages
other players' extractors and chargers (`raider`). The figures in nova_tools/starter/README.md
come from this command:

    python -m bench.starter_compare                              # both, 20 seeds x 2 seats, 100 rounds
    python -m bench.starter_compare --rounds 400 --seeds 1-5     # longer games
    python -m bench.starter_compare --against raider --json      # one opponent, nova compare's JSON

Every other option goes to `nova compare` as it is (--seeds, --rounds, --rules, --jobs, --out):
rotational maps, each seed once in each seat order, the final round announced to the scripts.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STARTER = ROOT / "nova_tools" / "starter" / "src" / "main.ts"
ANDROIDS = Path(__file__).resolve().parent / "androids"
OPPONENTS = ("starter-v1", "raider")


def compare(opponent: str, options: list[str], as_json: bool) -> tuple[int, str]:
    """One `nova compare` of the starter against a bench android: (exit code, its output)."""
    entry = ANDROIDS / opponent / "main.ts"
    command = [sys.executable, "-m", "nova_tools.cli", "compare", str(STARTER), str(entry), *options]
    if as_json:
        command.append("--json")
    ran = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    return ran.returncode, ran.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", action="append", choices=OPPONENTS, help="the opponent (default: both)")
    parser.add_argument("--json", action="store_true", help="one JSON object: nova compare's JSON for each opponent")
    args, options = parser.parse_known_args(argv)
    reports = {}
    for opponent in args.against or OPPONENTS:
        code, out = compare(opponent, options, args.json)
        if code != 0:
            return code  # nova compare said what went wrong, in one sentence on stderr
        if args.json:
            reports[opponent] = json.loads(out)
        else:
            print(out, flush=True)
    if args.json:
        print(json.dumps(reports, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
