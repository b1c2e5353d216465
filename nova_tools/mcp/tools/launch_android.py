"""The MCP tool launch_android: a new android on the player's initial charger."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult
from pydantic import Field

from ... import api
from ...api import GameFolder
from ..edge import reply
from .common import GameArg, PlayerArg
from .registry import tool


@tool("Launch an android", read_only=False)
def launch_android(
    folder: GameFolder,
    game: GameArg,
    player: PlayerArg,
    script_id: Annotated[
        str,
        Field(description="One of the player's scripts, e.g. 'script-1'."),
    ],
) -> Annotated[CallToolResult, api.Launched]:
    """Launch an android running one of the player's scripts on their initial charger (refused
    when their chargers allow no more)."""
    path = folder.existing(game)
    launched = api.launch_android(path, player, script_id)
    x, y = launched.position.x, launched.position.y
    text = (
        f"Launched {launched.android_id} ({script_id}) for {player} at ({x},{y}); "
        f"{launched.active_androids} of {launched.capacity} android slots in use. Next: run_rounds(game={game!r}, rounds=...)."
    )
    return reply(launched, text)
