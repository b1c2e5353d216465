"""An agreed match, the same on both sides: scripts, then seed, then the rounds, then the file.

By the time this runs, the offer is accepted: each side has the other's commitments to its seed
nonce and its script. Each sends its bundle (checked against the commitment it made before
seeing the other's), then reveals its nonce; both build the same game (the host's seat first) and
play it in lockstep (:mod:`.lockstep`). Whatever happens after round 1 starts, this side's file is
written, atomically: the match verified, desynced (kept up to the round that differed), or
abandoned by the peer (finished here alone, unverified from the round it left).
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .. import engine
from ..play import Seat
from ..rules import Rules
from ..toolchain.compile import CompiledScript
from .channel import Channel, PeerError, PeerViolation
from .game import MatchGame
from .lockstep import Cancelled, Lockstep, Progress, play_rounds
from .messages import ProtocolViolation, Refuse, Reveal, Script, Size
from .result import MatchError, MatchResult, MatchTerms, write_result
from .seed import Nonce, check_reveal, match_seed
from .setup import MAX_BUNDLE_BYTES
from .states import MatchState, Tracker

Notice = Callable[[str], None]


class MatchInterrupted(MatchError):
    """This side stopped the match (Ctrl-C); the file keeps what was played, if anything was."""

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence, MatchState.ABANDONED)


@dataclass(frozen=True)
class Agreement:
    """Everything both sides fixed before the scripts and nonces cross."""

    role: str
    me: Seat
    nonce: Nonce
    opponent: str
    peer_seed_commit: str
    peer_script_commit: str
    rules: Rules
    terms_size: Size
    rounds: int
    disclosure: str


def _peer_role(role: str) -> str:
    return "joiner" if role == "host" else "host"


def _exchange(channel: Channel, tracker: Tracker, deal: Agreement) -> tuple[Seat, int]:
    """Swap scripts and nonces; check each against the commitment made before seeing the other's.

    The host sends its script first: that is its acceptance of the joiner's answer, so a joiner
    never sends its bundle to a host that refuses it."""
    me = deal.me
    mine = Script(name=me.name, sha256=me.script.sha256, bundle=me.script.bundle)
    if deal.role == "host":
        channel.send(mine)
        theirs = channel.receive(Script)
    else:
        answer = channel.receive(Script, Refuse)
        if isinstance(answer, Refuse):
            tracker.move(MatchState.REFUSED, answer.reason)
            channel.close()
            raise MatchError(f"the host refused this joiner: {answer.reason}")
        theirs = answer
        channel.send(mine)
    encoded = theirs.bundle.encode("utf-8")  # checked as valid text on arrival
    digest = hashlib.sha256(encoded).hexdigest()
    if digest != theirs.sha256 or digest != deal.peer_script_commit:
        raise PeerViolation(
            "the peer sent a script that is not the one it committed to before seeing this side's"
        )
    if len(encoded) > MAX_BUNDLE_BYTES:
        raise PeerViolation(
            f"the peer sent a script bundle larger than {MAX_BUNDLE_BYTES // (1024 * 1024)} MiB"
        )
    channel.send(Reveal(nonce=deal.nonce.hex))
    reveal = channel.receive(Reveal)
    try:
        check_reveal(_peer_role(deal.role), deal.peer_seed_commit, reveal.nonce)
    except ProtocolViolation as violation:
        raise PeerViolation(str(violation)) from None
    hosts, joiners = (
        (deal.nonce.hex, reveal.nonce) if deal.role == "host" else (reveal.nonce, deal.nonce.hex)
    )
    peer = Seat(
        deal.opponent, CompiledScript(theirs.bundle, theirs.name, theirs.sha256), theirs.name
    )
    return peer, match_seed(hosts, joiners)


def play_agreed(
    channel: Channel,
    tracker: Tracker,
    deal: Agreement,
    out: Path,
    progress: Progress | None = None,
    notice: Notice | None = None,
    cancel: threading.Event | None = None,
) -> MatchResult:
    try:
        peer, seed = _exchange(channel, tracker, deal)
    except PeerError as error:
        channel.close(
            f"the match was stopped: {error}" if isinstance(error, PeerViolation) else None
        )
        tracker.move(MatchState.ABANDONED, str(error))
        raise MatchError(
            f"{error}, before round 1; nothing was played", MatchState.ABANDONED
        ) from None
    except KeyboardInterrupt:
        channel.close(f"{deal.me.player} stopped before round 1")
        tracker.move(MatchState.ABANDONED, "interrupted")
        raise MatchInterrupted("interrupted before round 1; nothing was played") from None

    seats = [deal.me, peer] if deal.role == "host" else [peer, deal.me]
    try:
        game = MatchGame(deal.rules, seed, seats)
    except engine.Refusal as refusal:  # e.g. no room for a second initial charger on a tiny board
        channel.close(f"the match cannot be set up: {refusal}")
        tracker.move(MatchState.ABANDONED, str(refusal))
        raise MatchError(f"the match cannot be set up: {refusal}", MatchState.ABANDONED) from None
    terms = MatchTerms(
        deal.role,
        deal.me.player,
        deal.opponent,
        deal.rounds,
        deal.terms_size,
        deal.disclosure,
        seed,
    )
    if notice is not None:
        notice(
            f"playing {deal.rounds} rounds on {deal.terms_size} against {deal.opponent} (seed {seed})"
        )
    tracker.move(MatchState.PLAYING)
    lockstep = Lockstep(deal.rounds, channel, tracker, on_lost=notice)
    try:
        verification = play_rounds(game, lockstep, progress, cancel)
    except (KeyboardInterrupt, Cancelled):
        reached = lockstep.result
        lockstep.interrupted(f"{deal.me.player} interrupted the match at round {reached.played}")
        # the rounds the peer was told of: Ctrl-C can land after a round was played but before it
        # was recorded, or in the middle of one
        write_result(
            game.through(reached.played), deal.me.player, MatchState.ABANDONED, terms, out, reached
        )
        raise MatchInterrupted(
            f"interrupted at round {reached.played}; {out} keeps the rounds played, unverified from round {reached.unverified_from} on"
        ) from None
    kept = game.through(verification.desync_at) if verification.desync_at is not None else game.game
    return write_result(kept, deal.me.player, tracker.state, terms, out, verification)
