"""The MCP tool get_android: one of the player's own androids, its notes and last turns."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult
from pydantic import Field

from ... import api
from ...api import GameFolder
from ..edge import reply
from ..shaping import at_text, materials_text, points_text, shorten_action
from .common import GameArg, PlayerArg, check_range
from .registry import tool

RECENT_TURNS = 5


@tool("Read one of your androids", read_only=True)
def get_android(
    folder: GameFolder,
    game: GameArg,
    player: PlayerArg,
    android_id: Annotated[
        str,
        Field(description="One of the player's androids, e.g. 'android-1'."),
    ],
    max_chars: Annotated[
        int,
        Field(description="Characters of memory and of recording to show, 100-16384."),
    ] = 3000,
    recording_offset: Annotated[
        int | None,
        Field(description="Where the recording window starts (default: its last max_chars)."),
    ] = None,
) -> Annotated[CallToolResult, api.AndroidReport]:
    """One of the player's own androids: state, cargo, memory, a window of its recording, its
    last turns."""
    check_range("max_chars", max_chars, 100, 16384)
    loaded = api.open_game(folder.existing(game))
    report = api.android_report(loaded, android_id, player=player)
    if not isinstance(report, api.AndroidReport):  # only a peer match record gives less
        raise api.ApiError(f"{game} is a peer match record; its androids are read with get_status")
    memory, recording = report.memory, report.recording
    start = max(0, len(recording) - max_chars) if recording_offset is None else recording_offset
    check_range(
        "recording_offset",
        start,
        0,
        max(0, len(recording)),
        f"the recording has {len(recording)} characters",
    )
    turns = api.events_page(
        loaded, player=player, android=android_id, mine_only=True, offset=None, limit=RECENT_TURNS
    ).events
    detail = report.model_copy(
        update={
            "memory_length": len(memory),
            "recording_length": len(recording),
            "memory": memory[:max_chars],
            "recording": recording[start : start + max_chars],
            "recording_offset": start,
            "recent_turns": tuple(
                api.TurnSummary.of(t, None if t.action is None else shorten_action(t.action))
                for t in (line.event for line in turns)
                if isinstance(t, api.Turn)
            ),
        }
    )
    state = "active" if detail.active else "a wreck"
    lines = [
        f"{android_id} of {player} ({state}, script {detail.script_id}) at {at_text(detail.position)}: "
        f"battery {points_text(detail.battery)}, health {points_text(detail.health)}, cargo {materials_text(detail.cargo)}.",
        f"memory {len(memory)} chars, recording {len(recording)} chars (window {start}-{start + len(detail.recording)}).",
    ]
    lines += [
        f"round {t.round}: {(t.action or {}).get('type', 'no action')} {t.outcome}"
        + (f" [{t.code}] {t.reason}" if t.outcome.failed else "")
        for t in detail.recent_turns or ()
    ]
    # what the description promises, in the text too (a client may show an agent only the text)
    lines += [f"memory (first {len(detail.memory)} chars): {detail.memory}"] if memory else []
    lines += (
        [f"recording {start}-{start + len(detail.recording)}: {detail.recording}"]
        if recording
        else []
    )
    return reply(detail, "\n".join(lines))
