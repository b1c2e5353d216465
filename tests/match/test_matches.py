"""Peer matches between two real `nova` processes on 127.0.0.1 (DESIGN section 6, issue 10)."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import time
from pathlib import Path

import pytest
from match_testing import (
    game_json,
    no_temporary_files,
    no_traceback,
    one_sentence,
    start_host,
    start_join,
    start_peer,
)
from nova_testing import REPO, nova, wanderer

STARTER = REPO / "nova_tools" / "starter" / "src" / "main.ts"


def arrival_recorder(folder: Path, marker: str = "") -> Path:
    """An android that wanders and writes down the finalTurn it sees (and a marker of its own)."""
    path = folder / "arrival.ts"
    path.write_text(
        """
const dirs = ['north', 'east', 'south', 'west'] as const;
const turnFn: AndroidTurn = () => {
  const me = world.androids.find((a) => a.id === androidId)!;
  const x = me.position.x, y = me.position.y;
  const ok = dirs.filter((d) =>
    d === 'north' ? y > 0 : d === 'south' ? y < rules.world.height - 1 : d === 'west' ? x > 0 : x < rules.world.width - 1);
  return { type: 'android.move', direction: ok[turn % ok.length],
           memory: 'MEMORY-MARKER ' + turn, recording: 'finalTurn=' + finalTurn + ' RECORDING-MARKER' };
};
export default turnFn;
""".replace("MARKER", marker),
        encoding="utf-8",
    )
    return path


def test_host_and_join_play_twenty_rounds_of_the_starter_and_agree(tmp_path: Path) -> None:
    recorder = arrival_recorder(tmp_path)
    host, url = start_host(
        tmp_path,
        "--rounds",
        20,
        "--player",
        "alice",
        STARTER,
        "--file",
        "alice.json",
        "--timeout",
        30,
        "--wait",
        60,
    )
    joined = start_join(
        tmp_path, url, "--player", "bob", recorder, "--file", "bob.json", "--timeout", 30
    ).finish()
    hosted = host.finish()
    no_traceback(hosted, joined)
    assert (hosted.code, joined.code) == (0, 0), (hosted.err, joined.err)
    assert "Verified: 20 rounds played against bob" in hosted.out
    # stdout's first line is the address; stderr says what the opponent types
    assert (
        f"nova host: waiting up to 60 s for a joiner; your opponent runs: nova join {url} --player THEIR_ID THEIR_SCRIPT.ts --file THEIR_FILE.json\n"
        in hosted.err
    )
    assert (
        "\r" not in hosted.err + joined.err and "played 20/20" not in hosted.err
    )  # no progress bar in a pipe
    assert "Verified: 20 rounds played against alice" in joined.out

    statuses = [
        json.loads(nova("status", "--file", tmp_path / name, "--json").out)
        for name in ("alice.json", "bob.json")
    ]
    for status in statuses:
        assert status["round"] == 20 and status["finalTurn"] == 20
        assert status["match"]["outcome"] == "verified" and status["match"]["verifiedThrough"] == 20
    scores = [[(p["id"], p["score"], p["breakdown"]) for p in s["players"]] for s in statuses]
    assert scores[0] == scores[1]
    assert [p["id"] for p in statuses[0]["players"]] == ["alice", "bob"]

    # the script saw the arrival round: bob's android wrote down finalTurn
    android = json.loads(
        nova("android", "--file", tmp_path / "bob.json", "android-2", "--json").out
    )
    assert android["ownerId"] == "bob" and android["recording"].startswith("finalTurn=20 ")
    # both files are the same game, each saying which side it was
    alice, bob = game_json(tmp_path / "alice.json"), game_json(tmp_path / "bob.json")
    assert (alice.pop("match")["role"], bob.pop("match")["role"]) == ("host", "joiner")
    assert alice == bob
    # a match cannot be continued once it has run
    more = nova("run", "--file", tmp_path / "alice.json", "--rounds", 1)
    assert more.code == 1 and "cannot be continued" in more.err


def test_the_joiner_picks_the_second_size_offered_and_both_play_on_it(tmp_path: Path) -> None:
    bot = wanderer(tmp_path)
    host, url = start_host(
        tmp_path,
        "--rounds",
        3,
        "--player",
        "alice",
        bot,
        "--file",
        "a.json",
        "--sizes",
        "12x12,16x20",
        "--wait",
        60,
    )
    joined = start_join(
        tmp_path,
        url,
        "--player",
        "bob",
        bot,
        "--file",
        "b.json",
        "--size",
        "16x20",
        "--rounds",
        3,
        "--disclosure",
        "full",
    ).finish()
    hosted = host.finish()
    assert (hosted.code, joined.code) == (0, 0), (hosted.err, joined.err)
    for name in ("a.json", "b.json"):
        data = game_json(tmp_path / name)
        assert (data["initial"]["width"], data["initial"]["height"]) == (16, 20)
        # a fair map: the two initial chargers face each other under a half turn
        assert data["rules"]["world"]["symmetry"] == "rotational"
        (a, b) = [e["position"] for e in data["events"] if e["type"] == "player.joined"]
        assert (b["x"], b["y"]) == (15 - a["x"], 19 - a["y"])
        assert (data["rules"]["world"]["width"], data["rules"]["world"]["height"]) == (16, 20)
        assert data["match"]["size"] == "16x20"


def test_a_size_not_offered_is_refused_in_one_sentence_on_both_sides(tmp_path: Path) -> None:
    bot = wanderer(tmp_path)
    host, url = start_host(
        tmp_path,
        "--rounds",
        3,
        "--player",
        "alice",
        bot,
        "--file",
        "a.json",
        "--sizes",
        "12x12,24x24",
        "--wait",
        60,
    )
    joined = start_join(
        tmp_path, url, "--player", "bob", bot, "--file", "b.json", "--size", "16x16"
    ).finish()
    hosted = host.finish()
    no_traceback(hosted, joined)
    assert joined.code == 1 and hosted.code == 1
    assert (
        one_sentence(joined.err, "join")
        == "nova join: you asked for a 16x16 board, which the host does not offer (it offers 12x12, 24x24)"
    )
    assert (
        one_sentence(hosted.err, "host")
        == "nova host: the joiner refused the offer: bob asked for a 16x16 board, which the host does not offer (it offers 12x12, 24x24)"
    )
    assert not (tmp_path / "a.json").exists() and not (tmp_path / "b.json").exists()


@pytest.mark.parametrize(
    ("hosted_with", "joined_with", "sentence"),
    [
        (("--rounds", 3), ("--rounds", 20), "you asked for 20 rounds and the host offers 3"),
        (
            ("--rounds", 3, "--disclosure", "full"),
            ("--disclosure", "recording"),
            "you asked for disclosure recording and the host offers full",
        ),
    ],
    ids=["rounds", "disclosure"],
)
def test_a_joiner_insisting_on_other_terms_refuses_the_offer(
    tmp_path: Path, hosted_with: tuple, joined_with: tuple, sentence: str
) -> None:
    """A joiner who agreed on 20 rounds, or on a recording-only match, need not take whatever the
    host offers: with --rounds / --disclosure it refuses another offer before any script crosses."""
    bot = wanderer(tmp_path)
    host, url = start_host(
        tmp_path, *hosted_with, "--player", "alice", bot, "--file", "a.json", "--wait", 60
    )
    joined = start_join(
        tmp_path, url, "--player", "bob", bot, "--file", "b.json", *joined_with
    ).finish()
    hosted = host.finish()
    no_traceback(hosted, joined)
    assert joined.code == 1 and hosted.code == 1
    assert one_sentence(joined.err, "join") == f"nova join: {sentence}"
    assert (
        one_sentence(hosted.err, "host")
        == f"nova host: the joiner refused the offer: {sentence.replace('you asked', 'bob asked')}"
    )
    assert not (tmp_path / "a.json").exists() and not (tmp_path / "b.json").exists()


def test_disclosure_recording_keeps_only_scores_and_own_recordings(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    alice_bot = arrival_recorder(tmp_path / "a", marker="ALICESECRET")
    bob_bot = arrival_recorder(tmp_path / "b", marker="BOBSECRET")
    # a constant only in bob's source, which esbuild keeps in his bundle
    bob_bot.write_text(
        bob_bot.read_text(encoding="utf-8") + "export const BOB_ONLY = 'BOBSOURCE-7f3a';\n",
        encoding="utf-8",
    )
    host, url = start_host(
        tmp_path,
        "--rounds",
        6,
        "--player",
        "alice",
        alice_bot,
        "--file",
        "alice.json",
        "--disclosure",
        "recording",
        "--wait",
        60,
    )
    joined = start_join(tmp_path, url, "--player", "bob", bob_bot, "--file", "bob.json").finish()
    hosted = host.finish()
    assert (hosted.code, joined.code) == (0, 0), (hosted.err, joined.err)

    full = {}
    for name in ("alice", "bob"):
        raw = (tmp_path / f"{name}.json").read_text(encoding="utf-8")
        full[name] = raw
        data = json.loads(raw)
        assert (
            data["format"] == "nova-match-record" and "events" not in data and "initial" not in data
        )
        assert data["rules"]["match"]["finalRound"] == 6
        assert [a["ownerId"] for a in data["androids"]] and all(
            a["ownerId"] == name for a in data["androids"]
        )
        assert all(a["recording"].startswith("finalTurn=6 RECORDING-") for a in data["androids"])
        status = json.loads(nova("status", "--file", tmp_path / f"{name}.json", "--json").out)
        assert (
            status["round"] == 6
            and status["finalTurn"] == 6
            and {p["id"] for p in status["players"]} == {"alice", "bob"}
        )
    # each holds its own androids' recordings...
    assert "RECORDING-ALICESECRET" in full["alice"] and "RECORDING-BOBSECRET" in full["bob"]
    # ...and nothing of the other side: no source, bundle, memory or recording (nor its own memory)
    for secret in ("BOBSECRET", "BOBSOURCE-7f3a"):
        assert secret not in full["alice"]
    assert "ALICESECRET" not in full["bob"]
    assert "MEMORY-" not in full["alice"] + full["bob"]
    bundle_lines = [
        line for line in bob_bot.read_text(encoding="utf-8").splitlines() if len(line.strip()) > 20
    ]
    assert not any(line.strip() in full["alice"] for line in bundle_lines)
    # the same scores on both sides
    scores = [
        json.loads(nova("status", "--file", tmp_path / f"{n}.json", "--json").out)["players"]
        for n in ("alice", "bob")
    ]
    assert scores[0] == scores[1]
    # the record is not a game to replay; its own androids can be read
    assert "is a peer match record" in nova("play", "--file", tmp_path / "alice.json").err
    mine = nova("android", "--file", tmp_path / "alice.json", "android-1", "--json")
    assert json.loads(mine.out)["recording"].startswith("finalTurn=6")
    theirs = nova("android", "--file", tmp_path / "alice.json", "android-2")
    assert theirs.code == 1 and "only your own androids' recordings" in theirs.err


@pytest.mark.parametrize("liar", ["joiner", "host"])
def test_a_peer_lying_about_one_rounds_hash_is_caught_at_that_round(
    tmp_path: Path, liar: str
) -> None:
    bot = wanderer(tmp_path)
    host_args = (
        "host",
        "--port",
        0,
        "--rounds",
        12,
        "--player",
        "alice",
        bot,
        "--file",
        "alice.json",
        "--timeout",
        30,
        "--wait",
        60,
    )
    if liar == "joiner":
        honest, url = start_host(tmp_path, *host_args[3:])
        start_peer(
            tmp_path,
            "--lie-at",
            7,
            "join",
            url,
            "--player",
            "bob",
            bot,
            "--file",
            "bob.json",
            "--timeout",
            30,
        ).finish()
        result, command, kept = honest.finish(), "host", "alice.json"
    else:
        lying = start_peer(tmp_path, "--lie-at", 7, *host_args)
        url = lying.read_first_line().split()[2]
        result, command, kept = (
            start_join(
                tmp_path, url, "--player", "bob", bot, "--file", "bob.json", "--timeout", 30
            ).finish(),
            "join",
            "bob.json",
        )
        lying.finish()
    no_traceback(result)
    assert result.code == 3, result.err
    sentence = one_sentence(result.err, command)
    assert sentence.startswith(
        f"nova {command}: desync at round 7: the state hash after that round was "
    )
    assert sentence.endswith(f"; {kept} keeps the match up to round 7, as played here")
    # the honest side keeps what it played, up to the round that differed, as evidence
    status = json.loads(nova("status", "--file", tmp_path / kept, "--json").out)
    assert status["round"] == 7
    assert (
        status["match"]["outcome"] == "desynced"
        and status["match"]["desyncAt"] == 7
        and status["match"]["verifiedThrough"] == 6
    )


@pytest.mark.parametrize("how", ["--leave-after", "--silent-after", "--crash-after"])
def test_a_peer_that_leaves_at_round_5_leaves_the_other_side_a_whole_unverified_match(
    tmp_path: Path, how: str
) -> None:
    bot = wanderer(tmp_path)
    honest, url = start_host(
        tmp_path,
        "--rounds",
        20,
        "--player",
        "alice",
        bot,
        "--file",
        "alice.json",
        "--timeout",
        3,
        "--wait",
        60,
    )
    peer = start_peer(
        tmp_path, how, 5, "join", url, "--player", "bob", bot, "--file", "bob.json", "--timeout", 30
    )
    result = honest.finish()
    peer.kill_and_collect()
    no_traceback(result)
    assert result.code == 4, result.err
    status = json.loads(nova("status", "--file", tmp_path / "alice.json", "--json").out)
    assert (
        status["round"] == 20
        and status["finalTurn"] == 20
        and status["match"]["outcome"] == "abandoned"
    )
    unverified = status["match"]["unverifiedFrom"]
    # a peer that says goodbye (or just stops talking) after round 5 leaves round 5 verified; one
    # that crashes may take its last hash with it (the kernel resets the connection)
    assert unverified == 6 or (how == "--crash-after" and unverified == 5)
    assert status["match"]["verifiedThrough"] == unverified - 1
    why = {
        "--silent-after": "the peer sent nothing for 3 s",
        "--leave-after": "the peer closed the connection (code 1000)",
        "--crash-after": "the connection to the peer broke",
    }[how]
    sentence = one_sentence(result.err, "host")
    assert sentence.startswith(f"nova host: {why}"), sentence
    assert sentence.endswith(
        f"; the match was finished here alone, and the result is unverified from round {unverified} on"
    )
    assert (
        f"unverified from round {unverified}"
        in nova("status", "--file", tmp_path / "alice.json").out
    )
    no_temporary_files(tmp_path)


def test_a_terminal_shows_rounds_played_and_verified(tmp_path: Path) -> None:
    bot = wanderer(tmp_path)
    host, url = start_host(
        tmp_path, "--rounds", 6, "--player", "alice", bot, "--file", "alice.json", "--wait", 60
    )
    leader, follower = pty.openpty()
    joiner = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "nova_tools.cli",
            "join",
            url,
            "--player",
            "bob",
            str(bot),
            "--file",
            "bob.json",
        ],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=follower,
    )
    os.close(follower)
    seen = b""
    while True:  # read the terminal until the joiner closes it
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert joiner.wait(timeout=60) == 0 and host.finish().code == 0
    screen = seen.decode("utf-8", "replace")
    assert "played 6/6, verified 6" in screen and "\r[" in screen


@pytest.mark.parametrize(
    ("how", "code", "said"), [("ctrl-c", 130, "interrupted"), ("sigterm", 143, "terminated")]
)
def test_a_joiner_stopped_mid_match_keeps_its_rounds_and_tells_the_host(
    tmp_path: Path, how: str, code: int, said: str
) -> None:
    """Ctrl-C, or SIGTERM (`timeout`, `kill`), on `nova join` mid-match: the file keeps the rounds
    played, the host hears why and finishes alone. SIGTERM used to end the joiner at once, with
    no file and the host told only that the connection broke."""
    bot = wanderer(tmp_path)
    host, url = start_host(
        tmp_path,
        "--rounds",
        30000,
        "--player",
        "alice",
        bot,
        "--file",
        "alice.json",
        "--timeout",
        30,
        "--wait",
        60,
    )
    joiner = start_join(
        tmp_path, url, "--player", "bob", bot, "--file", "bob.json", "--timeout", 30
    )
    joiner.wait_for("playing 30000 rounds")
    time.sleep(1.5)  # some rounds in (a pipe shows no progress to wait for); far from the end
    if how == "ctrl-c":
        joiner.interrupt()
    else:
        joiner.proc.terminate()
    joined = joiner.finish()
    host.interrupt()  # the host would finish the 30000 rounds alone; what it heard is already said
    hosted = host.finish()
    no_traceback(joined, hosted)
    assert joined.code == code, joined.err
    sentence = one_sentence(joined.err, "join")
    assert (
        sentence.startswith(f"nova join: {said} at round ")
        and "; bob.json keeps the rounds played, unverified from round " in sentence
    )
    stopped_at = int(sentence.split(" at round ")[1].split(";")[0])
    # the file holds exactly the rounds the message names (Ctrl-C can land between playing a
    # round and recording it: the file once held one round more than it said)
    status = json.loads(nova("status", "--file", tmp_path / "bob.json", "--json").out)
    assert status["round"] == stopped_at and status["match"]["outcome"] == "abandoned"
    assert f"bob interrupted the match at round {stopped_at}" in hosted.err
    no_temporary_files(tmp_path)
