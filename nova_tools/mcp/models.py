"""The MCP tools' own envelopes: the few answers that exist nowhere else (a page of the games
list, the facts beside a board picture, a player's library listing).

Every other tool answers with an api result (:mod:`nova_tools.api.results`) or an arena result
(:mod:`nova_tools.arena.results`) as it is: one declaration per outward shape, camelCase on the
wire like ``nova status --json``. A test (tests/mcp/test_output_models.py) fails when a class here
mirrors one of those.
"""

from __future__ import annotations

from pydantic import Field

from ..api import GameEntry, LibraryEntry, Result


class GamesPage(Result):
    """A page of the games in the server's folder, by name."""

    games: tuple[GameEntry, ...] = Field(description="Games in the server's folder, by name.")
    more: int = Field(
        0,
        description="How many more games there are beyond this list (list_games with offset shows them).",
    )
    offset: int = Field(0, description="How many games, by name, come before this list.")
    total: int = Field(0, description="Games in the folder.")


class ScriptShelf(Result):
    """A player's script library."""

    scripts: tuple[LibraryEntry, ...] = Field(
        description="The player's scripts in the library, by name."
    )


class BoardImage(Result):
    """What the PNG beside it shows (the image itself is the tool result's image content)."""

    player: str = Field(description="Whose view: tiles this player could not see are drawn as fog.")
    round: int = Field(description="The board after this round (0: after setup).")
    width: int = Field(description="Board width in tiles.")
    height: int = Field(description="Board height in tiles.")
    tile_pixels: int = Field(
        description="Pixels per tile; tile (x, y) is the square from (x*tile, y*tile)."
    )
    width_pixels: int = Field(description="The picture's width: width * tilePixels.")
    height_pixels: int = Field(description="The picture's height: height * tilePixels.")
    visible_tiles: int = Field(description="Tiles the player could see; the rest are fog.")
    legend: str = Field(description="What the colours and marks mean.")


#: every class declared here, for the test that none mirrors an api or arena result
ENVELOPES = (GamesPage, ScriptShelf, BoardImage)
