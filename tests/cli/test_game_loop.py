"""The player's loop end to end with the real `nova` command: two players with the starter
android play 100 rounds, both score, and a second process reproduces it byte for byte."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from nova_testing import REPO, nova, sha, wanderer

from nova_tools.rules import BUILDING_TYPES, Rules

STARTER = REPO / "nova_tools" / "starter" / "src" / "main.ts"


def play_starter_game(folder: Path, rounds: int = 100, seed: int = 7) -> tuple[Path, str]:
    game = folder / "game.json"
    assert nova("create-game", "--file", game, "--seed", seed).code == 0
    for player in ("alice", "bob"):
        uploaded = nova("upload", "--file", game, "--player", player, STARTER, "--json")
        assert uploaded.code == 0, uploaded.err
        script = json.loads(uploaded.out)["scriptId"]
        launched = nova("launch", "--file", game, "--player", player, "--script", script, "--json")
        assert launched.code == 0, launched.err
    ran = nova("run", "--file", game, "--rounds", rounds, "--json")
    assert ran.code == 0, ran.err
    status = nova("status", "--file", game, "--json")
    assert status.code == 0
    return game, status.out


@pytest.fixture(scope="module")
def two_games(tmp_path_factory):
    first = play_starter_game(tmp_path_factory.mktemp("first"))
    second = play_starter_game(tmp_path_factory.mktemp("second"))
    return first, second


def test_two_starter_androids_both_build_and_score_beyond_their_initial_charger_in_100_rounds(
    two_games,
):
    (_, status_text), _ = two_games
    status = json.loads(status_text)
    initial_charger = Rules().scoring.buildings.charger  # every player starts with these points
    assert status["round"] == 100
    for player in status["players"]:
        lines = {line["source"]: line["points"] for line in player["breakdown"]}
        assert player["score"] == pytest.approx(sum(lines.values()))
        assert player["score"] > initial_charger, player
        # the starter builds (a depot first) and stores material in what it built
        assert lines["buildings.charger"] == initial_charger
        assert (set(lines) - {"buildings.charger"}) & {f"buildings.{t}" for t in BUILDING_TYPES}, (
            player
        )
        assert any(source.startswith("materials.") for source in lines), player


def test_a_second_process_gives_a_byte_identical_game_file_and_status(two_games):
    (game_a, status_a), (game_b, status_b) = two_games
    assert game_a.read_bytes() == game_b.read_bytes()
    assert status_a == status_b


def test_scripts_see_finalturn_from_the_rules(tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text('{ "match": { "finalRound": 20 } }')
    game = tmp_path / "game.json"
    assert nova("create-game", "--file", game, "--rules", rules).code == 0
    bot = tmp_path / "deadline.ts"
    bot.write_text(
        "const t: AndroidTurn = () => ({ type: 'android.wait', recording: `turn ${turn} of ${finalTurn}, ${typeof finalTurn}` });\n"
        "export default t;\n"
    )
    assert nova("upload", "--file", game, "--player", "p", bot).code == 0
    assert nova("launch", "--file", game, "--player", "p", "--script", "script-1").code == 0
    assert nova("run", "--file", game, "--rounds", 3).code == 0
    android = json.loads(nova("android", "--file", game, "android-1", "--json").out)
    assert android["recording"] == "turn 3 of 20, number"
    rules.write_text("{}")
    plain = tmp_path / "plain.json"
    assert nova("create-game", "--file", plain, "--rules", rules).code == 0
    assert nova("upload", "--file", plain, "--player", "p", bot).code == 0
    assert nova("launch", "--file", plain, "--player", "p", "--script", "script-1").code == 0
    assert nova("run", "--file", plain, "--rounds", 1).code == 0
    assert (
        json.loads(nova("android", "--file", plain, "android-1", "--json").out)["recording"]
        == "turn 1 of undefined, undefined"
    )


def test_concurrent_writers_are_serialised_and_the_file_stays_whole(tmp_path):
    game = tmp_path / "game.json"
    assert nova("create-game", "--file", game).code == 0
    bot = wanderer(tmp_path)
    assert nova("upload", "--file", game, "--player", "alice", bot).code == 0
    assert nova("launch", "--file", game, "--player", "alice", "--script", "script-1").code == 0
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "nova_tools.cli", "run", "--file", str(game), "--rounds", "15"],
            stderr=subprocess.PIPE,
        )
        for _ in range(3)
    ]
    uploads = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "nova_tools.cli",
                "upload",
                "--file",
                str(game),
                "--player",
                f"p{i}",
                str(bot),
            ],
            stderr=subprocess.PIPE,
        )
        for i in range(2)
    ]
    for proc in runs + uploads:
        assert proc.wait(timeout=300) == 0, proc.stderr.read()
    status = json.loads(nova("status", "--file", game, "--json").out)
    assert status["round"] == 45  # no run lost another's rounds
    assert sorted(p["id"] for p in status["players"]) == ["alice", "p0", "p1"]
    assert not list(tmp_path.glob(".game.json.*.tmp"))


def test_dry_run_reports_acceptance_and_refusal_without_touching_the_game(tmp_path):
    game = tmp_path / "game.json"
    assert nova("create-game", "--file", game).code == 0
    assert nova("upload", "--file", game, "--player", "alice", wanderer(tmp_path)).code == 0
    assert nova("launch", "--file", game, "--player", "alice", "--script", "script-1").code == 0
    before = sha(game)
    ok = nova("dry-run", wanderer(tmp_path, "ok"), "--file", game, "--json")
    assert ok.code == 0, ok.err
    assert json.loads(ok.out)["accepted"] is True
    off = tmp_path / "off.ts"
    off.write_text(
        "const t: AndroidTurn = () => {\n"
        "  const me = world.androids.find((a) => a.id === androidId)!;\n"
        "  return me.position.y === 0 ? { type: 'android.move', direction: 'north' }\n"
        "    : { type: 'android.dismantle', targetAndroidId: androidId };\n"
        "};\nexport default t;\n"
    )
    refused = nova("dry-run", off)
    assert refused.code == 2
    assert "REFUSE" in refused.out and "costs 10 health" in refused.out
    assert sha(game) == before


def test_a_hostile_script_fails_its_turns_with_a_reason_and_the_game_goes_on(tmp_path):
    game = tmp_path / "game.json"
    assert nova("create-game", "--file", game).code == 0
    looper = tmp_path / "looper.ts"
    looper.write_text("const t: AndroidTurn = () => { while (true) {} };\nexport default t;\n")
    assert nova("upload", "--file", game, "--player", "mallory", looper).code == 0
    assert nova("upload", "--file", game, "--player", "alice", wanderer(tmp_path)).code == 0
    assert nova("launch", "--file", game, "--player", "mallory", "--script", "script-1").code == 0
    assert nova("launch", "--file", game, "--player", "alice", "--script", "script-2").code == 0
    ran = json.loads(nova("run", "--file", game, "--rounds", 2, "--json").out)
    assert ran["failedTurns"] == 2 and ran["turns"] == 4
    failed = json.loads(nova("events", "--file", game, "--failed", "--json").out)["events"]
    assert [(e["android"], e["code"], e["reason"], e["ticks"]) for e in failed] == [
        ("android-1", "out-of-fuel", "ran out of fuel (200 ticks)", 201)
    ] * 2
    mallory = json.loads(nova("android", "--file", game, "android-1", "--json").out)
    assert mallory["health"] == 100 - 2 * 10 - 2 * 0.15 and mallory["active"]
    text = nova("events", "--file", game, "--failed").out
    assert "r1 mallory's android-1 FAILED [out-of-fuel] ran out of fuel (200 ticks)" in text
