"""The MCP tool upload_script: compile a TypeScript android (or take one from the script library)
and store it as a player's new script in a game."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult
from pydantic import Field

from ... import api
from ...api import ApiError, GameFolder
from ..edge import reply
from ..models import UploadedScript
from .common import (
    EntryArg,
    FilesArg,
    GameArg,
    LibraryIdArg,
    PlayerArg,
    SourceArg,
    check_player,
    sources,
)
from .registry import tool


@tool("Upload an android script", read_only=False)
def upload_script(
    folder: GameFolder,
    game: GameArg,
    player: PlayerArg,
    source: SourceArg = None,
    files: FilesArg = None,
    entry: EntryArg = None,
    starter: Annotated[
        bool,
        Field(
            description="Upload the shipped starter android as it is (resources nova://starter/...) instead of source or files."
        ),
    ] = False,
    library_id: LibraryIdArg = None,
) -> Annotated[CallToolResult, UploadedScript]:
    """Type-check and bundle a TypeScript android and store it as a new script version of the
    player (the first upload adds the player, with an initial charger). The compiled script is
    also kept in the player's script library: to play the same code in another game, pass the
    returned library_id instead of the source (nothing is sent or compiled again). Returns the
    script id; compile errors come back as an error listing each `file:line:col message`."""
    path = folder.existing(game)
    check_player(player)
    if library_id is not None:
        if source is not None or files is not None or starter:
            raise ApiError(
                "give either library_id or the code (source, files or starter=true), not both"
            )
        kept = folder.library.get(player, library_id)
        compiled, name = kept.script, kept.entry.name
    else:
        texts, entry_name = sources(source, files, entry, starter)
        compiled = api.compile_upload(files=texts, entry_name=entry_name)
        kept_entry = api.add_to_library(folder.root, player, compiled, texts, entry_name)
        library_id, name = kept_entry.id, kept_entry.name
    uploaded = api.upload_script(path, player, compiled=compiled, name=name)
    joined = " (joined the game: your initial charger is placed)" if uploaded.joined else ""
    text = (
        f"Uploaded {uploaded.script_id} ({name}, library {library_id}) for {player}{joined}. "
        f"Next: launch_android(game={game!r}, player={player!r}, script_id={uploaded.script_id!r}). "
        f"In another game: upload_script(game, player, library_id={library_id!r})."
    )
    return reply(
        UploadedScript(
            game=game,
            player=player,
            script_id=uploaded.script_id,
            name=uploaded.name,
            sha256=uploaded.sha256,
            joined=uploaded.joined,
            library_id=library_id,
        ),
        text,
    )
