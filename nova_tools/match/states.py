"""Where a match stands, as one enum with its allowed moves, so every step can be logged and tested.

    waiting -> offered -> accepted -> playing -> verified
                  |           |          |---> desynced
                  v           v          '---> abandoned
               refused    abandoned

* ``waiting``: the host listens (the joiner connects);
* ``offered``: the offer is on the table;
* ``accepted``: a size is agreed; the scripts and the seed are being exchanged;
* ``playing``: both sides play the rounds and exchange a state hash after each;
* ``verified``: every round played, every hash matched;
* ``desynced``: a hash differed; both stop at that round;
* ``abandoned``: the peer left, went silent or broke the protocol (during play, the match is
  finished locally and the rounds from then on are unverified; before play, nothing was played);
* ``refused``: the offer was refused, or the two sides cannot play together (versions, sandbox).
"""

from __future__ import annotations

import enum
import logging

log = logging.getLogger("nova.match")


class MatchState(enum.Enum):
    WAITING = "waiting"
    OFFERED = "offered"
    ACCEPTED = "accepted"
    PLAYING = "playing"
    VERIFIED = "verified"
    DESYNCED = "desynced"
    ABANDONED = "abandoned"
    REFUSED = "refused"

    @property
    def final(self) -> bool:
        return not MOVES[self]


MOVES: dict[MatchState, frozenset[MatchState]] = {
    MatchState.WAITING: frozenset({MatchState.OFFERED, MatchState.REFUSED, MatchState.ABANDONED}),
    MatchState.OFFERED: frozenset({MatchState.ACCEPTED, MatchState.REFUSED, MatchState.ABANDONED}),
    MatchState.ACCEPTED: frozenset({MatchState.PLAYING, MatchState.REFUSED, MatchState.ABANDONED}),
    MatchState.PLAYING: frozenset({MatchState.VERIFIED, MatchState.DESYNCED, MatchState.ABANDONED}),
    MatchState.VERIFIED: frozenset(),
    MatchState.DESYNCED: frozenset(),
    MatchState.ABANDONED: frozenset(),
    MatchState.REFUSED: frozenset(),
}


class IllegalMove(RuntimeError):
    """A bug: the code tried a move the state machine does not allow."""


class Tracker:
    """The current state of one side of one match; every move is checked and logged.

    >>> t = Tracker("host")
    >>> t.move(MatchState.OFFERED); t.move(MatchState.ACCEPTED); t.state
    <MatchState.ACCEPTED: 'accepted'>
    >>> t.move(MatchState.VERIFIED)
    Traceback (most recent call last):
    ...
    nova_tools.match.states.IllegalMove: host: accepted -> verified is not a move of a match
    """

    def __init__(self, role: str) -> None:
        self.role = role
        self.state = MatchState.WAITING
        self.history = [MatchState.WAITING]

    def move(self, to: MatchState, why: str = "") -> None:
        if to not in MOVES[self.state]:
            raise IllegalMove(
                f"{self.role}: {self.state.value} -> {to.value} is not a move of a match"
            )
        log.info(
            "%s: %s -> %s%s", self.role, self.state.value, to.value, f" ({why})" if why else ""
        )
        self.state = to
        self.history.append(to)
