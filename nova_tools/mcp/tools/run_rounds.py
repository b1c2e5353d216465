"""The MCP tool run_rounds: play rounds, reporting progress."""

from __future__ import annotations

import functools
import threading
import time
from typing import Annotated

import anyio.from_thread
import anyio.to_thread
from mcp.server.mcpserver import Context
from mcp.types import CallToolResult
from pydantic import Field

from ... import api
from ...api import GameFolder
from ..edge import log, reply
from ..shaping import points_text
from .common import GameArg, check_range
from .registry import tool

MAX_ROUNDS = 500  # per run_rounds call: a call stays short enough to report progress and return


@tool("Run rounds", read_only=False)
async def run_rounds(
    folder: GameFolder,
    game: GameArg,
    rounds: Annotated[
        int, Field(description=f"How many rounds to play, 1 to {MAX_ROUNDS}; call again for more.")
    ],
    ctx: Context,
) -> Annotated[CallToolResult, api.RunSummary]:
    """Play rounds (every active android's script runs once a round), with progress; ends with
    the scores."""
    path = folder.existing(game)
    check_range(
        "rounds",
        rounds,
        1,
        MAX_ROUNDS,
        "call run_rounds again to play more" if rounds > MAX_ROUNDS else "",
    )
    step = max(1, rounds // 20)
    reporting = True
    last_report = time.monotonic()
    cancelled = threading.Event()

    def progress(done: int, asked: int) -> None:
        # Best effort: a client that stops listening must not stop the run (or lose its rounds).
        # Every 5% of the rounds, and at least every second when rounds are slow.
        nonlocal reporting, last_report
        if (
            reporting
            and not cancelled.is_set()
            and (done == asked or done % step == 0 or time.monotonic() - last_report >= 1)
        ):
            last_report = time.monotonic()
            try:
                anyio.from_thread.run(
                    functools.partial(ctx.report_progress, done, asked, f"round {done} of {asked}")
                )
            except Exception:
                log.warning(
                    "could not report progress of run_rounds on %s; the run goes on",
                    game,
                    exc_info=True,
                )
                reporting = False

    try:
        # abandon_on_cancel: a cancelled call returns at once, and the run, told to stop, ends
        # after the round in progress and saves every round it played (api.run_rounds' stop)
        summary = await anyio.to_thread.run_sync(
            functools.partial(
                api.run_rounds, path, rounds, progress=progress, stop=cancelled.is_set
            ),
            abandon_on_cancel=True,
        )
    except anyio.get_cancelled_exc_class():
        cancelled.set()
        log.info("run_rounds on %s cancelled: it stops after the round in progress", game)
        raise
    # the standings the run just computed: the game file is read once per call, not replayed again
    players = summary.status.players if summary.status is not None else ()
    scores = tuple(api.PlayerScore(player=p.id, score=p.score) for p in players)
    fallen = [f"{summary.owners.get(a, '?')}'s {a}" for a in summary.destroyed]
    destroyed = f", destroyed: {', '.join(fallen)}" if fallen else ""
    text = (
        f"Played rounds {summary.first_round}-{summary.last_round}: {summary.turns} turns, {summary.failed_turns} failed{destroyed}. "
        f"Scores: {', '.join(f'{s.player} {points_text(s.score)}' for s in scores) or 'no players yet'}."
    )
    if summary.failed_turns:
        text += " See why: get_events(..., failed_only=true)."
    played = summary.model_copy(update={"seconds": round(summary.seconds, 3), "scores": scores})
    return reply(played, text)
