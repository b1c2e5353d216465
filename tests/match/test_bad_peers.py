"""Bad peers against a real `nova host` process (and a few against a real `nova join`): garbage and
oversized frames, messages out of turn, silence, a wrong protocol version, another sandbox build,
a second joiner. Each gets one sentence; no traceback; no half-written file; the host never
crashes (before a match it keeps waiting, during one it finishes the match alone)."""

from __future__ import annotations

import json
import re
import socket
import threading
from pathlib import Path

import pytest
from match_testing import (
    RawPeer,
    no_temporary_files,
    no_traceback,
    one_sentence,
    start_host,
    start_join,
)
from nova_testing import nova, wanderer
from websockets.sync.server import serve


def hosting(tmp_path: Path, *extra: object):
    bot = wanderer(tmp_path)
    host, url = start_host(
        tmp_path,
        "--rounds",
        10,
        "--player",
        "alice",
        bot,
        "--file",
        "alice.json",
        "--timeout",
        2,
        "--wait",
        60,
        *extra,
    )
    return host, url, bot


PRE_MATCH = {
    "garbage text": (
        "hello, is this the game?",
        "the peer sent text that is not JSON ('hello, is this the game?'...)",
    ),
    "a binary frame": (
        b"\x00\x01\x02",
        "the peer sent a binary frame; nova-match messages are JSON text",
    ),
    "an oversized frame": ("x" * (9 * 1024 * 1024), "the peer sent a frame larger than 8 MiB"),
    "a message out of turn": (
        json.dumps({"type": "round", "round": 1, "hash": "0" * 64}),
        "the peer sent a 'round' message where an 'accept' or a 'refuse' was due",
    ),
    "a malformed accept": (
        json.dumps({"type": "accept", "protocol": "nova-match", "version": 1}),
        "the peer's 'accept' message is malformed (player: Field required)",
    ),
    "a number too long to read": (
        '{"type": "accept", "version": 1%s}' % ("0" * 5000),
        "the peer sent a number too long to read (more than 4300 digits)",
    ),
    "silence": (None, "the peer sent nothing for 2 s"),
}


@pytest.mark.parametrize("case", list(PRE_MATCH))
def test_a_bad_connection_before_the_match_is_dropped_and_the_host_keeps_waiting(
    tmp_path: Path, case: str
) -> None:
    frame, sentence = PRE_MATCH[case]
    host, url, bot = hosting(tmp_path)
    peer = RawPeer(url)
    assert peer.receive()["type"] == "offer"
    if frame is not None:
        peer.send(frame)
    line = host.wait_for("was dropped")
    assert line.startswith("nova host: a connection from 127.0.0.1:") and line.rstrip().endswith(
        f"was dropped: {sentence}; still waiting for a joiner"
    )
    assert host.alive()
    if case == "garbage text":  # still a working host: a real joiner plays the match
        joined = start_join(tmp_path, url, "--player", "bob", bot, "--file", "bob.json").finish()
        hosted = host.finish()
        no_traceback(hosted, joined)
        assert (hosted.code, joined.code) == (0, 0), (hosted.err, joined.err)
        return
    host.interrupt()
    hosted = host.finish()
    no_traceback(hosted)
    assert (
        hosted.code == 130
        and one_sentence(hosted.err, "host") == "nova host: interrupted before anyone joined"
    )
    assert not (tmp_path / "alice.json").exists()


def test_a_connection_that_is_not_a_websocket_does_not_disturb_the_host(tmp_path: Path) -> None:
    host, url, bot = hosting(tmp_path)
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        raw.sendall(b"\x16\x03\x01 not http at all\r\n\r\n")
        answer = raw.recv(100)  # closed at once, or a 400 first
        assert answer == b"" or answer.startswith(b"HTTP/1.1 400"), answer
    assert host.alive()
    joined = start_join(tmp_path, url, "--player", "bob", bot, "--file", "bob.json").finish()
    hosted = host.finish()
    no_traceback(hosted, joined)
    assert (hosted.code, joined.code) == (0, 0)


MID_MATCH = {
    "garbage text": ("}{", "the peer sent text that is not JSON ('}{'...)"),
    "a message out of turn": (
        json.dumps({"type": "reveal", "nonce": "0" * 64}),
        "the peer sent a 'reveal' message where a 'round' was due",
    ),
    "a round out of order": (
        json.dumps({"type": "round", "round": 3, "hash": "0" * 64}),
        "the peer sent the hash of round 3 where round 1 was due",
    ),
    "an oversized frame": ("y" * (9 * 1024 * 1024), "the peer sent a frame larger than 8 MiB"),
    "a number too long to read": (
        '{"type": "round", "round": 1%s}' % ("0" * 5000),
        "the peer sent a number too long to read (more than 4300 digits)",
    ),
    "silence": (None, "the peer sent nothing for 2 s"),
}


@pytest.mark.parametrize("case", list(MID_MATCH))
def test_a_peer_that_breaks_the_protocol_mid_match_leaves_the_host_a_whole_unverified_match(
    tmp_path: Path, case: str
) -> None:
    frame, sentence = MID_MATCH[case]
    host, url, _ = hosting(tmp_path)
    peer = RawPeer(url)
    peer.handshake()
    if frame is not None:
        peer.send(frame)
    hosted = host.finish()
    peer.close()
    no_traceback(hosted)
    assert hosted.code == 4, hosted.err
    assert one_sentence(hosted.err, "host") == (
        f"nova host: {sentence}; the match was finished here alone, and the result is unverified from round 1 on"
    )
    status = json.loads(nova("status", "--file", tmp_path / "alice.json", "--json").out)
    assert (
        status["round"] == 10
        and status["match"]["unverifiedFrom"] == 1
        and status["match"]["outcome"] == "abandoned"
    )
    assert {p["id"] for p in status["players"]} == {"alice", "mallory"}
    no_temporary_files(tmp_path)


def test_a_peer_closing_with_too_large_is_not_blamed_for_a_large_frame(tmp_path: Path) -> None:
    """Code 1009 from the peer means it refused one of ours; the host echoes the code back, and
    that echo is not this side refusing a frame of the peer's."""
    host, url, _ = hosting(tmp_path)
    peer = RawPeer(url)
    peer.handshake()
    peer.ws.close(code=1009, reason="too big for me")
    hosted = host.finish()
    no_traceback(hosted)
    assert hosted.code == 4, hosted.err
    assert one_sentence(hosted.err, "host") == (
        "nova host: the peer refused a message as too large; the match was finished here alone, and the result is unverified from round 1 on"
    )


def test_a_joiner_speaking_another_protocol_version_is_refused_in_one_sentence(
    tmp_path: Path,
) -> None:
    host, url, _ = hosting(tmp_path)
    peer = RawPeer(url)
    peer.accept(peer.receive(), version=2)
    refusal = peer.receive()
    hosted = host.finish()
    no_traceback(hosted)
    assert refusal == {
        "type": "refuse",
        "reason": "you speak nova-match protocol version 2 and this nova speaks version 1; both sides need the same nova-tools release",
    }
    assert hosted.code == 1
    assert one_sentence(hosted.err, "host") == (
        "nova host: the joiner could not play: the peer speaks nova-match protocol version 2 and this nova speaks version 1; "
        "both sides need the same nova-tools release"
    )
    assert not (tmp_path / "alice.json").exists()


def test_a_joiner_with_another_sandbox_build_is_refused_in_one_sentence(tmp_path: Path) -> None:
    host, url, _ = hosting(tmp_path)
    peer = RawPeer(url)
    offer = peer.receive()
    peer.accept(offer, sandbox={**offer["sandbox"], "wasmtime": "49.0.0"})
    refusal = peer.receive()
    hosted = host.finish()
    no_traceback(hosted)
    expected = (
        f"the joiner runs another sandbox build (wasmtime 49.0.0 there, {offer['sandbox']['wasmtime']} here); both sides must "
        "run the same interpreter to agree on every turn, so install the same nova-tools release"
    )
    assert refusal == {"type": "refuse", "reason": expected}
    assert (
        hosted.code == 1
        and one_sentence(hosted.err, "host") == f"nova host: refused mallory: {expected}"
    )


@pytest.mark.parametrize(
    ("broken", "sentence"),
    [
        (
            {"bundle": "export default () => ({ type: 'android.wait' }); // another script\n"},
            "the peer sent a script that is not the one it committed to before seeing this side's",
        ),
        (
            {"nonce": bytes(32)},
            "the peer revealed a seed nonce that does not match the commitment it sent as joiner",
        ),
    ],
    ids=["script", "seed"],
)
def test_a_joiner_breaking_its_commitments_is_caught_before_round_1(
    tmp_path: Path, broken: dict, sentence: str
) -> None:
    host, url, _ = hosting(tmp_path)
    peer = RawPeer(url)
    peer.handshake(**broken)
    hosted = host.finish()
    no_traceback(hosted)
    assert hosted.code == 1
    assert (
        one_sentence(hosted.err, "host")
        == f"nova host: {sentence}, before round 1; nothing was played"
    )
    assert not (tmp_path / "alice.json").exists()
    told = peer.told or peer.receive()
    assert told == {"type": "abort", "reason": f"the match was stopped: {sentence}"}


def test_a_port_already_in_use_is_one_sentence(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = nova(
            "host",
            "--rounds",
            3,
            "--player",
            "alice",
            wanderer(tmp_path),
            "--file",
            tmp_path / "a.json",
            "--port",
            port,
        )
    no_traceback(result)
    assert (
        result.code == 1
        and result.err.strip()
        == f"nova host: cannot listen on 127.0.0.1:{port} (Address already in use)"
    )
    assert result.out == ""


@pytest.mark.parametrize("bind", ["nonsense.invalid", "192.0.2.1"])
def test_an_address_that_cannot_be_listened_on_is_one_sentence(tmp_path: Path, bind: str) -> None:
    """Said in the resolver's or the kernel's words: a name that does not resolve once read
    'Unknown error -2' (the resolver's code taken for an errno). The resolver's wording varies
    ('Name or service not known', 'Temporary failure in name resolution'), so only its shape is
    checked."""
    result = nova(
        "host",
        "--rounds",
        3,
        "--player",
        "alice",
        wanderer(tmp_path),
        "--file",
        tmp_path / "a.json",
        "--bind",
        bind,
    )
    no_traceback(result)
    assert result.code == 1
    assert re.fullmatch(
        rf"nova host: cannot listen on {re.escape(bind)}:0 \([A-Z][a-z][^()]+\)", result.err.strip()
    ), result.err
    assert "Unknown error" not in result.err and "while attempting" not in result.err


def test_a_second_joiner_is_turned_away_while_the_match_goes_on(tmp_path: Path) -> None:
    host, url, bot = hosting(tmp_path)
    first = RawPeer(url)
    first.handshake("mallory")  # then falls silent: the host plays on, then waits out its timeout
    second = start_join(tmp_path, url, "--player", "bob", bot, "--file", "bob.json").finish()
    hosted = host.finish()
    first.close()
    no_traceback(hosted, second)
    assert second.code == 1
    assert one_sentence(second.err, "join") == (
        "nova join: the host turned this joiner away: this host is already playing a match against mallory; ask alice to host a new one"
    )
    assert (
        "a second joiner from 127.0.0.1:" in hosted.err
        and "the match with mallory is already under way" in hosted.err
    )
    assert not (tmp_path / "bob.json").exists()
    assert (
        hosted.code == 4
        and json.loads(nova("status", "--file", tmp_path / "alice.json", "--json").out)["round"]
        == 10
    )


# -- a real `nova join` against a host that misbehaves -----------------------------------------------


class FakeHost:
    """A WebSocket server in the test process that answers a joiner with whatever it is given."""

    def __init__(self, first_frame: str | None) -> None:
        self.first_frame = first_frame
        self.received: list[str] = []
        self.server = serve(self._handle, "127.0.0.1", 0, compression=None)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"ws://127.0.0.1:{self.server.socket.getsockname()[1]}"

    def _handle(self, connection) -> None:
        if self.first_frame is not None:
            connection.send(self.first_frame)
        try:
            for message in connection:
                self.received.append(message)
        except Exception:
            pass

    def stop(self) -> None:
        self.server.shutdown()
        self.thread.join(timeout=10)


JOIN_CASES = {
    "garbage": (
        "<html>welcome</html>",
        "nova join: the host sent text that is not JSON ('<html>welcome</html>'...)",
    ),
    "a newer protocol": (
        json.dumps({"type": "offer", "protocol": "nova-match", "version": 2, "anything": "new"}),
        "nova join: cannot play with this host: it speaks nova-match protocol version 2 and this nova speaks version 1; both sides need the same nova-tools release",
    ),
    "silence": (None, "nova join: the host sent nothing for 2 s"),
    # rules nested deeper than Python's recursion limit once crashed the joiner's rules merge
    "rules nested 900 deep": (
        '{"type": "offer", "protocol": "nova-match", "version": 1, "rules": %s}'
        % ('{"a": ' * 900 + "{}" + "}" * 900),
        "nova join: the host sent JSON nested more than 32 levels deep",
    ),
}


@pytest.mark.parametrize("case", list(JOIN_CASES))
def test_nova_join_answers_a_bad_host_in_one_sentence(tmp_path: Path, case: str) -> None:
    frame, sentence = JOIN_CASES[case]
    fake = FakeHost(frame)
    try:
        joined = start_join(
            tmp_path,
            fake.url,
            "--player",
            "bob",
            wanderer(tmp_path),
            "--file",
            "bob.json",
            "--timeout",
            2,
        ).finish()
    finally:
        fake.stop()
    no_traceback(joined)
    assert joined.code == 1 and one_sentence(joined.err, "join") == sentence
    assert not (tmp_path / "bob.json").exists()
    if case == "a newer protocol":  # told the host why, in the shape every version keeps
        assert json.loads(fake.received[0])["type"] == "refuse"


def test_nova_join_says_when_nobody_is_hosting(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port that was free a moment ago
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    joined = start_join(
        tmp_path,
        f"ws://127.0.0.1:{port}",
        "--player",
        "bob",
        wanderer(tmp_path),
        "--file",
        "bob.json",
    ).finish()
    no_traceback(joined)
    assert (
        joined.code == 1
        and one_sentence(joined.err, "join")
        == f"nova join: nobody is hosting at ws://127.0.0.1:{port} (connection refused)"
    )
