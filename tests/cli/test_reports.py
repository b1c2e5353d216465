"""What a player reads back: status in the documented shape, one android's window, a replay that
keeps other players' secrets, and the board in an 80-column terminal."""

from __future__ import annotations

import json
import os
import re
import select
import struct
import sys
import time
from pathlib import Path

import pytest
from nova_testing import nova, wanderer

ALICE_SECRET = "alice-secret-memory-7731"
BOB_SECRET = "bob-secret-memory-4242"
BOB_LOG = "bob-private-log-9001"


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("reports")
    path = folder / "game.json"
    rules = folder / "rules.json"
    rules.write_text('{ "match": { "finalRound": 30 } }')
    assert nova("create-game", "--file", path, "--rules", rules, "--seed", 11).code == 0
    nova(
        "upload",
        "--file",
        path,
        "--player",
        "alice",
        wanderer(folder, "alice", ALICE_SECRET, "alice log"),
    )
    nova("upload", "--file", path, "--player", "bob", wanderer(folder, "bob", BOB_SECRET, BOB_LOG))
    for player, script in (("alice", "script-1"), ("bob", "script-2")):
        assert nova("launch", "--file", path, "--player", player, "--script", script).code == 0
    assert nova("run", "--file", path, "--rounds", 12).code == 0
    return path


def test_status_json_is_exactly_the_documented_shape(game):
    result = nova("status", "--file", game, "--json")
    assert result.code == 0
    status = json.loads(result.out)
    assert set(status) == {"round", "finalTurn", "players"}
    assert status["round"] == 12 and status["finalTurn"] == 30
    assert [p["id"] for p in status["players"]] == ["alice", "bob"]
    for player in status["players"]:
        assert set(player) == {"id", "score", "breakdown", "activeAndroids", "wrecks"}
        assert isinstance(player["score"], (int, float))
        assert player["activeAndroids"] == 1 and player["wrecks"] == 0
        for line in player["breakdown"]:
            assert set(line) == {"source", "points"}
            assert line["points"] != 0  # zero lines are omitted
        assert player["breakdown"] == [{"source": "buildings.charger", "points": 4}]
        assert player["score"] == sum(line["points"] for line in player["breakdown"])


def test_status_counts_every_building_so_two_depots_score_twice_one(tmp_path):
    from nova_tools import store
    from nova_tools.engine import Scenario
    from nova_tools.rules import Rules
    from nova_tools.sandbox.build import SANDBOX_BUILD

    world = Scenario(Rules(), width=6, height=6)
    world.player("alice", charger_at=(0, 0))
    world.player("bob", charger_at=(5, 5))
    world.building("depot", "alice", (1, 0))
    for spot in ((4, 5), (5, 4)):
        world.building("depot", "bob", spot)
    world.building("charger", "bob", (3, 5))
    path = tmp_path / "built.json"
    store.save(store.new_game(path, Rules(), 0, SANDBOX_BUILD, initial=world.build()))

    result = nova("status", "--file", path, "--json")

    assert result.code == 0, result.err
    breakdown = {
        p["id"]: {line["source"]: line["points"] for line in p["breakdown"]}
        for p in json.loads(result.out)["players"]
    }
    assert breakdown == {
        "alice": {"buildings.charger": 4, "buildings.depot": 3},
        "bob": {"buildings.charger": 8, "buildings.depot": 6},
    }
    assert [p["score"] for p in json.loads(result.out)["players"]] == [7, 14]


def test_status_table_shows_rounds_left_before_the_humans_land(game):
    result = nova("status", "--file", game)
    assert result.code == 0
    assert "Round 12 of 30 (humans land in 18 rounds)" in result.out
    assert "alice: buildings.charger 4" in result.out


def test_android_shows_the_owner_memory_and_recording(game):
    result = nova("android", "--file", game, "android-2", "--json")
    data = json.loads(result.out)
    assert set(data) == {
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
    }
    assert (
        data["ownerId"] == "bob"
        and data["memory"] == BOB_SECRET
        and data["recording"] == f"{BOB_LOG} round 12"
    )
    text = nova("android", "--file", game, "android-2").out
    assert BOB_SECRET in text and "battery 88" in text


def test_replay_export_redacts_other_players_scripts_memory_and_recordings(game, tmp_path):
    out = tmp_path / "alice-replay.json"
    result = nova("replay", "export", "--file", game, "--player", "alice", "--output", out)
    assert result.code == 0, result.err
    text = out.read_text()
    for secret in (BOB_SECRET, BOB_LOG, "bob-private"):
        assert secret not in text
    replay = json.loads(text)
    assert replay["scripts"]["script-2"]["bundle"] == "[Redacted]"
    assert "wander" in replay["scripts"]["script-1"]["bundle"]  # alice keeps her own source
    assert ALICE_SECRET in text
    bob_turns = [e for e in replay["events"] if e["type"] == "turn" and e["android"] == "android-2"]
    assert bob_turns and all(
        e["action"].get("memory", "[Redacted]") == "[Redacted]" for e in bob_turns
    )
    # memory repeating what the android already holds is not logged again; the first turn has it
    assert bob_turns[0]["action"]["memory"] == "[Redacted]"
    assert all("memory" not in e["action"] for e in bob_turns[1:])


def _strip_ansi(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


def test_play_steps_through_rounds_in_an_80_column_terminal(game):
    import fcntl
    import pty
    import termios

    pid, fd = pty.fork()
    if pid == 0:  # the child: the real command, in a real terminal
        os.execv(
            sys.executable, [sys.executable, "-m", "nova_tools.cli", "play", "--file", str(game)]
        )
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 80, 0, 0))
    screens: list[str] = []

    def read_until(
        marker: str, timeout: float = 120
    ) -> str:  # a bound, not a wait: a loaded machine starts `nova play` slowly
        data = b""
        end = time.monotonic() + timeout
        while marker.encode() not in data and time.monotonic() < end:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                try:
                    data += os.read(fd, 65536)
                except OSError:
                    break
        return data.decode("utf-8", "replace")

    try:
        screens.append(read_until("> "))
        # keys act as they are pressed (cbreak): "p" alone, since a "p" and an Enter are two
        # commands (back a round, then on a round) and the screen would end on the second
        for keys in ("\n", "\n", "5\n", "p"):
            os.write(fd, keys.encode())
            screens.append(read_until("> "))
        os.write(fd, b"q")
        read_until("\x00", timeout=5)
    finally:
        _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert "Round 0" in screens[0]
    assert "Round 2" in screens[2]
    assert "Round 5" in screens[3]
    assert "Round 4" in screens[4]
    for screen in screens:
        for line in _strip_ansi(screen).replace("\r", "").split("\n"):
            assert len(line) <= 80, repr(line)
    board = _strip_ansi(screens[3])
    assert "Ca" in board and "Cb" in board  # both initial chargers, with their owner's mark
    assert "players: a alice  b bob" in board
    assert "events (" in board


def test_play_in_a_pipe_prints_one_round(game):
    result = nova("play", "--file", game, "--round", 3)
    assert result.code == 0
    assert result.out.startswith("Round 3")
    assert all(len(line) <= 80 for line in result.out.splitlines())
    assert nova("play", "--file", game, "--round", 99).code == 1


def test_play_shows_a_players_replay_export_whole_round_by_round(game, tmp_path):
    """The whole map of a recorded round from a replay a player was given: the same board as the
    game file shows, with nothing of what the replay redacts."""
    replay = tmp_path / "alice-replay.json"
    assert (
        nova("replay", "export", "--file", game, "--player", "alice", "--output", replay).code == 0
    )
    for round in (0, 6, 12):
        from_replay = nova("play", "--file", replay, "--round", round)
        from_game = nova("play", "--file", game, "--round", round)
        assert from_replay.code == 0, from_replay.err
        assert from_replay.out == from_game.out and from_replay.out.startswith(f"Round {round}")
        assert "android-2" in from_replay.out  # bob's android is on the map
        for secret in (BOB_SECRET, BOB_LOG):
            assert secret not in from_replay.out
    # a replay is watched, never played on or rewritten
    before = replay.read_bytes()
    run = nova("run", "--file", replay, "--rounds", 1)
    assert run.code != 0 and "is not a Nova game file" in run.err and "Traceback" not in run.err
    assert replay.read_bytes() == before
    truncated = tmp_path / "cut.json"
    truncated.write_bytes(before[: len(before) // 2])
    cut = nova("play", "--file", truncated, "--round", 1)
    assert (
        cut.code != 0
        and "is not a readable Nova game file" in cut.err
        and "Traceback" not in cut.err
    )


def test_replay_export_hides_the_error_text_of_another_players_script(tmp_path):
    game = tmp_path / "game.json"
    assert nova("create-game", "--file", game).code == 0
    thrower = tmp_path / "thrower.ts"
    thrower.write_text(
        f"const t: AndroidTurn = () => {{ throw new Error({BOB_SECRET!r}); }};\nexport default t;\n"
    )
    liar = tmp_path / "liar.ts"
    liar.write_text(
        f"const t = (() => {BOB_LOG!r}) as unknown as AndroidTurn;\nexport default t;\n"
    )
    assert nova("upload", "--file", game, "--player", "alice", wanderer(tmp_path)).code == 0
    assert nova("upload", "--file", game, "--player", "bob", thrower).code == 0
    assert nova("upload", "--file", game, "--player", "bob", liar).code == 0
    for player, script in (("alice", "script-1"), ("bob", "script-2"), ("bob", "script-3")):
        assert nova("launch", "--file", game, "--player", player, "--script", script).code == 0
    assert nova("run", "--file", game, "--rounds", 2).code == 0
    as_bob = nova("replay", "export", "--file", game, "--player", "bob").out
    assert BOB_SECRET in as_bob and BOB_LOG in as_bob  # bob reads his own failures
    as_alice = nova("replay", "export", "--file", game, "--player", "alice").out
    assert BOB_SECRET not in as_alice and BOB_LOG not in as_alice
    failed = [
        e
        for e in json.loads(as_alice)["events"]
        if e["type"] == "turn" and e["outcome"] != "accepted"
    ]
    assert {e["code"] for e in failed} == {"script-error", "not-an-action"}


def test_run_draws_a_progress_bar_on_a_terminal_and_stays_quiet_in_a_pipe(game, tmp_path):
    import pty
    import shutil

    copy = tmp_path / "copy.json"
    shutil.copy(game, copy)
    piped = nova("run", "--file", copy, "--rounds", 2)
    assert piped.code == 0 and piped.err == "" and "rounds/s" not in piped.err
    assert piped.out.startswith("Played rounds 13-14")

    pid, fd = pty.fork()
    if pid == 0:
        os.execv(
            sys.executable,
            [sys.executable, "-m", "nova_tools.cli", "run", "--file", str(copy), "--rounds", "3"],
        )
    output = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    text = output.decode()
    assert "3/3 rounds" in text and "rounds/s" in text and "[" + "#" * 30 + "]" in text


def test_appended_recording_lines_are_logged_as_changes_and_redacted_for_others(tmp_path):
    game = tmp_path / "game.json"
    assert nova("create-game", "--file", game).code == 0
    diarist = tmp_path / "diarist.ts"
    diarist.write_text(
        "const t: AndroidTurn = () => {\n"
        "  const me = world.androids.find((a) => a.id === androidId)!;\n"
        "  const head = me.recording || 'a diary kept by an android that writes one line a round\\n';\n"
        f"  return {{ type: 'android.wait', recording: head + '{BOB_LOG} ' + turn + '\\n' }};\n"
        "};\nexport default t;\n"
    )
    assert nova("upload", "--file", game, "--player", "alice", wanderer(tmp_path)).code == 0
    assert nova("upload", "--file", game, "--player", "bob", diarist).code == 0
    for player, script in (("alice", "script-1"), ("bob", "script-2")):
        assert nova("launch", "--file", game, "--player", player, "--script", script).code == 0
    assert nova("run", "--file", game, "--rounds", 6).code == 0
    bob = json.loads(nova("android", "--file", game, "android-2", "--json").out)
    assert bob["recording"].count(BOB_LOG) == 6
    logged = [
        e["action"]
        for e in json.loads(game.read_text())["events"]
        if e["type"] == "turn" and e["android"] == "android-2"
    ]
    assert "recording" in logged[0]
    assert [a["recordingEdits"][-1][2] for a in logged[1:]] == [
        f"{BOB_LOG} {i}\n" for i in range(2, 7)
    ]
    as_alice = nova("replay", "export", "--file", game, "--player", "alice").out
    assert BOB_LOG not in as_alice and "a diary kept" not in as_alice
    assert nova("status", "--file", game).code == 0  # the log replays
