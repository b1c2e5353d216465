"""The MCP tool add_script: compile an android once into the player's script library."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult
from pydantic import Field

from ... import api
from ...api import GameFolder
from ..edge import reply
from .common import (
    BaseArg,
    EditsArg,
    EntryArg,
    FilesArg,
    PlayerArg,
    SourceArg,
    StarterArg,
    check_player,
    script_files,
)
from .registry import tool


@tool("Add a script to your library", read_only=False)
def add_script(
    folder: GameFolder,
    player: PlayerArg,
    base: BaseArg = None,
    edits: EditsArg = None,
    source: SourceArg = None,
    files: FilesArg = None,
    entry: EntryArg = None,
    starter: StarterArg = False,
    name: Annotated[
        str | None,
        Field(description="A name to list it under (default: from the entry file)."),
    ] = None,
) -> Annotated[CallToolResult, api.LibraryEntry]:
    """Compile an android into the player's library under an id made from its code (same code,
    same id), played by id anywhere. A new version: base plus the files or edits that change."""
    check_player(player)
    if name is not None and not 1 <= len(name) <= 64:
        raise api.ApiError("name must be 1-64 characters")
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
    kept = api.add_to_library(folder.root, player, compiled, texts, entry_name, name)
    how = "Added" if kept.added else "Already in the library:"
    text = (
        f"{how} {kept.id} ({kept.name}, {kept.bytes} bytes) for {player}. "
        f"Use it: upload_script(game, player={player!r}, library_id={kept.id!r}), or in compare_scripts {{'library_id': {kept.id!r}, 'player': {player!r}}}."
    )
    return reply(kept, text)
