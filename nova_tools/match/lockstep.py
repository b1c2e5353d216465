"""Lockstep verification: both sides play every round locally and compare state hashes.

After each round a side sends the hash of its state and checks the hashes the peer has sent so
far; it plays at most ``window`` rounds ahead of what is verified, so a slow network costs little
and a silent peer is noticed within one timeout. A hash that differs stops both sides with
"desync at round N". A peer that leaves, goes silent or breaks the protocol mid-match does not
stop this side: it plays the rest of the match alone and notes from which round the result is
unverified.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from .channel import Channel, PeerError, PeerViolation
from .messages import Done, Round
from .states import MatchState, Tracker

WINDOW = 8


@dataclass(frozen=True)
class MatchProgress:
    rounds: int
    played: int
    verified: int
    state: MatchState


Progress = Callable[[MatchProgress], None]


@dataclass
class Verification:
    rounds: int
    played: int = 0
    verified: int = 0
    desync_at: int | None = None
    unverified_from: int | None = None
    problem: str | None = None  # one sentence: why verification stopped early


class Desync(Exception):
    def __init__(self, round_number: int, ours: str, theirs: str) -> None:
        self.round = round_number
        super().__init__(
            f"desync at round {round_number}: the state hash after that round was {ours[:12]}... here and "
            f"{theirs[:12]}... on the peer's side, so the two sides no longer play the same game"
        )


class Lockstep:
    """One side's verification state: its own hashes, the peer's, and how far they agree."""

    def __init__(
        self,
        rounds: int,
        channel: Channel | None,
        tracker: Tracker,
        window: int = WINDOW,
        on_lost: Callable[[str], None] | None = None,
    ) -> None:
        self.result = Verification(rounds)
        self.channel = channel
        self.gone = False  # the peer left: this side plays on alone
        self.on_lost = on_lost
        self.tracker = tracker
        self.window = window
        self.ours: dict[int, str] = {}
        self.theirs: dict[int, str] = {}
        self.last_theirs = 0

    # -- the peer's side ---------------------------------------------------------------------

    def _take(self, message: Round) -> None:
        expected = self.last_theirs + 1
        if message.round != expected or message.round > self.result.rounds:
            raise PeerViolation(
                f"the peer sent the hash of round {message.round} where round {expected} was due"
            )
        self.theirs[message.round] = message.hash
        self.last_theirs = message.round
        self._settle()

    def _settle(self) -> None:
        while (next_round := self.result.verified + 1) in self.ours and next_round in self.theirs:
            ours, theirs = self.ours.pop(next_round), self.theirs.pop(next_round)
            if ours != theirs:
                raise Desync(next_round, ours, theirs)
            self.result.verified = next_round

    def _lose(self, error: PeerError) -> None:
        """The peer is gone: this side goes on alone.

        What the peer sent before it left still counts: a connection that closed (or failed on
        our send) can still hold hashes that arrived, and every hash it sent checks the round it
        names when this side plays it. The result is unverified from the first round the peer
        sent no hash for."""
        while self.channel is not None and not isinstance(error, PeerViolation):
            try:
                message = self.channel.poll(Round)
            except PeerError:
                break
            if message is None:
                break
            try:
                self._take(message)
            except PeerViolation:
                break
        self.result.problem = str(error)
        channel, self.channel = self.channel, None
        self.gone = True
        if channel is not None:
            violation = isinstance(error, PeerViolation)
            channel.close(
                f"the match was stopped: {error}" if violation else None,
                code=1008 if violation else 1000,
            )
        if self.on_lost is not None:
            self.on_lost(f"{error}; playing the rest of the match alone")

    # -- this side ---------------------------------------------------------------------------

    def played(self, round_number: int, state_hash: str) -> None:
        """Record this side's hash of a round just played, send it, and check what has arrived.
        Blocks (up to the timeout per message) while this side is ``window`` rounds ahead."""
        result = self.result
        self.ours[round_number] = state_hash
        result.played = round_number
        self._settle()  # the peer's hash of this round may have come first (or before it left)
        if self.channel is None:
            return
        try:
            self.channel.send(Round(round=round_number, hash=state_hash))
            while self.channel is not None and (message := self.channel.poll(Round)) is not None:
                self._take(message)
            while result.played - result.verified >= self.window:
                self._take(self.channel.receive(Round))
        except PeerError as error:
            self._lose(error)

    def finish(self) -> None:
        """After the last round: wait for the peer's remaining hashes, then say goodbye."""
        result = self.result
        if self.channel is not None:
            try:
                while result.verified < result.rounds:
                    self._take(self.channel.receive(Round))
            except PeerError as error:
                self._lose(error)
        if result.verified < result.rounds:  # the peer left before it had sent every hash
            result.unverified_from = result.verified + 1
            self.tracker.move(MatchState.ABANDONED, result.problem or "")
            return
        result.problem = None  # every round is verified, even if the peer left without a goodbye
        if self.channel is not None:
            try:  # the goodbye is a courtesy: its loss changes nothing
                self.channel.send(Done(round=result.rounds))
                self.channel.receive(Done)
            except PeerError:
                pass
            self.channel.close()
            self.channel = None
        self.tracker.move(MatchState.VERIFIED)

    def desynced(self, desync: Desync) -> None:
        self.result.desync_at = desync.round
        self.result.problem = str(desync)
        if self.channel is not None:
            self.channel.close(str(desync))
            self.channel = None
        self.tracker.move(MatchState.DESYNCED, str(desync))

    def interrupted(self, why: str) -> None:
        """This side stops (Ctrl-C): tell the peer; the rounds not verified stay unverified."""
        result = self.result
        result.problem = why
        result.unverified_from = result.verified + 1
        if self.channel is not None:
            self.channel.close(why)
            self.channel = None
        if not self.tracker.state.final:
            self.tracker.move(MatchState.ABANDONED, why)


class Cancelled(Exception):
    """The caller asked this side to stop (the lab's Stop button); handled like Ctrl-C."""


def play_rounds(
    game,
    lockstep: Lockstep,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
) -> Verification:
    """Play every round of ``game`` (anything with ``play_round() -> state hash``), verifying as
    the hashes arrive. Returns how far the match was played and verified. ``cancel``, once set,
    stops the match between two rounds (raised as :class:`Cancelled`)."""
    result = lockstep.result

    def report() -> None:
        if progress is not None:
            progress(
                MatchProgress(result.rounds, result.played, result.verified, lockstep.tracker.state)
            )

    try:
        for round_number in range(1, result.rounds + 1):
            if cancel is not None and cancel.is_set():
                raise Cancelled
            lockstep.played(round_number, game.play_round())
            report()
        lockstep.finish()
    except Desync as desync:
        lockstep.desynced(desync)
    report()
    return result
