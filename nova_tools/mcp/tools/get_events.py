"""The MCP tool get_events: the event log as one player may read it, filtered, compact by default."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult
from pydantic import Field

from ... import api
from ...api import GameFolder
from ..edge import reply
from ..shaping import event_line, shorten_event
from .common import GameArg, PlayerArg, check_range
from .registry import tool


@tool("Read the event log", read_only=True)
def get_events(
    folder: GameFolder,
    game: GameArg,
    player: PlayerArg,
    round: Annotated[int | None, Field(description="Only events of this round.")] = None,
    from_round: Annotated[
        int | None,
        Field(description="Only from this round on (to_round: up to, both included)."),
    ] = None,
    to_round: Annotated[int | None, Field(description="Only up to this round.")] = None,
    android_id: Annotated[
        str | None,
        Field(description="Only this android's turns, launch and damage."),
    ] = None,
    action_type: Annotated[
        str | None,
        Field(description="Only turns of this action, e.g. 'move'."),
    ] = None,
    outcome: Annotated[
        str | None,
        Field(description="accepted, refused, invalid or error."),
    ] = None,
    failed_only: Annotated[bool, Field(description="Only failed turns.")] = False,
    mine_only: Annotated[bool, Field(description="Only your androids' turns.")] = False,
    offset: Annotated[
        int | None,
        Field(description="First matching event to show (default: the newest page)."),
    ] = None,
    limit: Annotated[int, Field(description="Events per page, 1-100.")] = 20,
    compact: Annotated[
        bool,
        Field(description="One line per event; false: each event in full."),
    ] = True,
    notes: Annotated[
        bool,
        Field(description="With compact=false: also memory and recording (cut to 120 characters)."),
    ] = False,
) -> Annotated[CallToolResult, api.EventsPage]:
    """The event log as the player may read it, one line each (newest page unless offset):
    turns with outcome and reason, launches, round ends; each android named with its owner.
    Others' memory, recordings and errors are redacted."""
    check_range("limit", limit, 1, 100)
    if notes and compact:
        raise api.ApiError(
            "notes are shown with each event in full: pass compact=false with notes=true"
        )
    page = api.events_page(
        folder.existing(game),
        player=player,
        round=round,
        from_round=from_round,
        to_round=to_round,
        android=android_id,
        action=action_type,
        outcome=outcome,
        failed_only=failed_only,
        mine_only=mine_only,
        offset=offset,
        limit=limit,
        notes="whole" if notes else "none",
    )
    events = tuple(shorten_event(e) for e in page.events)
    lines = tuple(event_line(e) for e in events)
    out = page.model_copy(
        update={"events": () if compact else events, "lines": lines if compact else None}
    )
    if events:
        header = (
            f"{game} as {player}: events {out.offset}-{out.offset + len(events) - 1} of {out.total}"
        )
    else:
        filters = {
            "failed": failed_only,
            "round": round,
            "from_round": from_round,
            "to_round": to_round,
            "android": android_id,
            "action": action_type,
            "outcome": outcome,
            "mine": mine_only,
            "offset": offset,
        }
        header = f"{game} as {player}: {api.wording.nothing_matches(filters, page.log_length, page.total)}"
    return reply(out, "\n".join([header, *lines]))
