"""The MCP tool get_events: the event log as one player may read it, filtered, compact by default."""

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
    from_round: Annotated[
        int | None,
        Field(
            description="Only events from this round on (with to_round: a range, both included)."
        ),
    ] = None,
    to_round: Annotated[int | None, Field(description="Only events up to this round.")] = None,
    android_id: Annotated[
        str | None,
        Field(
            description="Only this android's turns, its launch, and the round ends that damaged or destroyed it."
        ),
    ] = None,
    action_type: Annotated[
        str | None,
        Field(description="Only turns that chose this action, e.g. 'android.move' or 'move'."),
    ] = None,
    outcome: Annotated[
        str | None,
        Field(description="Only turns with this outcome: accepted, refused, invalid or error."),
    ] = None,
    failed_only: Annotated[
        bool, Field(description="Only failed turns (refused, invalid, script errors).")
    ] = False,
    mine_only: Annotated[
        bool, Field(description="Only turns of the player's own androids.")
    ] = False,
    offset: Annotated[
        int | None,
        Field(description="Index of the first matching event to show (default: the newest page)."),
    ] = None,
    limit: Annotated[int, Field(description="Events per page, 1-100.")] = 20,
    compact: Annotated[
        bool,
        Field(
            description="One line per event (default). false: each event in full (action fields, results, ticks)."
        ),
    ] = True,
    notes: Annotated[
        bool,
        Field(
            description="With compact=false: also each turn's memory and recording (cut to 120 characters; get_android shows them whole)."
        ),
    ] = False,
) -> Annotated[CallToolResult, EventsPage]:
    """The event log as the player may read it, newest page first unless offset is given:
    turns (action, outcome, refusal code and reason), launches, round ends, one line each.
    Filter by round or round range, android, action type, outcome, failed or own turns. Other
    players' memory, recordings and script errors are redacted."""
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
    events = [EventOut(**shorten_event(e)) for e in page.events]
    lines = [event_line(e) for e in events]
    out = EventsPage(
        game=game,
        player=player,
        total=page.total,
        offset=page.offset,
        limit=page.limit,
        events=None if compact else events,
        lines=lines if compact else None,
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
