"""get_events names each android's owner in its lines ("#97 r16 alice's android-4 started an
extractor site ..."), for the reader's androids and the other player's alike (every launch is in
the log under its player, so whose android is whose is no secret), while the other player's notes
stay redacted. `nova events` says the same: tests/cli/test_history_and_events.py."""

from __future__ import annotations

import re

from nova_mcp_testing import connect, ok

TURN = re.compile(r"#\d+ r\d+ (\w+)'s (android-\d+) ")


async def test_every_turn_line_names_whose_android_acted(starter_game):
    async with connect(starter_game.root) as client:
        status = await ok(client, "get_status", game="duel")
        lines = (
            await ok(
                client,
                "get_events",
                game="duel",
                player="alice",
                from_round=1,
                to_round=3,
                limit=100,
            )
        ).data["lines"]
        owned_by = {}
        for player in ("alice", "bob"):
            mine = await ok(
                client, "get_events", game="duel", player=player, mine_only=True, limit=100
            )
            for line in mine.data["lines"]:
                if (found := TURN.match(line)) is not None:
                    owned_by[found.group(2)] = found.group(1)
                    assert found.group(1) == player, line
    assert {p["id"] for p in status.data["players"]} == {"alice", "bob"}
    turns = [line for line in lines if " round " not in line and " launched " not in line]
    assert turns
    for line in turns:
        found = TURN.match(line)
        assert found is not None, f"a turn line without its android's owner: {line}"
        assert owned_by.get(found.group(2), found.group(1)) == found.group(1)
    # both players' androids are named, as alice reads the log
    assert {TURN.match(line).group(1) for line in turns} == {"alice", "bob"}
    assert starter_game.androids["alice"][0] in owned_by


async def test_owner_names_leak_no_notes_of_the_other_player(starter_game):
    bob = starter_game.androids["bob"][0]
    async with connect(starter_game.root) as client:
        page = await ok(
            client,
            "get_events",
            game="duel",
            player="alice",
            android_id=bob,
            from_round=2,
            compact=False,
            notes=True,
            limit=5,
        )
        lines = (
            await ok(client, "get_events", game="duel", player="alice", android_id=bob, limit=5)
        ).data["lines"]
    for line in lines:
        assert line.split(" ", 2)[2].startswith(f"bob's {bob} ") or " launched " in line, line
    turns = [e for e in page.data["events"] if e["type"] == "turn"]
    assert turns
    for event in turns:
        assert event["text"].startswith(f"r{event['round']} bob's {bob} ")
    memories = [(e.get("action") or {}).get("memory") for e in turns]
    assert "[Redacted]" in memories and set(memories) <= {None, "[Redacted]"}, memories
