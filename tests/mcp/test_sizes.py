"""Outputs stay small enough for an agent's context: under 12,000 characters of text plus
structured JSON for a default game at round 100 (two starter players, their androids and
buildings), with the tools' default arguments."""

from __future__ import annotations

import pytest
from nova_mcp_testing import connect, ok

LIMIT = 12_000


@pytest.mark.parametrize(
    "tool", ["get_world", "get_status", "get_events", "get_android", "list_games"]
)
async def test_a_default_read_of_a_round_100_game_stays_small(starter_game, tool):
    arguments = {
        "get_world": {"game": "duel", "player": "alice"},
        "get_status": {"game": "duel"},
        "get_events": {"game": "duel", "player": "alice"},
        "get_android": {
            "game": "duel",
            "player": "alice",
            "android_id": starter_game.androids["alice"][0],
        },
        "list_games": {},
    }[tool]
    async with connect(starter_game.root) as client:
        reply = await ok(client, tool, **arguments)
    assert reply.size < LIMIT, f"{tool}: {reply.size} characters"


async def test_the_round_100_game_is_a_real_test_of_size(starter_game):
    """The starter has grown: several androids, buildings, a long event log, a recording."""
    async with connect(starter_game.root) as client:
        status = await ok(client, "get_status", game="duel")
        world = await ok(client, "get_world", game="duel", player="alice")
        events = await ok(client, "get_events", game="duel", player="alice")
        android = await ok(
            client,
            "get_android",
            game="duel",
            player="alice",
            android_id=starter_game.androids["alice"][0],
        )
    assert status.data["round"] == 100
    assert len(world.data["yours"]["androids"]) >= 2 and len(world.data["yours"]["buildings"]) >= 2
    assert events.data["total"] > 500 and len(events.data["lines"]) == 20
    assert android.data["recordingLength"] > 1000


async def test_long_memory_and_recordings_are_cut_in_events_and_windowed_in_get_android(
    starter_game,
):
    android = starter_game.androids["alice"][0]
    async with connect(starter_game.root) as client:
        events = await ok(
            client,
            "get_events",
            game="duel",
            player="alice",
            android_id=android,
            limit=100,
            compact=False,
            notes=True,
        )
        full = await ok(
            client, "get_android", game="duel", player="alice", android_id=android, max_chars=16384
        )
        window = await ok(
            client,
            "get_android",
            game="duel",
            player="alice",
            android_id=android,
            max_chars=100,
            recording_offset=10,
        )
    # the log keeps notes as edits of the previous ones; an agent reads them whole, and any long one cut
    actions = [e["action"] for e in events.data["events"] if e.get("action")]
    assert not [k for a in actions for k in a if k.endswith("Edits")]
    notes = [v for a in actions for k, v in a.items() if k in ("memory", "recording")]
    assert notes and all(len(n) < 200 for n in notes)
    assert any(n.endswith("more characters]") for n in notes)
    recording = full.data["recording"]
    newest = [a["recording"] for a in actions if "recording" in a][-1]
    assert recording.startswith(newest.split("... [")[0]), (
        "the newest recording in the log is the android's recording"
    )
    assert len(recording) == full.data["recordingLength"]
    assert window.data["recording"] == recording[10:110] and window.data["recordingOffset"] == 10
    assert window.data["memory"] == full.data["memory"][:100]
