"""What a damaged or unexpected file says, in process (the CLI's subprocess tests say the same, but
mutation testing only sees calls made in this process): the hint that tells a cut-off file from a
corrupt one, the limits of what JSON a game file may hold, and `store.read`, which opens a game
file or a peer match record, whichever the path holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nova_tools import store
from nova_tools.rules import Rules


def a_game(path: Path) -> store.Game:
    """A new game with nobody in it yet: what the file looks like matters here, not what happened."""
    return store.new_game(path, Rules(), 5, {"wasmtime": "test"})


def load_error(path: Path, raw: bytes) -> str:
    path.write_bytes(raw)
    with pytest.raises(store.GameFileError) as caught:
        store.load(path)
    return str(caught.value)


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        # every game file ends with the close of its event list: an error at the very end, or a
        # file that does not end in "]}", was cut off; an error anywhere else is corruption
        (b'{"a": [[1]}', "it looks truncated: Expecting ',' delimiter at line 1, column 11"),
        (b'{"a": 1 ]}', "it is corrupt: Expecting ',' delimiter at line 1, column 9"),
        (b'{"format": nope}', "it looks truncated: Expecting value at line 1, column 12"),
        (b'{"events": [1, 2 3]}\n', "it is corrupt: Expecting ',' delimiter at line 1, column 18"),
    ],
    ids=[
        "error-at-the-last-character",
        "error-just-before-it",
        "no-closing-event-list",
        "corrupt-with-a-newline",
    ],
)
def test_a_cut_off_file_is_told_from_a_corrupt_one(tmp_path: Path, raw: bytes, says: str) -> None:
    path = tmp_path / "g.json"
    assert load_error(path, raw) == f"{path} is not a readable Nova game file ({says})"


def test_the_last_character_cut_off_a_real_game_file_looks_truncated(tmp_path: Path) -> None:
    game = a_game(tmp_path / "g.json")
    store.save(game)
    message = load_error(game.path, game.path.read_bytes().rstrip()[:-1])
    assert message.startswith(f"{game.path} is not a readable Nova game file (it looks truncated: ")


def test_json_nested_past_any_game_file_is_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    assert (
        load_error(path, b"[" * 100 + b"]" * 100)
        == f"{path} is not a readable Nova game file (it is nested more than 64 levels deep)"
    )


def test_a_number_of_thousands_of_digits_is_one_sentence(tmp_path: Path) -> None:
    # Python refuses to convert an integer of more than 4,300 digits: a traceback before
    path = tmp_path / "g.json"
    assert (
        load_error(path, b'{"format": "nova-game", "seed": ' + b"9" * 5000 + b"}")
        == f"{path} is not a readable Nova game file (it holds a number of more than 4,300 digits)"
    )


def test_a_lone_surrogate_escape_is_named_where_it_stands(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    message = load_error(path, b'{"format": "nova-game", "name": "ab\\ud800cd"}')
    assert (
        message
        == f"{path} is damaged: name holds a lone UTF-16 surrogate escape, which no text can hold"
    )


def test_a_long_place_of_a_lone_surrogate_is_cut_to_80_characters(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    key = "k" * 100
    message = load_error(path, b'{"' + key.encode() + b'": "\\udc00"}')
    assert (
        message
        == f"{path} is damaged: {'k' * 80} holds a lone UTF-16 surrogate escape, which no text can hold"
    )


def test_a_match_that_is_not_an_object_is_damage(tmp_path: Path) -> None:
    game = a_game(tmp_path / "g.json")
    store.save(game)
    data = json.loads(game.path.read_bytes())
    message = load_error(game.path, json.dumps({**data, "match": 3}).encode())
    assert (
        message
        == f"{game.path} is damaged: a required part is missing or malformed (TypeError: 'match' is not an object)"
    )


def test_a_path_that_cannot_be_read_says_why(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    path = tmp_path / "file" / "g.json"
    with pytest.raises(store.GameFileError) as caught:
        store.load(path)
    assert str(caught.value) == f"{path} cannot be read: Not a directory"


# --- game file or match record: store.read ---------------------------------------------------


def a_record(path: Path, version: int | None = None) -> store.MatchRecord:
    record = store.MatchRecord(
        path,
        Rules(),
        match={"players": ["ann", "bob"], "rounds": 3},
        status={
            "round": 3,
            "players": [
                {"id": "ann", "score": 4, "breakdown": []},
                {"id": "bob", "score": 4, "breakdown": []},
            ],
        },
        androids=[
            {
                "id": "android-1",
                "ownerId": "ann",
                "scriptId": "script-1",
                "active": True,
                "recording": "seen bob",
            }
        ],
        scripts={"script-1": {"name": "waiter", "sha256": "0" * 64}},
        sandbox={"wasmtime": "test"},
    )
    store.save_record(record)
    if version is not None:
        data = json.loads(path.read_bytes())
        path.write_text(json.dumps({**data, "version": version}), encoding="utf-8")
    return record


def test_read_opens_a_game_file_as_a_game(tmp_path: Path) -> None:
    game = a_game(tmp_path / "g.json")
    store.save(game)
    read = store.read(game.path)
    assert isinstance(read, store.Game) and read.path == game.path and read.events == game.events


def test_read_opens_a_match_record_as_a_record(tmp_path: Path) -> None:
    record = a_record(tmp_path / "m.json")
    read = store.read(record.path)
    assert read == record


def test_read_of_bytes_already_read_gives_the_same(tmp_path: Path) -> None:
    record = a_record(tmp_path / "m.json")
    assert store.read(record.path, record.path.read_bytes()) == record


def test_read_says_what_load_says_of_a_missing_file_and_a_damaged_one(tmp_path: Path) -> None:
    missing = tmp_path / "none.json"
    with pytest.raises(store.GameFileError) as caught:
        store.read(missing)
    assert (
        str(caught.value)
        == f"there is no game file at {missing} (create one with `nova create-game --file {missing}`)"
    )
    damaged = tmp_path / "d.json"
    damaged.write_bytes(b'{"a": 1 ]}')
    with pytest.raises(store.GameFileError) as caught:
        store.read(damaged)
    assert (
        str(caught.value)
        == f"{damaged} is not a readable Nova game file (it is corrupt: Expecting ',' delimiter at line 1, column 9)"
    )


def test_a_record_from_a_newer_nova_says_so(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    a_record(path, version=99)
    with pytest.raises(store.GameFileError) as caught:
        store.read(path)
    assert (
        str(caught.value)
        == f"{path} was written by a newer Nova (match record format 99); upgrade nova-tools to open it"
    )


def test_loading_a_record_as_a_game_says_what_it_is(tmp_path: Path) -> None:
    record = a_record(tmp_path / "m.json")
    with pytest.raises(store.GameFileError) as caught:
        store.load(record.path)
    assert str(caught.value) == (
        f"{record.path} is a peer match record kept under --disclosure recording: it holds the final scores and your "
        "androids' recordings, not a game to replay or continue (`nova status` and `nova android` read it)"
    )


# --- what a game file keeps besides its log ------------------------------------------------------


def test_rules_stored_in_a_game_open_as_they_were_played(tmp_path: Path) -> None:
    """A game played under a timeout new rules would refuse (older files hold 2000 ms) still opens
    with it; a game file from before rules were data opens under the shipped defaults."""
    game = a_game(tmp_path / "g.json")
    store.save(game)
    data = json.loads(game.path.read_bytes())
    game.path.write_text(
        json.dumps({**data, "rules": {"script": {"fuel": 200, "timeoutMs": 2000}}}),
        encoding="utf-8",
    )
    assert store.load(game.path).rules.script.timeout_ms == 2000
    game.path.write_text(
        json.dumps({k: v for k, v in data.items() if k != "rules"}), encoding="utf-8"
    )
    assert store.load(game.path).rules == Rules()


def test_a_game_file_from_before_the_sandbox_build_was_kept_opens_without_one(
    tmp_path: Path,
) -> None:
    game = a_game(tmp_path / "g.json")
    store.save(game)
    data = json.loads(game.path.read_bytes())
    game.path.write_text(
        json.dumps({k: v for k, v in data.items() if k != "sandbox"}), encoding="utf-8"
    )
    assert store.load(game.path).sandbox == {}


def test_broken_stored_rules_name_the_game_file(tmp_path: Path) -> None:
    game = a_game(tmp_path / "g.json")
    store.save(game)
    data = json.loads(game.path.read_bytes())
    message = load_error(
        game.path, json.dumps({**data, "rules": {"android": {"sight": "far"}}}).encode()
    )
    assert message.startswith(f"{game.path} (stored rules): ")


def test_a_games_match_account_and_sandbox_build_are_kept(tmp_path: Path) -> None:
    game = a_game(tmp_path / "g.json")
    game.match = {"players": ["ann", "bob"], "rounds": 40}
    store.save(game)
    loaded = store.load(game.path)
    assert loaded.match == {"players": ["ann", "bob"], "rounds": 40}
    assert loaded.sandbox == {"wasmtime": "test"}
    assert json.loads(game.path.read_bytes())["match"] == loaded.match


# --- links and locks ---------------------------------------------------------------------------


def test_saving_through_a_link_replaces_the_file_it_links_to(tmp_path: Path) -> None:
    real = tmp_path / "games" / "g.json"
    real.parent.mkdir()
    game = a_game(real)
    store.save(game)
    (tmp_path / "link.json").symlink_to(real)  # the game file is a link
    (tmp_path / "folder-link").symlink_to(real.parent)  # a folder on the way is a link
    for path in (tmp_path / "link.json", tmp_path / "folder-link" / "g.json"):
        game.path = path
        game.match = {"saved through": path.name}
        store.save(game)
        assert (tmp_path / "link.json").is_symlink() and (tmp_path / "folder-link").is_symlink()
        assert store.load(real).match == {"saved through": path.name}
    assert sorted(p.name for p in real.parent.iterdir()) == ["g.json"]  # no temporary file left


def test_a_lock_file_that_is_a_link_is_refused_and_nothing_is_made_through_it(
    tmp_path: Path,
) -> None:
    game = a_game(tmp_path / "g.json")
    store.save(game)
    target = tmp_path / "elsewhere"
    lock = tmp_path / "g.json.lock"
    lock.symlink_to(target)
    with pytest.raises(store.GameFileError) as caught:
        with store.locked(game.path):
            pass
    assert (
        str(caught.value)
        == f"cannot lock {game.path}: its lock file g.json.lock is a symbolic link; remove {lock} (nova keeps a plain lock file there)"
    )
    assert not target.exists()


def test_a_game_in_a_folder_that_is_not_there_cannot_be_locked(tmp_path: Path) -> None:
    path = tmp_path / "no-such-folder" / "g.json"
    with pytest.raises(store.GameFileError) as caught:
        with store.locked(path):
            pass
    assert str(caught.value) == f"cannot lock {path}: No such file or directory"


def _damaged_record(path: Path, change) -> str:
    a_record(path)
    data = json.loads(path.read_bytes())
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(store.GameFileError) as caught:
        store.read(path)
    return str(caught.value)


def _player(**changes) -> dict:
    return {"id": "ann", "score": 4, "breakdown": [], **changes}


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda d: d.update(status=[]), "TypeError: 'status' is not a status object"),
        (lambda d: d["status"].update(round="3"), "TypeError: 'status' is not a status object"),
        (lambda d: d["status"].update(players={}), "TypeError: 'status' is not a status object"),
        (
            lambda d: d["status"].update(players=[_player(id=5)]),
            "TypeError: a player's score is malformed",
        ),
        (
            lambda d: d["status"].update(players=[_player(score="4")]),
            "TypeError: a player's score is malformed",
        ),
        (
            lambda d: d["status"].update(players=[_player(breakdown={})]),
            "TypeError: a player's score is malformed",
        ),
        (lambda d: d.update(androids={}), "TypeError: 'androids' is not a list of androids"),
        (lambda d: d.update(androids=[3]), "TypeError: 'androids' is not a list of androids"),
        (
            lambda d: d["androids"][0].update(id=1),
            "TypeError: 'androids' is not a list of androids",
        ),
        (
            lambda d: d["androids"][0].update(recording=None),
            "TypeError: 'androids' is not a list of androids",
        ),
        (lambda d: d.update(scripts=[]), "TypeError: 'scripts' or 'match' is not an object"),
        (lambda d: d.update(match="x"), "TypeError: 'scripts' or 'match' is not an object"),
        (lambda d: d.pop("status"), "KeyError: 'status'"),
    ],
    ids=[
        "status-list",
        "round-text",
        "players-object",
        "player-id",
        "player-score",
        "player-breakdown",
        "androids-object",
        "android-not-object",
        "android-id",
        "android-recording",
        "scripts-list",
        "match-text",
        "no-status",
    ],
)
def test_a_damaged_match_record_says_which_part(tmp_path: Path, change, why: str) -> None:
    path = tmp_path / "m.json"
    assert (
        _damaged_record(path, change)
        == f"{path} is damaged: a required part is missing or malformed ({why})"
    )


def test_a_records_stored_rules_are_checked_and_a_missing_sandbox_is_none(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    message = _damaged_record(path, lambda d: d.update(rules={"android": {"sight": "far"}}))
    assert message.startswith(f"{path} (stored rules): ")
    a_record(path)
    data = json.loads(path.read_bytes())
    path.write_text(json.dumps({k: v for k, v in data.items() if k != "sandbox"}), encoding="utf-8")
    assert store.read(path).sandbox == {}


def test_a_record_that_cannot_be_written_is_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "no-such-folder" / "m.json"
    with pytest.raises(store.GameFileError) as caught:
        a_record(path)
    assert str(caught.value) == f"cannot write {path} (No such file or directory)"
