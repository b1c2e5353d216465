"""The MCP tool delete_game: remove a game from the server's folder."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult

from ... import api
from ...api import GameFolder
from ..edge import reply
from .common import GameArg
from .registry import tool


@tool("Delete a game", read_only=False, destructive=True)
def delete_game(folder: GameFolder, game: GameArg) -> Annotated[CallToolResult, api.GameEntry]:
    """Delete a game for good (its scripts stay in your library), after a run in progress."""
    summary = folder.delete(game)
    if summary is None:
        text = f"Deleted {game} (its file could not be read)."
    else:
        text = f"Deleted {game} (round {summary.round}, players {', '.join(summary.players) or 'none'})."
    problem = "its file could not be read" if summary is None else None
    entry = api.GameEntry(name=game, path=folder.path(game), summary=summary, problem=problem)
    return reply(entry, text)
