"""The MCP tool league_table: a league's ratings, records and head to head, best first."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult

from ...api import GameFolder
from ...arena import league as leagues
from ..edge import reply
from ..shaping import points_text
from .common import LeagueArg, league_path
from .registry import tool


@tool("Read a league's table", read_only=True)
def league_table(
    folder: GameFolder, league: LeagueArg
) -> Annotated[CallToolResult, leagues.LeagueTable]:
    """A league's table, best first: each entry's rating (OpenSkill mu - 3 sigma), games, wins,
    draws, losses, mean score, and its record against each other entry."""
    table = leagues.table(league_path(folder, league))
    lines = [f"League {league!r}: {len(table.entries)} entries, {table.games} games."]
    for s in table.entries:
        mean = "-" if s.mean_score is None else points_text(round(s.mean_score, 2))
        lines.append(
            f"{s.rank}. {s.name}: rating {s.rating:.2f} (sigma {s.sigma:.2f}), {s.games} games, "
            f"{s.wins} wins, {s.draws} draws, {s.losses} losses, mean score {mean}."
        )
    return reply(table, " ".join(lines))
