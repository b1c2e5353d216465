"""Real editors, driven as a player uses them: what they need, and a `nova new-android` project."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent

# A script with one type error (tsc), a rule to hover over, and a default export for the lens.
PROBE_SCRIPT = """\
const capacity: number = rules.android.cargoCapacity;
const act: AndroidTurn = () => ({ type: 'android.move', direction: 'up' });
export default act;
"""
# In a fresh world the android stands on its initial charger, which can never be salvaged.
REFUSED_SCRIPT = """\
const capacity: number = rules.android.cargoCapacity;
const act: AndroidTurn = () => ({ type: 'android.salvage' });
export default act;
"""
PROJECT_RULES = (
    '// this project plays with bigger cargo holds\n{ "android": { "cargoCapacity": 20 } }\n'
)
PARTIAL_RULES = '{\n  "android": { "sight": { "range": 6 } }\n}\n'


def find_tool(name: str) -> str | None:
    """A tool from this virtualenv (the dev extra's Neovim) or from PATH (Debian's Emacs)."""
    local = VENV_BIN / name
    return str(local) if local.is_file() else shutil.which(name)


def require_tool(name: str, how: str) -> str:
    """The tool's path; a skip (with how to get it) on a quick local run, a failure under CI."""
    found = find_tool(name)
    if found is None:
        message = f"{name} is not installed ({how}); `make test` installs it"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


def editor_env(home: Path) -> dict[str, str]:
    """A clean per-test home (no user config leaks in) with this virtualenv's `nova` on PATH.

    The cache stays the user's: it holds the sandbox's compiled QuickJS, which a player's first
    dry-run ever makes once (seconds), and every later one reads."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("XDG_", "NVIM", "NOVA_")) or k.startswith("NOVA_LSP_LOG")
    }
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_STATE_HOME=str(home / ".local" / "state"),
        XDG_CACHE_HOME=cache,
        PATH=f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    return env


@pytest.fixture(scope="module")
def android_project(tmp_path_factory) -> Path:
    """What `nova new-android` makes, with a probe script and two rules files beside the starter."""
    project = tmp_path_factory.mktemp("editor") / "my-android"
    done = subprocess.run(
        [str(VENV_BIN / "nova"), "new-android", str(project)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert (project / "tsconfig.json").is_file() and (project / "rules.json").is_file()
    (project / "rules.json").write_text(PROJECT_RULES, encoding="utf-8")
    (project / "src" / "probe.ts").write_text(PROBE_SCRIPT, encoding="utf-8")
    (project / "experiments").mkdir()
    (project / "experiments" / "partial.nova-rules.json").write_text(
        PARTIAL_RULES, encoding="utf-8"
    )
    return project
