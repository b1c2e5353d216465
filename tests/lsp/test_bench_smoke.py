"""The LSP benchmark still runs (a smoke test with two repeats; nothing here is timed)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench import lsp_bench


def test_the_lsp_benchmark_runs(capsys):
    lsp_bench.main(["--repeats", "2"])
    out = capsys.readouterr().out
    for measure in (
        "edit -> diagnostics (push",
        "edit -> diagnostics (pull)",
        "hover",
        "dry-run",
        "first dry-run after start",
    ):
        assert measure in out
