"""The protocol's parts on their own: messages and their limits, the state machine, the seed, the
offer's checks. Fast tables; the real processes are in test_matches.py and test_bad_peers.py."""

from __future__ import annotations

import hashlib
import json

import pytest

from nova_tools import engine
from nova_tools.match import offer as offers
from nova_tools.match.game import MatchGame
from nova_tools.match.messages import (
    MAX_SCRIPT_MESSAGE,
    MAX_SMALL_MESSAGE,
    PROTOCOL,
    VERSION,
    Accept,
    Done,
    Offer,
    ProtocolViolation,
    Refuse,
    Reveal,
    Round,
    Script,
    Size,
    VersionMismatch,
    decode,
    printable,
)
from nova_tools.match.result import MatchError
from nova_tools.match.seed import Nonce, check_reveal, commitment, match_seed
from nova_tools.match.states import MOVES, IllegalMove, MatchState, Tracker
from nova_tools.play import Seat
from nova_tools.rules import resolve
from nova_tools.toolchain.compile import CompiledScript

HASH = "ab" * 32


def a_offer(**override) -> Offer:
    fields = dict(
        protocol=PROTOCOL,
        version=VERSION,
        host="alice",
        rounds=20,
        rules=offers.offered_rules(None, 20),
        sizes=[Size(width=12, height=12), Size(width=24, height=24)],
        disclosure="full",
        sandbox=offers.sandbox_build(),
        nova=offers.nova_version(),
        seed_commit=HASH,
        script_commit=HASH,
    )
    return Offer(**{**fields, **override})


def test_every_message_round_trips_through_its_wire_form() -> None:
    messages = [
        a_offer(),
        Accept(
            protocol=PROTOCOL,
            version=VERSION,
            player="bob",
            size=Size(width=12, height=12),
            sandbox={"a": "1"},
            nova="1",
            seed_commit=HASH,
            script_commit=HASH,
        ),
        Refuse(reason="no thanks"),
        Script(
            name="starter", sha256=HASH, bundle="export default () => ({type: 'android.wait'});"
        ),
        Reveal(nonce=HASH),
        Round(round=7, hash=HASH),
        Done(round=20),
    ]
    for message in messages:
        assert decode(message.encode(), (type(message),)) == message


def test_the_wire_form_uses_camel_case_and_names_protocol_and_version() -> None:
    data = json.loads(a_offer().encode())
    assert (data["type"], data["protocol"], data["version"]) == ("offer", "nova-match", 1)
    assert (
        "seedCommit" in data
        and "scriptCommit" in data
        and data["sizes"][1] == {"width": 24, "height": 24}
    )


WRONG_FRAMES = [
    (b"\x00", (Round,), "the peer sent a binary frame; nova-match messages are JSON text"),
    ("not json", (Round,), "the peer sent text that is not JSON ('not json'...)"),
    ("[" * 100_000, (Round,), "the peer sent a 98 KiB message where at most 8 KiB was due"),
    (
        "[" * 8000,
        (Round,),
        "the peer sent text that is not JSON ('[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[['...)",
    ),
    (
        '{"type": "round", "round": 1%s}' % ("0" * 5000),
        (Round,),
        "the peer sent a number too long to read (more than 4300 digits)",
    ),
    (
        '{"type": "round", "deep": %s}' % ("[" * 40 + "]" * 40),
        (Round,),
        "the peer sent JSON nested more than 32 levels deep",
    ),
    (
        '"just a string"',
        (Round,),
        "the peer sent JSON that is not a nova-match message (no 'type')",
    ),
    ('{"type": "shout"}', (Round,), "the peer sent an unknown message type 'shout'"),
    (
        f'{{"type": "reveal", "nonce": "{HASH}"}}',
        (Round,),
        "the peer sent a 'reveal' message where a 'round' was due",
    ),
    (
        '{"type": "round", "round": 1}',
        (Accept, Refuse),
        "the peer sent a 'round' message where an 'accept' or a 'refuse' was due",
    ),
    (
        f'{{"type": "round", "round": 0, "hash": "{HASH}"}}',
        (Round,),
        "the peer's 'round' message is malformed (round: Input should be greater than or equal to 1)",
    ),
    (
        f'{{"type": "round", "round": "1", "hash": "{HASH}"}}',
        (Round,),
        "the peer's 'round' message is malformed (round: Input should be a valid integer)",
    ),
    (
        '{"type": "round", "round": 1, "hash": "zz"}',
        (Round,),
        "the peer's 'round' message is malformed (hash: String should match pattern '^[0-9a-f]{64}$')",
    ),
    (
        f'{{"type": "round", "round": 1, "hash": "{HASH}", "extra": 1}}',
        (Round,),
        "the peer's 'round' message is malformed (extra: Extra inputs are not permitted)",
    ),
    (
        '{"type": "accept", "protocol": "other", "version": 1}',
        (Accept,),
        "the peer does not speak nova-match (its 'accept' names protocol 'other')",
    ),
]


@pytest.mark.parametrize(("raw", "expected", "sentence"), WRONG_FRAMES)
def test_a_wrong_frame_is_one_sentence_about_the_peer(raw, expected, sentence) -> None:
    with pytest.raises(ProtocolViolation) as caught:
        decode(raw, expected)
    assert str(caught.value) == sentence


def test_each_moment_has_its_size_limit() -> None:
    script = Script(name="big", sha256=HASH, bundle="x" * (5 * 1024 * 1024))
    assert (
        decode(script.encode(), (Script,)) == script
    )  # a 5 MiB bundle is fine where a script is due
    assert len(script.encode()) > MAX_SMALL_MESSAGE
    with pytest.raises(ProtocolViolation, match="where at most 8 KiB was due"):
        decode(script.encode(), (Round,))
    with pytest.raises(ProtocolViolation, match=r"where at most 8\.1 MiB was due"):
        decode("x" * (MAX_SCRIPT_MESSAGE + 1), (Script,))


def test_another_version_is_told_apart_from_garbage() -> None:
    with pytest.raises(VersionMismatch) as caught:
        decode(
            json.dumps(
                {"type": "offer", "protocol": PROTOCOL, "version": 2, "whatever": "v2 says"}
            ),
            (Offer,),
        )
    assert caught.value.peer_version == 2
    assert "version 2 and this nova speaks version 1" in str(caught.value)


def test_an_abort_is_always_allowed_and_its_sentence_is_made_safe_to_print() -> None:
    abort = decode(json.dumps({"type": "abort", "reason": "bye\u001b[2J\u0007 now"}), (Round,))
    assert abort.reason == "bye?[2J? now"
    assert printable("ok\ttab") == "ok?tab"


def test_sizes_parse_and_refuse_in_sentences() -> None:
    assert Size.parse(" 24x16 ") == Size(width=24, height=16) and str(Size.parse("8X8")) == "8x8"
    with pytest.raises(ValueError, match="write it as WIDTHxHEIGHT"):
        Size.parse("big")
    with pytest.raises(ValueError, match="width and height go from 2 to 256"):
        Size.parse("1x300")


# -- the state machine --------------------------------------------------------------------------


def test_the_state_machine_allows_exactly_the_documented_moves() -> None:
    S = MatchState
    allowed = {(a, b) for a, targets in MOVES.items() for b in targets}
    assert allowed == {
        (S.WAITING, S.OFFERED),
        (S.WAITING, S.REFUSED),
        (S.WAITING, S.ABANDONED),
        (S.OFFERED, S.ACCEPTED),
        (S.OFFERED, S.REFUSED),
        (S.OFFERED, S.ABANDONED),
        (S.ACCEPTED, S.PLAYING),
        (S.ACCEPTED, S.REFUSED),
        (S.ACCEPTED, S.ABANDONED),
        (S.PLAYING, S.VERIFIED),
        (S.PLAYING, S.DESYNCED),
        (S.PLAYING, S.ABANDONED),
    }
    assert {s for s in S if s.final} == {S.VERIFIED, S.DESYNCED, S.ABANDONED, S.REFUSED}


def test_a_tracker_logs_its_moves_and_refuses_an_illegal_one(caplog) -> None:
    tracker = Tracker("joiner")
    with caplog.at_level("INFO", logger="nova.match"):
        for state in (MatchState.OFFERED, MatchState.ACCEPTED, MatchState.PLAYING):
            tracker.move(state)
        tracker.move(MatchState.DESYNCED, "desync at round 3")
    assert tracker.history == [
        MatchState.WAITING,
        MatchState.OFFERED,
        MatchState.ACCEPTED,
        MatchState.PLAYING,
        MatchState.DESYNCED,
    ]
    assert "joiner: playing -> desynced (desync at round 3)" in caplog.text
    with pytest.raises(IllegalMove, match="desynced -> verified"):
        tracker.move(MatchState.VERIFIED)


# -- the seed -----------------------------------------------------------------------------------


def test_the_seed_depends_on_both_nonces_and_a_reveal_must_match_its_commitment() -> None:
    host, joiner, other = Nonce(), Nonce(), Nonce()
    seed = match_seed(host.hex, joiner.hex)
    assert 0 <= seed < 2**63
    assert seed != match_seed(host.hex, other.hex) and seed != match_seed(other.hex, joiner.hex)
    assert seed != match_seed(joiner.hex, host.hex)  # the roles are part of it
    check_reveal("joiner", joiner.commitment("joiner"), joiner.hex)
    with pytest.raises(ProtocolViolation, match="does not match the commitment"):
        check_reveal("joiner", joiner.commitment("joiner"), other.hex)
    # a commitment names its side: the host's commitment cannot be replayed as the joiner's
    assert commitment("host", host.value) != commitment("joiner", host.value)


# -- the offer ----------------------------------------------------------------------------------


def test_the_offered_rules_set_the_arrival_to_the_rounds_offered() -> None:
    rules = offers.offered_rules(
        {"match": {"finalRound": 500}, "android": {"cargoCapacity": 6}}, 20
    )
    assert rules["match"]["finalRound"] == 20 and rules["android"]["cargoCapacity"] == 6
    with pytest.raises(MatchError, match="a match has from 1 to 100000 rounds, not 0"):
        offers.offered_rules(None, 0)


def test_a_match_plays_a_rotational_map_unless_the_host_rules_choose() -> None:
    assert offers.offered_rules(None, 5)["world"]["symmetry"] == "rotational"
    assert offers.offered_rules({"world": {"width": 20}}, 5)["world"]["symmetry"] == "rotational"
    assert offers.offered_rules({"world": {"symmetry": "none"}}, 5)["world"]["symmetry"] == "none"


def test_the_joiner_checks_the_offer() -> None:
    size, rules = offers.check_offer(a_offer(), "bob", Size(width=24, height=24))
    assert (
        size == Size(width=24, height=24)
        and (rules.world.width, rules.world.height) == (24, 24)
        and rules.match.final_round == 20
    )
    refusals = [
        (
            a_offer(),
            "bob",
            Size(width=16, height=16),
            "you asked for a 16x16 board, which the host does not offer (it offers 12x12, 24x24)",
        ),
        (a_offer(), "alice", None, "the host also plays as 'alice'; join with another --player"),
        (
            a_offer(nova="0.0.1"),
            "bob",
            None,
            f"the host runs nova-tools 0.0.1 and this side runs {offers.nova_version()}; both sides need the same release",
        ),
        (
            a_offer(rounds=30),
            "bob",
            None,
            "the host's rules land the humans on round 20, not on the 30 rounds offered",
        ),
    ]
    for offer, player, size, sentence in refusals:
        with pytest.raises(MatchError) as caught:
            offers.check_offer(offer, player, size)
        assert str(caught.value) == sentence
    with pytest.raises(
        MatchError, match=r"^the host runs another sandbox build \(quickjs-wasi 0\.1 there, "
    ):
        offers.check_offer(
            a_offer(sandbox={**offers.sandbox_build(), "quickjs-wasi": "0.1"}), "bob", None
        )


def test_sizes_are_checked_against_the_rules() -> None:
    rules = offers.offered_rules(None, 5)
    assert offers.parse_sizes(None, rules) == [Size(width=12, height=12)]
    assert offers.parse_sizes("12x12, 24x24,12x12", rules) == [
        Size(width=12, height=12),
        Size(width=24, height=24),
    ]
    with pytest.raises(MatchError, match="'12 by 12' is not a board size"):
        offers.parse_sizes("12 by 12", rules)


# -- the match's game ---------------------------------------------------------------------------


def test_a_desync_keeps_the_game_as_it_stood_at_the_round_that_differed() -> None:
    bundle = "export default function turn() { return { type: 'android.move', direction: turn % 2 ? 'east' : 'west' }; }\n"
    seats = [
        Seat(
            p,
            CompiledScript(bundle, "mover.ts", hashlib.sha256(bundle.encode()).hexdigest()),
            "mover",
        )
        for p in ("alice", "bob")
    ]
    game = MatchGame(resolve({"world": {"symmetry": "rotational"}}), 42, seats)
    hashes = [game.play_round() for _ in range(5)]
    assert len(set(hashes)) == 5
    at_three = game.through(3)
    assert at_three.state.round == 3 and at_three.events[-1].to_json() == {
        "type": "round.ended",
        "round": 3,
        "destroyed": [],
    }
    assert engine.state_hash(at_three.state) == hashes[2]
    assert game.through(5) is game.game and game.round == 5
