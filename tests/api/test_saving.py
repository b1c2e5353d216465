"""A save that fails part way leaves the old game file whole, in this process (so a mutation
tool that only sees in-process calls can check it too; tests/cli/test_refusals.py kills a real
`nova` process in the middle of its write)."""

from __future__ import annotations

import contextlib
import json
import resource
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from nova_tools import api, store
from nova_tools.sandbox.build import SANDBOX_BUILD

WAIT = "const t: AndroidTurn = () => ({ type: 'android.wait', memory: 'm' + turn });\nexport default t;\n"


@contextlib.contextmanager
def files_capped_at(size: int) -> Iterator[None]:
    """No file this process writes may grow past ``size`` bytes: a full disk or a quota. Python
    ignores SIGXFSZ, so a write past the cap fails with EFBIG part way through."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


@pytest.fixture
def game(tmp_path) -> Path:
    path = tmp_path / "game.json"
    api.create_game(path, seed=4)
    script = api.upload_script(
        path, "alice", files={"main.ts": WAIT}, entry_name="main.ts"
    ).script_id
    api.launch_android(path, "alice", script)
    api.run_rounds(path, 2)
    return path


def test_a_save_cut_short_by_a_full_disk_keeps_the_old_file_whole_and_loadable(game):
    before = game.read_bytes()

    refused = r"cannot write .*game\.json \(File too large\); the game file was left as it was"
    with files_capped_at(len(before)), pytest.raises(store.GameFileError, match=refused):
        api.run_rounds(game, 1)  # one more round makes the file longer than the cap

    assert game.read_bytes() == before
    assert store.load(game).state.round == 2
    assert sorted(p.name for p in game.parent.iterdir()) == [
        "game.json",
        "game.json.lock",
    ]  # no temporary file left
    api.run_rounds(game, 1)
    assert store.load(game).state.round == 3


def test_a_save_that_fits_replaces_the_whole_file(game):
    before = game.read_bytes()

    with files_capped_at(10 * len(before)):
        api.run_rounds(game, 1)

    assert store.load(game).state.round == 3
    assert game.read_bytes().startswith(before[:50]) and len(game.read_bytes()) > len(before)


def test_the_temporary_file_is_written_beside_the_game_whatever_tmpdir_says(
    game, tmp_path, monkeypatch
):
    # A rename is only atomic within one file system, so the new file must not go to /tmp.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "no-such-folder"))

    api.run_rounds(game, 1)

    assert store.load(game).state.round == 3


def test_a_saved_game_keeps_its_file_mode_and_records_the_sandbox_build(game):
    game.chmod(0o640)

    api.run_rounds(game, 1)

    assert stat.S_IMODE(game.stat().st_mode) == 0o640
    assert json.loads(game.read_bytes())["sandbox"] == SANDBOX_BUILD


def test_a_new_game_file_gets_the_usual_mode_of_a_new_file(tmp_path):
    path = tmp_path / "new.json"

    api.create_game(path, seed=1)

    # what `open()` would give it under this process's umask (read once, when store is imported)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~store._UMASK != 0o600


def test_a_game_recorded_under_an_older_sandbox_build_plays_on_under_this_one(game, tmp_path):
    # Revision 7 evaluates the module's top level once; a game file written by revision 5 still
    # opens and plays on under this build, and then records this build, the one that played its
    # latest rounds (docs/game-file.md). Its new rounds are the same as a game made now plays.
    data = json.loads(game.read_bytes())
    data["sandbox"] = dict(SANDBOX_BUILD, sandbox="5")
    game.write_text(json.dumps(data), encoding="utf-8")

    api.run_rounds(game, 2)

    continued = json.loads(game.read_bytes())
    assert continued["sandbox"] == SANDBOX_BUILD and SANDBOX_BUILD["sandbox"] != "5"
    fresh = tmp_path / "fresh.json"
    api.create_game(fresh, seed=4)
    script = api.upload_script(
        fresh, "alice", files={"main.ts": WAIT}, entry_name="main.ts"
    ).script_id
    api.launch_android(fresh, "alice", script)
    api.run_rounds(fresh, 4)
    assert continued["events"] == json.loads(fresh.read_bytes())["events"]
    assert store.load(game).state.round == 4
