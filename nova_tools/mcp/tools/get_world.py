"""The MCP tool get_world: the world as one player sees it, and what they own."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult
from pydantic import Field

from ... import api
from ...api import GameFolder
from ..edge import reply
from ..shaping import world_text
from .common import GameArg, PlayerArg, WholeMapArg, check_range
from .registry import tool


@tool("See the world", read_only=True)
def get_world(
    folder: GameFolder,
    game: GameArg,
    player: PlayerArg,
    tile_offset: Annotated[int, Field(description="Skip this many tiles (paging).")] = 0,
    tile_limit: Annotated[int, Field(description="List at most this many tiles, 1-200.")] = 60,
    messages: Annotated[int, Field(description="Broadcasts to show, 0-50.")] = 10,
    round: Annotated[
        int | None,
        Field(description="After this round (0: setup). Default: now."),
    ] = None,
    whole_map: WholeMapArg = False,
) -> Annotated[CallToolResult, api.PlayerWorld]:
    """The world as the player sees it (now or after a round): all they own (yours), others'
    androids and buildings in sight, tiles with something on them (paged), broadcasts."""
    check_range("tile_offset", tile_offset, 0, 1_000_000)
    check_range("tile_limit", tile_limit, 1, 200)
    check_range("messages", messages, 0, 50)
    view = api.player_world(folder.existing(game), player, round, whole=whole_map)
    # tiles with nothing in the ground or on the surface say nothing: only the others are listed
    tiles = [
        t.model_copy(update={"revealed_by": ()}) for t in view.tiles if t.composition or t.scattered
    ]
    world = view.model_copy(
        update={
            "whole_map": whole_map,
            "visible_tiles": len(view.tiles),
            "tile_count": len(tiles),
            "tile_offset": tile_offset,
            "tiles": tuple(tiles[tile_offset : tile_offset + tile_limit]),
            # yours lists the player's own things wherever they are; these are everyone else's
            "androids": tuple(a for a in view.androids if a.owner_id != player),
            "buildings": tuple(b for b in view.buildings if b.owner_id != player),
            "message_count": len(view.messages),
            "messages": view.messages[-messages:] if messages else (),
        }
    )
    return reply(world, world_text(game, world))
