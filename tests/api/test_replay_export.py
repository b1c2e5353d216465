"""A player's replay keeps the other players' script source, memory, recording and thrown text
out, in this process (so the mutation run sees it; tests/cli/test_reports.py runs `nova replay
export` itself)."""

from __future__ import annotations

import json

import pytest

from nova_tools import api

ALICE = "alice-memory-5150"
BOB_MEMORY, BOB_LOG, BOB_SOURCE, BOB_THROWN = "bob-memory-4242", "bob-recording-9001", "bob-source-3141", "bob-thrown-2718"


def keeper(memory: str, recording: str, marker: str = "") -> str:
    # an export, so the bundle keeps it (a comment would be stripped, and the check made vacuous)
    return (f"export const marker = '{marker}';\nconst t: AndroidTurn = () => ({{ type: 'android.wait', memory: '{memory}', "
            f"recording: '{recording} ' + turn }});\nexport default t;\n")


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("replay") / "game.json"
    api.create_game(path, seed=5)
    sources = [("alice", keeper(ALICE, "alice-log")), ("bob", keeper(BOB_MEMORY, BOB_LOG, BOB_SOURCE)),
               ("bob", f"const t: AndroidTurn = () => {{ throw new Error('{BOB_THROWN}'); }};\nexport default t;\n")]
    for player, source in sources:
        script = api.upload_script(path, player, files={"main.ts": source}, entry_name="main.ts").script_id
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

    assert BOB_MEMORY in text and BOB_SOURCE in text and BOB_THROWN in text  # so alice's check could fail
    assert ALICE not in text


def test_a_replay_for_nobody_in_the_game_is_refused(game):
    with pytest.raises(api.USER_ERRORS, match="mallory"):
        api.replay_export(game, "mallory")
