"""The starter android type-checks, bundles, reads its numbers from `rules`, and scaffolds into a
project that checks on its own. How it plays is pinned in tests/starter/."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from nova_tools import starter
from nova_tools.rules import Rules
from nova_tools.rules.loading import load as load_rules
from nova_tools.toolchain import compile_sources, typecheck_project, typings_path
from nova_tools.toolchain.typecheck import COMPILER_OPTIONS

STARTER = Path(starter.__file__).resolve().parent


def test_starter_type_checks_and_bundles():
    files = starter.files()
    assert next(iter(files)) == starter.ENTRY and len(files) >= 4
    script = compile_sources(files, starter.ENTRY)
    assert script.warnings == ()
    assert "as default" in script.bundle


def test_starter_project_checks_with_its_own_tsconfig():
    assert typecheck_project(STARTER / "tsconfig.json") == []
    config = json.loads((STARTER / "tsconfig.json").read_text())
    assert config["compilerOptions"] == COMPILER_OPTIONS, (
        "keep the starter's tsconfig in step with COMPILER_OPTIONS"
    )


def test_starter_reads_rulebook_numbers_from_rules():
    # Shipped defaults a script must read from `rules`, never write down.
    forbidden = ["12", "25", "100", "4096", "16384", "0.15", "0.75", "1.5", "256"]
    for name, text in starter.files().items():
        code = re.sub(r"//.*|/\*.*?\*/|'[^']*'", "", text, flags=re.S)
        for number in forbidden:
            assert not re.search(rf"(?<![\w.]){re.escape(number)}(?![\w.])", code), (
                f"{name} hard-codes {number}"
            )


def test_scaffold_makes_a_project_that_checks_on_its_own(tmp_path: Path):
    target = tmp_path / "my-bot"
    written = starter.scaffold(target)
    names = sorted(str(p.relative_to(target)) for p in written)
    assert names == sorted(
        [
            "README.md",
            "nova.d.ts",
            "rules.json",
            "tsconfig.json",
            *(f"src/{n}" for n in starter.files()),
        ]
    )
    assert (target / "nova.d.ts").read_text() == typings_path().read_text()
    config = json.loads((target / "tsconfig.json").read_text())
    assert config["files"] == ["nova.d.ts"] and config["include"] == ["src/**/*.ts"]
    assert typecheck_project(target) == []
    assert load_rules(target / "rules.json") == Rules()  # a valid rules file: the defaults


def test_scaffold_refuses_a_non_empty_folder(tmp_path: Path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(starter.ScaffoldError, match="is not empty"):
        starter.scaffold(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]
    (tmp_path / "file").write_text("")
    with pytest.raises(starter.ScaffoldError, match="not a folder"):
        starter.scaffold(tmp_path / "file")


def test_scaffold_into_an_empty_folder(tmp_path: Path):
    assert starter.scaffold(tmp_path)  # exists but empty: fine
