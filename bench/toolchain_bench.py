"""Toolchain benchmark: what an upload costs (type check + bundle of the starter android).

    .venv/bin/python bench/toolchain_bench.py [--runs N]

DESIGN section 7 target: an upload (type-check + bundle) under 0.5 s. Reports medians over N runs
of each step, from disk and from memory (the language server and MCP server compile unsaved
buffers), and the upload median as a fraction of the target. A ratio, never a timed unit test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repo importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nova_tools import starter
from nova_tools.toolchain.bundle import bundle_file, bundle_sources
from nova_tools.toolchain.compile import compile_android, compile_sources
from nova_tools.toolchain.typecheck import typecheck_file, typecheck_sources

TARGET_S = 0.5


def _median(fn, runs: int) -> float:
    fn()  # warm the file cache
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args([] if argv is None and __name__ != "__main__" else argv)

    files = starter.files()
    with tempfile.TemporaryDirectory(prefix="nova-bench-") as tmp:
        entry = Path(starter.scaffold(Path(tmp) / "bot")[0]).parent / starter.ENTRY
        steps = {
            "type check (disk)": lambda: typecheck_file(entry),
            "bundle (disk)": lambda: bundle_file(entry),
            "upload = check + bundle (disk)": lambda: compile_android(entry),
            "type check (memory)": lambda: typecheck_sources(files, starter.ENTRY),
            "bundle (memory)": lambda: bundle_sources(files, starter.ENTRY),
            "upload = check + bundle (memory)": lambda: compile_sources(files, starter.ENTRY),
        }
        results = {name: _median(fn, args.runs) for name, fn in steps.items()}

    lines = sum(text.count("\n") for text in files.values())
    print(
        f"starter android: {len(files)} files, {lines} lines; medians over {args.runs} runs, in this process "
        "(the `nova upload` command's wall time, start-up and game file included, is in user_bench)"
    )
    for name, seconds in results.items():
        print(f"  {name:34s} {seconds * 1000:7.1f} ms")
    for where in ("disk", "memory"):
        upload = results[f"upload = check + bundle ({where})"]
        print(
            f"  upload from {where}: {upload / TARGET_S:.2f} x the {TARGET_S:g} s target "
            f"({'within' if upload < TARGET_S else 'OVER'} target)"
        )
    return results


if __name__ == "__main__":
    main(sys.argv[1:])
