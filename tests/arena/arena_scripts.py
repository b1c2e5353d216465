"""The scripts the arena tests play, and helpers to read reports."""

from __future__ import annotations

from pathlib import Path

from nova_testing import REPO

STARTER = REPO / "nova_tools" / "starter" / "src" / "main.ts"
ANDROIDS = Path(__file__).resolve().parent / "androids"
HOARDER = ANDROIDS / "hoarder.ts"  # banks loose metal in a depot at once, and nothing else
STARTER_V1 = REPO / "bench" / "androids" / "starter-v1" / "main.ts"  # the starter before issue 14
THROWER = ANDROIDS / "thrower.ts"  # throws every turn


def without_timing(report: dict) -> dict:
    """A report without what may differ between two runs of the same games."""
    return {k: v for k, v in report.items() if k != "timing"}
