"""What the lab's own endpoints take and give, beside the api results they pass through.

Requests are validated here (unknown fields refused) so a handler only ever sees a well-formed
one; every model's JSON is camelCase like the api's. The front end's TypeScript types are
generated from these models and the api results they carry (:mod:`nova_tools.lab.typegen`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_serializer

from ..api import GameSummary, Result, Standing, Status
from ..arena.league import LeagueSummary
from ..arena.results import ComparisonResult, TournamentResult
from ..limits import MAX_SEED

Disclosure = Literal["full", "recording"]
JobKind = Literal["run", "host", "join", "compare", "tournament"]
JobState = Literal["running", "done", "failed", "cancelled"]
JobEventKind = Literal["started", "progress", "notice", "listening", "done", "failed", "cancelled"]


class Request(Result):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- answers ------------------------------------------------------------------------------------


class Problem(Result):
    """Every refused request: one sentence that says what and where."""

    error: str


class LabInfo(Result):
    root: str  # the folder the lab serves (games are NAME.json in it; scripts under it)
    version: str
    starter: str  # the name that picks the shipped starter android as a script


class GameListing(Result):
    """A game file under the root, with enough to pick it: round, players, scores."""

    name: str
    modified: float  # seconds since the epoch
    kind: Literal[
        "game", "record", "unreadable"
    ]  # a record: a peer match kept under --disclosure recording
    summary: GameSummary | None = None  # games only
    status: Status | None = None  # games and records
    problem: str | None = None  # why it cannot be read

    @field_serializer("status")
    def _status(self, status: Status | None) -> dict | None:
        return None if status is None else status.to_json()  # `nova status --json`, exactly


class GameList(Result):
    games: tuple[GameListing, ...]


class LeagueList(Result):
    """The leagues in the root (``NAME.league`` files, kept by ``nova league``)."""

    leagues: tuple[LeagueSummary, ...]


class ScriptList(Result):
    """The android scripts under the root (``.ts`` entry files), as paths relative to it."""

    starter: str
    house: tuple[
        str, ...
    ]  # the house androids (house:NAME), weakest first; the starter is house:starter
    scripts: tuple[str, ...]
    truncated: bool  # more files than the lab lists


class JobEvent(Result):
    """One thing a job reports: progress, a notice, the address it listens on, its end."""

    seq: int
    kind: JobEventKind
    message: str
    done: int | None = None  # rounds (a run, a match) or games (the arena) finished
    total: int | None = None
    verified: int | None = None  # a match: rounds whose hashes both sides compared
    url: str | None = None  # a host: the address a peer joins
    result: dict[str, Any] | None = None  # at the end: the job's result (JobResult shapes)


class JobView(Result):
    id: str
    kind: JobKind
    title: str
    state: JobState
    events: tuple[JobEvent, ...]


class RunOutcome(Result):
    """The result of a run: the game file written, and its scores."""

    name: str
    rounds: int
    final_turn: int | None
    seconds: float
    players: tuple[Standing, ...]


class MatchOutcome(Result):
    """The result of a match, host or joiner side (the ``match`` account of docs/matches.md)."""

    name: str
    outcome: str  # verified | desynced | abandoned
    verified: bool
    sentence: str
    role: str
    player: str
    opponent: str
    rounds: int
    size: str
    disclosure: str
    status: Status

    @field_serializer("status")
    def _status(self, status: Status) -> dict:
        return status.to_json()


class CompareOutcome(ComparisonResult):
    """The Arena page's comparison: ``nova compare --json`` as it is, and its kind."""

    kind: Literal["compare"] = "compare"


class TournamentOutcome(TournamentResult):
    """The Arena page's tournament: ``nova tournament --json`` as it is, and its kind."""

    kind: Literal["tournament"] = "tournament"


# --- requests -----------------------------------------------------------------------------------


class SeatRequest(Request):
    player: str = Field(min_length=1, max_length=64)
    script: str = Field(
        min_length=1, max_length=512
    )  # a path under the root, or the starter's name


class RunRequest(Request):
    name: str  # the game file to write: ROOT/NAME.json
    seats: tuple[SeatRequest, ...] = Field(min_length=1, max_length=8)
    seed: int = Field(0, ge=0, le=MAX_SEED)
    width: int = Field(12, ge=2, le=256)
    height: int = Field(12, ge=2, le=256)
    rounds: int = Field(20, ge=1, le=10_000)  # becomes rules.match.finalRound
    force: bool = False


class HostRequest(Request):
    name: str
    player: str = Field(min_length=1, max_length=64)
    script: str = Field(min_length=1, max_length=512)
    rounds: int = Field(20, ge=1, le=10_000)
    sizes: str | None = Field(None, max_length=200)  # "12x12,24x24"; None: the rules' size
    disclosure: Disclosure = "full"
    force: bool = False


class JoinRequest(Request):
    name: str
    url: str = Field(min_length=1, max_length=300)
    player: str = Field(min_length=1, max_length=64)
    script: str = Field(min_length=1, max_length=512)
    size: str | None = Field(None, max_length=20)
    force: bool = False


class ArenaRequest(Request):
    kind: Literal["compare", "tournament"]
    scripts: tuple[str, ...] = Field(min_length=2, max_length=8)
    seeds: str = Field("1-4", max_length=200)
    rounds: int = Field(100, ge=1, le=10_000)
    jobs: int = Field(1, ge=1, le=8)


class JobStarted(Result):
    id: str
    kind: JobKind


#: Every model of the lab's wire, for the generated TypeScript types (typegen).
WIRE_MODELS: tuple[type[BaseModel], ...] = (
    Problem,
    LabInfo,
    GameList,
    LeagueList,
    ScriptList,
    JobEvent,
    JobView,
    JobStarted,
    RunOutcome,
    MatchOutcome,
    CompareOutcome,
    TournamentOutcome,
    RunRequest,
    HostRequest,
    JoinRequest,
    ArenaRequest,
)
