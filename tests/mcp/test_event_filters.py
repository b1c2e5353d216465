"""get_events as an agent reads a long game: filtered by round range, android, action type and
outcome, notes left out unless asked, and one line per event by default, so a page of 100 events
costs at most a third of what it did (the full form with notes, still there with compact=false,
notes=true). `nova events` filters the same way: tests/cli/test_history_and_events.py."""

from __future__ import annotations

import re

from nova_mcp_testing import call, connect, ok


async def _everything(client, **filters) -> list[dict]:
    """Every event alice may read, in full, page by page."""
    events, offset = [], 0
    while True:
        page = await ok(
            client,
            "get_events",
            game="duel",
            player="alice",
            offset=offset,
            limit=100,
            compact=False,
            **filters,
        )
        events += page.data["events"]
        offset += 100
        if offset >= page.data["total"]:
            return events


def _indexes(lines: list[str]) -> list[int]:
    return [int(re.match(r"#(\d+) ", line).group(1)) for line in lines]


async def test_a_compact_page_of_100_events_is_at_most_a_third_of_the_full_one(starter_game):
    async with connect(starter_game.root) as client:
        before = await ok(
            client, "get_events", game="duel", player="alice", limit=100, compact=False, notes=True
        )
        compact = await ok(client, "get_events", game="duel", player="alice", limit=100)

    assert len(before.data["events"]) == len(compact.data["lines"]) == 100
    assert compact.size * 3 <= before.size, (compact.size, before.size)
    assert (
        compact.size < 150 * 100
    )  # under 150 characters an event, text and structured content together
    # the same events, in the same words the full form gives
    assert _indexes(compact.data["lines"]) == [e["index"] for e in before.data["events"]]
    assert [line.split(" ", 1)[1] for line in compact.data["lines"]] == [
        e["text"] for e in before.data["events"]
    ]
    assert compact.text.splitlines()[1:] == compact.data["lines"]
    # and no notes in it: the starter's memory is a JSON object it writes every turn
    assert '\\"v\\":' not in compact.everything() and '"v":' not in compact.everything()
    assert "memory" in before.everything()


async def test_each_filter_keeps_exactly_the_events_it_names(starter_game):
    android = starter_game.androids["alice"][0]
    async with connect(starter_game.root) as client:
        every = await _everything(client)
        asked = {
            "range": {"from_round": 40, "to_round": 42},
            "from": {"from_round": 98},
            "to": {"to_round": 1},
            "android": {"android_id": android},
            "moves": {"action_type": "move"},
            "moves-long": {"action_type": "android.move"},
            "accepted constructions of one android in a range": {
                "action_type": "continue-construction",
                "outcome": "accepted",
                "android_id": android,
                "from_round": 10,
                "to_round": 90,
            },
            "refused": {"outcome": "refused"},
        }
        got = {
            name: await ok(
                client, "get_events", game="duel", player="alice", offset=0, limit=100, **filters
            )
            for name, filters in asked.items()
        }

    def expect(keep) -> list[int]:
        return [e["index"] for e in every if keep(e)]

    turn = lambda e, kind: e["type"] == "turn" and e["action"]["type"] == kind  # noqa: E731
    expected = {
        "range": expect(lambda e: 40 <= e.get("round", -1) <= 42),
        "from": expect(lambda e: e.get("round", -1) >= 98),
        "to": expect(
            lambda e: "round" in e and e["round"] <= 1
        ),  # joins, uploads, launches have no round
        # its turns and launch, and the round ends that hurt or destroyed it
        "android": expect(
            lambda e: (
                e.get("android") == android
                or (
                    e["type"] == "round.ended"
                    and (
                        android in e.get("destroyed", ())
                        or any(h.get("android") == android for h in e.get("hazards", ()))
                    )
                )
            )
        ),
        "moves": expect(lambda e: turn(e, "android.move")),
        "moves-long": expect(lambda e: turn(e, "android.move")),
        "accepted constructions of one android in a range": expect(
            lambda e: (
                turn(e, "android.continue-construction")
                and e["outcome"] == "accepted"
                and e["android"] == android
                and 10 <= e["round"] <= 90
            )
        ),
        "refused": expect(lambda e: e["type"] == "turn" and e["outcome"] == "refused"),
    }
    for name, indexes in expected.items():
        page = got[name].data
        assert page["total"] == len(indexes), name
        assert _indexes(page["lines"]) == indexes[:100], name
    # the filters are not vacuous on this game
    assert all(
        len(expected[n]) > 0
        for n in (
            "range",
            "from",
            "to",
            "android",
            "moves",
            "accepted constructions of one android in a range",
        )
    )
    assert len(expected["range"]) < len(every) and len(expected["moves"]) < len(
        [e for e in every if e["type"] == "turn"]
    )


async def test_notes_come_only_when_asked_and_bad_filters_are_one_sentence(starter_game):
    async with connect(starter_game.root) as client:
        plain = await ok(
            client,
            "get_events",
            game="duel",
            player="alice",
            compact=False,
            mine_only=True,
            limit=5,
        )
        noted = await ok(
            client,
            "get_events",
            game="duel",
            player="alice",
            compact=False,
            mine_only=True,
            limit=5,
            notes=True,
        )
        wrong = {
            "action": await call(
                client, "get_events", game="duel", player="alice", action_type="fly"
            ),
            "outcome": await call(client, "get_events", game="duel", player="alice", outcome="won"),
            "both": await call(
                client, "get_events", game="duel", player="alice", round=3, from_round=2
            ),
            "empty": await call(
                client, "get_events", game="duel", player="alice", from_round=9, to_round=3
            ),
            "notes": await call(client, "get_events", game="duel", player="alice", notes=True),
        }
        nothing = await ok(
            client,
            "get_events",
            game="duel",
            player="alice",
            action_type="salvage",
            outcome="refused",
            from_round=200,
        )
    assert not [
        e for e in plain.data["events"] if {"memory", "recording"} & set(e.get("action", {}))
    ]
    # the starter writes its memory every turn (and keeps no recording): asked for, it comes along
    assert all("memory" in e["action"] for e in noted.data["events"])
    assert (
        wrong["action"].error
        and "'fly' is not an action type; the types are android.wait, android.move"
        in wrong["action"].text
    )
    assert (
        wrong["outcome"].error
        and "'won' is not an outcome; a turn is accepted, refused, invalid, error"
        in wrong["outcome"].text
    )
    assert wrong["both"].error and "either round or a range" in wrong["both"].text
    assert wrong["empty"].error and "the round range 9-3 is empty" in wrong["empty"].text
    assert wrong["notes"].error and "pass compact=false with notes=true" in wrong["notes"].text
    assert (
        nothing.data["lines"] == []
        and "No refused salvage turns from round 200 on (the log holds" in nothing.text
    )
