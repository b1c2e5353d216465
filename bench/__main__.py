"""Run every benchmark in turn: `python -m bench [NAME ...]` (names: engine, sandbox, native, wasm, turn,
toolchain, lsp, arena, user, replay, lab, calibration, load). Each reports medians, and ratios against a baseline measured in the same run."""

from __future__ import annotations

import importlib
import sys
import time

ORDER = (
    "engine",
    "sandbox",
    "native",
    "wasm",
    "turn",
    "toolchain",
    "lsp",
    "arena",
    "user",
    "replay",
    "lab",
    "calibration",
    "load",
)


def main(argv: list[str]) -> int:
    names = argv or list(ORDER)
    for name in names:
        module = importlib.import_module(f"bench.{name}_bench")
        print(f"\n=== {name} ===", flush=True)
        start = time.perf_counter()
        module.main()
        print(f"({name}: {time.perf_counter() - start:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
