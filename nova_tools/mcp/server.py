"""The Nova MCP server: tools over :mod:`nova_tools.api` for AI agents that play the game.

Every tool is a thin adapter: check the arguments, call the api, shape the answer (structured
content plus a short text summary). Game facts come from the api; nothing here decides a rule.
Tool names and argument names are a stable interface (DESIGN section 6); their schemas are
pinned by ``tests/mcp/snapshots/tools.json``.
"""

from __future__ import annotations

import functools
import inspect
import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import anyio.from_thread
import anyio.to_thread
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field, ValidationError

from .. import api
from ..api import NAME_RULE, ApiError, GameFolder
from ..rules import RulesError
from . import content, pictures
from .edge import argument_problems, failure, log, reply, tool_edge
from .shaping import (
    android_brief,
    at_text,
    building_out,
    cut_text,
    event_line,
    materials_text,
    own_android,
    points_text,
    position_of,
    shorten_event,
    world_text,
)
from .models import (
    AndroidDetail,
    CreatedGame,
    DryRunOut,
    EventOut,
    EventsPage,
    GameEntry,
    GameList,
    GameStatus,
    Holdings,
    LaunchedAndroid,
    MessageOut,
    PlayerScore,
    PlayerStatus,
    Position,
    RoundsPlayed,
    RuleProblemOut,
    RulesCheck,
    ScoreLine,
    ScriptOut,
    Seen,
    TileOut,
    TurnBrief,
    UploadedScript,
    WorldView,
)

MAX_ROUNDS = 500  # per run_rounds call: a call stays short enough to report progress and return
MAX_GAMES_LISTED = 50
DRY_RUN_TEXT_CHARS = 1000  # memory/recording a dry-run turn returned, shown
RECENT_TURNS = 5

INSTRUCTIONS = """\
Nova is a programming strategy game: you write TypeScript androids, upload them, launch them and
run rounds, then read the results and improve the code. Read the resource nova://guide first
(the loop, the actions, what failed turns cost, how scoring works) and nova://typings/nova.d.ts
(the globals and action shapes). Games are addressed by name; every read is as one player, who
sees only their own androids' memory and recordings."""

# --- argument types (names and meanings are a stable interface) ---------------------------------

GameArg = Annotated[str, Field(description=f"The game's name ({NAME_RULE}), e.g. 'duel'; list_games shows them.")]
PlayerArg = Annotated[str, Field(description="The player you act and read as, e.g. 'alice'.")]
RULES_DOC = "Rules overrides: a JSON object, or JSON-with-comments text. {} is the shipped game; any subset may be given."
RulesArg = Annotated[dict[str, Any] | str, Field(description=RULES_DOC)]


def _check_player(player: str) -> str:
    if not isinstance(player, str) or not player or len(player) > 64:
        raise ApiError("player must be a player id of 1-64 characters, e.g. 'alice'")
    return player


def _check_range(name: str, value: int, low: int, high: int, hint: str = "") -> int:
    if not low <= value <= high:
        raise ApiError(f"{name} must be from {low} to {high}, not {value}" + (f"; {hint}" if hint else ""))
    return value


def _sources(
    source: str | None, files: dict[str, str] | None, entry: str | None, starter: bool = False
) -> tuple[dict[str, str], str | None]:
    """Exactly one of ``source`` (one file), ``files`` (several, with ``entry``) or the starter."""
    if sum((source is not None, files is not None, starter)) > 1:
        raise ApiError("give only one of source (one file), files (several) or starter=true")
    if starter:
        starter_files = content.starter_files()
        if not starter_files:
            raise ApiError("the starter android is not installed with this nova-tools; give source or files")
        return starter_files, next(iter(starter_files))
    if source is not None:
        name = entry or "main.ts"
        return {name: source}, name
    if files is not None:
        if not files:
            raise ApiError("files is empty; give at least the entry file, e.g. {'main.ts': '...'}")
        return dict(files), entry
    raise ApiError("give the android's code: source (one TypeScript file), files ({path: text}, with entry) or, to upload, starter=true")


class NovaServer(MCPServer):
    """MCPServer whose argument validation failures read as sentences about the arguments."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Context | None = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as error:
            if isinstance(error.__cause__, ValidationError) and not isinstance(error, UnexpectedToolError):
                return failure(argument_problems(name, error.__cause__))
            raise


def build_server(root: str | Path) -> MCPServer:  # noqa: C901 - one adapter per tool, listed in order
    """The Nova MCP server for the games in ``root``."""
    folder = GameFolder.at(root)
    app = NovaServer("nova", title="Project: Nova", instructions=INSTRUCTIONS, version=_version(), log_level="WARNING")

    def tool(title: str, *, read_only: bool) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        hints = ToolAnnotations(
            title=title, read_only_hint=read_only, destructive_hint=False, idempotent_hint=read_only, open_world_hint=False
        )

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            # The docstring without its source indentation: agents read it as the tool's description.
            app.add_tool(tool_edge(folder, fn), title=title, annotations=hints, description=inspect.cleandoc(fn.__doc__ or ""))
            return fn

        return register

    # --- games -----------------------------------------------------------------------------------

    @tool("List games", read_only=True)
    def list_games() -> Annotated[CallToolResult, GameList]:
        """The games in the server's folder: name, round, players. Use a name as `game` elsewhere."""
        entries = []
        for found in folder.games(MAX_GAMES_LISTED):
            summary = found.summary
            if summary is None:
                entries.append(GameEntry(name=found.name, problem=found.problem))
                continue
            entries.append(
                GameEntry(
                    name=found.name,
                    round=summary.round,
                    final_turn=summary.final_turn,
                    players=list(summary.players),
                    active_androids=summary.active_androids,
                )
            )
        more = max(0, len(folder.names()) - MAX_GAMES_LISTED)
        if not entries:
            text = "No games yet. Create one with create_game(name)."
        else:
            lines = [
                f"{e.name}: " + (e.problem or f"round {e.round}, players {', '.join(e.players) or 'none yet'}") for e in entries
            ]
            text = "\n".join(lines) + (f"\n(and {more} more)" if more else "")
        return reply(GameList(games=entries, more=more), text)

    @tool("Create a game", read_only=False)
    def create_game(
        name: Annotated[str, Field(description=f"A name for the new game ({NAME_RULE}); it is stored as NAME.json in the server's folder.")],
        rules: Annotated[dict[str, Any] | str | None, Field(description=RULES_DOC + " Default: {}.")] = None,
        seed: Annotated[int | None, Field(description="World seed, 0 to 2^63-1 (default 0). The same seed and rules give the same world.")] = None,
    ) -> Annotated[CallToolResult, CreatedGame]:
        """Create a new game: a fresh world from the rules and seed. Players join with upload_script."""
        path = folder.path(name)
        if path.exists():
            raise ApiError(f"a game named {name!r} already exists; pick another name, or keep playing it (get_status)")
        created = api.create_game(path, rules, seed=seed or 0)
        arrival = f", humans land on round {created.final_turn}" if created.final_turn else ", no arrival date"
        text = (
            f"Created game {name!r}: a {created.width}x{created.height} world from seed {created.seed}{arrival}. "
            f"Next: upload_script(game={name!r}, player=..., files=...)."
        )
        return reply(CreatedGame(game=name, seed=created.seed, width=created.width, height=created.height, final_turn=created.final_turn), text)

    @tool("Validate rules", read_only=True)
    def validate_rules(rules: RulesArg) -> Annotated[CallToolResult, RulesCheck]:
        """Check rules overrides without creating a game. Every problem names its JSON path."""
        try:
            resolved = api.resolve_rules(rules)
        except RulesError as error:
            problems = [RuleProblemOut(path=p.dotted, message=p.message) for p in error.problems]
            text = "The rules are NOT valid:\n" + "\n".join(f"{p.path}: {p.message}" for p in problems)
            return reply(RulesCheck(valid=False, problems=problems), text)
        final = resolved.match.final_round
        text = f"The rules are valid: a {resolved.world.width}x{resolved.world.height} world" + (
            f", humans land on round {final}." if final else ", no arrival date."
        )
        return reply(RulesCheck(valid=True, width=resolved.world.width, height=resolved.world.height, final_turn=final), text)

    # --- changing a game -------------------------------------------------------------------------

    @tool("Upload an android script", read_only=False)
    def upload_script(
        game: GameArg,
        player: PlayerArg,
        source: Annotated[str | None, Field(description="The android as one TypeScript file (its default export is the turn function).")] = None,
        files: Annotated[
            dict[str, str] | None, Field(description="A multi-file android: {relative path: TypeScript text}, e.g. {'main.ts': ..., 'lib/nav.ts': ...}.")
        ] = None,
        entry: Annotated[str | None, Field(description="With files: the entry file (default 'main.ts'). With source: the file name used in errors.")] = None,
        starter: Annotated[bool, Field(description="Upload the shipped starter android as it is (resources nova://starter/...) instead of source or files.")] = False,
    ) -> Annotated[CallToolResult, UploadedScript]:
        """Type-check and bundle a TypeScript android and store it as a new script version of the
        player (the first upload adds the player, with an initial charger). Returns the script id;
        compile errors come back as an error listing each `file:line:col message`."""
        path = folder.existing(game)
        sources, entry_name = _sources(source, files, entry, starter)
        uploaded = api.upload_script(path, _check_player(player), files=sources, entry_name=entry_name)
        joined = " (joined the game: your initial charger is placed)" if uploaded.joined else ""
        text = f"Uploaded {uploaded.script_id} for {player}{joined}. Next: launch_android(game={game!r}, player={player!r}, script_id={uploaded.script_id!r})."
        return reply(
            UploadedScript(
                game=game,
                player=player,
                script_id=uploaded.script_id,
                name=uploaded.name,
                sha256=uploaded.sha256,
                joined=uploaded.joined,
            ),
            text,
        )

    @tool("Launch an android", read_only=False)
    def launch_android(
        game: GameArg,
        player: PlayerArg,
        script_id: Annotated[str, Field(description="One of the player's scripts, as upload_script returned it, e.g. 'script-1'.")],
    ) -> Annotated[CallToolResult, LaunchedAndroid]:
        """Launch an android running one of the player's scripts on their initial charger. Refused
        when the player's completed chargers allow no more active androids."""
        path = folder.existing(game)
        launched = api.launch_android(path, player, script_id)
        x, y = launched.position.x, launched.position.y
        text = (
            f"Launched {launched.android_id} ({script_id}) for {player} at ({x},{y}); "
            f"{launched.active_androids} of {launched.capacity} android slots in use. Next: run_rounds(game={game!r}, rounds=...)."
        )
        return reply(
            LaunchedAndroid(
                game=game,
                player=player,
                android_id=launched.android_id,
                script_id=script_id,
                position=Position(x=x, y=y),
                active_androids=launched.active_androids,
                capacity=launched.capacity,
            ),
            text,
        )

    @tool("Run rounds", read_only=False)
    async def run_rounds(
        game: GameArg,
        rounds: Annotated[int, Field(description=f"How many rounds to play, 1 to {MAX_ROUNDS}; call again for more.")],
        ctx: Context,
    ) -> Annotated[CallToolResult, RoundsPlayed]:
        """Play rounds: every active android runs its script once a round. Reports progress while
        it runs. Ends with the scores."""
        path = folder.existing(game)
        _check_range("rounds", rounds, 1, MAX_ROUNDS, "call run_rounds again to play more" if rounds > MAX_ROUNDS else "")
        step = max(1, rounds // 20)
        reporting = True
        last_report = time.monotonic()
        cancelled = threading.Event()

        def progress(done: int, asked: int) -> None:
            # Best effort: a client that stops listening must not stop the run (or lose its rounds).
            # Every 5% of the rounds, and at least every second when rounds are slow.
            nonlocal reporting, last_report
            if reporting and not cancelled.is_set() and (done == asked or done % step == 0 or time.monotonic() - last_report >= 1):
                last_report = time.monotonic()
                try:
                    anyio.from_thread.run(functools.partial(ctx.report_progress, done, asked, f"round {done} of {asked}"))
                except Exception:
                    log.warning("could not report progress of run_rounds on %s; the run goes on", game, exc_info=True)
                    reporting = False

        try:
            # abandon_on_cancel: a cancelled call returns at once, and the run, told to stop, ends
            # after the round in progress and saves every round it played (api.run_rounds' stop)
            summary = await anyio.to_thread.run_sync(
                functools.partial(api.run_rounds, path, rounds, progress=progress, stop=cancelled.is_set), abandon_on_cancel=True
            )
        except anyio.get_cancelled_exc_class():
            cancelled.set()
            log.info("run_rounds on %s cancelled: it stops after the round in progress", game)
            raise
        status = await anyio.to_thread.run_sync(api.status, path)
        scores = [PlayerScore(player=p.id, score=p.score) for p in status.players]
        destroyed = f", destroyed: {', '.join(summary.destroyed)}" if summary.destroyed else ""
        text = (
            f"Played rounds {summary.first_round}-{summary.last_round}: {summary.turns} turns, {summary.failed_turns} failed{destroyed}. "
            f"Scores: {', '.join(f'{s.player} {points_text(s.score)}' for s in scores) or 'no players yet'}."
        )
        if summary.failed_turns:
            text += " See why: get_events(..., failed_only=true)."
        return reply(
            RoundsPlayed(
                game=game,
                rounds=summary.rounds,
                first_round=summary.first_round,
                last_round=summary.last_round,
                turns=summary.turns,
                failed_turns=summary.failed_turns,
                destroyed=list(summary.destroyed),
                seconds=round(summary.seconds, 3),
                scores=scores,
            ),
            text,
        )

    # --- reading a game --------------------------------------------------------------------------

    @tool("Scores and status", read_only=True)
    def get_status(game: GameArg) -> Annotated[CallToolResult, GameStatus]:
        """Round, arrival round and each player's colony readiness with its breakdown, active
        androids and wrecks."""
        status = api.status(folder.existing(game))
        players = [
            PlayerStatus(
                id=p.id,
                score=p.score,
                breakdown=[ScoreLine(source=b.source, points=b.points) for b in p.breakdown],
                active_androids=p.active_androids,
                wrecks=p.wrecks,
            )
            for p in status.players
        ]
        final = status.final_turn
        head = f"{game}: round {status.round}" + (f" of {final}" if final else "")
        lines = [head] + [
            f"{p.id}: {points_text(p.score)} points ({', '.join(f'{b.source} {points_text(b.points)}' for b in p.breakdown) or 'nothing yet'}); "
            f"{p.active_androids} active, {p.wrecks} wrecks"
            for p in players
        ]
        return reply(GameStatus(game=game, round=status.round, final_turn=final, players=players), "\n".join(lines))

    @tool("See the world", read_only=True)
    def get_world(
        game: GameArg,
        player: PlayerArg,
        tile_offset: Annotated[int, Field(description="Skip this many of the listed tiles (for paging).")] = 0,
        tile_limit: Annotated[int, Field(description="List at most this many tiles, 1-200.")] = 60,
        messages: Annotated[int, Field(description="How many of the latest visible broadcasts to show, 0-50.")] = 10,
    ) -> Annotated[CallToolResult, WorldView]:
        """The world as the player sees it now (fogged): everything the player owns, wherever it
        is; other players' androids and buildings on visible tiles; visible tiles that hold ground
        resources, hazards or loose material (paged); and the latest broadcasts."""
        _check_range("tile_offset", tile_offset, 0, 1_000_000)
        _check_range("tile_limit", tile_limit, 1, 200)
        _check_range("messages", messages, 0, 50)
        view = api.player_world(folder.existing(game), player)
        tiles = [
            TileOut(position=position_of(t.position), composition=t.composition or None, scattered=t.scattered or None)
            for t in view.tiles
            if t.composition or t.scattered
        ]
        mine = view.yours
        yours = Holdings(
            capacity=mine.capacity,
            active_androids=mine.active_androids,
            androids=[own_android(a) for a in mine.androids],
            buildings=[building_out(b) for b in mine.buildings],
            scripts=[ScriptOut(id=s.id, name=s.name) for s in mine.scripts],
        )
        others = Seen(
            androids=[android_brief(a) for a in view.androids if a.owner_id != player],
            buildings=[building_out(b) for b in view.buildings if b.owner_id != player],
        )
        shown_messages = view.messages[-messages:] if messages else []
        world = WorldView(
            game=game,
            player=player,
            round=view.round,
            width=view.width,
            height=view.height,
            visible_tiles=len(view.tiles),
            tile_count=len(tiles),
            tile_offset=tile_offset,
            tiles=tiles[tile_offset : tile_offset + tile_limit],
            scattered_total=view.loose,
            yours=yours,
            others=others,
            message_count=len(view.messages),
            messages=[
                MessageOut(round=m.round, android_id=m.android_id, owner_id=m.owner_id, position=position_of(m.position), content=m.content)
                for m in shown_messages
            ],
        )
        return reply(world, world_text(world))

    @tool("Read one of your androids", read_only=True)
    def get_android(
        game: GameArg,
        player: PlayerArg,
        android_id: Annotated[str, Field(description="One of the player's androids, e.g. 'android-1' (get_world lists them under yours).")],
        max_chars: Annotated[int, Field(description="Show at most this many characters of memory and of recording, 100-16384.")] = 3000,
        recording_offset: Annotated[
            int | None, Field(description="Start the recording window here (default: show its last max_chars characters).")
        ] = None,
    ) -> Annotated[CallToolResult, AndroidDetail]:
        """One of the player's own androids: state, cargo, memory, recording (a window of it) and
        its last few turns. Other players' androids are refused."""
        _check_range("max_chars", max_chars, 100, 16384)
        loaded = api.open_game(folder.existing(game))
        report = api.android_report(loaded, android_id, player=player)
        memory, recording = report.memory, report.recording
        start = max(0, len(recording) - max_chars) if recording_offset is None else recording_offset
        _check_range("recording_offset", start, 0, max(0, len(recording)), f"the recording has {len(recording)} characters")
        turns = api.events_page(loaded, player=player, android=android_id, mine_only=True, offset=None, limit=RECENT_TURNS).events
        detail = AndroidDetail(
            **android_brief(report).model_dump(),
            memory_length=len(memory),
            recording_length=len(recording),
            memory=memory[:max_chars],
            recording=recording[start : start + max_chars],
            recording_offset=start,
            recent_turns=[
                TurnBrief(
                    round=e["round"],
                    action=(e.get("action") or {}).get("type"),
                    outcome=e["outcome"],
                    code=e.get("code"),
                    reason=e.get("reason"),
                )
                for e in turns
            ],
        )
        state = "active" if detail.active else "a wreck"
        lines = [
            f"{android_id} of {player} ({state}, script {detail.script_id}) at {at_text(detail.position)}: "
            f"battery {points_text(detail.battery)}, health {points_text(detail.health)}, cargo {materials_text(detail.cargo)}.",
            f"memory {len(memory)} chars, recording {len(recording)} chars (window {start}-{start + len(detail.recording)}).",
        ]
        lines += [
            f"round {t.round}: {t.action or 'no action'} {t.outcome}" + (f" [{t.code}] {t.reason}" if api.Outcome(t.outcome).failed else "")
            for t in detail.recent_turns
        ]
        return reply(detail, "\n".join(lines))

    @tool("Dry-run one turn", read_only=True)
    def dry_run_turn(
        source: Annotated[str | None, Field(description="The android as one TypeScript file.")] = None,
        game: Annotated[str | None, Field(description="Run against this game's current state (needs player). Default: a fresh default world.")] = None,
        player: Annotated[str | None, Field(description="With game: the player whose android takes the turn.")] = None,
        android_id: Annotated[str | None, Field(description="With game and player: which of the player's androids (default: their first active one).")] = None,
        files: Annotated[dict[str, str] | None, Field(description="Instead of source: a multi-file android {relative path: text}.")] = None,
        entry: Annotated[str | None, Field(description="With files: the entry file (default 'main.ts').")] = None,
    ) -> Annotated[CallToolResult, DryRunOut]:
        """Compile a script and run one turn of it, judged by the real engine, without changing
        any game: what it returned, the ticks it spent, and whether the engine would accept it."""
        sources, entry_name = _sources(source, files, entry)
        if game is None and (player is not None or android_id is not None):
            raise ApiError("player and android_id only make sense with game; leave them out to use a fresh default world")
        if game is not None and player is None:
            raise ApiError("with game, also give player: a dry run acts as one of your own androids")
        path = folder.existing(game) if game is not None else None
        result = api.dry_run(files=sources, entry_name=entry_name, game=path, player=player, android_id=android_id)
        data = result.to_json()
        if isinstance(data["action"], dict):
            data["action"] = shorten_event({"action": data["action"]}, DRY_RUN_TEXT_CHARS)["action"]
        out = DryRunOut(**data, world="game" if path else "fresh")
        verdict = "ACCEPT it" if out.accepted else f"REFUSE it [{out.code}]: {out.reason} (a failed turn costs {points_text(out.penalty)} health)"
        text = (
            f"{out.android_id}, round {out.round}: returned {cut_text(json.dumps(out.action), 300)}; {out.ticks} ticks. "
            f"The engine would {verdict}."
        )
        return reply(out, text)

    @tool("Read the event log", read_only=True)
    def get_events(
        game: GameArg,
        player: PlayerArg,
        round: Annotated[int | None, Field(description="Only events of this round.")] = None,
        android_id: Annotated[str | None, Field(description="Only this android's turns.")] = None,
        failed_only: Annotated[bool, Field(description="Only failed turns (refused, invalid, script errors).")] = False,
        mine_only: Annotated[bool, Field(description="Only turns of the player's own androids.")] = False,
        offset: Annotated[int | None, Field(description="Index of the first matching event to show (default: the newest page).")] = None,
        limit: Annotated[int, Field(description="Events per page, 1-100.")] = 20,
    ) -> Annotated[CallToolResult, EventsPage]:
        """The event log as the player may read it, newest page first unless offset is given:
        turns (action, outcome, refusal code and reason), launches, round ends. Other players'
        memory, recordings and script errors are redacted."""
        _check_range("limit", limit, 1, 100)
        page = api.events_page(
            folder.existing(game),
            player=player,
            round=round,
            android=android_id,
            failed_only=failed_only,
            mine_only=mine_only,
            offset=offset,
            limit=limit,
            notes="whole",
        )
        events = [EventOut(**shorten_event(e)) for e in page.events]
        out = EventsPage(game=game, player=player, total=page.total, offset=page.offset, limit=page.limit, events=events)
        shown = f"events {out.offset}-{out.offset + len(events) - 1} of {out.total}" if events else f"no events (of {out.total} matching)"
        lines = [f"{game} as {player}: {shown}"] + [event_line(e) for e in events]
        return reply(out, "\n".join(lines))

    content.register(app, folder)
    pictures.register(tool, folder, GameArg, PlayerArg)  # get_board_image, get_score_history

    return app


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("nova-tools")
    except Exception:  # pragma: no cover - running from a checkout without metadata
        return "0"


