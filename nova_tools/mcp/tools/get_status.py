"""The MCP tool get_status: scores with their breakdown."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult

from ... import api
from ...api import GameFolder
from ..edge import reply
from ..shaping import points_text
from .common import GameArg
from .registry import tool


@tool("Scores and status", read_only=True)
def get_status(folder: GameFolder, game: GameArg) -> Annotated[CallToolResult, api.Status]:
    """Round, arrival round, and each player's score with its breakdown, active androids and
    wrecks."""
    status = api.status(folder.existing(game))
    players = status.players
    final = status.final_turn
    head = f"{game}: round {status.round}" + (f" of {final}" if final else "")
    lines = [head] + [
        f"{p.id}: {points_text(p.score)} points ({', '.join(f'{b.source} {points_text(b.points)}' for b in p.breakdown) or 'nothing yet'}); "
        f"{p.active_androids} active, {p.wrecks} wrecks"
        for p in players
    ]
    return reply(status, "\n".join(lines))
