"""The layers of DESIGN section 1 hold: `lint-imports` checks the import-linter contracts of
pyproject.toml (front ends over services over the game loop over persistence over the core; a
front end never imports engine, store, play or sandbox). And the check is live: a copy of the
code where a front end imports the engine, or the engine imports the api, fails it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from nova_testing import REPO

LINT = Path(sys.executable).with_name("lint-imports")


def lint(root: Path) -> subprocess.CompletedProcess:
    """`lint-imports` on the ``nova_tools`` package found first on the path from ``root``."""
    env = {**os.environ, "PYTHONPATH": str(root), "NO_COLOR": "1"}
    return subprocess.run(
        [str(LINT), "--no-cache", "--config", str(root / "pyproject.toml")],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_code_keeps_the_layers() -> None:
    run = lint(REPO)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "3 kept, 0 broken" in run.stdout


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    shutil.copytree(
        REPO / "nova_tools",
        tmp_path / "nova_tools",
        ignore=shutil.ignore_patterns("__pycache__", "*.wasm", "*.d.ts"),
    )
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def _add_import(module: Path, line: str) -> None:
    text = module.read_text(encoding="utf-8")
    head, rest = text.split("from __future__ import annotations\n", 1)
    module.write_text(
        f"{head}from __future__ import annotations\n\n{line}\n{rest}", encoding="utf-8"
    )


def test_a_front_end_that_imports_the_engine_breaks_the_contract(copy: Path) -> None:
    _add_import(
        copy / "nova_tools" / "cli" / "output.py", "from .. import engine  # reaching past api"
    )
    run = lint(copy)
    assert run.returncode == 1, run.stdout
    assert "front ends call api" in run.stdout and "BROKEN" in run.stdout
    assert "nova_tools.cli.output -> nova_tools.engine" in run.stdout


def test_the_engine_importing_a_service_breaks_the_layers(copy: Path) -> None:
    _add_import(
        copy / "nova_tools" / "engine" / "scoring.py",
        "from ..api import status  # an upward import",
    )
    run = lint(copy)
    assert run.returncode == 1, run.stdout
    assert "front ends over services" in run.stdout and "BROKEN" in run.stdout
    assert "nova_tools.engine.scoring -> nova_tools.api" in run.stdout


def test_every_part_of_nova_tools_has_a_layer() -> None:
    """A new package (the lab, say) must be placed in the layers, or the contract says nothing of it."""
    import pkgutil
    import tomllib

    import nova_tools

    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "importlinter"
    ]
    [layers] = [c["layers"] for c in config["contracts"] if c["type"] == "layers"]
    placed = {name.strip() for layer in layers for name in layer.replace(":", "|").split("|")}
    parts = {f"nova_tools.{m.name}" for m in pkgutil.iter_modules(nova_tools.__path__)}
    assert parts - placed == set(), (
        f"place these in the layers of pyproject.toml: {sorted(parts - placed)}"
    )
