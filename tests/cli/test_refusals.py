"""Every mistake a user can make at the command line: one sentence on stderr, a non-zero exit,
no traceback, and the game file byte-for-byte unchanged."""

from __future__ import annotations

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
        (lambda raw: raw.replace(b'"android":"android-1"', b'"android":"android-7"', 1), "does not replay"),
    ],
    ids=["truncated", "garbage", "not-a-game", "newer-format", "tampered-log"],
)
def test_damaged_game_file_is_reported_and_left_untouched(game, tmp_path, damage, expected):
    broken = tmp_path / "broken.json"
    broken.write_bytes(damage(game.read_bytes()))
    before = sha(broken)
    for args in (["status"], ["run", "--rounds", "1"], ["launch", "--player", "alice", "--script", "script-1"]):
        result = nova(*args, "--file", broken)
        assert result.code == 1
        assert expected in _one_sentence(result.err)
        assert sha(broken) == before


@pytest.mark.parametrize(
    "command, args, expected",
    [
        (["launch"], ["--player", "carol", "--script", "script-1"], "there is no player 'carol'"),
        (["launch"], ["--player", "alice", "--script", "script-9"], "'script-9' is not one of alice's scripts"),
        (["launch"], ["--player", "alice", "--script", "script-1"], "the chargers allow 2"),
        (["android"], ["android-99"], "there is no android 'android-99'"),
        (["run"], ["--rounds", "0"], "at least 1"),
        (["replay", "export"], ["--player", "mallory"], "there is no player 'mallory'"),
    ],
    ids=["unknown-player", "unknown-script", "beyond-cap", "unknown-android", "zero-rounds", "export-unknown-player"],
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
    bad.write_text("const turn: AndroidTurn = () => ({ type: 'android.wait' );\nexport default turn;\n")
    before = sha(game)
    result = nova("upload", "--file", game, "--player", "alice", bad)
    assert result.code == 1
    assert "Traceback" not in result.err
    assert "bad.ts:1:" in result.err
    assert sha(game) == before


def test_script_with_type_error_names_file_line_and_column(game, tmp_path):
    bad = tmp_path / "typo.ts"
    bad.write_text("const t: AndroidTurn = () => ({ type: 'android.move', direction: 'up' });\nexport default t;\n")
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


def test_a_game_file_that_cannot_be_written_is_reported_and_left_whole(game, tmp_path):
    import shutil

    from nova_tools import store

    copy = tmp_path / "game.json"
    shutil.copy(game, copy)
    before = sha(copy)
    loaded = store.load(copy)
    loaded.path = tmp_path / "missing-folder" / "game.json"  # a write that must fail
    with pytest.raises(store.GameFileError, match="cannot write .*left as it was"):
        store.save(loaded)
    assert sha(copy) == before
    assert not list(tmp_path.glob("**/*.tmp"))


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
