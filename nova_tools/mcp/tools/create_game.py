"""The MCP tool create_game: a new game in the server's folder."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.types import CallToolResult
from pydantic import Field

from ... import api
from ...api import NAME_RULE, ApiError, GameFolder
from ..edge import reply
from .common import RULES_DOC
from .registry import tool


@tool("Create a game", read_only=False)
def create_game(
    folder: GameFolder,
    name: Annotated[
        str,
        Field(description=f"The new game's name ({NAME_RULE})."),
    ],
    rules: Annotated[dict[str, Any] | str | None, Field(description=RULES_DOC)] = None,
    seed: Annotated[
        int | None,
        Field(description="World seed, 0 to 2^63-1 (default 0)."),
    ] = None,
) -> Annotated[CallToolResult, api.Created]:
    """Create a game; players join with upload_script. Defaults: the shipped rules (a random
    map, no finalRound), seed 0, unlike compare_scripts and play_game (rotational maps,
    finalRound = rounds)."""
    path = folder.path(name)
    if path.exists():
        raise ApiError(
            f"a game named {name!r} already exists; pick another name, or keep playing it (get_status)"
        )
    created = api.create_game(path, rules, seed=seed or 0)
    arrival = (
        f", humans land on round {created.final_turn}"
        if created.final_turn
        else ", no arrival date"
    )
    text = (
        f"Created game {name!r}: a {created.width}x{created.height} world from seed {created.seed}{arrival}. "
        f"Next: upload_script(game={name!r}, player=..., files=...)."
    )
    return reply(created.model_copy(update={"game": name}), text)
