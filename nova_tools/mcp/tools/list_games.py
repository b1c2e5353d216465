"""The MCP tool list_games: the games in the server's folder, a page at a time."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult
from pydantic import Field

from ...api import GameFolder
from ..edge import reply
from ..models import GamesPage
from .common import check_range
from .registry import tool

MAX_GAMES_LISTED = 50


@tool("List games", read_only=True)
def list_games(
    folder: GameFolder,
    offset: Annotated[
        int,
        Field(description="Skip this many games (paging)."),
    ] = 0,
    limit: Annotated[
        int, Field(description=f"List at most this many games, 1-{MAX_GAMES_LISTED}.")
    ] = MAX_GAMES_LISTED,
) -> Annotated[CallToolResult, GamesPage]:
    """The games in the server's folder, by name: round, players. Use a name as `game` elsewhere."""
    check_range("offset", offset, 0, 1_000_000)
    check_range("limit", limit, 1, MAX_GAMES_LISTED)
    total = len(folder.names())
    entries = folder.games(limit, offset)
    more = max(0, total - offset - len(entries))
    if not entries:
        text = (
            "No games yet. Create one with create_game(name)."
            if not total
            else f"No games from offset {offset}: there are {total}."
        )
    else:
        lines = [
            f"{e.name}: "
            + (
                e.problem
                or f"round {e.summary.round}, players {', '.join(e.summary.players) or 'none yet'}"
                if e.summary
                else e.problem or ""
            )
            for e in entries
        ]
        page = f"games {offset + 1}-{offset + len(entries)} of {total}" if offset or more else ""
        text = "\n".join(lines) + (
            f"\n({page}; {more} more: list_games(offset={offset + len(entries)}))"
            if more
            else (f"\n({page})" if page else "")
        )
    return reply(GamesPage(games=tuple(entries), more=more, offset=offset, total=total), text)
