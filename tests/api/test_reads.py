"""The api's reads of a game, in process: typed results whose to_json() is the documented shape,
frames that replay a game moment by moment, a player's world now or after any round, the log
with notes whole, and a folder of games."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from nova_testing import nova, shown

from nova_tools import api, engine, store

ROUNDS = 24


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    """The starter against a script that fails every third turn, 24 rounds."""
    folder = tmp_path_factory.mktemp("reads")
    path = folder / "game.json"
    api.create_game(path, seed=11)
    starter = api.upload_script(path, "bob", api.starter_entry(), name="starter")
    flaky = api.upload_script(
        path,
        "ann",
        files={
            "main.ts": (
                "const t: AndroidTurn = () => {\n"
                "  if (turn % 3 === 0) throw new Error('boom ' + turn);\n"
                "  return { type: 'android.wait', memory: 'seen round ' + turn + ' '.repeat(40) + '!', recording: 'r'.repeat(30 + turn) };\n"
                "};\nexport default t;\n"
            )
        },
        entry_name="main.ts",
    )
    api.launch_android(path, "ann", flaky.script_id)
    api.launch_android(path, "bob", starter.script_id)
    api.run_rounds(path, ROUNDS)
    return path


def test_to_json_gives_the_documented_cli_shapes(game: Path, tmp_path: Path) -> None:
    status = api.status(game).to_json()
    assert list(status) == ["round", "finalTurn", "players"]
    assert list(status["players"][0]) == ["id", "score", "breakdown", "activeAndroids", "wrecks"]
    assert status == json.loads(nova("status", "--file", game, "--json").out)
    report = api.android_report(game, "android-1").to_json()
    assert list(report) == [
        "id",
        "ownerId",
        "scriptId",
        "position",
        "battery",
        "health",
        "active",
        "cargo",
        "memory",
        "recording",
    ]
    assert report == json.loads(nova("android", "--file", game, "android-1", "--json").out)
    copy = tmp_path / "copy.json"
    shutil.copy(game, copy)
    assert api.run_rounds(copy, 1).to_json().keys() == {
        "rounds",
        "firstRound",
        "lastRound",
        "turns",
        "failedTurns",
        "destroyed",
    }
    created = api.create_game(tmp_path / "new.json", seed=4).to_json()
    assert created == {
        "file": str(tmp_path / "new.json"),
        "seed": 4,
        "width": 12,
        "height": 12,
        "finalTurn": None,
    }


def test_scores_keep_the_number_type_the_game_gave_them(game: Path) -> None:
    for player in api.status(game).to_json()["players"]:
        points = [player["score"]] + [line["points"] for line in player["breakdown"]]
        as_engine = [s for s in engine.scores(store.load(game).state) if s.player == player["id"]][
            0
        ]
        assert points == [as_engine.points] + [c.points for c in as_engine.breakdown]
        assert [type(p) for p in points] == [type(as_engine.points)] + [
            type(c.points) for c in as_engine.breakdown
        ]


def test_frames_step_through_the_game_round_by_round(game: Path) -> None:
    frames = list(api.replay_frames(game))
    assert [f.round for f in frames] == list(range(ROUNDS + 1))  # setup, then every round
    setup = frames[0]
    assert [e["type"] for e in shown(setup)].count("android.launched") == 2 and not setup.androids[
        0
    ].cargo
    last = frames[-1]
    assert {p.id: p.score for p in last.players} == {
        p.id: p.score for p in api.status(game).players
    }
    assert all(e["round"] == 5 for e in shown(frames[5]))
    assert [e["type"] for e in shown(frames[5])][0] == "round.started" and shown(frames[5])[-1][
        "type"
    ] == "round.ended"
    # the frames are the whole board: every tile with something on or in it, every android
    state = store.load(game).state
    assert len(last.tiles) == sum(1 for t in state.tiles if t.composition or t.scattered)
    assert [a.id for a in last.androids] == list(state.androids)


def test_frames_per_turn_and_a_window_of_rounds(game: Path) -> None:
    window = list(api.replay_frames(game, first_round=3, last_round=4, per_turn=True))
    log = shown(store.load(game))
    turns = {r: sum(1 for e in log if e["type"] == "turn" and e["round"] == r) for r in (3, 4)}
    assert [(f.round, f.turn) for f in window] == [(3, n) for n in range(1, turns[3] + 1)] + [
        (3, None)
    ] + [(4, n) for n in range(1, turns[4] + 1)] + [(4, None)]
    assert [e["type"] for e in shown(window[0])] == ["round.started", "turn"]
    with pytest.raises(api.ApiError, match=f"has no round {ROUNDS + 5}"):
        list(api.replay_frames(game, first_round=ROUNDS + 5))


def test_a_players_world_after_a_round_is_the_world_of_the_game_stopped_there(
    game: Path, tmp_path: Path
) -> None:
    # the same game played to round 10 only
    short = tmp_path / "short.json"
    copy = store.load(game)
    end = next(
        i for i, e in enumerate(shown(copy)) if e["type"] == "round.started" and e["round"] == 11
    )
    copy.path, copy.events = short, copy.events[:end]
    copy.state = engine.replay(engine.from_json(copy.initial, copy.rules), copy.events)
    store.save(copy)
    then = api.player_world(game, "bob", round=10)
    assert then == api.player_world(short, "bob")
    assert then.round == 10 and then != api.player_world(game, "bob")
    assert then.yours.androids and then.loose == _loose(then)
    with pytest.raises(api.ApiError, match="has no round 99"):
        api.player_world(game, "bob", round=99)
    with pytest.raises(api.UnknownPlayer):
        api.player_world(game, "zed")


def _loose(world: api.PlayerWorld) -> dict[str, int]:
    totals: dict[str, int] = {}
    for tile in world.tiles:
        for material, units in tile.scattered.items():
            totals[material] = totals.get(material, 0) + units
    return totals


def test_events_with_notes_whole_show_what_the_script_returned(game: Path) -> None:
    logged = api.events_page(game, android="android-1", limit=500)
    whole = api.events_page(game, android="android-1", limit=500, notes="whole")
    assert any("memoryEdits" in (e.get("action") or {}) for e in shown(logged)), (
        "the log keeps some notes as edits"
    )
    for event in shown(whole):
        action = event.get("action") or {}
        assert not {k for k in action if k.endswith("Edits")}
        if event["type"] == "turn" and event["outcome"] == "accepted":
            assert action["memory"] == f"seen round {event['round']}" + " " * 40 + "!"
            assert action["recording"] == "r" * (30 + event["round"])
    # redacted for another player, whole or not
    as_bob = api.events_page(game, android="android-1", limit=500, notes="whole", player="bob")
    assert {e["action"]["memory"] for e in shown(as_bob) if e.get("action")} == {"[Redacted]"}


def test_failed_turns_carry_their_reason_code(game: Path) -> None:
    page = api.events_page(game, failed_only=True, limit=500)
    assert page.events and all(api.failed_turn(line.event) for line in page.events)
    failed = shown(page)
    assert {(e["android"], e["code"]) for e in failed} == {("android-1", api.Reason.SCRIPT_ERROR)}
    assert len(failed) == ROUNDS // 3


def test_a_folder_lists_its_games_and_says_which_cannot_be_read(game: Path, tmp_path: Path) -> None:
    shutil.copy(game, tmp_path / "duel.json")
    (tmp_path / "broken.json").write_text(
        '{"format": "nova-game", "version": 1, "rules"', encoding="utf-8"
    )
    (tmp_path / "not a name.json").write_text("{}", encoding="utf-8")
    folder = api.GameFolder.at(tmp_path)
    entries = folder.games()
    assert [e.name for e in entries] == ["broken", "duel"]
    assert (
        entries[0].summary is None
        and "looks truncated" in entries[0].problem
        and str(tmp_path) not in entries[0].problem
    )
    assert entries[1].summary == api.game_summary(game) and entries[1].summary.round == ROUNDS
    assert api.game_rules(folder.existing("duel")) == store.load(game).rules
    with pytest.raises(api.BadName, match="without .json"):
        folder.path("duel.json")
    with pytest.raises(api.BadName):
        folder.path("../duel")
    with pytest.raises(api.ApiError, match="there is no game 'nope' \\(games: broken, duel\\)"):
        folder.existing("nope")


def test_every_user_error_is_a_nova_error() -> None:
    from nova_tools.rules import RulesError
    from nova_tools.sandbox import SandboxUnavailable
    from nova_tools.starter import ScaffoldError
    from nova_tools.toolchain.diagnostics import CompileError
    from nova_tools.toolchain.paths import ToolchainMissing
    from nova_tools.toolchain.setup import SetupError

    for error in (
        api.ApiError,
        store.GameFileError,
        RulesError,
        api.Refusal,
        CompileError,
        ToolchainMissing,
        SetupError,
        ScaffoldError,
        SandboxUnavailable,
    ):
        assert issubclass(error, api.NovaError), error
    assert api.USER_ERRORS == (api.NovaError,)


def test_the_command_line_starts_without_the_sandbox() -> None:
    code = "import sys, nova_tools.cli, nova_tools.errors; print(sorted(m for m in ('wasmtime', 'nova_tools.sandbox') if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    assert out.strip() == "[]"
