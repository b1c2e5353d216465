"""One arena game, as a worker plays it: (contest, task) -> :class:`GameRecord`.

Players are named by seat (``p1``, ``p2``...), never by script, so a game depends only on the
rules, the seed, the scripts and the seat order: the same task gives the same record on any
worker, in any process, on any machine of a Ray cluster.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from dataclasses import dataclass, field

from .. import engine, store
from ..play import GameSession, GameSpec, Seat, stored_game
from .plan import Contest, GameTask


def seat_player(seat: int) -> str:
    """The player id of a seat (0-based): ``p1``, ``p2``..."""
    return f"p{seat + 1}"


@dataclass(frozen=True)
class SeatRecord:
    """How one seat's script did in one game."""

    entrant: int  # index into the contest's entrants
    player: str
    score: float
    turns: int
    failed: tuple[tuple[str, int], ...]  # (reason code, failed turns), by code
    # a digest of every action the seat's androids took, in order: two scripts made the same
    # moves from a seat when their digests there are equal
    moves: str = ""

    @property
    def failed_turns(self) -> int:
        return sum(n for _, n in self.failed)


@dataclass(frozen=True)
class GameRecord:
    """A played game: the task, each seat's result in seat order, and the final state's hash."""

    task: GameTask
    seats: tuple[SeatRecord, ...]
    state_hash: str
    seconds: float = field(default=0.0, compare=False)
    # the game file's bytes when the contest keeps files; the caller writes them (workers do no I/O)
    game_file: bytes | None = field(default=None, compare=False, repr=False)

    @property
    def winner(self) -> int | None:
        """The entrant with the highest score, or None for a draw."""
        best = max(s.score for s in self.seats)
        leaders = [s.entrant for s in self.seats if s.score == best]
        return leaders[0] if len(leaders) == 1 else None

    def seat_of(self, entrant: int) -> SeatRecord:
        return next(s for s in self.seats if s.entrant == entrant)


def _session(contest: Contest, task: GameTask) -> GameSession:
    """The game of a task: seats join, upload and launch in seat order (players named by seat),
    then it is played through the one game loop."""
    seats = tuple(
        Seat(seat_player(seat), contest.entrants[entrant].script, contest.entrants[entrant].name)
        for seat, entrant in enumerate(task.seats)
    )
    return GameSession.start(
        GameSpec(contest.rules, task.seed, seats, task.rounds), keep_events=contest.keep_files
    )


def play_task(contest: Contest, task: GameTask) -> GameRecord:
    """Play one game of a contest from its seed to its last round."""
    start = time.perf_counter()
    session = _session(contest, task)
    state = session.state
    turns: Counter[str] = Counter()
    failed: dict[str, Counter[str]] = {seat_player(i): Counter() for i in range(len(task.seats))}
    moves = {seat_player(i): hashlib.sha256() for i in range(len(task.seats))}
    for _ in range(task.rounds):
        report = session.play_round()  # its counts, made as the round was played
        turns.update(report.turns_by)
        for owner, code in report.failures:
            failed[owner][code] += 1
        for event in report.events:  # what each seat did, for telling identical games apart
            if event["type"] == "turn":
                moves[state.androids[event["android"]].owner].update(
                    json.dumps(event.get("action"), sort_keys=True, default=str).encode() + b"\n"
                )
    points = {s.player: s.points for s in engine.scores(state)}
    seats = tuple(
        SeatRecord(
            entrant,
            seat_player(seat),
            points[seat_player(seat)],
            turns[seat_player(seat)],
            tuple(sorted(failed[seat_player(seat)].items())),
            moves[seat_player(seat)].hexdigest(),
        )
        for seat, entrant in enumerate(task.seats)
    )
    game_file = _game_file(contest, task, session) if contest.keep_files else None
    return GameRecord(task, seats, engine.state_hash(state), time.perf_counter() - start, game_file)


def _game_file(contest: Contest, task: GameTask, session: GameSession) -> bytes:
    """The game as the bytes of a game file that `nova status` and `nova play` open."""
    return store.serialize(stored_game(session, task.file_name(contest)))
