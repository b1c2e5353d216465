"""The MCP tool add_script: compile an android once into the player's script library."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult
from pydantic import Field

from ... import api
from ...api import GameFolder
from ..edge import reply
from ..models import LibraryAdded
from .common import EntryArg, FilesArg, PlayerArg, SourceArg, check_player, sources
from .registry import tool


@tool("Add a script to your library", read_only=False)
def add_script(
    folder: GameFolder,
    player: PlayerArg,
    source: SourceArg = None,
    files: FilesArg = None,
    entry: EntryArg = None,
    starter: Annotated[
        bool, Field(description="The shipped starter android (resources nova://starter/...).")
    ] = False,
    name: Annotated[
        str | None,
        Field(
            description="A name to list it under (default: from the entry file); the first name given to this code stays."
        ),
    ] = None,
) -> Annotated[CallToolResult, LibraryAdded]:
    """Type-check and bundle an android once and keep it in the player's script library, under
    an id made from its content. Then play it anywhere without sending its code again:
    upload_script(game, player, library_id=id) in any game, compare_scripts with
    {library_id, player}. The same code always gets the same id; compile errors come back as an
    error listing each `file:line:col message`."""
    check_player(player)
    if name is not None and not 1 <= len(name) <= 64:
        raise api.ApiError("name must be 1-64 characters")
    texts, entry_name = sources(source, files, entry, starter)
    compiled = api.compile_upload(files=texts, entry_name=entry_name)
    kept = api.add_to_library(folder.root, player, compiled, texts, entry_name, name)
    how = "Added" if kept.added else "Already in the library:"
    text = (
        f"{how} {kept.id} ({kept.name}, {kept.bytes} bytes) for {player}. "
        f"Use it: upload_script(game, player={player!r}, library_id={kept.id!r}), or in compare_scripts {{'library_id': {kept.id!r}, 'player': {player!r}}}."
    )
    return reply(LibraryAdded(player=player, **kept.model_dump(by_alias=False)), text)
