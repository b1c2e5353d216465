"""`nova` starts fast: `nova --help` and a `nova status` right after `nova run` import none of the
heavy parts (pydantic, the engine, the sandbox), and the remembered standings are exactly what
reading the game in full gives, never a stale answer. (How fast is measured in bench/user_bench.py,
never here.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from nova_testing import nova, wanderer

HEAVY = (
    "pydantic",
    "nova_tools.engine",
    "nova_tools.rules.models",
    "nova_tools.sandbox",
    "wasmtime",
    "mcp",
    "pygls",
    "rich",
)


def imported_by(args: list[str], env: dict[str, str]) -> set[str]:
    """The heavy modules a `nova` command line imports (run in a fresh interpreter)."""
    probe = (
        "import sys, contextlib, io\n"
        "from nova_tools.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        main({args!r})\n"
        "    except SystemExit:\n"
        "        pass\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r} or m in {HEAVY!r}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.strip().replace("'", '"')))


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    import os

    folder = tmp_path_factory.mktemp("quick")
    env = {**os.environ, "NOVA_STATUS_CACHE": str(folder / "status-cache")}
    path = folder / "game.json"
    assert nova("create-game", "--file", path, "--seed", 5, env=env).code == 0
    for player in ("alice", "bob"):
        uploaded = json.loads(
            nova(
                "upload",
                "--file",
                path,
                "--player",
                player,
                wanderer(folder, player),
                "--json",
                env=env,
            ).out
        )
        assert (
            nova(
                "launch",
                "--file",
                path,
                "--player",
                player,
                "--script",
                uploaded["scriptId"],
                env=env,
            ).code
            == 0
        )
    assert nova("run", "--file", path, "--rounds", 5, env=env).code == 0
    return path, env


def test_help_imports_nothing_heavy(played):
    _, env = played
    assert imported_by(["--help"], env) == set()
    assert imported_by(["status", "--help"], env) == set()


def test_status_after_run_imports_nothing_heavy_and_matches_a_full_read(played, tmp_path):
    path, env = played
    assert imported_by(["status", "--file", str(path)], env) == set()

    quick = nova("status", "--file", path, "--json", env=env)
    cold = nova(
        "status",
        "--file",
        path,
        "--json",
        env={**env, "NOVA_STATUS_CACHE": str(tmp_path / "empty")},
    )
    assert quick.code == cold.code == 0
    assert quick.out == cold.out
    assert json.loads(quick.out)["round"] == 5


def test_a_changed_file_is_read_in_full_never_answered_from_memory(played, tmp_path):
    path, env = played
    copy = tmp_path / "copy.json"
    copy.write_bytes(path.read_bytes())
    before = json.loads(nova("status", "--file", copy, "--json", env=env).out)

    # played on by a command that does not tell the cache (a match host, an old nova, an editor...)
    from nova_tools import store

    game = store.load(copy)
    game.path = copy
    game.events = game.events[
        : max(i for i, e in enumerate(game.events) if e.kind == "round.started")
    ]
    store.save(store.parse(copy, store.serialize(game)))

    after = nova("status", "--file", copy, "--json", env=env)
    assert after.code == 0, after.err
    assert before["round"] == 5 and json.loads(after.out)["round"] == 4
    assert "pydantic" in ",".join(
        imported_by(
            ["status", "--file", str(copy)], {**env, "NOVA_STATUS_CACHE": str(tmp_path / "other")}
        )
    )


def test_a_damaged_cache_entry_is_ignored(played, tmp_path):
    path, env = played
    cache = Path(env["NOVA_STATUS_CACHE"])
    entries = list(cache.glob("*.json"))
    assert entries
    for entry in entries:
        entry.write_text('{"players": "not a list"')

    result = nova("status", "--file", path, "--json", env=env)

    assert result.code == 0, result.err
    assert json.loads(result.out)["round"] == 5
    # remembered again (the other damaged entries, of files not read since, stay as they were)
    assert 5 in {remembered_round(e) for e in cache.glob("*.json")}


def remembered_round(entry: Path) -> int | None:
    try:
        return json.loads(entry.read_text()).get("round")
    except ValueError:
        return None  # an entry damaged above, of a file not read since
