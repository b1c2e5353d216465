"""Why did the opponent win? `nova status --history` shows each player's score round by round and
where the lead changed, `--round N` the standings at any round, and `nova events` says what
happened (an empty filter says so instead of printing nothing)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from nova_testing import nova, wanderer

ROUNDS = 12


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    """alice holds a processor (10 points, idle) and bob an extractor on 3 ore: alice leads
    14 to 10 after setup, bob gains 1.5 a round (3 ore at 0.5 each) and takes the lead in round 3."""
    from nova_tools import store
    from nova_tools.engine import Scenario
    from nova_tools.rules import Rules
    from nova_tools.sandbox.build import SANDBOX_BUILD

    folder = tmp_path_factory.mktemp("history")
    world = Scenario(Rules(), width=8, height=8)
    world.player("alice", charger_at=(0, 0))
    world.player("bob", charger_at=(7, 7))
    world.building("processor", "alice", (1, 0))
    world.tile(6, 7, ore=3)
    world.building("extractor", "bob", (6, 7))
    path = folder / "game.json"
    store.save(store.new_game(path, Rules(), 0, SANDBOX_BUILD, initial=world.build()))
    uploaded = nova(
        "upload", "--file", path, "--player", "alice", wanderer(folder, "alice"), "--json"
    )
    assert uploaded.code == 0, uploaded.err
    assert (
        nova(
            "launch",
            "--file",
            path,
            "--player",
            "alice",
            "--script",
            json.loads(uploaded.out)["scriptId"],
        ).code
        == 0
    )
    ran = nova("run", "--file", path, "--rounds", ROUNDS)
    assert ran.code == 0, ran.err
    return path


def bob(round_number: int) -> float:
    return 10 + 1.5 * round_number


def test_history_json_gives_each_players_score_after_every_round(game):
    result = nova("status", "--file", game, "--history", "--json")

    assert result.code == 0, result.err
    history = json.loads(result.out)
    assert history["rounds"] == list(range(ROUNDS + 1))
    scores = {p["id"]: p["scores"] for p in history["players"]}
    assert scores == {"alice": [14] * (ROUNDS + 1), "bob": [bob(r) for r in range(ROUNDS + 1)]}
    assert history["leadChanges"] == [
        {"round": 0, "leaders": ["alice"], "scores": [14, 10]},
        {"round": 3, "leaders": ["bob"], "scores": [14, 14.5]},
    ]


def test_history_text_is_a_table_plus_where_the_lead_changed(game):
    result = nova("status", "--file", game, "--history", "--every", 4)

    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[0].startswith("Scores after each round (every 4 rounds and the last")
    assert lines[1].split() == ["round", "alice", "bob"]
    assert [line.split() for line in lines[2:6]] == [
        ["0", "14", "10"],
        ["4", "14", "16"],
        ["8", "14", "22"],
        ["12", "14", "28"],
    ]
    assert "  round 0: alice leads (14 to 10)" in lines
    assert "  round 3: bob leads (14.5 to 14)" in lines
    assert f"Widest gap: 14 points, round {ROUNDS} (bob over alice)." in lines


def test_status_at_a_round_gives_the_breakdown_as_it_stood_then(game):
    result = nova("status", "--file", game, "--round", 3, "--json")

    assert result.code == 0, result.err
    status = json.loads(result.out)
    assert status["round"] == 3
    lines = {p["id"]: {b["source"]: b["points"] for b in p["breakdown"]} for p in status["players"]}
    assert lines == {
        "alice": {"buildings.charger": 4, "buildings.processor": 10},
        "bob": {"buildings.charger": 4, "buildings.extractor": 6, "materials.ore": 4.5},
    }
    text = nova("status", "--file", game, "--round", 0).out
    assert "Round 0" in text and "bob: buildings.charger 4, buildings.extractor 6" in text


def test_status_at_a_round_the_game_has_not_reached_is_one_sentence(game):
    result = nova("status", "--file", game, "--round", ROUNDS + 1)

    assert result.code == 1
    assert (
        result.err.strip()
        == f"nova status: {game} has no round {ROUNDS + 1} (it has rounds 0-{ROUNDS})"
    )


def test_an_empty_failed_filter_says_there_is_nothing_to_show(game):
    everything = nova("events", "--file", game, "--failed")
    in_a_round = nova("events", "--file", game, "--failed", "--round", 2)
    past_the_end = nova("events", "--file", game, "--offset", 500)

    total = json.loads(nova("events", "--file", game, "--json").out)["logLength"]
    assert everything.code == in_a_round.code == past_the_end.code == 0
    assert everything.out == f"No failed turns (the log holds {total} events).\n"
    assert in_a_round.out == f"No failed turns in round 2 (the log holds {total} events).\n"
    assert (
        past_the_end.out
        == f"No events from offset 500: the {total} matching events are at offsets 0-{total - 1}.\n"
    )


def test_events_say_what_a_round_end_produced(game):
    text = nova("events", "--file", game, "--round", 2).out.splitlines()
    page = json.loads(nova("events", "--file", game, "--round", 2, "--json").out)

    assert text[0] == "r2 round started"
    assert text[-1] == "r2 round ended: bob's extractor building-4 extracted 3 ore"
    assert [e["text"] for e in page["events"]] == text  # --json carries the same words
    assert page["events"][-1]["production"] == [
        {
            "building": "building-4",
            "buildingType": "extractor",
            "owner": "bob",
            "extracted": {"ore": 3},
        }
    ]


def test_a_game_file_written_before_the_details_reads_in_words(tmp_path):
    """tests/cli/fixtures/sandbox-2-game.json was written before events carried their details."""
    import shutil

    old = tmp_path / "old.json"
    shutil.copyfile(Path(__file__).parent / "fixtures" / "sandbox-2-game.json", old)

    lines = nova("events", "--file", old, "--limit", 500).out.splitlines()
    history = nova("status", "--file", old, "--history", "--json")

    assert lines[0].startswith("alice joined in seat 1, with the initial charger building-1 at (")
    assert "r10 round ended" in lines
    assert all(
        line and "=" not in line for line in lines
    )  # every event in words, none as raw fields
    assert history.code == 0 and json.loads(history.out)["rounds"] == list(range(11))


def test_nova_events_filters_by_round_range_action_and_outcome_and_shows_notes_only_when_asked(
    tmp_path,
):
    import shutil

    old = tmp_path / "old.json"
    shutil.copyfile(Path(__file__).parent / "fixtures" / "sandbox-2-game.json", old)
    every = json.loads(nova("events", "--file", old, "--limit", 500, "--json", "--notes").out)[
        "events"
    ]

    ranged = json.loads(
        nova(
            "events",
            "--file",
            old,
            "--from-round",
            3,
            "--to-round",
            4,
            "--action",
            "move",
            "--limit",
            500,
            "--json",
        ).out
    )["events"]
    accepted = json.loads(
        nova(
            "events",
            "--file",
            old,
            "--android",
            "android-2",
            "--outcome",
            "accepted",
            "--limit",
            500,
            "--json",
        ).out
    )
    plain = nova("events", "--file", old, "--android", "android-2", "--limit", 2)
    noted = nova("events", "--file", old, "--android", "android-2", "--limit", 2, "--notes")
    wrong = nova("events", "--file", old, "--action", "fly")

    moves = [
        e["index"]
        for e in every
        if e["type"] == "turn" and e["action"]["type"] == "android.move" and 3 <= e["round"] <= 4
    ]
    assert moves and [e["index"] for e in ranged] == moves
    assert not [
        e for e in ranged if {"memory", "recording"} & set(e["action"])
    ]  # notes left out unless asked
    mine = [
        e["index"]
        for e in every
        if e.get("android") == "android-2" and e.get("outcome") == "accepted"
    ]
    assert (
        mine and [e["index"] for e in accepted["events"]] == mine and accepted["total"] == len(mine)
    )
    assert (
        plain.out.splitlines()[1] == "r1 bob's android-2 moved east to (11,2)"
        and "memory" not in plain.out
    )
    assert "  memory: seen 20\n  recording: round 1\n" in noted.out
    assert any("memory" in e["action"] for e in every if e["type"] == "turn")
    assert (
        wrong.code != 0
        and "'fly' is not an action type; the types are android.wait" in wrong.err
        and "Traceback" not in wrong.err
    )


def test_the_events_of_one_android_end_with_why_it_fell(tmp_path):
    """An android that walks into the west edge every turn from a charger on acid: its own events
    are its failed turns, the acid it took at each round end, and the round end that destroyed it;
    `nova android` says when and why the wreck fell."""
    from nova_tools import store
    from nova_tools.engine import Scenario
    from nova_tools.rules import Rules
    from nova_tools.sandbox.build import SANDBOX_BUILD

    world = Scenario(Rules(), width=6, height=6)
    world.player("alice", charger_at=(0, 0))
    world.tile(0, 0, acid=2)
    path = tmp_path / "game.json"
    store.save(store.new_game(path, Rules(), 0, SANDBOX_BUILD, initial=world.build()))
    script = tmp_path / "west.ts"
    script.write_text(
        "const west: AndroidTurn = () => ({ type: 'android.move', direction: 'west' });\nexport default west;\n"
    )
    assert nova("upload", "--file", path, "--player", "alice", script).code == 0
    assert nova("launch", "--file", path, "--player", "alice", "--script", "script-1").code == 0
    ran = nova("run", "--file", path, "--rounds", 12)
    assert ran.code == 0, ran.err
    summary, hint = ran.out.splitlines()
    assert summary.startswith(
        "Played rounds 1-12: 8 turns, 8 failed, 1 android destroyed: android-1 ("
    )
    assert (
        hint
        == f"See why: nova events --file {path} --failed    nova android --file {path} android-1"
    )

    lines = nova(
        "events", "--file", path, "--android", "android-1", "--limit", 100
    ).out.splitlines()

    assert lines[0] == "alice launched android-1 running script-1 on building-1"
    assert lines[1].startswith("r1 alice's android-1 FAILED android.move [off-map]")
    assert lines[2] == "r1 round ended: alice's android-1 took 3 acid damage"
    assert lines[-1].startswith(
        "r8 round ended: alice's android-1 took 3 acid damage; alice's android-1 destroyed (health ran out)"
    )
    assert not any(line.startswith("r9") for line in lines)
    wreck = nova("android", "--file", path, "android-1").out.splitlines()
    assert wreck[0] == "android-1 of alice (wreck), script script-1"
    assert (
        wreck[1]
        == f"  destroyed at the end of round 8: health ran out (its events: nova events --file {path} --android android-1)"
    )
