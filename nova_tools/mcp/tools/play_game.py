"""The MCP tool play_game: one game of two scripts exactly as a comparison plays it, kept."""

from __future__ import annotations

import functools
from typing import Annotated, Any

import anyio.to_thread
from mcp.types import CallToolResult
from pydantic import Field

from ... import arena
from ...api import ApiError, GameFolder
from ..edge import reply
from ..shaping import points_text
from .common import RULES_DOC, check_range
from .compare_scripts import MAX_ROUNDS
from .registry import tool
from .sides import keep_games, two_entrants


@tool("Play one game of two scripts", read_only=False)
async def play_game(
    folder: GameFolder,
    a: Annotated[str, Field(description="Seat 1: 'starter', 'house:NAME' or a library id.")],
    b: Annotated[str, Field(description="Seat 2, the same way.")],
    player: Annotated[str | None, Field(description="Whose library the ids are from.")] = None,
    seed: Annotated[int, Field(description="The map's seed.")] = 1,
    rounds: Annotated[int, Field(description=f"Rounds, 1 to {MAX_ROUNDS}.")] = 100,
    rules: Annotated[
        dict[str, Any] | str | None,
        Field(description=RULES_DOC),
    ] = None,
) -> Annotated[CallToolResult, arena.GameResult]:
    """One game of a (seated first) against b, exactly as compare_scripts plays that seed, kept:
    scores and the game's name (its players are the scripts' names)."""
    check_range("seed", seed, 0, arena.plan.MAX_SEED)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ApiError(f"rounds must be from 1 to {MAX_ROUNDS}, not {rounds}")
    resolved, rounds = arena.arena_rules(rules, rounds)
    entrants = two_entrants(folder, a, b, player)
    contest = arena.Contest(resolved, entrants, keep_files=True)
    task = arena.GameTask(0, seed, (0, 1), rounds)
    record = await anyio.to_thread.run_sync(functools.partial(arena.play_task, contest, task))
    name = keep_games(folder, contest, [record])[0]
    result = arena.game_result(record, entrants, detail=True, game=name)
    first, second = result.seats
    text = (
        f"Kept as game {name!r}: seed {seed}, {rounds} rounds, {first} {points_text(result.scores[0])} "
        f"vs {second} {points_text(result.scores[1])}. Read it as player {first!r} or {second!r}."
    )
    return reply(result, text)
