"""The MCP tool get_world: the world as one player sees it, and what they own."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult
from pydantic import Field

from ... import api
from ...api import GameFolder
from ..edge import reply
from ..models import Holdings, MessageOut, ScriptOut, Seen, TileOut, WorldView
from ..shaping import android_brief, building_out, own_android, position_of, world_text
from .common import GameArg, PlayerArg, WholeMapArg, check_range
from .registry import tool


@tool("See the world", read_only=True)
def get_world(
    folder: GameFolder,
    game: GameArg,
    player: PlayerArg,
    tile_offset: Annotated[
        int, Field(description="Skip this many of the listed tiles (for paging).")
    ] = 0,
    tile_limit: Annotated[int, Field(description="List at most this many tiles, 1-200.")] = 60,
    messages: Annotated[
        int, Field(description="How many of the latest visible broadcasts to show, 0-50.")
    ] = 10,
    round: Annotated[
        int | None,
        Field(description="The world as it stood after this round (0: after setup). Default: now."),
    ] = None,
    whole_map: WholeMapArg = False,
) -> Annotated[CallToolResult, WorldView]:
    """The world as the player sees it now, or after a recorded round (fogged): everything the
    player owns, wherever it is; other players' androids and buildings on visible tiles; visible
    tiles that hold ground resources, hazards or loose material (paged); and the latest
    broadcasts. With whole_map, the complete world of that round, as a replay keeps it."""
    check_range("tile_offset", tile_offset, 0, 1_000_000)
    check_range("tile_limit", tile_limit, 1, 200)
    check_range("messages", messages, 0, 50)
    view = api.player_world(folder.existing(game), player, round, whole=whole_map)
    tiles = [
        TileOut(
            position=position_of(t.position),
            composition=t.composition or None,
            scattered=t.scattered or None,
        )
        for t in view.tiles
        if t.composition or t.scattered
    ]
    mine = view.yours
    yours = Holdings(
        capacity=mine.capacity,
        active_androids=mine.active_androids,
        androids=[own_android(a) for a in mine.androids],
        buildings=[building_out(b) for b in mine.buildings],
        scripts=[ScriptOut(id=s.id, name=s.name) for s in mine.scripts],
    )
    others = Seen(
        androids=[android_brief(a) for a in view.androids if a.owner_id != player],
        buildings=[building_out(b) for b in view.buildings if b.owner_id != player],
    )
    shown_messages = view.messages[-messages:] if messages else []
    world = WorldView(
        game=game,
        player=player,
        round=view.round,
        whole_map=whole_map,
        width=view.width,
        height=view.height,
        visible_tiles=len(view.tiles),
        tile_count=len(tiles),
        tile_offset=tile_offset,
        tiles=tiles[tile_offset : tile_offset + tile_limit],
        scattered_total=view.loose,
        yours=yours,
        others=others,
        message_count=len(view.messages),
        messages=[
            MessageOut(
                round=m.round,
                android_id=m.android_id,
                owner_id=m.owner_id,
                position=position_of(m.position),
                content=m.content,
            )
            for m in shown_messages
        ],
    )
    return reply(world, world_text(world))
