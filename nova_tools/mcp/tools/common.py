"""What several tools share: the argument types (names and meanings are a stable interface,
DESIGN section 6) and the checks of arguments the api does not check itself."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from ...api import NAME_RULE, ApiError, GameFolder, check_name
from ...arena.league import SUFFIX
from .. import content

GameArg = Annotated[
    str, Field(description=f"The game's name ({NAME_RULE}), e.g. 'duel'; list_games shows them.")
]
PlayerArg = Annotated[str, Field(description="The player you act and read as, e.g. 'alice'.")]
LibraryIdArg = Annotated[
    str | None,
    Field(
        description="A script from your library instead of code: the id add_script or upload_script returned, e.g. 'lib-3f2a9c0b1d4e5f67' (list_scripts lists yours)."
    ),
]
WholeMapArg = Annotated[
    bool,
    Field(
        description="The complete world, every tile and everyone's androids and buildings, as a replay keeps it (to study a recorded round); "
        "other players' memory, recordings and code stay hidden. Default: only what the player saw."
    ),
]
RULES_DOC = "Rules overrides: a JSON object, or JSON-with-comments text. {} is the shipped game; any subset may be given."
RulesArg = Annotated[dict[str, Any] | str, Field(description=RULES_DOC)]
# the three ways to hand over an android's code, shared by the tools that compile one
SourceArg = Annotated[
    str | None,
    Field(
        description="The android as one TypeScript file (its default export is the turn function)."
    ),
]
FilesArg = Annotated[
    dict[str, str] | None,
    Field(
        description="A multi-file android: {relative path: TypeScript text}, e.g. {'main.ts': ..., 'lib/nav.ts': ...}."
    ),
]
EntryArg = Annotated[
    str | None,
    Field(
        description="With files: the entry file (default 'main.ts'). With source: the file name used in errors."
    ),
]


LeagueArg = Annotated[
    str,
    Field(
        description=f"The league's name ({NAME_RULE}): the file NAME.league in the server's root (league_add creates it)."
    ),
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
    "check_range",
    "league_path",
    "sources",
]
