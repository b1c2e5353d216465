"""A player's replay keeps the other players' script source, memory, recording and thrown text
out, in this process (so the mutation run sees it; tests/cli/test_reports.py runs `nova replay
export` itself)."""

from __future__ import annotations

import json

import pytest
from nova_testing import shown

from nova_tools import api, store
from nova_tools.engine import Scenario
from nova_tools.rules import Rules
from nova_tools.sandbox.build import SANDBOX_BUILD

ALICE = "alice-memory-5150"
BOB_MEMORY, BOB_LOG, BOB_SOURCE, BOB_THROWN = (
    "bob-memory-4242",
    "bob-recording-9001",
    "bob-source-3141",
    "bob-thrown-2718",
)


def keeper(memory: str, recording: str, marker: str = "") -> str:
    # an export, so the bundle keeps it (a comment would be stripped, and the check made vacuous)
    return (
        f"export const marker = '{marker}';\nconst t: AndroidTurn = () => ({{ type: 'android.wait', memory: '{memory}', "
        f"recording: '{recording} ' + turn }});\nexport default t;\n"
    )


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("replay") / "game.json"
    api.create_game(path, seed=5)
    sources = [
        ("alice", keeper(ALICE, "alice-log")),
        ("bob", keeper(BOB_MEMORY, BOB_LOG, BOB_SOURCE)),
        (
            "bob",
            f"const t: AndroidTurn = () => {{ throw new Error('{BOB_THROWN}'); }};\nexport default t;\n",
        ),
    ]
    for player, source in sources:
        script = api.upload_script(
            path, player, files={"main.ts": source}, entry_name="main.ts"
        ).script_id
        api.launch_android(path, player, script)
    api.run_rounds(path, 3)
    return path


def test_alices_replay_hides_everything_bob_wrote_and_keeps_hers(game):
    replay = api.replay_export(game, "alice")
    text = json.dumps(replay)

    for secret in (BOB_MEMORY, BOB_LOG, BOB_SOURCE, BOB_THROWN):
        assert secret not in text, secret
    assert ALICE in text and "alice-log 3" in text
    scripts = replay["scripts"]
    assert [s["bundle"] == "[Redacted]" for s in scripts.values()] == [False, True, True]
    # a source map names the player's files: hers is kept, bob's are left out with his code
    assert ["sourceMap" in s for s in scripts.values()] == [True, False, False]
    final = {a["ownerId"]: a for a in replay["final"]["androids"]}
    assert final["alice"]["memory"] == ALICE and final["bob"]["memory"] == "[Redacted]"
    assert replay["player"] == "alice" and replay["format"] == "nova-replay"


def test_bobs_replay_is_his_own_view(game):
    text = json.dumps(api.replay_export(game, "bob"))

    assert (
        BOB_MEMORY in text and BOB_SOURCE in text and BOB_THROWN in text
    )  # so alice's check could fail
    assert ALICE not in text


def test_a_replay_for_nobody_in_the_game_is_refused(game):
    with pytest.raises(api.USER_ERRORS, match="mallory"):
        api.replay_export(game, "mallory")


def test_in_alices_replay_her_turns_keep_her_notes_and_bobs_keep_what_he_did(game):
    replay = api.replay_export(game, "alice")
    owners = {
        e["android"]: e["player"] for e in replay["events"] if e["type"] == "android.launched"
    }
    turns = [e for e in replay["events"] if e["type"] == "turn"]
    hers = [e for e in turns if owners[e["android"]] == "alice"]
    his = [e for e in turns if owners[e["android"]] == "bob"]
    assert hers and his
    assert [e["action"].get("memory") for e in hers] == [
        ALICE,
        None,
        None,
    ]  # the log keeps memory when it changes
    assert [e["action"]["recording"] for e in hers] == [f"alice-log {r}" for r in (1, 2, 3)]
    waits = [e for e in his if e["outcome"] == "accepted"]
    assert [e["action"] for e in waits] == [
        {"type": "android.wait", "memory": "[Redacted]", "recording": "[Redacted]"}
    ] + [{"type": "android.wait", "recording": "[Redacted]"}] * 2
    thrown = [e for e in his if e["outcome"] == "error"]
    assert thrown and all(
        e["reason"] == "[Redacted]" and e["code"] == "script-error" for e in thrown
    )


def test_the_replay_is_the_documented_format(game):
    replay = api.replay_export(game, "alice")
    loaded = store.load(game)
    assert list(replay) == [
        "format",
        "version",
        "player",
        "rules",
        "seed",
        "sandbox",
        "initial",
        "scripts",
        "events",
        "final",
    ]
    assert (replay["format"], replay["version"], replay["player"]) == ("nova-replay", 1, "alice")
    assert (
        replay["rules"] == loaded.rules.to_json()
        and replay["seed"] == 5
        and replay["sandbox"] == loaded.sandbox
    )
    assert replay["initial"] == loaded.initial
    # her own scripts whole, with their source maps; another player's without code or map
    assert replay["scripts"] == {
        sid: s.to_json()
        if s.player == "alice"
        else {"player": s.player, "name": s.name, "sha256": s.sha256, "bundle": "[Redacted]"}
        for sid, s in loaded.scripts.items()
    }
    assert len(replay["events"]) == len(shown(loaded))
    assert list(replay["final"]) == ["round", "androids", "scores"]
    assert replay["final"]["round"] == 3
    assert replay["final"]["scores"] == api.status(game).to_json()["players"]


def test_androids_already_on_the_board_at_the_start_keep_their_owners_notes_only(tmp_path):
    """A game can start from a world that already holds androids with notes (a hand-built world,
    a scenario): the replay redacts those of other players there too, and leaves the file alone."""
    world = Scenario(Rules(), width=6, height=6)
    world.player("alice", charger_at=(0, 0))
    world.player("bob", charger_at=(5, 5))
    hers = world.android("alice", (1, 0), memory=ALICE)
    his = world.android("bob", (4, 5), memory=BOB_MEMORY)
    state = world.build()
    state.androids[hers].recording, state.androids[his].recording = "alice-log", BOB_LOG
    path = tmp_path / "game.json"
    store.save(store.new_game(path, Rules(), 0, SANDBOX_BUILD, initial=state))
    before = path.read_bytes()

    initial = {a["id"]: a for a in api.replay_export(path, "alice")["initial"]["androids"]}

    assert (initial[hers]["memory"], initial[hers]["recording"]) == (ALICE, "alice-log")
    assert (initial[his]["memory"], initial[his]["recording"]) == ("[Redacted]", "[Redacted]")
    assert BOB_MEMORY not in json.dumps(api.replay_export(path, "alice"))
    assert (
        path.read_bytes() == before
        and store.load(path).initial["androids"][1]["memory"] == BOB_MEMORY
    )
    loaded = store.load(
        path
    )  # a caller holding the game keeps it whole too (the lab, the MCP server)
    api.replay_export(loaded, "alice")
    assert loaded.initial["androids"][1]["memory"] == BOB_MEMORY


def test_write_replay_writes_the_replay_as_one_json_line(game, tmp_path):
    out = tmp_path / "alice-replay.json"
    assert api.write_replay(game, "alice", out) == len(shown(store.load(game)))
    text = out.read_text(encoding="utf-8")
    assert text == api.replay_json(game, "alice") and text.count("\n") == 1 and text.endswith("\n")
    assert json.loads(text) == api.replay_export(game, "alice")
    # compact (no spaces after separators) and UTF-8 text as itself, not \\u escapes: a replay is large
    assert text == json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":")) + "\n"
    missing = tmp_path / "no-such-folder" / "r.json"
    with pytest.raises(api.USER_ERRORS) as caught:
        api.write_replay(game, "alice", missing)
    assert str(caught.value) == f"cannot write {missing} (No such file or directory)"


def test_a_replay_holds_notes_in_any_script_as_the_characters_themselves(tmp_path):
    """The notes of the other tests are ASCII, where a replay written with \\u escapes would read
    the same: here alice's memory is Japanese with an emoji, and her replay file holds it as UTF-8
    text (an editor shows it as written; escaped, it would take two to four times the bytes)."""
    world = Scenario(Rules(), width=6, height=6)
    world.player("alice", charger_at=(0, 0))
    world.player("bob", charger_at=(5, 5))
    note = "地図: 金属は (3,4) ☕"
    world.android("alice", (1, 0), memory=note)
    path = tmp_path / "game.json"
    store.save(store.new_game(path, Rules(), 0, SANDBOX_BUILD, initial=world.build()))
    out = tmp_path / "alice-replay.json"
    api.write_replay(path, "alice", out)
    raw = out.read_bytes()
    assert note.encode("utf-8") in raw and b"\\u" not in raw
    assert json.loads(raw)["initial"]["androids"][0]["memory"] == note
