"""What the MCP tools return: the structured half of every tool result.

Field names are camelCase on the wire, like ``nova status --json`` and the script-facing world
(``nova_tools.engine.wire``). Each model's JSON Schema is the tool's ``outputSchema`` (pinned by
``tests/mcp/snapshots/tools.json``). Material amounts are sparse: ``{"metal": 3}``, a missing
material means zero.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SkipValidation
from pydantic.alias_generators import to_camel

from .. import api

Materials = dict[str, int]


def _without_field_titles(schema: dict[str, Any]) -> None:
    """Drop pydantic's automatic field titles ('Android Id' for androidId): they repeat the name
    and make every tools/list, which agents hold in their context, longer."""
    for field in schema.get("properties", {}).values():
        field.pop("title", None)


class _Out(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        serialize_by_alias=True,
        json_schema_extra=_without_field_titles,
    )

    def wire(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


class Position(_Out):
    x: int = Field(description="Column, from 0 at the west edge.")
    y: int = Field(description="Row, from 0 at the north edge.")


# --- games ---------------------------------------------------------------------------------------


class GameEntry(_Out):
    name: str = Field(description="The game's name, as every other tool takes it.")
    round: int | None = Field(None, description="Rounds played so far.")
    final_turn: int | None = Field(
        None, description="The round the humans land on (rules.match.finalRound), if any."
    )
    players: list[str] = Field(default_factory=list, description="Player ids in join order.")
    active_androids: int | None = Field(None, description="Active androids of every player.")
    problem: str | None = Field(
        None, description="Why the file could not be read, when it could not."
    )


class GameList(_Out):
    games: list[GameEntry] = Field(description="Games in the server's folder, by name.")
    more: int = Field(
        0,
        description="How many more games there are beyond this list (list_games with offset shows them).",
    )
    offset: int = Field(0, description="How many games, by name, come before this list.")
    total: int = Field(0, description="Games in the folder.")


class DeletedGame(_Out):
    game: str
    round: int | None = Field(
        None, description="The round it had reached (left out if its file could not be read)."
    )
    players: list[str] = Field(default_factory=list)


class CreatedGame(_Out):
    game: str = Field(description="The new game's name.")
    seed: int = Field(description="The world seed.")
    width: int = Field(description="Board width.")
    height: int = Field(description="Board height.")
    final_turn: int | None = Field(
        None, description="The arrival round (rules.match.finalRound), if the rules set one."
    )


class RuleProblemOut(_Out):
    path: str = Field(description="The JSON path of the problem, e.g. 'android.cargoCapacity'.")
    message: str = Field(description="What is wrong there and what was expected.")


class RulesCheck(_Out):
    valid: bool = Field(description="True when the rules can be used as they are.")
    problems: list[RuleProblemOut] = Field(
        default_factory=list, description="Every problem found, each with its JSON path."
    )
    width: int | None = Field(None, description="Board width the rules give (when valid).")
    height: int | None = Field(None, description="Board height the rules give (when valid).")
    final_turn: int | None = Field(
        None, description="The arrival round the rules give, if any (when valid)."
    )


# --- changing a game -----------------------------------------------------------------------------


class UploadedScript(_Out):
    game: str
    player: str
    script_id: str = Field(
        description="Pass this to launch_android (and android.launch in a script)."
    )
    name: str = Field(description="The name the script is stored under.")
    sha256: str = Field(description="Digest of the compiled bundle.")
    joined: bool = Field(
        description="True when this upload added the player to the game (with their initial charger)."
    )
    library_id: str = Field(
        description="The script in your library: upload it to any other game with upload_script(library_id=...), no source needed."
    )


class LibraryScriptOut(_Out):
    id: str = Field(
        description="The library id ('lib-' + 16 hex digits of the bundle's SHA-256): the same code always gets the same id."
    )
    name: str
    sha256: str = Field(
        description="Digest of the compiled bundle: every game it is uploaded to holds these bytes."
    )
    bytes: int = Field(description="The bundle's size.")
    files: list[str] = Field(description="The files it was compiled from, entry first.")


class LibraryAdded(LibraryScriptOut):
    player: str
    added: bool = Field(
        description="False when the library already held this very code (then nothing was compiled twice)."
    )


class LibraryList(_Out):
    player: str
    scripts: list[LibraryScriptOut] = Field(
        description="The player's scripts in the library, by name."
    )


class LaunchedAndroid(_Out):
    game: str
    player: str
    android_id: str = Field(description="The new android's id.")
    script_id: str
    position: Position = Field(description="Where it stands: on the player's initial charger.")
    active_androids: int = Field(description="The player's active androids now, this one included.")
    capacity: int = Field(
        description="How many active androids the player's completed chargers allow."
    )


class PlayerScore(_Out):
    player: str
    score: float


class RoundsPlayed(_Out):
    game: str
    rounds: int = Field(description="Rounds played by this call.")
    first_round: int
    last_round: int = Field(description="The game's round now.")
    turns: int = Field(description="Android turns taken.")
    failed_turns: int = Field(
        description="Turns refused or failed (each cost the android health): see get_events with failed_only."
    )
    destroyed: list[str] = Field(
        default_factory=list, description="Androids destroyed during these rounds."
    )
    seconds: float
    scores: list[PlayerScore] = Field(
        description="Colony readiness per player after the last round."
    )


# --- reading a game ------------------------------------------------------------------------------


class ScoreLine(_Out):
    source: str = Field(
        description="What earns the points, e.g. 'buildings.charger' or 'materials.metal'."
    )
    points: float


class PlayerStatus(_Out):
    id: str
    score: float = Field(description="Colony readiness now.")
    breakdown: list[ScoreLine] = Field(
        description="Where the score comes from (zero lines left out)."
    )
    active_androids: int
    wrecks: int


class GameStatus(_Out):
    game: str
    round: int
    final_turn: int | None = None
    players: list[PlayerStatus]


class AndroidBrief(_Out):
    id: str
    owner_id: str
    script_id: str
    position: Position
    battery: float
    health: float
    active: bool = Field(description="False for a wreck.")
    cargo: Materials


class OwnAndroid(AndroidBrief):
    memory_length: int = Field(description="Characters of memory (read it with get_android).")
    recording_length: int = Field(description="Characters of recording (read it with get_android).")


class BuildingOut(_Out):
    id: str
    type: str
    owner_id: str
    position: Position
    health: float
    complete: bool = Field(
        description="False for a construction site, which does nothing and scores nothing."
    )
    initial: bool = Field(description="The player's initial charger (nobody can salvage it).")
    remaining_ticks: int
    owed: Materials = Field(description="Material the site still needs.")
    storage: Materials


class ScriptOut(_Out):
    id: str
    name: str


class Holdings(_Out):
    capacity: int = Field(description="Active androids the player's completed chargers allow.")
    active_androids: int
    androids: list[OwnAndroid] = Field(
        description="Every android of the player, wrecks included, wherever it is."
    )
    buildings: list[BuildingOut] = Field(
        description="Every building and site of the player, wherever it is."
    )
    scripts: list[ScriptOut]


class TileOut(_Out):
    position: Position
    composition: Materials | None = Field(
        None, description="Ore, water, acid, radiation in the ground (left out when none)."
    )
    scattered: Materials | None = Field(
        None, description="Loose material, collectable with android.collect (left out when none)."
    )


class Seen(_Out):
    androids: list[AndroidBrief] = Field(
        description="Other players' androids on tiles you see (memory and recording never shown)."
    )
    buildings: list[BuildingOut] = Field(description="Other players' buildings on tiles you see.")


class MessageOut(_Out):
    round: int
    android_id: str
    owner_id: str
    position: Position
    content: str


class WorldView(_Out):
    game: str
    player: str
    round: int
    width: int
    height: int
    whole_map: bool = Field(
        description="True: the complete world (a replay's view), not the player's sight; 'visible' below means every tile."
    )
    visible_tiles: int = Field(description="How many tiles the player sees now.")
    tile_count: int = Field(
        description="Visible tiles with something in the ground or on the surface."
    )
    tile_offset: int
    tiles: list[TileOut] = Field(
        description="A page of those tiles (tile_offset, tile_limit), row by row."
    )
    scattered_total: Materials = Field(description="Loose material on all visible tiles.")
    yours: Holdings
    others: Seen
    message_count: int = Field(description="Broadcasts sent from tiles you see.")
    messages: list[MessageOut] = Field(description="The most recent of them.")


class TurnBrief(_Out):
    round: int
    action: str | None = Field(None, description="The action type, when the script returned one.")
    outcome: str = Field(description="accepted, refused, invalid or error.")
    code: str | None = None
    reason: str | None = None


class AndroidDetail(OwnAndroid):
    memory: str = Field(description="Its memory (up to max_chars, from the start).")
    recording: str = Field(
        description="A window of its recording (by default its last max_chars characters)."
    )
    recording_offset: int = Field(description="Where the recording window starts.")
    recent_turns: list[TurnBrief] = Field(description="Its last few turns, newest last.")


class DryRunOut(_Out):
    android_id: str = Field(description="The android the turn was run as.")
    round: int
    # Typed as the actions a turn may return, but passed on as returned: a turn that returns
    # something else (an unknown type, a number) is exactly what a dry-run must show.
    action: SkipValidation[
        api.Action | dict[str, Any] | list[Any] | str | int | float | bool | None
    ] = Field(
        None,
        description="What the turn function returned: one of the actions (see the typings), or anything else it returned, which the engine refuses as invalid; null on a script error.",
    )
    ticks: int = Field(description="Interpreter ticks spent (rules.script.fuel is the budget).")
    accepted: bool = Field(description="Whether the engine would accept the action.")
    outcome: Literal["accepted", "refused", "invalid", "error"]
    code: str | None = Field(None, description="The refusal code, when not accepted.")
    reason: str | None = Field(None, description="Why not, in words.")
    penalty: float = Field(description="Health a failed turn costs.")
    memory_size: int | None = None
    recording_size: int | None = None
    logs: list[str] = Field(
        default_factory=list, description="What the script printed with console.log this turn."
    )
    world: Literal["game", "fresh"] = Field(
        description="Run against the game's current state, or a fresh default world."
    )


class EventOut(BaseModel):
    """One event of the log; its fields depend on ``type`` (turn, round.started, round.ended,
    player.joined, script.uploaded, android.launched)."""

    model_config = ConfigDict(extra="allow", json_schema_extra=_without_field_titles)

    index: int = Field(description="Its position in the whole log.")
    type: str
    round: int | None = None
    android: str | None = None
    outcome: str | None = None
    code: str | None = None
    reason: str | None = None
    action: dict[str, Any] | None = None
    text: str | None = Field(None, description="What happened, in the words `nova events` prints.")


class EventsPage(_Out):
    game: str
    player: str
    total: int = Field(description="Events matching the filters.")
    offset: int = Field(description="Index (among the matches) of the first event shown.")
    limit: int
    events: list[EventOut] | None = Field(
        None, description="The events in full (with compact=false)."
    )
    lines: list[str] | None = Field(
        None,
        description="The events, one line each, '#index rROUND what happened' (the compact form, the default).",
    )


# --- pictures and histories ------------------------------------------------------------------------


class BoardImage(_Out):
    """What the PNG beside it shows (the image itself is the tool result's image content)."""

    game: str
    player: str = Field(description="Whose view: tiles this player could not see are drawn as fog.")
    round: int = Field(description="The board after this round (0: after setup).")
    width: int = Field(description="Board width in tiles.")
    height: int = Field(description="Board height in tiles.")
    tile_pixels: int = Field(
        description="Pixels per tile; tile (x, y) is the square from (x*tile, y*tile)."
    )
    width_pixels: int = Field(description="The picture's width: width * tilePixels.")
    height_pixels: int = Field(description="The picture's height: height * tilePixels.")
    visible_tiles: int = Field(description="Tiles the player could see; the rest are fog.")
    legend: str = Field(description="What the colours and marks mean.")


class PlayerScores(_Out):
    id: str
    scores: list[int | float] = Field(
        description="The player's score after each listed round, in the order of rounds."
    )


class LeadChange(_Out):
    round: int = Field(description="The round after which the lead changed hands.")
    leaders: list[str] = Field(
        description="Who leads from then on: one player, several on a tie, none while nobody has a point."
    )
    scores: list[int | float] = Field(
        description="Every player's score then, in the order of players."
    )


class ScoreHistory(_Out):
    game: str
    rounds: list[int] = Field(
        description="The rounds listed (0: after setup); the last round played is always included."
    )
    every: int = Field(description="The step between listed rounds (1: every round).")
    players: list[PlayerScores] = Field(description="Each player's scores, in join order.")
    lead_changes: list[LeadChange] = Field(
        description="Every round where the lead changed, over the whole game (not only the listed rounds)."
    )


# --- compare_scripts ---------------------------------------------------------------------------


class ComparedScript(_Out):
    name: str
    wins: int
    draws: int
    losses: int
    mean_score: float = Field(description="Its mean score over every game it played.")
    failed_turns: int = Field(description="Its failed turns over every game.")
    failed_by_reason: dict[str, int] = Field(
        default_factory=dict, description="Failed turns by reason code (docs: game-details)."
    )


class ScoreDifference(_Out):
    mean: float = Field(
        description="A's score minus B's per game, averaged over the seeds (each seed over both seat orders)."
    )
    low: float = Field(description="The 95% interval's low end.")
    high: float = Field(description="The 95% interval's high end.")
    excludes_zero: bool = Field(description="True when the interval says which script scores more.")


class SeedGap(_Out):
    seed: int
    difference: float = Field(
        description="A's score minus B's on this seed, averaged over both seat orders."
    )


class ScriptsCompared(_Out):
    games: int = Field(description="Games played: every seed once per seat order.")
    draws: int
    seeds: int = Field(description="Seeds played in both seat orders.")
    rounds: int = Field(
        description="Rounds per game (also the games' final round unless the rules set one)."
    )
    scripts: list[ComparedScript] = Field(description="A, then B.")
    difference: ScoreDifference | None = Field(
        None, description="A minus B with its 95% interval (none with fewer than two seeds)."
    )
    verdict: str = Field(description="Which script scores more, or 'no clear difference'.")
    most_different: list[SeedGap] = Field(
        default_factory=list,
        description="The seeds where the scripts differ most: where to look first.",
    )
    warnings: list[str] = Field(
        default_factory=list, description="When single games say little, or the interval is wide."
    )
    seconds: float
