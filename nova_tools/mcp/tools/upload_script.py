"""The MCP tool upload_script: compile a TypeScript android (or take one from the script library)
and store it as a player's new script in a game."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult

from ... import api
from ...api import ApiError, GameFolder
from ..edge import reply
from .common import (
    BaseArg,
    EditsArg,
    EntryArg,
    FilesArg,
    GameArg,
    LibraryIdArg,
    PlayerArg,
    SourceArg,
    StarterArg,
    check_player,
    script_files,
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
    starter: StarterArg = False,
    library_id: LibraryIdArg = None,
    base: BaseArg = None,
    edits: EditsArg = None,
) -> Annotated[CallToolResult, api.Uploaded]:
    """Compile an android (code, a library_id, or a base plus what changes) as the player's new
    script in the game (the first upload adds the player). Errors list `file:line:col`."""
    path = folder.existing(game)
    check_player(player)
    if library_id is not None:
        if source is not None or files is not None or starter or base is not None or edits:
            raise ApiError(
                "give either library_id or the code (source, files or starter=true), not both"
            )
        kept = folder.library.get(player, library_id)
        compiled, name = kept.script, kept.entry.name
    else:
        texts, entry_name = script_files(
            folder,
            player,
            source=source,
            files=files,
            entry=entry,
            starter=starter,
            base=base,
            edits=edits,
        )
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
    return reply(uploaded.model_copy(update={"library_id": library_id}), text)
