"""The MCP tool get_score_history: each player's score round by round, small enough to keep in
context. The scores and the lead changes come from :func:`nova_tools.api.score_history` (the
recorded game, replayed), the text from ``api.wording`` (the table `nova status --history` prints);
this module only picks which rounds to list."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult, TextContent
from pydantic import Field

from ... import api
from ...api import GameFolder
from .common import GameArg
from .registry import tool

MAX_HISTORY_POINTS = 100  # rounds listed per player by default: a 1,000-round game fits in a few KB


@tool("Scores round by round", read_only=True)
def get_score_history(
    folder: GameFolder,
    game: GameArg,
    every: Annotated[
        int | None,
        Field(
            description=f"Every Nth round, and the last (default: at most {MAX_HISTORY_POINTS}).",
            ge=1,
        ),
    ] = None,
) -> Annotated[CallToolResult, api.ScoreHistory]:
    """Each player's score after each round (0: setup) and every lead change; long games are
    sampled (`every`)."""
    whole = api.score_history(folder.existing(game))
    step = every or max(1, -(-len(whole.rounds) // MAX_HISTORY_POINTS))
    shown = whole.sampled(step)
    history = shown
    if not shown.players:
        text = f"{game}: no scores yet (no player has joined)."
    else:
        text = f"{game}:\n" + "\n".join(api.wording.score_history_lines(whole))
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=history.wire()
    )
