"""Is the starter worth beating? `nova compare` of the shipped starter against the androids kept
in bench/androids: today's starter before issue 14 (`starter-v1`) and a raider that salvages
other players' extractors and chargers (`raider`). The figures in nova_tools/starter/README.md
come from this command:

    python -m bench.starter_compare                              # against both, 20 seeds x 2 seats, 100 rounds
    python -m bench.starter_compare starter raider               # one pair
    python -m bench.starter_compare starter starter-v1 --rounds 400 --seeds 1-5
    python -m bench.starter_compare path/to/your/main.ts starter # your android against the starter
    python -m bench.starter_compare --against raider --json      # one opponent, nova compare's JSON

A script is `starter` (nova_tools/starter/src/main.ts), the name of a folder in bench/androids,
or a path to a .ts entry file. The other options go to `nova compare` as they are (--seeds,
--rounds, --rules, --jobs, --out): rotational maps, each seed once in each seat order, the final
round announced to the scripts (`finalTurn`).
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
PASSED_ON = (
    "--seeds",
    "--rounds",
    "--rules",
    "--jobs",
    "--out",
)  # nova compare's own options, with a value


def entry(name: str) -> Path:
    """The entry file a script name stands for: the starter, a bench android, or a path as given."""
    if name == "starter":
        return STARTER
    if (ANDROIDS / name / "main.ts").is_file():
        return ANDROIDS / name / "main.ts"
    return Path(name)


def compare(a: str, b: str, options: list[str], as_json: bool) -> tuple[int, str]:
    """One `nova compare` of ``a`` against ``b``: (exit code, its output)."""
    command = [
        sys.executable,
        "-m",
        "nova_tools.cli",
        "compare",
        str(entry(a)),
        str(entry(b)),
        *options,
    ]
    if as_json:
        command.append("--json")
    ran = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    return ran.returncode, ran.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "scripts",
        nargs="*",
        metavar="SCRIPT",
        help="A B: compare these two (default: the starter against each bench android)",
    )
    parser.add_argument(
        "--against",
        action="append",
        choices=OPPONENTS,
        help="the starter's opponent (default: both)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object: nova compare's JSON for each pair, keyed by the opponent",
    )
    for option in PASSED_ON:
        parser.add_argument(option, help=f"passed on to nova compare {option}")
    parser.add_argument("-j", dest="jobs", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.scripts and (len(args.scripts) != 2 or args.against):
        parser.error("give two scripts (A B), or none and --against")
    options = [
        part
        for option in PASSED_ON
        if (value := getattr(args, option[2:])) is not None
        for part in (option, value)
    ]
    pairs = (
        [tuple(args.scripts)]
        if args.scripts
        else [("starter", opponent) for opponent in args.against or OPPONENTS]
    )
    reports = {}
    for a, b in pairs:
        code, out = compare(a, b, options, args.json)
        if code != 0:
            return code  # nova compare said what went wrong, in one sentence on stderr
        if args.json:
            reports[b] = json.loads(out)
        else:
            print(out, flush=True)
    if args.json:
        print(json.dumps(reports, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
