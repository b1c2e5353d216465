"""The MCP tool compare_scripts: two scripts over many seeds in both seat orders, on fair maps,
summarised in a few lines (the arena's comparison); with detail, every game, each kept under a
name the game tools open."""

from __future__ import annotations

import functools
import tempfile
import threading
from pathlib import Path
from typing import Annotated, Any

import anyio.from_thread
import anyio.to_thread
from mcp.server.mcpserver import Context
from mcp.types import CallToolResult
from pydantic import Field

from ... import arena
from ...api import ApiError, GameFolder
from ...arena.shared import WorkerPool
from ..edge import log, reply
from ..shaping import points_text
from .common import RULES_DOC
from .registry import tool
from .sides import SIDE_DOC, Side, keep_games, two_entrants

MAX_GAMES = 40  # seeds x 2 seat orders in one call: a call returns within a few minutes
MAX_ROUNDS = 300

# Every comparison of this server plays on these workers (one per core), whoever calls; a call
# that is cancelled stops its games within a second (arena/shared.py).
WORKERS = WorkerPool()


@tool("Compare two scripts", read_only=False)
async def compare_scripts(
    folder: GameFolder,
    a: Annotated[Side, Field(description=f"Script A: {SIDE_DOC}.")],
    b: Annotated[Side, Field(description="Script B, given the same way.")],
    ctx: Context,
    player: Annotated[
        str | None, Field(description="Whose library and games the scripts are from.")
    ] = None,
    seeds: Annotated[
        str,
        Field(description=f"Seeds like '1-10' or '1,4,9-12' ({MAX_GAMES} games at most)."),
    ] = "1-10",
    rounds: Annotated[
        int,
        Field(description=f"Rounds per game (and finalRound), 1 to {MAX_ROUNDS}."),
    ] = 100,
    rules: Annotated[
        dict[str, Any] | str | None,
        Field(description=RULES_DOC),
    ] = None,
    detail: Annotated[
        bool,
        Field(
            description="Also every game: scores, margin, first buildings, failed turns, kept game's name."
        ),
    ] = False,
) -> Annotated[CallToolResult, arena.ComparisonBrief]:
    """Is A better than B? Plays every seed in both seat orders on fair (rotational) maps: wins,
    mean scores, the 95% interval of A minus B, failed turns by reason, the 3 seeds that differ
    most. detail=true adds every game, each kept as a game to open."""
    seed_list = arena.parse_seeds(seeds)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ApiError(f"rounds must be from 1 to {MAX_ROUNDS}, not {rounds}")
    if 2 * len(seed_list) > MAX_GAMES:
        raise ApiError(
            f"{len(seed_list)} seeds make {2 * len(seed_list)} games; one call plays at most {MAX_GAMES} (give at most {MAX_GAMES // 2} seeds)"
        )
    resolved, rounds = arena.arena_rules(rules, rounds)
    entrants = two_entrants(folder, a, b, player)
    reporting = True

    def progress(done: int, total: int) -> None:
        nonlocal reporting  # best effort: a client that stops listening must not stop the games
        if reporting:
            try:
                anyio.from_thread.run(
                    functools.partial(ctx.report_progress, done, total, f"game {done} of {total}")
                )
            except Exception:
                log.warning(
                    "could not report progress of compare_scripts; the games go on", exc_info=True
                )
                reporting = False

    stop = threading.Event()
    with tempfile.TemporaryDirectory() as kept:
        try:
            # abandoned when the call is cancelled: then ``stop`` ends its games at once
            result = await anyio.to_thread.run_sync(
                functools.partial(
                    arena.compare,
                    entrants,
                    resolved,
                    seed_list,
                    rounds,
                    WORKERS.backend(stop),
                    out=Path(kept) if detail else None,
                    progress=progress,
                ),
                abandon_on_cancel=True,
            )
        finally:
            stop.set()
    brief = result.brief()
    if detail:
        names = keep_games(folder, result.run.contest, result.run.played)
        games = tuple(
            arena.game_result(
                record, result.run.contest.entrants, detail=True, game=names[record.task.index]
            )
            for record in result.run.played
        )
        brief = brief.model_copy(update={"games": games})
    return reply(brief, _text(result, detail))


def _text(result: arena.Comparison, detail: bool = False) -> str:
    a, b = result.scripts
    parts = [
        f"{a.name} vs {b.name}: {result.games} games over {len(result.seeds)} seeds: "
        f"{a.name} won {a.wins}, {b.name} won {b.wins}, {result.draws} draws; mean score {points_text(round(a.mean_score or 0, 2))} "
        f"vs {points_text(round(b.mean_score or 0, 2))}."
    ]
    ci = result.difference
    if ci is not None:
        parts.append(
            f"{a.name} - {b.name}: {ci.mean:+.2f} a game, 95% interval [{ci.low:+.2f}, {ci.high:+.2f}]: {result.verdict()}."
        )
    for s in result.scripts:
        if s.failed_turns:
            parts.append(
                f"{s.name} failed {s.failed_turns} turns ({', '.join(f'{code} {n}' for code, n in s.failed)})."
            )
    gaps = [str(s.seed) for s in result.most_different() if s.difference]
    if gaps:
        how = (
            "each game's `game` opens it in get_status/get_events/get_world (players are named after the scripts)"
            if detail
            else "to open one: play_game(a, b, seed), or compare again with detail=true"
        )
        parts.append(f"Seeds that differ most: {', '.join(gaps)} ({how}).")
    parts += [f"Warning: {w}." for w in result.warnings]
    return " ".join(parts)
