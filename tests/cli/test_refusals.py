"""Every mistake a user can make at the command line: one sentence on stderr, a non-zero exit,
no traceback, and the game file byte-for-byte unchanged."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from nova_testing import nova, sha, wanderer


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("refusals")
    path = folder / "game.json"
    assert nova("create-game", "--file", path, "--seed", 5).code == 0
    bot = wanderer(folder)
    assert nova("upload", "--file", path, "--player", "alice", bot).code == 0  # script-1
    assert nova("launch", "--file", path, "--player", "alice", "--script", "script-1").code == 0
    assert nova("launch", "--file", path, "--player", "alice", "--script", "script-1").code == 0
    assert nova("run", "--file", path, "--rounds", 2).code == 0
    return path


def _one_sentence(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_missing_game_file_is_one_sentence(tmp_path):
    result = nova("status", "--file", tmp_path / "nope.json")
    assert result.code == 1
    assert "there is no game file at" in _one_sentence(result.err)
    assert not (tmp_path / "nope.json").exists()


@pytest.mark.parametrize(
    "damage, expected",
    [
        (lambda raw: raw[: len(raw) // 2], "looks truncated"),
        (lambda raw: b"{not json at all", "not a readable Nova game file"),
        (lambda raw: b'{"hello": 1}', "not a Nova game file"),
        (lambda raw: raw.replace(b'"version":1', b'"version":99'), "newer Nova"),
        (
            lambda raw: raw.replace(b'"android":"android-1"', b'"android":"android-7"', 1),
            "does not replay",
        ),
    ],
    ids=["truncated", "garbage", "not-a-game", "newer-format", "tampered-log"],
)
def test_damaged_game_file_is_reported_and_left_untouched(game, tmp_path, damage, expected):
    broken = tmp_path / "broken.json"
    broken.write_bytes(damage(game.read_bytes()))
    before = sha(broken)
    for args in (
        ["status"],
        ["run", "--rounds", "1"],
        ["launch", "--player", "alice", "--script", "script-1"],
    ):
        result = nova(*args, "--file", broken)
        assert result.code == 1
        assert expected in _one_sentence(result.err)
        assert sha(broken) == before


@pytest.mark.parametrize(
    "command, args, expected",
    [
        (["launch"], ["--player", "carol", "--script", "script-1"], "there is no player 'carol'"),
        (
            ["launch"],
            ["--player", "alice", "--script", "script-9"],
            "'script-9' is not one of alice's scripts",
        ),
        (["launch"], ["--player", "alice", "--script", "script-1"], "the chargers allow 2"),
        (["android"], ["android-99"], "there is no android 'android-99'"),
        (["run"], ["--rounds", "0"], "at least 1"),
        (["replay", "export"], ["--player", "mallory"], "there is no player 'mallory'"),
    ],
    ids=[
        "unknown-player",
        "unknown-script",
        "beyond-cap",
        "unknown-android",
        "zero-rounds",
        "export-unknown-player",
    ],
)
def test_refused_commands_change_nothing(game, command, args, expected):
    before = sha(game)
    result = nova(*command, "--file", game, *args)
    assert result.code == 1
    assert expected in _one_sentence(result.err)
    assert sha(game) == before


def test_rules_file_with_partial_leaf_is_refused_and_game_kept(game, tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text('{ "android": { "sight": { "range": 6 } } }')
    before = sha(game)
    result = nova("create-game", "--file", game, "--rules", rules, "--force")
    assert result.code == 1
    assert "android.sight" in _one_sentence(result.err)
    assert sha(game) == before
    fresh = tmp_path / "fresh.json"
    assert nova("create-game", "--file", fresh, "--rules", rules).code == 1
    assert not fresh.exists()


def test_script_with_syntax_error_is_refused_with_position(game, tmp_path):
    bad = tmp_path / "bad.ts"
    bad.write_text(
        "const turn: AndroidTurn = () => ({ type: 'android.wait' );\nexport default turn;\n"
    )
    before = sha(game)
    result = nova("upload", "--file", game, "--player", "alice", bad)
    assert result.code == 1
    assert "Traceback" not in result.err
    assert "bad.ts:1:" in result.err
    assert sha(game) == before


def test_script_with_type_error_names_file_line_and_column(game, tmp_path):
    bad = tmp_path / "typo.ts"
    bad.write_text(
        "const t: AndroidTurn = () => ({ type: 'android.move', direction: 'up' });\nexport default t;\n"
    )
    before = sha(game)
    result = nova("upload", "--file", game, "--player", "alice", bad)
    assert result.code == 1
    assert "typo.ts:1:55" in result.err and '"up"' in result.err and "Direction" in result.err
    assert sha(game) == before


def test_create_game_refuses_to_overwrite_without_force(game):
    before = sha(game)
    result = nova("create-game", "--file", game)
    assert result.code == 1
    assert "--force" in _one_sentence(result.err)
    assert sha(game) == before


def _limited_to(size: int, die: bool) -> str:
    """Python code that caps the size of any file this process writes at ``size`` bytes (as a
    full disk or a quota would), then runs the CLI. With ``die``, writing past the cap kills the
    process with SIGXFSZ mid-write, as a crash or a power cut would; without, the write fails
    with EFBIG (Python ignores SIGXFSZ)."""
    return (
        "import resource, signal, sys\n"
        "from nova_tools.cli import main\n"
        + ("signal.signal(signal.SIGXFSZ, signal.SIG_DFL)\n" if die else "")
        + f"resource.setrlimit(resource.RLIMIT_FSIZE, ({size}, {size}))\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )


def _cli_with_file_size_cap(size: int, die: bool, *args: object) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "PYTHONDONTWRITEBYTECODE": "1",
    }  # no .pyc may be written past the cap either
    return subprocess.run(
        [sys.executable, "-c", _limited_to(size, die), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


@pytest.fixture
def copy_of_game(game, tmp_path) -> Path:
    copy = tmp_path / "game.json"
    shutil.copy(game, copy)
    assert nova("status", "--file", copy).code == 0  # warm: the sandbox build is cached on disk
    return copy


def test_a_crash_in_the_middle_of_a_save_leaves_the_old_game_whole_and_loadable(copy_of_game):
    before = copy_of_game.read_bytes()

    # Playing a round makes the file longer; the process dies once it has written len(before) bytes.
    crashed = _cli_with_file_size_cap(
        len(before), True, "run", "--file", copy_of_game, "--rounds", 1
    )

    assert crashed.returncode == -signal.SIGXFSZ, (
        crashed.stderr
    )  # it did die in the middle of writing
    assert copy_of_game.read_bytes() == before
    status = nova("status", "--file", copy_of_game, "--json")
    assert status.code == 0 and json.loads(status.out)["round"] == 2
    # ...and the game goes on from there.
    assert nova("run", "--file", copy_of_game, "--rounds", 1).code == 0
    assert json.loads(nova("status", "--file", copy_of_game, "--json").out)["round"] == 3


def test_a_game_file_that_cannot_be_written_is_reported_and_left_whole(copy_of_game):
    before = copy_of_game.read_bytes()

    refused = _cli_with_file_size_cap(
        len(before), False, "run", "--file", copy_of_game, "--rounds", 1
    )

    assert refused.returncode == 1
    assert f"cannot write {copy_of_game}" in _one_sentence(refused.stderr)
    assert "left as it was" in refused.stderr
    assert copy_of_game.read_bytes() == before
    assert not [
        p.name for p in copy_of_game.parent.iterdir() if p.name.endswith(".tmp")
    ]  # nothing left behind


def test_writing_a_game_keeps_the_file_mode(tmp_path):
    import os
    import stat

    game = tmp_path / "game.json"
    old = os.umask(0o022)
    try:
        assert nova("create-game", "--file", game).code == 0
        assert stat.S_IMODE(game.stat().st_mode) == 0o644  # a new file follows the umask
        game.chmod(0o640)
        assert nova("upload", "--file", game, "--player", "alice", wanderer(tmp_path)).code == 0
        assert stat.S_IMODE(game.stat().st_mode) == 0o640  # a rewrite keeps what the owner chose
    finally:
        os.umask(old)
