"""The MCP tool list_scripts: the player's script library."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult

from ...api import GameFolder
from ..edge import reply
from ..models import ScriptShelf
from .common import PlayerArg, check_player
from .registry import tool


@tool("List your library's scripts", read_only=True)
def list_scripts(folder: GameFolder, player: PlayerArg) -> Annotated[CallToolResult, ScriptShelf]:
    """The player's library scripts (add_script, upload_script): id, name, size, files."""
    check_player(player)
    found = tuple(folder.library.listing(player))
    if found:
        text = f"{player}'s library: " + "; ".join(
            f"{s.id} {s.name} ({s.bytes} bytes, {', '.join(s.files)})" for s in found
        )
    else:
        text = (
            f"{player}'s library is empty: add_script (or any upload_script) keeps a script there."
        )
    return reply(ScriptShelf(scripts=found), text)
