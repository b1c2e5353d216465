"""What the api returns: typed results, each with ``to_json()`` giving its documented JSON shape.

Field names are snake_case in Python and camelCase in JSON (``active_androids`` is
``activeAndroids``), like ``nova status --json`` and the world a script sees. ``to_json()`` of a
result that a CLI command prints with ``--json`` is that command's stable shape (DESIGN section 6);
a test pins them. Numbers keep the type the game gave them (a score of 4 is ``4``, not ``4.0``).
Each model's JSON Schema (``Model.model_json_schema(by_alias=True)``) describes its ``to_json()``,
for front ends written in another language (the lab).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

Points = int | float  # scores, battery, health: 4 stays 4 and 2.5 stays 2.5
Materials = dict[str, int]  # sparse: a material left out is zero


class Result(BaseModel):
    # defer_build: a model's validator is built the first time it is used, not when this module is
    # imported, so a command pays only for the results it returns (nova status: three of them)
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        frozen=True,
        serialize_by_alias=True,
        defer_build=True,
    )

    # the fields ``to_json()`` gives, when the documented shape is a part of the result
    json_fields: ClassVar[set[str] | frozenset[str] | None] = None

    def to_json(self) -> dict[str, Any]:
        shown = None if self.json_fields is None else set(self.json_fields)
        return self.model_dump(mode="json", by_alias=True, include=shown)


class Position(Result):
    x: int
    y: int


# --- changing a game ----------------------------------------------------------------------------


class Created(Result):
    """``nova create-game --json``: ``{"file", "seed", "width", "height", "finalTurn"}``."""

    path: Path = Field(alias="file")
    seed: int
    width: int
    height: int
    final_turn: int | None


class Uploaded(Result):
    """``nova upload --json``: ``{"scriptId"}``."""

    json_fields: ClassVar = frozenset({"script_id"})

    script_id: str
    player: str
    name: str
    sha256: str
    joined: bool  # the upload created the player


class Launched(Result):
    """``nova launch --json``: ``{"androidId"}``."""

    json_fields: ClassVar = frozenset({"android_id"})

    android_id: str
    player: str
    script_id: str
    position: Position
    active_androids: int  # the player's, this one included
    capacity: int  # how many the player's completed chargers allow


class RunSummary(Result):
    """``nova run --json``: ``{"rounds", "firstRound", "lastRound", "turns", "failedTurns", "destroyed"}``."""

    json_fields: ClassVar = frozenset(
        {"rounds", "first_round", "last_round", "turns", "failed_turns", "destroyed"}
    )

    rounds: int
    first_round: int
    last_round: int
    turns: int
    failed_turns: int
    destroyed: tuple[str, ...]
    seconds: float
    final_round: int | None = (
        None  # rules.match.finalRound: None means the game has no arrival date
    )
    # the standings the run left, as `nova status` gives them (so nobody reads the file again)
    status: Status | None = None


class SourcePlace(Result):
    """A place in the player's own files (a failed turn's, mapped from the bundle by the
    script's source map): the file as they named it, line and column from 1, and the function."""

    file: str
    line: int
    column: int
    function: str | None = None


class DryRun(Result):
    """``nova dry-run --json``: one turn of a script judged by the engine, changing nothing."""

    json_fields: ClassVar = frozenset(
        {
            "android_id",
            "round",
            "action",
            "ticks",
            "accepted",
            "outcome",
            "code",
            "reason",
            "penalty",
            "memory_size",
            "recording_size",
            "logs",
            "stack",
        }
    )

    android_id: str
    round: int
    action: Any  # what the turn function returned (None on a script error)
    ticks: int
    accepted: bool
    outcome: str  # accepted | refused | invalid | error
    code: str | None
    reason: str | None
    penalty: Points  # health a failed turn would cost
    memory_size: int | None
    recording_size: int | None
    event: dict[str, Any]  # the turn event the engine would log
    logs: tuple[str, ...] = ()  # what the script printed with console.log (at most MAX_LOG_LINES)
    # where the turn failed in the player's files, innermost first (empty when it did not fail
    # there: refused, out of fuel, or a script kept without its source map)
    stack: tuple[SourcePlace, ...] = ()


# --- scores -----------------------------------------------------------------------------------


class ScoreLine(Result):
    source: (
        str  # "buildings.<type>" or "materials.<material>": the rules.scoring path it comes from
    )
    points: Points


class Standing(Result):
    """One player's colony readiness, where it comes from, and their androids."""

    id: str
    score: Points
    breakdown: tuple[ScoreLine, ...]
    active_androids: int
    wrecks: int


class Status(Result):
    """``nova status --json``: ``{"round", "finalTurn", "players": [...]}``, and for a peer match's
    file its ``match`` account (docs/matches.md)."""

    round: int
    final_turn: int | None
    players: tuple[Standing, ...]
    match: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        if self.match is None:
            del data["match"]
        return data


# --- things on the board ----------------------------------------------------------------------


class AndroidState(Result):
    """An android as anyone who sees it sees it (no memory, no recording)."""

    id: str
    owner_id: str
    script_id: str
    position: Position
    battery: Points
    health: Points
    active: bool  # false for a wreck
    cargo: Materials


class AndroidReport(AndroidState):
    """``nova android --json``: one android as its owner sees it."""

    memory: str
    recording: str


class RecordedAndroid(Result):
    """``nova android --json`` on a peer match record: what the record keeps of one's own android."""

    id: str
    owner_id: str
    script_id: str
    active: bool
    recording: str


class OwnAndroid(AndroidState):
    memory_length: int
    recording_length: int


class BuildingState(Result):
    id: str
    type: str
    owner_id: str
    position: Position
    health: Points
    complete: bool  # false for a construction site
    initial: bool  # a player's initial charger
    remaining_ticks: int
    invested: Materials
    owed: Materials  # what a site still needs
    storage: Materials


class ScriptRef(Result):
    id: str
    name: str


class Holdings(Result):
    """What a player owns, wherever it is (fog does not hide your own things)."""

    capacity: int  # active androids the player's completed chargers allow
    active_androids: int
    androids: tuple[OwnAndroid, ...]  # wrecks included
    buildings: tuple[BuildingState, ...]  # sites included
    scripts: tuple[ScriptRef, ...]


class VisibleTile(Result):
    position: Position
    composition: Materials  # ore, water, acid, radiation in the ground
    scattered: Materials  # loose material
    revealed_by: tuple[str, ...] = ()  # the players who see it


class Message(Result):
    round: int
    android_id: str
    owner_id: str
    position: Position
    content: str


class PlayerWorld(Result):
    """The world as one player sees it (fogged), and everything the player owns."""

    player: str
    round: int
    width: int
    height: int
    tiles: tuple[VisibleTile, ...]  # every visible tile, row by row
    androids: tuple[AndroidState, ...]  # on visible tiles, everyone's
    buildings: tuple[BuildingState, ...]  # on visible tiles, everyone's
    messages: tuple[Message, ...]  # broadcasts sent from visible tiles, oldest first
    yours: Holdings
    loose: Materials  # loose material on all visible tiles, added up


# --- the log ------------------------------------------------------------------------------------


class EventsPage(Result):
    """``nova events --json``: ``{"total", "offset", "limit", "events", "logLength"}``; each event is
    as the game file holds it (docs/game-file.md) plus its ``index`` in the whole log and its
    ``text``, the line `nova events` prints for it."""

    total: int  # events matching the filters
    offset: int  # index, among the matches, of the first one shown
    limit: int
    events: tuple[
        dict[str, Any], ...
    ]  # each with its ``index`` and its ``text`` (what happened, in words)
    log_length: int = 0  # events in the whole log, matching or not


class PlayerHistory(Result):
    id: str
    scores: tuple[Points, ...]  # one per listed round


class LeadChange(Result):
    """A round where the lead changed hands: who leads from then on (several on a tie, none while
    nobody has a point) and everyone's score then, in the order of the players."""

    round: int
    leaders: tuple[str, ...]
    scores: tuple[Points, ...]


class ScoreHistory(Result):
    """``nova status --history --json``: ``{"rounds", "players": [{"id", "scores"}], "leadChanges"}``,
    each player's score after setup (round 0) and after every round, in join order."""

    rounds: tuple[int, ...]
    players: tuple[PlayerHistory, ...]
    lead_changes: tuple[LeadChange, ...]

    def sampled(self, every: int) -> ScoreHistory:
        """Every ``every``-th round (the last one always kept), for a view that must stay small;
        the lead changes are kept whole."""
        picked = list(range(0, len(self.rounds), every))
        if self.rounds and picked[-1] != len(self.rounds) - 1:
            picked.append(len(self.rounds) - 1)
        return ScoreHistory(
            rounds=tuple(self.rounds[i] for i in picked),
            players=tuple(
                PlayerHistory(id=p.id, scores=tuple(p.scores[i] for i in picked))
                for p in self.players
            ),
            lead_changes=self.lead_changes,
        )


class FrameScore(Result):
    id: str
    seat: int  # join order, from 0
    score: Points
    breakdown: tuple[ScoreLine, ...]


class Frame(Result):
    """The whole board at one moment of a recorded game (after setup, after a round, or with
    ``per_turn`` after one turn) and the events that led there from the previous frame."""

    round: int
    turn: int | None  # with per_turn: how many turns of the round have been played; else None
    width: int
    height: int
    tiles: tuple[VisibleTile, ...]  # the tiles with anything in the ground or on the surface
    androids: tuple[AndroidState, ...]  # wrecks included
    buildings: tuple[BuildingState, ...]
    players: tuple[FrameScore, ...]
    events: tuple[dict[str, Any], ...]  # since the previous frame, each with its ``text``


class GameSummary(Result):
    """Enough to tell games apart in a list."""

    round: int
    final_turn: int | None
    width: int
    height: int
    players: tuple[str, ...]
    active_androids: int


class GameEntry(Result):
    """A game under a folder: its name and summary, or why it cannot be read."""

    name: str
    path: Path
    summary: GameSummary | None = None
    problem: str | None = None


# --- a recorded game for a viewer (the lab) -------------------------------------------------------


class FrameChange(Result):
    """One frame of a :class:`Timeline`, as what changed since the frame before it (the first
    frame: since an empty board). Applying the changes in order gives every frame whole."""

    round: int
    turn: int | None  # per-turn timelines: how many turns of the round have been played; else None
    tiles: tuple[VisibleTile, ...] = ()  # tiles that appeared or changed
    tiles_gone: tuple[Position, ...] = ()  # tiles that left the frame (emptied, or out of sight)
    androids: tuple[AndroidState, ...] = ()  # androids that appeared or changed (wrecks included)
    androids_gone: tuple[str, ...] = ()  # out of sight (a fogged timeline); a wreck stays
    buildings: tuple[BuildingState, ...] = ()
    buildings_gone: tuple[str, ...] = ()  # salvaged, or out of sight
    players: tuple[FrameScore, ...] | None = (
        None  # every player's score, when any changed; else None
    )
    events: int  # how many events of the log led here from the previous frame


class Timeline(Result):
    """A recorded game frame by frame, compactly: the board after setup, after every round (and
    with ``per_turn`` after every turn), each frame given as its changes. With ``player``, the
    board as that player saw it: the tiles they saw, what stood on them, and their own things
    wherever they were."""

    player: str | None
    width: int
    height: int
    final_turn: int | None  # rules.match.finalRound
    last_round: int  # the last round the game has played
    per_turn: bool
    frames: tuple[FrameChange, ...]


class TurnSummary(Result):
    """One android's turn as the log keeps it: the action (without its memory and recording, which
    the android itself shows), and how the engine judged it."""

    round: int
    action: dict[str, Any] | None  # what the turn function returned (None on a script error)
    outcome: str  # accepted | refused | invalid | error
    code: str | None  # the reason code of a failed turn
    reason: str | None
    ticks: int


class AndroidMoment(AndroidReport):
    """An android at one moment of a recorded game, with its last turn up to then."""

    round: int
    turn: int | None
    last_turn: TurnSummary | None  # None before its first turn


class RunGame(Result):
    """A run played to its arrival round and kept as a game file (the lab's Run panel)."""

    path: Path = Field(alias="file")
    seed: int
    width: int
    height: int
    final_turn: int | None  # rules.match.finalRound: the run's round count
    rounds: int  # rounds played
    turns: int
    failed_turns: int
    seconds: float
    players: tuple[Standing, ...]  # the scores after the last round


# --- the game's reference -----------------------------------------------------------------------


class ActionField(Result):
    name: str
    required: bool
    description: str


class ActionDoc(Result):
    """An action a script may return: its ``type``, what it does, its fields."""

    type: str
    summary: str
    fields: tuple[ActionField, ...]
