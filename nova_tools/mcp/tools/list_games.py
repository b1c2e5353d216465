"""The MCP tool list_games: the games in the server's folder."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult

from ...api import GameFolder
from ..edge import reply
from ..models import GameEntry, GameList
from .registry import tool

MAX_GAMES_LISTED = 50


@tool("List games", read_only=True)
def list_games(folder: GameFolder) -> Annotated[CallToolResult, GameList]:
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
