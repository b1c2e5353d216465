"""What several tools share: the argument types (names and meanings are a stable interface,
DESIGN section 6) and the checks of arguments the api does not check itself."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from ... import api
from ...api import ApiError, GameFolder, check_name
from ...arena.league import SUFFIX
from .. import content

GameArg = Annotated[str, Field(description="A game's name (list_games lists them).")]
PlayerArg = Annotated[str, Field(description="The player you act as, e.g. 'alice'.")]
LibraryIdArg = Annotated[
    str | None, Field(description="A library script's id instead of code (add_script returns it).")
]
WholeMapArg = Annotated[
    bool,
    Field(description="The whole world, as a replay keeps it (default: what the player saw)."),
]
RULES_DOC = "Rules overrides: a JSON object or JSON-with-comments text."
RulesArg = Annotated[dict[str, Any] | str, Field(description=RULES_DOC)]
# the ways to hand over an android's code, shared by the tools that compile one
SourceArg = Annotated[str | None, Field(description="The android as one TypeScript file.")]
FilesArg = Annotated[
    dict[str, str | None] | None,
    Field(description="{path: TypeScript text}; with base, the changed ones (null removes one)."),
]
EntryArg = Annotated[str | None, Field(description="The entry file (default 'main.ts').")]
StarterArg = Annotated[bool, Field(description="The shipped starter (nova://starter/...).")]
BaseArg = Annotated[
    str | None,
    Field(description="A library id, 'starter' or 'house:NAME' to change by files and edits."),
]
EditsArg = Annotated[
    list[api.Edit] | None,
    Field(description="With base: [{file, old, new}], old found once."),
]


LeagueArg = Annotated[
    str,
    Field(description="A league's name (league_add creates it)."),
]


def league_path(folder: GameFolder, name: str) -> Path:
    """The league file a name addresses (never outside the root)."""
    return folder.root / (check_name(name, "league name") + SUFFIX)


def check_player(player: str) -> str:
    if not isinstance(player, str) or not player or len(player) > 64:
        raise ApiError("player must be a player id of 1-64 characters, e.g. 'alice'")
    return player


def check_range(name: str, value: int, low: int, high: int, hint: str = "") -> int:
    if not low <= value <= high:
        raise ApiError(
            f"{name} must be from {low} to {high}, not {value}" + (f"; {hint}" if hint else "")
        )
    return value


def script_files(
    folder: api.GameFolder,
    player: str | None,
    *,
    source: str | None = None,
    files: dict[str, str | None] | None = None,
    entry: str | None = None,
    starter: bool = False,
    base: str | None = None,
    edits: list[api.Edit] | None = None,
) -> tuple[dict[str, str], str | None]:
    """The files of a script given whole (``sources``) or as a base and what changes."""
    if base is None:
        if edits:
            raise ApiError(
                "edits change a base script: give base too ('starter', a library id or 'house:NAME')"
            )
        if files is not None and any(text is None for text in files.values()):
            raise ApiError("files: a file set to null removes it from a base script: give base too")
        return sources(source, files, entry, starter)  # type: ignore[arg-type]
    if source is not None or starter:
        raise ApiError("with base, send only what changes: files and edits (not source or starter)")
    if entry is not None:
        raise ApiError("with base, the entry file is the base's own: leave entry out")
    texts, entry_name = api.base_files(base, folder.root, player)
    return api.fork(texts, entry_name, files, edits or ())


def sources(
    source: str | None, files: dict[str, str] | None, entry: str | None, starter: bool = False
) -> tuple[dict[str, str], str | None]:
    """Exactly one of ``source`` (one file), ``files`` (several, with ``entry``) or the starter."""
    if sum((source is not None, files is not None, starter)) > 1:
        raise ApiError("give only one of source (one file), files (several) or starter=true")
    if starter:
        starter_files = content.starter_files()
        if not starter_files:
            raise ApiError(
                "the starter android is not installed with this nova-tools; give source or files"
            )
        return starter_files, next(iter(starter_files))
    if source is not None:
        name = entry or "main.ts"
        return {name: source}, name
    if files is not None:
        if not files:
            raise ApiError("files is empty; give at least the entry file, e.g. {'main.ts': '...'}")
        return dict(files), entry
    raise ApiError(
        "give the android's code: source (one TypeScript file), files ({path: text}, with entry) or, to upload, starter=true"
    )


__all__ = [
    "RULES_DOC",
    "GameArg",
    "LeagueArg",
    "LibraryIdArg",
    "WholeMapArg",
    "PlayerArg",
    "RulesArg",
    "check_player",
    "BaseArg",
    "StarterArg",
    "EditsArg",
    "FilesArg",
    "check_range",
    "script_files",
    "league_path",
    "sources",
]
