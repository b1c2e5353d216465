"""The MCP tool get_board_image: a PNG picture of the board as one player saw it.

For agents that can see, and for following a game at a glance. The facts come from
:func:`nova_tools.api.player_world` (what the player saw, fogged); :mod:`..board_image` draws.
"""

from __future__ import annotations

import base64
from typing import Annotated

from mcp.types import CallToolResult, ImageContent, TextContent
from pydantic import Field

from ... import api
from ...api import GameFolder
from .. import board_image
from ..models import BoardImage
from .common import GameArg, PlayerArg, WholeMapArg
from .registry import tool


@tool("Picture of the board", read_only=True)
def get_board_image(
    folder: GameFolder,
    game: GameArg,
    player: PlayerArg,
    round: Annotated[
        int | None,
        Field(description="After this round (0: setup). Default: now."),
    ] = None,
    whole_map: WholeMapArg = False,
) -> Annotated[CallToolResult, BoardImage]:
    """A PNG of the board as the player saw it (now or after a round); the text is the legend."""
    world = api.player_world(folder.existing(game), player, round, whole=whole_map)
    png, colours = board_image.render(world, player)
    size = board_image.tile_size(world.width, world.height)
    legend = board_image.legend(world, player, colours)
    data = BoardImage(
        player=player,
        round=world.round,
        width=world.width,
        height=world.height,
        tile_pixels=size,
        width_pixels=world.width * size,
        height_pixels=world.height * size,
        visible_tiles=len(world.tiles),
        legend=legend,
    )
    return CallToolResult(
        content=[
            ImageContent(
                type="image", data=base64.b64encode(png).decode("ascii"), mime_type="image/png"
            ),
            TextContent(type="text", text=legend),
        ],
        structured_content=data.wire(),
    )
