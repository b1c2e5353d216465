"""The viewer's reads: a timeline's changes rebuild every frame ``replay_frames`` gives (whole,
per turn, and fogged as ``player_world`` shows a player), an android at any moment with its last
turn, the score at any round, and a run played to its arrival round."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from nova_testing import nova, shown

from nova_tools import api

ROUNDS = 16


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    """The starter against a walker that runs off the map (refused moves), with a third android
    launched between runs (a setup moment mid-game)."""
    folder = tmp_path_factory.mktemp("timeline")
    path = folder / "game.json"
    api.create_game(path, seed=5)
    starter = api.upload_script(path, "bob", api.starter_entry(), name="starter")
    walker = api.upload_script(
        path,
        "ann",
        files={
            "main.ts": (
                "const t: AndroidTurn = () => {\n"
                "  if (turn % 5 === 0) throw new Error('secret ' + turn);\n"
                "  return { type: 'android.move', direction: 'west', memory: 'm' + turn, recording: 'walked ' + turn };\n"
                "};\nexport default t;\n"
            )
        },
        entry_name="main.ts",
    )
    api.launch_android(path, "ann", walker.script_id)
    api.launch_android(path, "bob", starter.script_id)
    api.run_rounds(path, ROUNDS // 2)
    api.launch_android(path, "ann", walker.script_id)
    api.run_rounds(path, ROUNDS // 2)
    return path


def rebuild(timeline: api.Timeline, base: dict | None = None) -> list[dict]:
    """Apply a timeline's changes in order (what the page does), giving each frame whole."""
    current = base or {"tiles": {}, "androids": {}, "buildings": {}, "players": []}
    frames = []
    for change in timeline.to_json()["frames"]:
        tiles = dict(current["tiles"])
        for gone in change["tilesGone"]:
            del tiles[(gone["x"], gone["y"])]
        for tile in change["tiles"]:
            tiles[(tile["position"]["x"], tile["position"]["y"])] = tile
        androids = {k: v for k, v in current["androids"].items() if k not in change["androidsGone"]}
        androids.update({a["id"]: a for a in change["androids"]})
        buildings = {
            k: v for k, v in current["buildings"].items() if k not in change["buildingsGone"]
        }
        buildings.update({b["id"]: b for b in change["buildings"]})
        players = change["players"] if change["players"] is not None else current["players"]
        current = {
            "round": change["round"],
            "turn": change["turn"],
            "tiles": tiles,
            "androids": androids,
            "buildings": buildings,
            "players": players,
        }
        frames.append(current)
    return frames


def whole(frame: api.Frame) -> dict:
    data = frame.to_json()
    return {
        "round": data["round"],
        "turn": data["turn"],
        "tiles": {
            (t["position"]["x"], t["position"]["y"]): {**t, "revealedBy": []}
            for t in data["tiles"]
            if t["composition"] or t["scattered"]
        },
        "androids": {a["id"]: a for a in data["androids"]},
        "buildings": {b["id"]: b for b in data["buildings"]},
        "players": data["players"],
    }


def test_the_timeline_rebuilds_every_frame_of_the_replay(game: Path) -> None:
    expected = [whole(f) for f in api.replay_frames(game)]
    rebuilt = rebuild(api.replay_timeline(game))
    assert (
        len(rebuilt) == len(expected) == ROUNDS + 2
    )  # setup, each round, and the launch between runs
    for mine, theirs in zip(rebuilt, expected, strict=True):
        assert mine == theirs, f"frame of round {theirs['round']} differs"
    # and it is small: most frames change a few androids, not the board
    changes = api.replay_timeline(game).frames[1:]
    assert sum(len(c.tiles) for c in changes) < len(changes) * 3


def test_turn_by_turn_frames_start_from_the_round_before(game: Path) -> None:
    rounds = rebuild(api.replay_timeline(game))
    base = [f for f in rounds if f["round"] == 10][-1]
    turns = rebuild(api.replay_timeline(game, per_turn=True, first_round=11, last_round=11), base)
    expected = [
        whole(f) for f in api.replay_frames(game, first_round=11, last_round=11, per_turn=True)
    ]
    assert [f["turn"] for f in turns] == [*range(1, len(turns)), None] and len(turns) >= 3
    assert turns == expected
    assert turns[-1] == [f for f in rounds if f["round"] == 11][0]


def test_a_fogged_timeline_is_what_the_player_saw_each_round(game: Path) -> None:
    frames = rebuild(api.replay_timeline(game, player="ann"))
    by_round = {f["round"]: f for f in frames}  # the last frame of each round
    for round, frame in by_round.items():
        world = api.player_world(game, "ann", round).to_json()
        assert {(t["position"]["x"], t["position"]["y"]) for t in world["tiles"]} == set(
            frame["tiles"]
        ), round
        for tile in world["tiles"]:
            assert frame["tiles"][(tile["position"]["x"], tile["position"]["y"])][
                "revealedBy"
            ] == tile.get("revealedBy", [])
        seen = {a["id"] for a in world["androids"]} | {a["id"] for a in world["yours"]["androids"]}
        assert set(frame["androids"]) == seen, round
        assert set(frame["buildings"]) == {b["id"] for b in world["buildings"]} | {
            b["id"] for b in world["yours"]["buildings"]
        }
    assert all(f["players"] == [] for f in frames)  # scores are in the whole timeline
    # ann never sees most of the board
    assert len(by_round[ROUNDS]["tiles"]) < 144


def test_an_android_at_the_end_is_what_nova_android_says(game: Path) -> None:
    moment = api.android_at(game, "android-2", round=ROUNDS).to_json()
    report = json.loads(nova("android", "--file", game, "android-2", "--json").out)
    assert {k: moment[k] for k in report} == report
    assert moment["lastTurn"]["round"] == ROUNDS
    assert moment["lastTurn"]["outcome"] == "accepted"


def test_an_android_mid_game_shows_its_state_then_and_its_last_refusal(game: Path) -> None:
    frames = {f.round: f for f in api.replay_frames(game)}
    for round in (3, 9, ROUNDS):
        moment = api.android_at(game, "android-1", round=round)
        then = next(a for a in frames[round].androids if a.id == "android-1")
        assert (moment.battery, moment.health, moment.position) == (
            then.battery,
            then.health,
            then.position,
        )
    # the walker heads west until the edge refuses it: a refused turn with its code and reason
    refused = [
        e
        for e in shown(api.events_page(game, android="android-1", failed_only=True, limit=500))
        if e["outcome"] == "refused"
    ]
    assert refused, "the walker should have been refused at the edge"
    first = refused[0]
    moment = api.android_at(game, "android-1", round=first["round"])
    assert moment.last_turn is not None
    assert (moment.last_turn.outcome, moment.last_turn.code) == ("refused", "off-map")
    assert moment.last_turn.reason == first["reason"]
    assert moment.last_turn.action == {
        "type": "android.move",
        "direction": "west",
    }  # the notes are the android's own fields


def test_an_android_after_one_turn_and_as_another_player_reads_it(game: Path) -> None:
    turn_frames = list(api.replay_frames(game, first_round=5, last_round=5, per_turn=True))
    acting = [f for f in turn_frames if f.turn == 1][0]
    first = shown(acting)[-1]["android"]
    moment = api.android_at(game, first, round=5, turn=1)
    assert moment.last_turn is not None and moment.last_turn.round == 5
    # android-1 threw on round 5: its owner reads the error, bob reads it redacted
    own = api.android_at(game, "android-1", round=5, player="ann")
    other = api.android_at(game, "android-1", round=5, player="bob")
    assert own.last_turn.outcome == other.last_turn.outcome == "error"
    assert "secret 5" in own.last_turn.reason
    assert other.last_turn.reason == "[Redacted]"
    assert other.memory == other.recording == "[Redacted]"
    accepted = [
        e["round"]
        for e in shown(api.events_page(game, android="android-1", limit=500))
        if e["type"] == "turn" and e["round"] <= 5 and e["outcome"] == "accepted"
    ]
    assert own.memory == f"m{max(accepted)}"  # failed turns keep the notes of the last accepted one


def test_android_at_refuses_what_is_not_there(game: Path) -> None:
    with pytest.raises(api.ApiError, match="no android 'android-99'"):
        api.android_at(game, "android-99", round=1)
    late = [
        e
        for e in shown(api.events_page(game, limit=500, offset=None))
        if e["type"] == "android.launched"
    ][-1]["android"]
    with pytest.raises(api.ApiError, match="had not been launched by round 2"):
        api.android_at(game, late, round=2)
    with pytest.raises(api.ApiError, match="no round 99"):
        api.android_at(game, "android-1", round=99)
    with pytest.raises(api.ApiError, match="has no turn 40"):
        api.android_at(game, "android-1", round=3, turn=40)
    with pytest.raises(api.UnknownPlayer):
        api.replay_timeline(game, player="zed")


def test_status_at_a_round_is_the_score_replayed_to_it(game: Path) -> None:
    frames = {f.round: f for f in api.replay_frames(game)}
    for round in (0, 4, ROUNDS):
        status = api.status_at(game, round).to_json()
        assert status["round"] == round
        assert [(p["id"], p["score"], p["breakdown"]) for p in status["players"]] == [
            (p.id, p.score, [line.to_json() for line in p.breakdown]) for p in frames[round].players
        ]
    assert api.status_at(game, ROUNDS) == api.status(game)
    cli = nova("status", "--file", game, "--round", "4", "--json")
    assert json.loads(cli.out) == api.status_at(game, 4).to_json()
    refused = nova("status", "--file", game, "--round", "99")
    assert refused.code == 1 and "has no round 99 (it has rounds 0-16)" in refused.err


def test_a_run_plays_to_its_arrival_round_and_keeps_the_game(tmp_path: Path) -> None:
    progress = []
    played = api.play_run(
        tmp_path / "run.json",
        [("ann", api.starter_entry()), ("bob", api.starter_entry())],
        rounds=6,
        seed=2,
        width=10,
        height=9,
        progress=lambda done, total: progress.append((done, total)),
    )
    assert progress == [(n, 6) for n in range(1, 7)]
    assert (played.rounds, played.final_turn, played.width, played.height) == (6, 6, 10, 9)
    saved = json.loads((tmp_path / "run.json").read_text())
    assert saved["rules"]["match"]["finalRound"] == 6
    assert saved["rules"]["world"]["width"] == 10
    assert [p.to_json() for p in played.players] == api.status(tmp_path / "run.json").to_json()[
        "players"
    ]
    with pytest.raises(api.ApiError, match="already exists"):
        api.play_run(tmp_path / "run.json", [("ann", api.starter_entry())], rounds=2)
    # the round count was a real deadline: the run cannot be continued (rulebook 1.1)
    assert saved["run"] == {"rounds": 6}
    before = (tmp_path / "run.json").read_bytes()
    refused = nova("run", "--file", tmp_path / "run.json", "--rounds", "1")
    assert refused.code == 1
    assert refused.err.strip() == (
        f"nova run: {tmp_path / 'run.json'} is a run played to its arrival round in the browser lab; a run cannot be continued "
        "once it has run (start a new game with `nova create-game`, or play a new run)"
    )
    assert (
        nova(
            "launch", "--file", tmp_path / "run.json", "--player", "ann", "--script", "script-1"
        ).code
        == 1
    )
    assert (tmp_path / "run.json").read_bytes() == before


def test_a_stopped_run_writes_nothing(tmp_path: Path) -> None:
    asked = []

    def stop() -> bool:
        asked.append(True)
        return len(asked) > 3

    with pytest.raises(api.ApiError, match="stopped after round 3 of 50; nothing was written"):
        api.play_run(
            tmp_path / "stopped.json", [("ann", api.starter_entry())], rounds=50, stop=stop
        )
    assert not (tmp_path / "stopped.json").exists()
    with pytest.raises(api.ApiError, match="each seat needs its own player id"):
        api.play_run(
            tmp_path / "twice.json",
            [("ann", api.starter_entry()), ("ann", api.starter_entry())],
            rounds=2,
        )
    with pytest.raises(api.ApiError, match="from 1 to 10000 rounds"):
        api.play_run(tmp_path / "zero.json", [("ann", api.starter_entry())], rounds=0)
