"""The one game loop (nova_tools.play): a game played in memory is the game the game files hold.

`nova demo` writes a game file; `play_game` of the demo's spec, in this process, ends in the same
state hash. The same game played command by command through the api (create, upload, launch,
run) gives the demo's file byte for byte, and a session resumed from a file's state goes on
exactly as an unbroken game does.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from nova_testing import nova, sha

from nova_tools import api, engine, store
from nova_tools.play import (
    GameSession,
    GameSpec,
    Seat,
    SpecError,
    play_game,
    sandbox_lease,
    sandboxes_made,
)
from nova_tools.rules import Rules

SEED, ROUNDS = 5, 40


@pytest.fixture(scope="module")
def starter():
    return api.compile_upload(api.starter_entry())


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("demo")
    run = nova("demo", "--dir", folder, "--seed", SEED, "--rounds", ROUNDS)
    assert run.code == 0, run.err
    return folder / "demo.json"


def test_play_game_of_the_demo_spec_ends_in_the_demo_files_state(demo_file: Path, starter) -> None:
    result = play_game(api.demo_spec(SEED, ROUNDS, starter))
    from_file = store.load(demo_file)  # rebuilt by replaying the file's log, no script runs
    assert result.state_hash == engine.state_hash(from_file.state)
    assert result.rounds == from_file.state.round == ROUNDS
    assert result.events == from_file.events
    assert result.destroyed == tuple(
        a for e in from_file.events if isinstance(e, engine.RoundEnded) for a in e.destroyed
    )
    assert {s.player: s.points for s in result.scores} == {
        p.id: p.score for p in api.status(demo_file).players
    }
    assert any(s.points > 0 for s in result.scores), "the starter scores something in 40 rounds"


def test_the_demo_file_is_the_file_of_the_same_game_played_command_by_command(
    demo_file: Path, tmp_path: Path
) -> None:
    game = tmp_path / "demo.json"
    api.create_game(game, seed=SEED)
    for player in ("alice", "bob"):
        uploaded = api.upload_script(game, player, api.starter_entry(), name="starter")
        api.launch_android(game, player, uploaded.script_id)
    api.run_rounds(game, ROUNDS // 2)
    api.run_rounds(game, ROUNDS - ROUNDS // 2)  # resumed from the file's state, half way
    assert sha(game) == sha(demo_file)


def test_a_session_reports_each_round_and_can_stop_between_rounds(starter) -> None:
    spec = api.demo_spec(SEED, ROUNDS, starter)
    session = GameSession.start(spec)
    setup = list(session.events)
    assert [e.kind for e in setup] == [
        "player.joined",
        "script.uploaded",
        "android.launched",
    ] * 2
    hashes = []
    for _ in range(4):
        report = session.play_round()
        assert report.events[0] == engine.RoundStarted(report.round)
        assert report.turns == sum(isinstance(e, engine.Turn) for e in report.events) > 0
        hashes.append(session.state_hash())
    assert len(set(hashes)) == 4
    progress: list[tuple[int, int]] = []
    reports = session.play(
        ROUNDS,
        stop=lambda: session.round >= 10,
        progress=lambda done, asked: progress.append((done, asked)),
    )
    assert [r.round for r in reports] == [5, 6, 7, 8, 9, 10] and session.round == 10
    assert progress == [(i, ROUNDS) for i in range(1, 7)]
    hashes.append(session.state_hash())
    # the hash after round 10 is the hash of the same game replayed from its log
    replayed = engine.replay(engine.from_json(session.initial, spec.rules), session.events)
    assert engine.state_hash(replayed) == hashes[-1]
    # the full game picks up from there: the rest of the rounds give play_game's result
    session.play(ROUNDS - 10)
    assert session.result().state_hash == play_game(spec).state_hash
    assert session.result().points() == {s.player: s.points for s in engine.scores(session.state)}


def test_the_same_spec_gives_the_same_game_in_another_process(starter) -> None:
    here = play_game(api.demo_spec(SEED, 15, starter))
    code = (
        "from nova_tools import api; from nova_tools.play import play_game; "
        f"print(play_game(api.demo_spec({SEED}, 15)).state_hash)"
    )
    there = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True
    )
    assert there.stdout.strip() == here.state_hash


def test_a_seat_whose_script_throws_fails_its_turns_with_the_reason_code(tmp_path: Path) -> None:
    broken = api.compile_upload(
        files={
            "main.ts": "const t: AndroidTurn = () => { throw new Error('boom'); };\nexport default t;\n"
        }
    )
    spec = GameSpec(Rules(), 1, (Seat("ann", broken),), rounds=3)
    result = play_game(spec)
    turns = [e for e in result.events if isinstance(e, engine.Turn)]
    assert [(e.outcome, e.code) for e in turns] == [("error", "script-error")] * 3
    assert result.failed_turns == result.turns == 3
    android = result.state.androids["android-1"]
    assert (
        android.health
        == Rules().android.max_health
        - 3 * Rules().android.failed_turn_health_penalty
        - 3 * Rules().android.decay_per_round
    )


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            lambda s: GameSpec(Rules(), -1, (), 1),
            "seed must be a whole number from 0 to 2\\^63 - 1, not -1",
        ),
        (lambda s: GameSpec(Rules(), 1, (), -2), "at least 0"),
        (
            lambda s: GameSpec(Rules(), 1, (Seat("ann", s), Seat("ann", s)), 1),
            "each seat needs its own player",
        ),
    ],
    ids=["seed", "rounds", "same-player"],
)
def test_a_spec_that_cannot_be_played_says_why(spec, message: str, starter) -> None:
    with pytest.raises(SpecError, match=message) as caught:
        spec(starter)
    assert isinstance(caught.value, api.NovaError)


def test_a_demo_with_a_bad_seed_is_one_sentence(tmp_path: Path) -> None:
    run = nova("demo", "--dir", tmp_path, "--seed", -4, "--rounds", 1)
    assert run.code == 1
    assert (
        run.err.strip() == "nova demo: the seed must be a whole number from 0 to 2^63 - 1, not -4"
    )
    assert not (tmp_path / "demo.json").exists()


def test_status_json_of_the_demo_file_keeps_its_shape(demo_file: Path) -> None:
    status = json.loads(nova("status", "--file", demo_file, "--json").out)
    assert set(status) == {"round", "finalTurn", "players"}
    assert [p["id"] for p in status["players"]] == ["alice", "bob"]


def test_games_played_at_once_in_threads_each_get_a_sandbox_and_come_out_as_alone(starter) -> None:
    """Sandboxes are leased per turn (play.runner): threads playing at the same time do not queue
    behind one sandbox, and sharing the compiled module, bytecode and images changes no outcome."""
    alone = {seed: play_game(api.demo_spec(seed, 8, starter)).state_hash for seed in (2, 3)}
    start = threading.Barrier(3)
    hashes: dict[tuple[int, int], str] = {}

    def play(seed: int, copy: int) -> None:
        start.wait()
        hashes[(seed, copy)] = play_game(api.demo_spec(seed, 8, starter)).state_hash

    threads = [
        threading.Thread(target=play, args=(seed, copy)) for seed, copy in ((2, 0), (3, 0), (2, 1))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert hashes == {(2, 0): alone[2], (3, 0): alone[3], (2, 1): alone[2]}
    # a game played while a sandbox is in use plays on another one, not behind it
    with sandbox_lease():
        assert play_game(api.demo_spec(2, 8, starter)).state_hash == alone[2]
    assert sandboxes_made() >= 2
