"""The MCP tool delete_game: remove a game from the server's folder."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult

from ...api import GameFolder
from ..edge import reply
from ..models import DeletedGame
from .common import GameArg
from .registry import tool


@tool("Delete a game", read_only=False, destructive=True)
def delete_game(folder: GameFolder, game: GameArg) -> Annotated[CallToolResult, DeletedGame]:
    """Delete a game and everything recorded in it, for good (its scripts stay in your library).
    Waits for a run of that game in progress to finish first."""
    summary = folder.delete(game)
    if summary is None:
        text = f"Deleted {game} (its file could not be read)."
    else:
        text = f"Deleted {game} (round {summary.round}, players {', '.join(summary.players) or 'none'})."
    return reply(
        DeletedGame(
            game=game,
            round=None if summary is None else summary.round,
            players=[] if summary is None else list(summary.players),
        ),
        text,
    )
