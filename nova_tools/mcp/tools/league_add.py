"""The MCP tool league_add: add a version (a house android, a library script or code) to a league."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult
from pydantic import Field

from ... import api
from ...api import ApiError, GameFolder
from ...arena import league as leagues
from ..edge import reply
from .common import (
    EntryArg,
    FilesArg,
    LeagueArg,
    LibraryIdArg,
    SourceArg,
    check_player,
    league_path,
    sources,
)
from .registry import tool


@tool("Add a version to a league", read_only=False)
def league_add(
    folder: GameFolder,
    league: LeagueArg,
    name: Annotated[str, Field(description="The entry's name in the table, e.g. 'bot-v2'.")],
    house: Annotated[
        str | None,
        Field(
            description="A shipped opponent instead of code: 'house:starter', 'house:champion'..."
        ),
    ] = None,
    library_id: LibraryIdArg = None,
    player: Annotated[
        str | None, Field(description="With library_id: the player whose library holds it.")
    ] = None,
    source: SourceArg = None,
    files: FilesArg = None,
    entry: EntryArg = None,
) -> Annotated[CallToolResult, leagues.LeagueEntry]:
    """Add a version to a league (created if new): a house android, a library script or code.
    A name or a bundle already in the league is refused; league_play then plays only the new
    pairings."""
    given = sum(x is not None for x in (house, library_id, source, files))
    if given != 1:
        raise ApiError("give exactly one of house, library_id (with player), source or files")
    path = league_path(folder, league)
    if house is not None:
        label, script = house, leagues.compile_ref(house)
    elif library_id is not None:
        if player is None:
            raise ApiError("library_id needs the player whose library holds it")
        kept = folder.library.get(check_player(player), library_id)
        label, script = f"library {library_id}", kept.script
    else:
        if files is not None and any(text is None for text in files.values()):
            raise ApiError("files: a null removes a file from a base; league_add takes whole files")
        whole = None if files is None else {k: v for k, v in files.items() if v is not None}
        texts, entry_name = sources(source, whole, entry)
        label, script = "code sent over MCP", api.compile_upload(files=texts, entry_name=entry_name)
    added = leagues.add_compiled(path, name, label, script)
    return reply(
        added,
        f"Added {added.name} ({added.source}) to league {league!r}: {added.entries} entries. "
        f"league_play(league={league!r}) plays its pairings.",
    )
