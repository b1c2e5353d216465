"""The MCP tool dry_run_turn: one turn of a script judged by the engine, changing nothing."""

from __future__ import annotations

import json
from typing import Annotated

from mcp.types import CallToolResult
from pydantic import Field

from ... import api
from ...api import ApiError, GameFolder
from ..edge import reply
from ..shaping import cut_text, points_text, shorten_action
from .common import sources
from .registry import tool

DRY_RUN_TEXT_CHARS = 1000  # memory/recording a dry-run turn returned, shown


@tool("Dry-run one turn", read_only=True)
def dry_run_turn(
    folder: GameFolder,
    source: Annotated[str | None, Field(description="The android as one TypeScript file.")] = None,
    game: Annotated[
        str | None,
        Field(description="Run in this game as it is now (with player). Default: a fresh world."),
    ] = None,
    player: Annotated[
        str | None, Field(description="With game: the player whose android takes the turn.")
    ] = None,
    android_id: Annotated[
        str | None,
        Field(description="Which android (default: the player's first active one)."),
    ] = None,
    files: Annotated[
        dict[str, str] | None,
        Field(description="Instead of source: {path: TypeScript text}."),
    ] = None,
    entry: Annotated[
        str | None, Field(description="With files: the entry file (default 'main.ts').")
    ] = None,
) -> Annotated[CallToolResult, api.DryRun]:
    """Run one turn of a script, judged by the engine, changing nothing: what it returned, its
    ticks, whether the engine would accept it."""
    texts, entry_name = sources(source, files, entry)
    if game is None and (player is not None or android_id is not None):
        raise ApiError(
            "player and android_id only make sense with game; leave them out to use a fresh default world"
        )
    if game is not None and player is None:
        raise ApiError("with game, also give player: a dry run acts as one of your own androids")
    path = folder.existing(game) if game is not None else None
    result = api.dry_run(
        files=texts, entry_name=entry_name, game=path, player=player, android_id=android_id
    )
    action = result.action
    if isinstance(action, dict):
        action = shorten_action(action, DRY_RUN_TEXT_CHARS)
    out = result.model_copy(update={"action": action, "world": "game" if path else "fresh"})
    verdict = (
        "ACCEPT it"
        if out.accepted
        else f"REFUSE it [{out.code}]: {out.reason} (a failed turn costs {points_text(out.penalty)} health)"
    )
    text = (
        f"{out.android_id}, round {out.round}: returned {cut_text(json.dumps(out.action), 300)}; {out.ticks} ticks. "
        f"The engine would {verdict}."
    )
    return reply(out, text)
