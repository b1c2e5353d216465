"""Sandbox test fixtures: one Sandbox per test module, and ``run`` for one turn with the test world.

Also makes the shared helpers (sandbox_cases.py) importable under pytest's importlib mode.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from nova_tools.sandbox import Budgets, Sandbox, TurnResult

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from sandbox_cases import Run, globals_json  # noqa: E402


@pytest.fixture(scope="module")
def sandbox() -> Sandbox:
    return Sandbox()


@pytest.fixture(scope="module")
def run(sandbox: Sandbox) -> Run:
    """``run(source, budgets=..., seed=..., **globals)``: one turn of ``source`` with the test world."""

    def run(
        source: str, budgets: Budgets | None = None, seed: int = 7, **overrides: object
    ) -> TurnResult:
        return sandbox.run_turn(source, globals_json(**overrides), budgets or Budgets(), seed)

    return run
