"""The suite's own rules: in CI a skipped test fails (tests/conftest.py), locally it skips."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

NEEDS_A_MISSING_TOOL = """
import shutil
import pytest

def test_uses_a_tool():
    if shutil.which("no-such-tool-for-nova") is None:
        pytest.skip("no-such-tool-for-nova is not installed")

def test_plain():
    assert True

@pytest.mark.xfail(reason="a known bug, not a missing tool", strict=True)
def test_known_bug():
    assert False
"""

SKIPS_THE_WHOLE_MODULE = """
import pytest
pytest.importorskip("no_such_module_for_nova")

def test_never_runs():
    pass
"""


@pytest.fixture
def suite(tmp_path) -> Path:
    shutil.copy(HERE / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_tool.py").write_text(NEEDS_A_MISSING_TOOL)
    (tmp_path / "test_module.py").write_text(SKIPS_THE_WHOLE_MODULE)
    return tmp_path


def run_pytest(folder: Path, ci: str | None, *paths: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(folder),
            *paths,
        ],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_missing_tool_is_a_skip_on_a_developers_machine(suite):
    result = run_pytest(suite, None, "test_tool.py", "test_module.py")

    assert result.returncode == 0, result.stdout
    assert "1 passed, 2 skipped, 1 xfailed" in result.stdout


@pytest.mark.parametrize("ci", ["true", "1"])
def test_a_missing_tool_fails_in_ci_and_names_what_was_missing(suite, ci):
    result = run_pytest(suite, ci, "test_tool.py")

    assert result.returncode == 1, result.stdout
    assert "1 failed, 1 passed, 1 xfailed" in result.stdout
    assert "skipped in CI: no-such-tool-for-nova is not installed" in result.stdout
    assert "must be installed by `make test`" in result.stdout


def test_a_module_skipped_for_a_missing_import_fails_in_ci(suite):
    result = run_pytest(suite, "true", "test_module.py")

    assert result.returncode != 0, result.stdout
    assert (
        "ERROR test_module.py - skipped in CI: could not import 'no_such_module_for_nova'"
        in result.stdout
    )
