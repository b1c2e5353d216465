"""One arena game, as a worker plays it: (contest, task) -> :class:`GameRecord`.

Each seat's player is named after its script (the entrant's name, unique in a contest), so a kept
game reads as "starter vs miner"; a game depends only on the rules, the seed, the scripts and
their names, and the seat order: the same task gives the same record on any worker, in any
process, on any machine of a Ray cluster.
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


def player_names(contest: Contest) -> tuple[str, ...]:
    """Each entrant's player id: its script's name as a player id may spell it (letters,
    digits, '-', '_', '.'; 'starter#2' is 'starter-2'), made unique with its place if need be."""
    names = [
        "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "-" for c in e.name)[:60]
        or "script"
        for e in contest.entrants
    ]
    return tuple(
        name if names.count(name) == 1 else f"{name}-{index + 1}"
        for index, name in enumerate(names)
    )


def seat_players(contest: Contest, task: GameTask) -> tuple[str, ...]:
    """The player id of each seat: its script's name (:func:`player_names`)."""
    names = player_names(contest)
    return tuple(names[entrant] for entrant in task.seats)


@dataclass(frozen=True)
class SeatRecord:
    """How one seat's script did in one game."""

    entrant: int  # index into the contest's entrants
    player: str
    score: float
    turns: int
    failed: tuple[tuple[str, int], ...]  # (reason code, failed turns), by code
    # the round after which the seat first had each kind of building complete (not its initial
    # charger), e.g. {"extractor": 12, "charger": 30}; a kind never built is left out
    first_built: tuple[tuple[str, int], ...] = ()
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
    """The game of a task: seats join, upload and launch in seat order (players named after their scripts),
    then it is played through the one game loop."""
    names = seat_players(contest, task)
    seats = tuple(
        Seat(names[seat], contest.entrants[entrant].script, contest.entrants[entrant].name)
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
    players = seat_players(contest, task)
    failed: dict[str, Counter[str]] = {player: Counter() for player in players}
    first: dict[str, dict[str, int]] = {player: {} for player in players}
    moves = {player: hashlib.sha256() for player in players}
    for number in range(1, task.rounds + 1):
        report = session.play_round()  # its counts, made as the round was played
        turns.update(report.turns_by)
        for owner, code in report.failures:
            failed[owner][code] += 1
        for building in state.buildings.values():
            if building.complete and not building.initial:
                first.get(building.owner, {}).setdefault(building.type, number)
        for event in report.events:  # what each seat did, for telling identical games apart
            if type(event) is engine.Turn:
                moves[state.androids[event.android].owner].update(
                    json.dumps(event.action, sort_keys=True, default=str).encode() + b"\n"
                )
    points = {s.player: s.points for s in engine.scores(state)}
    seats = tuple(
        SeatRecord(
            entrant,
            players[seat],
            points[players[seat]],
            turns[players[seat]],
            tuple(sorted(failed[players[seat]].items())),
            tuple(sorted(first[players[seat]].items())),
            moves[players[seat]].hexdigest(),
        )
        for seat, entrant in enumerate(task.seats)
    )
    game_file = _game_file(contest, task, session) if contest.keep_files else None
    return GameRecord(task, seats, engine.state_hash(state), time.perf_counter() - start, game_file)


def _game_file(contest: Contest, task: GameTask, session: GameSession) -> bytes:
    """The game as the bytes of a game file that `nova status` and `nova play` open."""
    return store.serialize(stored_game(session, task.file_name(contest)))
