"""Emacs with Eglot (Debian's emacs-nox + elpa-eglot, or Emacs 29+) and editor/emacs/nova.el, as
docs/editors.md says, on a `nova new-android` project: one batch session, then what it saw."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from .conftest import PARTIAL_RULES, PROBE_SCRIPT, REFUSED_SCRIPT, REPO, editor_env, require_tool

pytestmark = pytest.mark.realpart

SESSION_TIMEOUT_S = 180  # the session's own waits are 20 s each; this only stops a hung Emacs


def run_session(project: Path, home: Path) -> dict:
    emacs = require_tool("emacs", "Debian: apt-get install emacs-nox elpa-eglot")
    plan = {
        "script": str(project / "src" / "probe.ts"),
        "rules_file": str(project / "experiments" / "partial.nova-rules.json"),
        "refused_script": REFUSED_SCRIPT,
        "out": str(home / "result.json"),
    }
    (home / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    env = editor_env(home) | {"NOVA_EMACS_PLAN": str(home / "plan.json")}
    command = [
        emacs,
        "--batch",
        "-l",
        str(
            REPO / "editor" / "emacs" / "nova.el"
        ),  # what `(load ".../nova.el")` in an init file does
        "-l",
        str(REPO / "tests" / "editors" / "emacs_session.el"),
    ]
    try:
        done = subprocess.run(
            command,
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=SESSION_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"Emacs did not finish its session within {SESSION_TIMEOUT_S} s")
    out = Path(plan["out"])
    if not out.is_file():
        if "Cannot open load file" in done.stderr and "eglot" in done.stderr:
            pytest.fail(
                "Emacs has no Eglot: apt-get install elpa-eglot (Emacs 28) or use Emacs 29+"
            )
        pytest.fail(f"Emacs wrote no result (exit {done.returncode}): {done.stderr[-2000:]}")
    result = json.loads(out.read_text(encoding="utf-8"))
    if result["ok"] is not True:
        pytest.fail(
            f"Emacs session: {result['error']}\nsteps so far: {result['steps']}\n{result.get('messages', '')[-3000:]}"
        )
    return result["steps"]


@pytest.fixture(scope="module")
def session(android_project: Path, tmp_path_factory) -> dict:
    return run_session(android_project, tmp_path_factory.mktemp("emacs-home"))


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n")


def test_eglot_starts_nova_lsp_with_the_project_folder_as_root(session, android_project: Path):
    assert Path(session["server"]).name == "nova"
    assert Path(session["root"]) == android_project  # not src/, where the script is
    assert (
        Path(session["rules_root"]) == android_project
    )  # one server for the scripts and rules files
    assert session["mode"] in ("nova-typescript-mode", "typescript-mode", "typescript-ts-mode")


def test_the_type_error_shows_where_it_is(session):
    error = session["type_error"]
    assert error["line"] == line_of(PROBE_SCRIPT, "direction: 'up'")
    assert error["col"] == PROBE_SCRIPT.splitlines()[error["line"]].index("direction")
    assert error["type"] in ("eglot-error", ":error")


def test_hover_on_a_rule_shows_the_value_the_projects_rules_file_gives_it(session):
    hover = session["hover"]
    assert (
        "rules.android.cargoCapacity" in hover
        and "Most material units an android can carry" in hover
    )
    assert "20" in hover and "rules.json" in hover


def test_a_refused_turn_warns_on_export_default(session):
    warning = session["dry_run_warning"]
    assert warning["line"] == line_of(REFUSED_SCRIPT, "export default") and warning["col"] == 0
    assert warning["type"] in ("eglot-warning", ":warning")
    assert "initial charger" in warning["text"] and "10 health" in warning["text"]


def test_a_rules_file_opens_as_a_rules_file_and_is_flagged_at_the_partial_leaf(session):
    assert session["rules_mode"] == "nova-rules-mode"
    problem = session["rules_diagnostic"]
    line = PARTIAL_RULES.splitlines()[1]
    assert problem["line"] == 1 and problem["col"] == line.index('"sight"')
    assert "sight" in problem["text"]
