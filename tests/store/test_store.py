"""The game file on its own (nova_tools.store): canonical bytes, a load that rebuilds the state
by replaying the log, atomic writes that leave the old file whole, one sentence for every broken
file, and a lock that serialises writers. No script runs: the games are built with the engine."""

from __future__ import annotations

import dataclasses
import json
import os
import threading
import time
from pathlib import Path

import pytest

from nova_tools import engine, store
from nova_tools.rules import Rules

SANDBOX = {"wasmtime": "test"}


def a_game(path: Path, rounds: int = 3) -> store.Game:
    """Two players, one android each, a few rounds of waiting."""
    game = store.new_game(path, Rules(), 5, SANDBOX)
    for player in ("ann", "bob"):
        events = [engine.join(game.state, player)]
        uploaded = engine.add_script(game.state, player, "waiter")
        events += [uploaded, engine.launch(game.state, player, uploaded.script)]
        game.scripts[uploaded.script] = store.StoredScript(
            player, "waiter", "0" * 64, "export default () => ({type: 'android.wait'})"
        )
        game.record(events)
    for _ in range(rounds):
        game.record(
            engine.play_round(
                game.state,
                lambda state, android: engine.Decision(
                    value={"type": "android.wait", "memory": f"r{state.round}"}
                ),
            )
        )
    return game


def test_a_saved_game_loads_to_the_same_state_and_the_same_bytes(tmp_path: Path) -> None:
    game = a_game(tmp_path / "g.json")
    store.save(game)
    loaded = store.load(game.path)
    assert engine.state_hash(loaded.state) == engine.state_hash(game.state)
    assert loaded.events == game.events and loaded.scripts == game.scripts and loaded.seed == 5
    assert store.serialize(loaded) == store.serialize(game) == game.path.read_bytes()
    # one event a line: readable, and a diff shows the rounds that were added
    lines = game.path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(game.events) + 2 and lines[-1] == "]}"


def test_the_events_a_file_is_read_into_are_frozen_values_of_their_types(tmp_path: Path) -> None:
    game = a_game(tmp_path / "g.json")
    ended = engine.event_from_json(
        {
            "destroyed": [],
            "production": [{"building": "building-3", "buildingType": "extractor", "owner": "ann"}],
            "round": 4,
            "type": "round.ended",
        }
    )
    store.save(game)
    loaded = store.load(game.path).events + [ended, *(ended.production or ())]
    assert {type(e).__name__ for e in loaded} >= {
        "Turn",
        "RoundStarted",
        "RoundEnded",
        "Production",
    }
    for value in loaded:
        built = type(value)(**{f.name: getattr(value, f.name) for f in dataclasses.fields(value)})
        assert value == built and type(value) is type(built) and repr(value) == repr(built)
        for field in dataclasses.fields(value):
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(value, field.name, None)


def test_the_same_game_is_the_same_file_byte_for_byte(tmp_path: Path) -> None:
    first, second = a_game(tmp_path / "a.json"), a_game(tmp_path / "b.json")
    store.save(first)
    store.save(second)
    assert first.path.read_bytes() == second.path.read_bytes()


@pytest.mark.parametrize(
    ("damage", "sentence"),
    [
        (lambda raw: raw[: len(raw) // 2], "is not a readable Nova game file (it looks truncated"),
        (
            lambda raw: raw.replace(b'"seed":5', b'"seed":5,,'),
            "is not a readable Nova game file (it is corrupt",
        ),
        (lambda raw: b"\xff\xfe" + raw, "is not a Nova game file (it is not UTF-8 text)"),
        (
            lambda raw: b'{"format": "something-else"}',
            'is not a Nova game file (no "format": "nova-game" marker)',
        ),
        (
            lambda raw: raw.replace(b'"version":1', b'"version":99'),
            "was written by a newer Nova (game format 99)",
        ),
        (
            lambda raw: raw.replace(b'"seed":5,', b""),
            "is damaged: a required part is missing or malformed",
        ),
        (
            lambda raw: raw.replace(
                b'{"round":2,"type":"round.started"}', b'{"round":7,"type":"round.started"}'
            ),
            "has an event log that does not replay: event",
        ),
        # deeper than a game file goes, yet shallow enough for json to decode: the depth check decides
        # (in the initial world, two levels down: 65 deep)
        (
            lambda raw: raw.replace(
                b'"seed":5,', b'"note":' + b"[" * 63 + b"]" * 63 + b',"seed":5,', 1
            ),
            "is not a readable Nova game file (it is nested more than 64 levels deep)",
        ),
        (
            lambda raw: raw.replace(b'"seed":5,', b'"note":"\\ud83d x","seed":5,'),
            "holds a lone UTF-16 surrogate escape",
        ),
        # a number no float holds: one JSON reader makes it infinity, the file is refused all the same
        (
            lambda raw: raw.replace(b'"seed":5,', b'"note":[2.5,-1e400],"seed":5,'),
            "is not a readable Nova game file (it holds -1e400, a number too large for JSON)",
        ),
    ],
    ids=[
        "truncated",
        "corrupt",
        "not-utf8",
        "not-a-game",
        "newer",
        "missing-part",
        "log-does-not-replay",
        "65-deep",
        "lone-surrogate",
        "infinite-number",
    ],
)
def test_a_broken_file_is_one_sentence_and_is_left_alone(
    tmp_path: Path, damage, sentence: str
) -> None:
    game = a_game(tmp_path / "g.json")
    store.save(game)
    broken = damage(game.path.read_bytes())
    game.path.write_bytes(broken)
    with pytest.raises(store.GameFileError) as caught:
        store.load(game.path)
    message = str(caught.value)
    assert sentence in message and str(game.path) in message
    assert "\n" not in message and "Traceback" not in message
    assert game.path.read_bytes() == broken


def test_a_missing_file_or_a_folder_says_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(
        store.GameFileError, match="there is no game file at .*nova create-game --file"
    ):
        store.load(tmp_path / "none.json")
    with pytest.raises(store.GameFileError, match="is a folder, not a game file"):
        store.load(tmp_path)


def test_a_write_that_fails_leaves_the_old_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = a_game(tmp_path / "g.json")
    store.save(game)
    before = game.path.read_bytes()
    game.record(
        engine.play_round(
            game.state, lambda state, android: engine.Decision(value={"type": "android.wait"})
        )
    )

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(
        store.GameFileError,
        match="cannot write .*No space left on device.*the game file was left as it was",
    ):
        store.save(game)
    assert game.path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]  # no temporary file left behind


def test_replacing_a_file_keeps_who_may_read_it(tmp_path: Path) -> None:
    game = a_game(tmp_path / "g.json")
    store.save(game)
    game.path.chmod(0o640)
    store.save(game)
    assert game.path.stat().st_mode & 0o777 == 0o640


def test_two_writers_are_serialised_by_the_lock(tmp_path: Path) -> None:
    game = a_game(tmp_path / "g.json", rounds=0)
    store.save(game)
    order: list[str] = []

    def writer(name: str) -> None:
        with store.editing(game.path) as editing:
            order.append(f"{name} in")
            time.sleep(0.2)  # the other writer must wait here, not read the file half-changed
            editing.record(
                engine.play_round(
                    editing.state,
                    lambda state, android: engine.Decision(value={"type": "android.wait"}),
                )
            )
            order.append(f"{name} out")

    threads = [threading.Thread(target=writer, args=(name,)) for name in ("one", "two")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [entry.split()[1] for entry in order] == ["in", "out", "in", "out"]
    assert store.load(game.path).state.round == 2  # neither round was lost


def test_an_edit_that_fails_writes_nothing(tmp_path: Path) -> None:
    game = a_game(tmp_path / "g.json")
    store.save(game)
    before = game.path.read_bytes()
    with pytest.raises(engine.Refusal):
        with store.editing(game.path) as editing:
            editing.record(
                engine.play_round(
                    editing.state,
                    lambda state, android: engine.Decision(value={"type": "android.wait"}),
                )
            )
            engine.join(editing.state, "ann")  # already joined: refused half way through the edit
    assert game.path.read_bytes() == before


def test_the_file_is_the_documented_format(tmp_path: Path) -> None:
    game = a_game(tmp_path / "g.json")
    store.save(game)
    data = json.loads(game.path.read_text(encoding="utf-8"))
    assert list(data) == [
        "format",
        "initial",
        "rules",
        "sandbox",
        "scripts",
        "seed",
        "version",
        "events",
    ]
    assert (
        data["format"] == "nova-game"
        and data["version"] == store.VERSION
        and data["sandbox"] == SANDBOX
    )
    assert data["rules"] == Rules().to_json()


def test_a_value_64_levels_deep_still_loads(tmp_path: Path) -> None:
    game = a_game(tmp_path / "g.json")
    store.save(game)
    # the note goes into the initial world, two levels down: 62 more bring the deepest point to 64
    deep = b"[" * 62 + b"]" * 62
    game.path.write_bytes(
        game.path.read_bytes().replace(b'"seed":5,', b'"note":' + deep + b',"seed":5,', 1)
    )
    assert store.load(game.path).state.round == game.state.round


def test_a_path_through_a_missing_folder_is_never_written_elsewhere(tmp_path: Path) -> None:
    """`missing/../g.json` names a file in a folder that does not exist; following it by text
    (as `os.path.realpath` does when no link is involved) would write `g.json` beside `missing`."""
    with pytest.raises(FileNotFoundError):
        store.write_atomic(tmp_path / "missing" / ".." / "g.json", b"{}")
    assert list(tmp_path.iterdir()) == []
