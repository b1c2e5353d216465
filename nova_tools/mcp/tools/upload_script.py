"""The MCP tool upload_script: compile a TypeScript android and store it as a player's new script."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult
from pydantic import Field

from ... import api
from ...api import GameFolder
from ..edge import reply
from ..models import UploadedScript
from .common import GameArg, PlayerArg, check_player, sources
from .registry import tool


@tool("Upload an android script", read_only=False)
def upload_script(
    folder: GameFolder,
    game: GameArg,
    player: PlayerArg,
    source: Annotated[str | None, Field(description="The android as one TypeScript file (its default export is the turn function).")] = None,
    files: Annotated[
        dict[str, str] | None, Field(description="A multi-file android: {relative path: TypeScript text}, e.g. {'main.ts': ..., 'lib/nav.ts': ...}.")
    ] = None,
    entry: Annotated[str | None, Field(description="With files: the entry file (default 'main.ts'). With source: the file name used in errors.")] = None,
    starter: Annotated[bool, Field(description="Upload the shipped starter android as it is (resources nova://starter/...) instead of source or files.")] = False,
) -> Annotated[CallToolResult, UploadedScript]:
    """Type-check and bundle a TypeScript android and store it as a new script version of the
    player (the first upload adds the player, with an initial charger). Returns the script id;
    compile errors come back as an error listing each `file:line:col message`."""
    path = folder.existing(game)
    texts, entry_name = sources(source, files, entry, starter)
    uploaded = api.upload_script(path, check_player(player), files=texts, entry_name=entry_name)
    joined = " (joined the game: your initial charger is placed)" if uploaded.joined else ""
    text = f"Uploaded {uploaded.script_id} for {player}{joined}. Next: launch_android(game={game!r}, player={player!r}, script_id={uploaded.script_id!r})."
    return reply(
        UploadedScript(
            game=game,
            player=player,
            script_id=uploaded.script_id,
            name=uploaded.name,
            sha256=uploaded.sha256,
            joined=uploaded.joined,
        ),
        text,
    )
