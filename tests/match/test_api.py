"""The api-level entry the CLI, the lab and the MCP server call: `match.join` (here) against a real
`nova host` process, with its progress callbacks, typed result and cancel event."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from match_testing import no_traceback, one_sentence, start_host
from nova_testing import nova, wanderer

from nova_tools import match


def test_join_reports_progress_and_returns_a_typed_result(tmp_path: Path) -> None:
    bot = wanderer(tmp_path)
    host, url = start_host(
        tmp_path, "--rounds", 12, "--player", "alice", bot, "--file", "alice.json", "--wait", 60
    )
    seen: list[match.MatchProgress] = []
    notices: list[str] = []
    offers: list = []
    result = match.join(
        url,
        player="bob",
        script=bot,
        out=tmp_path / "bob.json",
        progress=seen.append,
        notice=notices.append,
        on_offer=offers.append,
    )
    assert host.finish().code == 0

    assert result.state is match.MatchState.VERIFIED and result.verified
    assert (result.terms.role, result.terms.player, result.terms.opponent, result.terms.rounds) == (
        "joiner",
        "bob",
        "alice",
        12,
    )
    assert result.sentence == "12 rounds played against alice and verified on both sides"
    assert result.status == json.loads(
        nova("status", "--file", tmp_path / "bob.json", "--json").out
    )
    assert result.to_json()["outcome"] == "verified" and result.to_json()["file"] == str(
        tmp_path / "bob.json"
    )
    # every round reported, played never behind verified, verification catching up at the end
    assert [p.played for p in seen[:12]] == list(range(1, 13))
    assert (
        all(p.verified <= p.played for p in seen)
        and seen[-1].verified == 12
        and seen[-1].state is match.MatchState.VERIFIED
    )
    assert offers[0].host == "alice" and offers[0].rounds == 12
    assert notices[0] == "accepted alice's offer: 12 rounds on 12x12, disclosure full"


def test_a_cancelled_join_stops_between_rounds_and_keeps_what_it_played(tmp_path: Path) -> None:
    bot = wanderer(tmp_path)
    host, url = start_host(
        tmp_path, "--rounds", 40, "--player", "alice", bot, "--file", "alice.json", "--wait", 60
    )
    stop = threading.Event()

    def progress(p: match.MatchProgress) -> None:
        if p.played == 3:
            stop.set()  # the lab's Stop button

    with pytest.raises(match.MatchInterrupted) as caught:
        match.join(
            url, player="bob", script=bot, out=tmp_path / "bob.json", progress=progress, cancel=stop
        )
    hosted = host.finish()
    no_traceback(hosted)
    assert str(caught.value).startswith("interrupted at round 3; ")
    kept = json.loads(nova("status", "--file", tmp_path / "bob.json", "--json").out)
    assert kept["round"] == 3 and kept["match"]["outcome"] == "abandoned"
    # the host was told, and finished the match alone
    assert hosted.code == 4
    assert "bob interrupted the match at round 3" in one_sentence(hosted.err, "host")
    assert (
        json.loads(nova("status", "--file", tmp_path / "alice.json", "--json").out)["round"] == 40
    )


def test_bad_arguments_are_one_sentence_before_anything_is_sent(tmp_path: Path) -> None:
    bot = wanderer(tmp_path)
    (tmp_path / "taken.json").write_text("{}")
    cases = [
        (dict(rounds=0), "a match has from 1 to 100000 rounds, not 0"),
        (
            dict(player="not ok!"),
            "'not ok!' is not a valid player id (use 1-64 letters, digits, '-', '_' or '.')",
        ),
        (dict(disclosure="some"), "the disclosure is 'full' or 'recording', not 'some'"),
        (dict(sizes="12x12,1x1"), "1x1 is not a possible board: width and height go from 2 to 256"),
        (
            dict(out=tmp_path / "taken.json"),
            f"{tmp_path / 'taken.json'} already exists; replace it only deliberately (--force on the command line)",
        ),
        (dict(out=tmp_path / "no" / "such.json"), f"the folder {tmp_path / 'no'} does not exist"),
        (dict(timeout=0), "the timeout must be a positive number of seconds, not 0"),
    ]
    for override, sentence in cases:
        args = {**dict(rounds=5, player="alice", script=bot, out=tmp_path / "m.json"), **override}
        with pytest.raises(match.MatchError) as caught:
            match.host(**args)
        assert str(caught.value) == sentence
    with pytest.raises(match.MatchError, match="is not a match address"):
        match.join("http://127.0.0.1:1", player="bob", script=bot, out=tmp_path / "j.json")
    with pytest.raises(match.MatchError, match="'huge' is not a board size"):
        match.join(
            "ws://127.0.0.1:1", player="bob", script=bot, out=tmp_path / "j.json", size="huge"
        )
