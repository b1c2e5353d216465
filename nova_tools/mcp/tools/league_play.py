"""The MCP tool league_play: play (some of) the pairings a league does not have yet."""

from __future__ import annotations

import functools
import threading
from typing import Annotated

import anyio
import anyio.from_thread
import anyio.to_thread
from mcp.server.mcpserver import Context
from mcp.types import CallToolResult
from pydantic import Field

from ... import arena
from ...api import ApiError, GameFolder
from ...arena import league as leagues
from ..edge import log, reply
from .common import LeagueArg, league_path
from .compare_scripts import WORKERS
from .registry import tool

MAX_GAMES = 40  # games in one call, like compare_scripts: a call returns within a few minutes
MAX_ROUNDS = 300
MAX_SEEDS = 100


@tool("Play a league's missing games", read_only=False)
async def league_play(
    folder: GameFolder,
    league: LeagueArg,
    ctx: Context,
    seeds: Annotated[
        str,
        Field(
            description=f"Seeds like '1-10'; every pair of entries plays each in both seat orders (at most {MAX_SEEDS} seeds)."
        ),
    ] = "1-10",
    rounds: Annotated[int, Field(description=f"Rounds per game, 1 to {MAX_ROUNDS}.")] = 100,
) -> Annotated[CallToolResult, leagues.LeaguePlayed]:
    """Play the pairings (entry pair x seed x seat order) the league does not have yet, on fair
    maps, each game kept as it ends; at most {MAX_GAMES} games a call (call again until
    complete)."""
    seed_list = arena.parse_seeds(seeds)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ApiError(f"rounds must be from 1 to {MAX_ROUNDS}, not {rounds}")
    if len(seed_list) > MAX_SEEDS:
        raise ApiError(
            f"{len(seed_list)} seeds is more than one league may ask for at once (at most {MAX_SEEDS})"
        )
    path = league_path(folder, league)
    stop = threading.Event()
    reporting = True

    def progress(done: int, total: int, game: leagues.LeagueGame) -> None:
        nonlocal reporting  # best effort: a client that stops listening must not stop the games
        if reporting:
            try:
                anyio.from_thread.run(
                    functools.partial(ctx.report_progress, done, total, f"game {done} of {total}")
                )
            except Exception:
                log.warning(
                    "could not report progress of league_play; the games go on", exc_info=True
                )
                reporting = False

    def play() -> leagues.LeaguePlayed:
        with leagues.League.open(path) as opened:
            return opened.play(
                seed_list,
                rounds,
                WORKERS.backend(stop),  # the server's shared pool, as compare_scripts plays
                progress=progress,
                max_games=MAX_GAMES,
            )

    try:
        # abandoned when the call is cancelled: then ``stop`` ends its games at once, the games
        # finished are kept, and the claims of the others are given back
        played = await anyio.to_thread.run_sync(play, abandon_on_cancel=True)
    finally:
        stop.set()
    left = played.wanted - played.already - played.played
    text = (
        f"Played {played.played} new games ({played.already} of {played.wanted} pairings were already in league {league!r}). "
        + (
            "The league has every pairing asked for; league_table shows the ratings."
            if played.complete
            else f"{left} pairings are left: call league_play again."
            if not played.elsewhere
            else f"{played.elsewhere} are being played by another run."
        )
    )
    return reply(played, text)


league_play.__doc__ = (league_play.__doc__ or "").replace("{MAX_GAMES}", str(MAX_GAMES))
