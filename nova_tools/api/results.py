"""What the api returns: typed results, each with ``to_json()`` giving its documented JSON shape.

Field names are snake_case in Python and camelCase in JSON (``active_androids`` is
``activeAndroids``), like ``nova status --json`` and the world a script sees. ``to_json()`` of a
result that a CLI command prints with ``--json`` is that command's stable shape (DESIGN section 6);
a test pins them. Numbers keep the type the game gave them (a score of 4 is ``4``, not ``4.0``).
Each model's JSON Schema (``Model.model_json_schema(by_alias=True)``) describes its ``to_json()``,
for front ends written in another language (the lab).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, ClassVar

from pydantic import Field, PlainSerializer, PlainValidator, SkipValidation, WithJsonSchema

from ..engine.events import Event, Turn, event_from_json
from ..engine.reasons import Outcome, Reason
from ..engine.wire import Action
from ..shape import Result

Points = int | float  # scores, battery, health: 4 stays 4 and 2.5 stays 2.5
Materials = dict[str, int]  # sparse: a material left out is zero


class Position(Result):
    x: int = Field(description="Column, from 0 at the west edge.")
    y: int = Field(description="Row, from 0 at the north edge.")


# --- changing a game ----------------------------------------------------------------------------


class Created(Result):
    """``nova create-game --json``: ``{"file", "seed", "width", "height", "finalTurn"}`` (the
    MCP tools name the game instead of its file)."""

    path: Path | None = Field(None, alias="file", exclude=True)  # a machine path: only the CLI
    game: str | None = Field(None, description="The new game's name.")
    seed: int = Field(description="The world seed.")
    width: int = Field(description="Board width.")
    height: int = Field(description="Board height.")
    final_turn: int | None = Field(
        description="The arrival round (rules.match.finalRound), if the rules set one."
    )

    def to_json(self) -> dict[str, Any]:
        data = self.model_dump(mode="json", by_alias=True, exclude={"game"})
        return {"file": str(self.path), **data}


class RuleProblem(Result):
    path: str = Field(description="The JSON path of the problem, e.g. 'android.cargoCapacity'.")
    message: str = Field(description="What is wrong there and what was expected.")


class RulesCheck(Result):
    """Rules overrides checked without creating a game."""

    valid: bool = Field(description="True when the rules can be used as they are.")
    problems: tuple[RuleProblem, ...] = Field(
        (), description="Every problem found, each with its JSON path."
    )
    width: int | None = Field(None, description="Board width the rules give (when valid).")
    height: int | None = Field(None, description="Board height the rules give (when valid).")
    final_turn: int | None = Field(
        None, description="The arrival round the rules give, if any (when valid)."
    )


class Uploaded(Result):
    """``nova upload --json``: ``{"scriptId"}``."""

    json_fields: ClassVar = frozenset({"script_id"})

    script_id: str = Field(
        description="Pass this to launch_android (and android.launch in a script)."
    )
    player: str
    name: str = Field(description="The name the script is stored under.")
    sha256: str = Field(description="Digest of the compiled bundle.")
    joined: bool = Field(
        description="True when this upload added the player to the game (with their initial charger)."
    )
    library_id: str | None = Field(
        None,
        description="The script in the player's library: upload it to any other game by this id, no source needed.",
    )


class LibraryEntry(Result):
    """A script in the player's library: upload it to any game, or compare it, by its id."""

    id: str = Field(
        description="The library id ('lib-' + 16 hex digits of the bundle's SHA-256): the same code always gets the same id."
    )
    name: str
    sha256: str = Field(
        description="Digest of the compiled bundle: every game it is uploaded to holds these bytes."
    )
    bytes: int = Field(description="The bundle's size in UTF-8 bytes.")
    files: tuple[str, ...] = Field(description="The files it was compiled from, entry first.")
    added: bool = Field(
        False,
        description="True when this call put it in the library (False: it was there already, nothing was compiled twice).",
    )


class Launched(Result):
    """``nova launch --json``: ``{"androidId"}``."""

    json_fields: ClassVar = frozenset({"android_id"})

    android_id: str = Field(description="The new android's id.")
    player: str
    script_id: str
    position: Position = Field(description="Where it stands: on the player's initial charger.")
    active_androids: int = Field(description="The player's active androids now, this one included.")
    capacity: int = Field(
        description="How many active androids the player's completed chargers allow."
    )


class RunSummary(Result):
    """``nova run --json``: ``{"rounds", "firstRound", "lastRound", "turns", "failedTurns", "destroyed"}``."""

    json_fields: ClassVar = frozenset(
        {"rounds", "first_round", "last_round", "turns", "failed_turns", "destroyed"}
    )

    rounds: int = Field(description="Rounds played by this call.")
    first_round: int
    last_round: int = Field(description="The game's round now.")
    turns: int = Field(description="Android turns taken.")
    failed_turns: int = Field(
        description="Turns refused or failed (each cost the android health): see the events of failed turns."
    )
    destroyed: tuple[str, ...] = Field(description="Androids destroyed during these rounds.")
    owners: dict[str, str] = Field(
        default_factory=dict, description="Whose each destroyed android was: id -> player."
    )
    seconds: float
    final_round: int | None = Field(
        None, description="rules.match.finalRound: none means the game has no arrival date."
    )
    scores: tuple[PlayerScore, ...] = Field(
        (), description="Colony readiness per player after the last round."
    )
    # the standings the run left, as `nova status` gives them (so nobody reads the file again)
    status: Status | None = Field(None, exclude=True)


class PlayerScore(Result):
    player: str
    score: Points


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

    android_id: str = Field(description="The android the turn was run as.")
    round: int
    # typed as the actions a turn may return, but passed on as returned: a turn that returns
    # something else (an unknown type, a number) is exactly what a dry-run must show
    action: SkipValidation[
        Action | dict[str, Any] | list[Any] | str | int | float | bool | None
    ] = Field(
        None,
        description="What the turn function returned: one of the actions (see the typings), or anything else it returned, which the engine refuses as invalid; null on a script error.",
    )
    ticks: int = Field(description="Interpreter ticks spent (rules.script.fuel is the budget).")
    accepted: bool = Field(description="Whether the engine would accept the action.")
    outcome: Outcome
    code: Reason | None = Field(description="The reason code, when not accepted.")
    reason: str | None = Field(description="Why not, in words.")
    penalty: Points = Field(description="Health a failed turn costs.")
    memory_size: int | None = Field(description="The memory's length as the engine counts it.")
    recording_size: int | None
    logs: tuple[str, ...] = Field(
        (), description="What the script printed with console.log this turn."
    )
    stack: tuple[SourcePlace, ...] = Field(
        (),
        description="Where the turn failed in the player's files, innermost first (empty when it did not fail there).",
    )
    world: str | None = Field(
        None,
        description="MCP: 'game' when run against a game's current state, 'fresh' for a fresh default world.",
    )


# --- scores -----------------------------------------------------------------------------------


class ScoreLine(Result):
    source: str = Field(
        description="What earns the points, e.g. 'buildings.charger' or 'materials.metal'."
    )
    points: Points


class Standing(Result):
    """One player's colony readiness, where it comes from, and their androids."""

    id: str
    score: Points = Field(description="Colony readiness now.")
    breakdown: tuple[ScoreLine, ...] = Field(
        description="Where the score comes from (zero lines left out)."
    )
    active_androids: int
    wrecks: int


class Status(Result):
    """``nova status --json``: ``{"round", "finalTurn", "players": [...]}``, and for a peer match's
    file its ``match`` account (docs/matches.md)."""

    round: int
    final_turn: int | None = Field(
        description="The round the humans land on (rules.match.finalRound), if any."
    )
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
    owner_id: str = Field(description="The player who owns it.")
    script_id: str
    position: Position
    battery: Points
    health: Points
    active: bool = Field(description="False for a wreck.")
    cargo: Materials


class AndroidReport(AndroidState):
    """``nova android --json``: one android as its owner sees it (MCP get_android: windows of
    its memory and recording, and its last turns)."""

    json_fields: ClassVar = frozenset(
        {
            "id",
            "owner_id",
            "script_id",
            "position",
            "battery",
            "health",
            "active",
            "cargo",
            "memory",
            "recording",
        }
    )

    memory: str = Field(description="Its memory (MCP: up to max_chars, from the start).")
    recording: str = Field(
        description="Its recording (MCP: a window, by default its last max_chars characters)."
    )
    memory_length: int | None = Field(None, description="Characters of memory in all.")
    recording_length: int | None = Field(None, description="Characters of recording in all.")
    recording_offset: int | None = Field(None, description="Where the recording window starts.")
    recent_turns: tuple[TurnSummary, ...] | None = Field(
        None, description="Its last few turns, newest last."
    )


class RecordedAndroid(Result):
    """``nova android --json`` on a peer match record: what the record keeps of one's own android."""

    id: str
    owner_id: str
    script_id: str
    active: bool
    recording: str


class OwnAndroid(AndroidState):
    memory_length: int = Field(description="Characters of memory (read it with get_android).")
    recording_length: int = Field(description="Characters of recording (read it with get_android).")


class BuildingState(Result):
    id: str
    type: str
    owner_id: str
    position: Position
    health: Points
    complete: bool = Field(
        description="False for a construction site, which does nothing and scores nothing."
    )
    initial: bool = Field(description="The player's initial charger (nobody can salvage it).")
    remaining_ticks: int
    invested: Materials
    owed: Materials = Field(description="Material the site still needs.")
    storage: Materials


class ScriptRef(Result):
    id: str
    name: str


class Holdings(Result):
    """What a player owns, wherever it is (fog does not hide your own things)."""

    capacity: int = Field(description="Active androids the player's completed chargers allow.")
    active_androids: int
    androids: tuple[OwnAndroid, ...] = Field(
        description="Every android of the player, wrecks included, wherever it is."
    )
    buildings: tuple[BuildingState, ...] = Field(
        description="Every building and site of the player, wherever it is."
    )
    scripts: tuple[ScriptRef, ...]


class VisibleTile(Result):
    position: Position
    composition: Materials = Field(description="Ore, water, acid, radiation in the ground.")
    scattered: Materials = Field(description="Loose material, collectable with android.collect.")
    revealed_by: tuple[str, ...] = Field((), description="The players who see it.")


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
    tiles: tuple[VisibleTile, ...] = Field(
        description="Visible tiles row by row (MCP: a page of those with something in the ground or on the surface)."
    )
    androids: tuple[AndroidState, ...] = Field(
        description="Androids on visible tiles, with their owner (MCP: other players' only; yours are under yours)."
    )
    buildings: tuple[BuildingState, ...] = Field(
        description="Buildings on visible tiles (MCP: other players' only)."
    )
    messages: tuple[Message, ...] = Field(
        description="Broadcasts sent from visible tiles, oldest first (MCP: the latest few)."
    )
    yours: Holdings
    loose: Materials = Field(description="Loose material on all visible tiles, added up.")
    whole_map: bool | None = Field(
        None,
        description="True: the complete world (a replay's view), not the player's sight.",
    )
    visible_tiles: int | None = Field(None, description="How many tiles the player sees.")
    tile_count: int | None = Field(
        None, description="Visible tiles with something in the ground or on the surface."
    )
    tile_offset: int | None = Field(None, description="Where the page of tiles starts.")
    message_count: int | None = Field(None, description="Broadcasts sent from visible tiles.")


# --- the log ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EventLine:
    """An event of the log as a read gives it: the event (typed, as the engine made it), what it
    says in words (api.wording), and its place in the whole log (None in a replay frame). Its
    JSON is the event as the game file holds it plus ``index`` and ``text``."""

    event: Event
    text: str
    index: int | None = None

    def to_json(self) -> dict[str, Any]:
        data = self.event.to_json()
        data["text"] = self.text
        return data if self.index is None else {"index": self.index, **data}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EventLine:
        """The line whose JSON is ``data`` (what a front end reading an answer back gets)."""
        rest = {k: v for k, v in data.items() if k not in ("index", "text")}
        return cls(event_from_json(rest), data["text"], data.get("index"))


def _event_line(value: object) -> EventLine:
    if isinstance(value, EventLine):
        return value
    if isinstance(value, dict):
        return EventLine.from_json(value)
    raise ValueError(f"an event line, not {type(value).__name__}")


# A field of event lines: checked to be lines, written as their JSON (an object per event).
EventItem = Annotated[
    EventLine,
    PlainValidator(_event_line),
    PlainSerializer(EventLine.to_json, return_type=dict[str, Any]),
    WithJsonSchema({"additionalProperties": True, "type": "object"}),
]


class EventsPage(Result):
    """``nova events --json``: ``{"total", "offset", "limit", "events", "logLength"}``; each event is
    as the game file holds it (docs/game-file.md) plus its ``index`` in the whole log and its
    ``text``, the line `nova events` prints for it."""

    json_fields: ClassVar = frozenset({"total", "offset", "limit", "events", "log_length"})

    total: int = Field(description="Events matching the filters.")
    offset: int = Field(description="Index (among the matches) of the first event shown.")
    limit: int
    events: tuple[EventItem, ...] = Field(
        description="The events in full, each with its index and text (MCP: only with compact=false)."
    )
    log_length: int = Field(0, description="Events in the whole log, matching or not.")
    lines: tuple[str, ...] | None = Field(
        None,
        description="MCP's compact form (the default): one line each, '#index rROUND what happened'.",
    )


class PlayerHistory(Result):
    id: str
    scores: tuple[Points, ...] = Field(
        description="The player's score after each listed round, in the order of rounds."
    )


class LeadChange(Result):
    """A round where the lead changed hands: who leads from then on (several on a tie, none while
    nobody has a point) and everyone's score then, in the order of the players."""

    round: int = Field(description="The round after which the lead changed hands.")
    leaders: tuple[str, ...] = Field(
        description="Who leads from then on: one player, several on a tie, none while nobody has a point."
    )
    scores: tuple[Points, ...] = Field(
        description="Every player's score then, in the order of players."
    )


class ScoreHistory(Result):
    """``nova status --history --json``: ``{"rounds", "players": [{"id", "scores"}], "leadChanges"}``,
    each player's score after setup (round 0) and after every round, in join order."""

    json_fields: ClassVar = frozenset({"rounds", "players", "lead_changes"})

    rounds: tuple[int, ...] = Field(
        description="The rounds listed (0: after setup); the last round played is always included."
    )
    players: tuple[PlayerHistory, ...] = Field(description="Each player's scores, in join order.")
    lead_changes: tuple[LeadChange, ...] = Field(
        description="Every round where the lead changed, over the whole game (not only the listed rounds)."
    )
    every: int = Field(1, description="The step between listed rounds (1: every round).")

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
            every=every,
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
    events: tuple[EventItem, ...]  # since the previous frame, each with its ``text``


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

    name: str = Field(description="The game's name, as every tool takes it.")
    path: Path | None = Field(None, exclude=True)  # a machine path: never in an answer
    summary: GameSummary | None = None
    problem: str | None = Field(
        None, description="Why the file could not be read, when it could not."
    )


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
    action: dict[str, Any] | None = Field(
        description="What the turn function returned, without memory and recording (null on a script error).",
    )
    outcome: Outcome
    code: str | None = Field(description="The reason code of a failed turn.")
    reason: str | None
    ticks: int

    @classmethod
    def of(cls, turn: Turn, action: dict[str, Any] | None) -> TurnSummary:
        """``turn`` summed up, with ``action`` as the reader shows it (its notes left out, or cut)."""
        return cls(
            round=turn.round,
            action=action,
            outcome=turn.outcome,
            code=turn.code,
            reason=turn.reason,
            ticks=turn.ticks,
        )


class AndroidMoment(AndroidReport):
    """An android at one moment of a recorded game, with its last turn up to then."""

    json_fields: ClassVar = AndroidReport.json_fields | {"round", "turn", "last_turn"}

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
