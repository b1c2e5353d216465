"""The MCP tool get_events: the event log as one player may read it."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult
from pydantic import Field

from ... import api
from ...api import GameFolder
from ..edge import reply
from ..models import EventOut, EventsPage
from ..shaping import event_line, shorten_event
from .common import GameArg, PlayerArg, check_range
from .registry import tool


@tool("Read the event log", read_only=True)
def get_events(
    folder: GameFolder,
    game: GameArg,
    player: PlayerArg,
    round: Annotated[int | None, Field(description="Only events of this round.")] = None,
    android_id: Annotated[str | None, Field(description="Only this android's turns, its launch, and the round ends that damaged or destroyed it.")] = None,
    failed_only: Annotated[bool, Field(description="Only failed turns (refused, invalid, script errors).")] = False,
    mine_only: Annotated[bool, Field(description="Only turns of the player's own androids.")] = False,
    offset: Annotated[int | None, Field(description="Index of the first matching event to show (default: the newest page).")] = None,
    limit: Annotated[int, Field(description="Events per page, 1-100.")] = 20,
) -> Annotated[CallToolResult, EventsPage]:
    """The event log as the player may read it, newest page first unless offset is given:
    turns (action, outcome, refusal code and reason), launches, round ends. Other players'
    memory, recordings and script errors are redacted."""
    check_range("limit", limit, 1, 100)
    page = api.events_page(
        folder.existing(game),
        player=player,
        round=round,
        android=android_id,
        failed_only=failed_only,
        mine_only=mine_only,
        offset=offset,
        limit=limit,
        notes="whole",
    )
    events = [EventOut(**shorten_event(e)) for e in page.events]
    out = EventsPage(game=game, player=player, total=page.total, offset=page.offset, limit=page.limit, events=events)
    if events:
        lines = [f"{game} as {player}: events {out.offset}-{out.offset + len(events) - 1} of {out.total}"] + [event_line(e) for e in events]
    else:
        filters = {"failed": failed_only, "round": round, "android": android_id, "mine": mine_only, "offset": offset}
        lines = [f"{game} as {player}: {api.wording.nothing_matches(filters, page.log_length, page.total)}"]
    return reply(out, "\n".join(lines))
