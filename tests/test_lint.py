"""`make lint` (ruff check, ruff format --check, mypy; part of `make test`) passes on the tree, and
it can fail: in a copy of the package, a planted unused import and a planted type error each make
the same `make lint` exit non-zero, naming the file and the rule."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from nova_testing import REPO

BIN = Path(sys.executable).parent


def make_lint(root: Path) -> subprocess.CompletedProcess[str]:
    """The Makefile's `lint` target in ``root``, with this environment's tools (setup not redone)."""
    return subprocess.run(
        ["make", "--no-print-directory", "-o", "setup", "lint", f"BIN={BIN}"],
        cwd=root,
        env={**os.environ, "NO_COLOR": "1", "MYPY_CACHE_DIR": str(root / ".mypy_cache")},
        capture_output=True,
        text=True,
        timeout=540,
    )


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    shutil.copytree(
        REPO / "nova_tools",
        tmp_path / "nova_tools",
        ignore=shutil.ignore_patterns("__pycache__", "*.wasm", "static", "web"),
    )
    for name in ("pyproject.toml", "Makefile"):
        shutil.copy(REPO / name, tmp_path / name)
    return tmp_path


def _plant(module: Path, old: str, new: str) -> None:
    text = module.read_text(encoding="utf-8")
    assert old in text, f"{module} no longer holds the line to plant beside: update the test"
    module.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_tree_passes_make_lint() -> None:
    run = make_lint(REPO)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "All checks passed!" in run.stdout and "Success: no issues found" in run.stdout


def test_a_planted_unused_import_fails_make_lint(copy: Path) -> None:
    _plant(
        copy / "nova_tools" / "limits.py",
        "import re\n",
        "import os  # planted: never used\nimport re\n",
    )
    run = make_lint(copy)
    assert run.returncode != 0, run.stdout
    assert "F401" in run.stdout and "nova_tools/limits.py" in run.stdout, run.stdout


def test_a_planted_type_error_fails_make_lint(copy: Path) -> None:
    # clip() gives back the length instead of the text when it is short: formatted and clean for
    # ruff, so only the type checker can see it
    _plant(
        copy / "nova_tools" / "engine" / "text.py",
        'return text if len(text) <= limit else text[:limit] + "..."',
        'return len(text) if len(text) <= limit else text[:limit] + "..."',
    )
    run = make_lint(copy)
    assert run.returncode != 0, run.stdout
    assert "All checks passed!" in run.stdout, "ruff should pass: the error is a type error"
    assert "nova_tools/engine/text.py" in run.stdout and "[return-value]" in run.stdout
