"""A game without a file: the one game loop every service plays through.

``play_game(GameSpec(rules, seed, seats, rounds))`` plays a whole game in memory and returns a
:class:`GameResult`; a :class:`GameSession` plays it round by round, for a caller that checks a
state hash each round (a peer match), stops between rounds (a cancelled run) or reports progress.
``api.run_rounds`` plays a game file's rounds through a session resumed from the file's state, so
a game played here and the same game played through game files come out identical, event for
event: each seat joins, uploads its script and launches one android on its initial charger, in
seat order, before round 1 (as ``nova demo`` does).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import engine
from ..engine.events import Event, RoundEnded, Turn
from ..errors import NovaError
from ..limits import MAX_SEED
from ..rules import Rules
from .runner import ScriptRunner

if TYPE_CHECKING:
    from ..toolchain.compile import CompiledScript


class SpecError(NovaError, ValueError):
    """A game spec that cannot be played (a seed out of range, two seats for one player)."""


@dataclass(frozen=True)
class Seat:
    """One player of a game and the script their first android runs."""

    player: str
    script: CompiledScript  # only its bundle is used
    name: str = "script"  # the script's name in the game (what `nova upload --name` sets)


@dataclass(frozen=True)
class GameSpec:
    """Everything that decides a game: same spec, same game, on any machine."""

    rules: Rules
    seed: int
    seats: tuple[Seat, ...]
    rounds: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(self.seats))
        if not isinstance(self.seed, int) or not 0 <= self.seed <= MAX_SEED:
            raise SpecError(
                f"the seed must be a whole number from 0 to 2^63 - 1, not {self.seed!r}"
            )
        if not isinstance(self.rounds, int) or self.rounds < 0:
            raise SpecError(
                f"the number of rounds must be a whole number, at least 0, not {self.rounds!r}"
            )
        players = [seat.player for seat in self.seats]
        if len(set(players)) != len(players):
            raise SpecError(f"each seat needs its own player id, got {players}")


@dataclass(frozen=True)
class RoundReport:
    """What one round did: its events, and the counts a progress line and a contest's record
    show, counted once as the round is played (scores are not: ask ``engine.scores`` when they
    are wanted)."""

    round: int
    events: list[Event]
    turns: int
    failed_turns: int
    destroyed: tuple[str, ...]
    turns_by: dict[str, int]  # player -> turns their androids took this round
    failures: tuple[tuple[str, str], ...]  # (player, reason code) of each failed turn, in order


@dataclass(frozen=True)
class GameResult:
    """A played game: the final state's hash, the scores with their breakdown and the whole event
    log (setup included)."""

    state_hash: str
    rounds: int  # the last round played
    scores: tuple[engine.Score, ...]
    events: list[Event] = field(repr=False)
    turns: int = 0
    failed_turns: int = 0
    destroyed: tuple[str, ...] = ()  # the androids destroyed in this session's rounds, in order
    initial: dict[str, Any] | None = field(
        default=None, repr=False
    )  # the world before any event (engine.to_json)
    state: engine.GameState | None = field(default=None, repr=False, compare=False)

    def points(self) -> dict[str, float]:
        return {score.player: score.points for score in self.scores}


class GameSession:
    """A game being played round by round.

    ``GameSession(state, bundles, source_maps=...)`` resumes any state (a loaded game file's, a copy for a dry run);
    :meth:`start` sets a :class:`GameSpec`'s game up. ``events`` holds what this session did
    (setup included) unless ``keep_events`` is false (a caller that stores each round itself).
    """

    def __init__(
        self,
        state: engine.GameState,
        bundles: Mapping[str, str],
        *,
        keep_events: bool = True,
        runner: ScriptRunner | None = None,
        source_maps: Mapping[str, object] | None = None,
    ) -> None:
        self.state = state
        self.runner = runner or ScriptRunner(state.rules, bundles, source_maps)
        self.keep_events = keep_events
        self.events: list[Event] = []
        self.turns = 0
        self.failed_turns = 0
        self.destroyed: tuple[str, ...] = ()
        self.initial: dict[str, Any] | None = None
        self.seats: dict[str, Seat] = {}  # script id -> the seat that uploaded it here

    @classmethod
    def start(cls, spec: GameSpec, *, keep_events: bool = True) -> GameSession:
        """A fresh world from the spec's rules and seed, each seat joined with its script
        uploaded and one android launched on its initial charger, in seat order."""
        state = engine.generate(spec.rules, spec.seed)
        session = cls(state, {}, keep_events=keep_events)
        session.initial = engine.to_json(state)
        for seat in spec.seats:
            session.seat(seat)
        return session

    @property
    def rules(self) -> Rules:
        return self.state.rules

    @property
    def round(self) -> int:
        return self.state.round

    def _record(self, events: list[Event]) -> None:
        if self.keep_events:
            self.events.extend(events)

    def seat(self, seat: Seat) -> list[Event]:
        """Join ``seat.player`` (if new), upload its script and launch one android with it on the
        player's initial charger. Returns the events (refusals raise engine.Refusal)."""
        state = self.state
        events: list[Event] = (
            [] if seat.player in state.players else [engine.join(state, seat.player)]
        )
        uploaded = engine.add_script(state, seat.player, seat.name)
        self.runner.bundles[uploaded.script] = seat.script.bundle
        if seat.script.source_map is not None:
            self.runner.source_maps[uploaded.script] = seat.script.source_map
        self.seats[uploaded.script] = seat
        events += [uploaded, engine.launch(state, seat.player, uploaded.script)]
        self._record(events)
        return events

    def play_round(self) -> RoundReport:
        """Play the next round: every active android's script runs once, in turn order."""
        events = engine.play_round(self.state, self.runner.decide)
        androids = self.state.androids
        turns_by: dict[str, int] = {}
        failures: list[tuple[str, str]] = []
        destroyed: tuple[str, ...] = ()
        for event in events:
            if type(event) is Turn:
                owner = androids[event.android].owner
                turns_by[owner] = turns_by.get(owner, 0) + 1
                if event.failed:
                    failures.append((owner, str(event.code)))
            elif type(event) is RoundEnded:
                destroyed = event.destroyed
        turns = sum(turns_by.values())
        self.turns += turns
        self.failed_turns += len(failures)
        self.destroyed += destroyed
        self._record(events)
        return RoundReport(
            self.state.round, events, turns, len(failures), destroyed, turns_by, tuple(failures)
        )

    def play(
        self,
        rounds: int,
        *,
        progress: Callable[[int, int], None] | None = None,
        stop: Callable[[], bool] | None = None,
        on_round: Callable[[RoundReport], None] | None = None,
    ) -> list[RoundReport]:
        """Play up to ``rounds`` rounds; after each, ``on_round(report)`` (a caller that keeps
        every whole round as it is played) and ``progress(done, rounds)``; ``stop()`` (if given)
        is asked before each: a true answer ends the run between rounds."""
        reports = []
        for done in range(1, rounds + 1):
            if stop is not None and stop():
                break
            report = self.play_round()
            reports.append(report)
            if on_round is not None:
                on_round(report)
            if progress is not None:
                progress(done, rounds)
        return reports

    def trial_turn(self, android_id: str) -> tuple[engine.Decision, Turn]:
        """Begin the next round and play one android's turn only (a dry run, on a state that is
        thrown away afterwards): the decision its script made and the turn event the engine
        judged. ``runner.last_logs`` holds what the script printed."""
        engine.begin_round(self.state)
        android = self.state.androids[android_id]
        decision = self.runner.decide(self.state, android)
        return decision, engine.apply_turn(self.state, android_id, decision)

    def state_hash(self) -> str:
        return engine.state_hash(self.state)

    def scores(self) -> tuple[engine.Score, ...]:
        return tuple(engine.scores(self.state))

    def result(self) -> GameResult:
        return GameResult(
            state_hash=self.state_hash(),
            rounds=self.state.round,
            scores=self.scores(),
            events=self.events,
            turns=self.turns,
            failed_turns=self.failed_turns,
            destroyed=self.destroyed,
            initial=self.initial,
            state=self.state,
        )


def play_game(spec: GameSpec, *, progress: Callable[[int, int], None] | None = None) -> GameResult:
    """Play a whole game in memory: setup, then ``spec.rounds`` rounds."""
    session = GameSession.start(spec)
    session.play(spec.rounds, progress=progress)
    return session.result()
