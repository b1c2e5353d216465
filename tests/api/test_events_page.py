"""`api.events_page`, the read behind `nova events` and the MCP tool get_events, in this process:
each filter keeps exactly the events it names, pages count from the oldest or (offset None) the
newest, arguments out of range are one sentence, and a player reads other players' notes redacted.
The game is built with the engine (no script runs), so every expected event is known."""

from __future__ import annotations

import pytest
from nova_testing import shown

from nova_tools import api, engine, store
from nova_tools.engine import Scenario
from nova_tools.rules import Rules
from nova_tools.sandbox.build import SANDBOX_BUILD

ROUNDS = 4


def decide(state, android):
    # alice's android waits with a note each round; bob's asks for a direction that does not exist
    # in odd rounds (an invalid turn) and waits with a note in even ones
    if android.owner == "alice" or state.round % 2 == 0:
        return engine.Decision(
            value={"type": "android.wait", "memory": f"{android.owner}-note-{state.round}"}
        )
    return engine.Decision(
        value={"type": "android.move", "direction": "up", "memory": f"bob-note-{state.round}"}
    )


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("events") / "game.json"
    game = store.new_game(path, Rules(), 3, SANDBOX_BUILD)
    for player in ("alice", "bob"):
        events = [engine.join(game.state, player)]
        uploaded = engine.add_script(game.state, player, "bot")
        events += [uploaded, engine.launch(game.state, player, uploaded.script)]
        game.scripts[uploaded.script] = store.StoredScript(
            player, "bot", "0" * 64, "export default () => 1"
        )
        game.record(events)
    for _ in range(ROUNDS):
        game.record(engine.play_round(game.state, decide))
    store.save(game)
    return path


def indexes(page: api.EventsPage) -> list[int]:
    return [e["index"] for e in shown(page)]


def log(game) -> list[dict]:
    return shown(store.load(game))


def test_no_filter_pages_the_whole_log_from_the_oldest(game):
    events = log(game)
    page = api.events_page(game, limit=5)
    assert (page.total, page.offset, page.limit, page.log_length) == (
        len(events),
        0,
        5,
        len(events),
    )
    assert indexes(page) == [0, 1, 2, 3, 4]
    assert [e["type"] for e in shown(page)] == [e["type"] for e in events[:5]]
    assert indexes(api.events_page(game, offset=7, limit=3)) == [7, 8, 9]


def test_offset_none_gives_the_newest_page(game):
    events = log(game)
    page = api.events_page(game, offset=None, limit=4)
    assert page.offset == len(events) - 4 and indexes(page) == list(
        range(len(events) - 4, len(events))
    )
    assert indexes(api.events_page(game, offset=None, limit=500)) == list(
        range(len(events))
    )  # fewer than a page


def test_a_round_keeps_that_rounds_events_only(game):
    page = api.events_page(game, round=2, limit=500)
    expected = [i for i, e in enumerate(log(game)) if e.get("round") == 2]
    assert indexes(page) == expected and page.total == len(expected)
    assert [e["type"] for e in shown(page)] == ["round.started", "turn", "turn", "round.ended"]


def test_an_android_keeps_its_launch_and_its_turns(game):
    page = api.events_page(game, android="android-1", limit=500)
    assert [(e["type"], e.get("round")) for e in shown(page)] == [("android.launched", None)] + [
        ("turn", r) for r in range(1, ROUNDS + 1)
    ]
    assert all(e["android"] == "android-1" for e in shown(page))


def test_failed_only_keeps_the_failed_turns(game):
    page = api.events_page(game, failed_only=True, limit=500)
    assert [(e["android"], e["outcome"], e["round"]) for e in shown(page)] == [
        ("android-2", "invalid", r) for r in (1, 3)
    ]
    assert all("FAILED" in e["text"] for e in shown(page))
    assert api.events_page(game, failed_only=True, android="android-1", limit=500).total == 0


def test_mine_only_keeps_the_players_own_turns(game):
    page = api.events_page(game, player="alice", mine_only=True, limit=500)
    assert [(e["type"], e["android"]) for e in shown(page)] == [("turn", "android-1")] * ROUNDS
    with pytest.raises(
        api.ApiError, match="^mine_only needs the player whose androids are meant$"
    ):  # the whole sentence
        api.events_page(game, mine_only=True)


def test_a_round_range_keeps_the_rounds_between_its_ends_both_included(game):
    """`nova events --from-round 2 --to-round 3`, get_events from_round/to_round: either end may be
    left open; the events outside any round (joins, launches) are not in a range."""
    events = log(game)

    def rounds(**arguments):
        page = api.events_page(game, limit=500, **arguments)
        return sorted({e["round"] for e in shown(page)}), indexes(page)

    assert rounds(from_round=2, to_round=3) == (
        [2, 3],
        [i for i, e in enumerate(events) if e.get("round") in (2, 3)],
    )
    assert (
        rounds(from_round=3)[0] == [3, 4]
        and rounds(to_round=2)[0] == [1, 2]
        and rounds(from_round=2, to_round=2) == rounds(round=2)
    )
    # rounds start at 1: a range ending at round 0 is a page with nothing in it, not a refusal
    assert rounds(to_round=0) == ([], []) and rounds(from_round=0) == rounds(from_round=1)
    with pytest.raises(
        api.ApiError, match=r"^give either round or a range \(from_round, to_round\), not both$"
    ):
        api.events_page(game, round=2, to_round=3)
    with pytest.raises(
        api.ApiError, match="^the round range 3-2 is empty: from_round must not be above to_round$"
    ):
        api.events_page(game, from_round=3, to_round=2)


def test_a_range_open_at_the_top_reaches_the_last_round_of_a_long_game(tmp_path):
    """`nova events --from-round 125` on a 130-round game: the open end is the game's last round."""
    path = tmp_path / "long.json"
    long = store.new_game(path, Rules(), 3, SANDBOX_BUILD)
    long.record([engine.join(long.state, "alice")])
    script = engine.add_script(long.state, "alice", "bot")
    long.record([script, engine.launch(long.state, "alice", script.script)])
    for _ in range(130):
        long.record(
            engine.play_round(
                long.state, lambda state, android: engine.Decision(value={"type": "android.wait"})
            )
        )
    page = api.events_page(long, from_round=125, action="wait", limit=500)
    assert [e["round"] for e in shown(page)] == list(range(125, 131))


def test_an_action_type_or_an_outcome_keeps_those_turns_only(game):
    """`nova events --action wait --outcome invalid`, get_events action_type/outcome: bob's odd
    rounds ask for a direction that does not exist (invalid turns, which log no action: not a
    move); every other turn waits and is accepted."""

    def turns(**arguments):
        return [
            (e["android"], e["round"]) for e in shown(api.events_page(game, limit=500, **arguments))
        ]

    bobs_invalid = [("android-2", 1), ("android-2", 3)]
    assert (
        turns(outcome="invalid") == bobs_invalid
        and turns(action="move") == turns(action="android.move") == []
    )
    every_turn = [(e["android"], e["round"]) for e in log(game) if e["type"] == "turn"]
    assert (
        turns(outcome="accepted")
        == turns(action="wait")
        == turns(action="android.wait")
        == [t for t in every_turn if t not in bobs_invalid]
    )
    assert turns(outcome="refused") == [] and turns(action="wait", outcome="invalid") == []
    with pytest.raises(
        api.ApiError,
        match="^'fly' is not an action type; the types are android.wait, android.move, .*, android.dismantle$",
    ):
        api.events_page(game, action="fly")
    with pytest.raises(
        api.ApiError, match="^'won' is not an outcome; a turn is accepted, refused, invalid, error$"
    ):
        api.events_page(game, outcome="won")


def test_notes_none_leaves_each_turns_notes_out_and_the_rest_of_it_in(game):
    """`nova events` without --notes, get_events by default: a turn's action without the memory
    and recording it carried (most of a turn's size), everything else as logged."""

    def turns(**arguments):
        return {
            (e["android"], e["round"]): e
            for e in shown(api.events_page(game, limit=500, **arguments))
            if e["type"] == "turn"
        }

    logged, bare = turns(), turns(notes="none")
    assert bare["android-1", 2]["action"] == {"type": "android.wait"} and set(
        logged["android-1", 2]["action"]
    ) > {"type"}
    assert (
        bare["android-2", 1] == logged["android-2", 1]
    )  # an invalid turn carries no action: left as it is
    assert {k: v for k, v in bare["android-1", 2].items() if k != "action"} == {
        k: v for k, v in logged["android-1", 2].items() if k != "action"
    }


def test_a_filter_that_matches_nothing_is_an_empty_page_in_every_notes_form(game):
    """`nova events --round 99 --notes` on a 4-round game: an empty page, not a crash (the whole
    notes are followed along the log only as far as the last event shown)."""
    for notes in ("logged", "whole", "none"):
        page = api.events_page(game, round=99, notes=notes)
        assert (page.total, shown(page), page.log_length) == (0, [], len(log(game)))


def test_a_player_reads_her_own_notes_and_the_others_redacted(game):
    def turns(page):
        return {(e["android"], e["round"]): e for e in shown(page) if e["type"] == "turn"}

    hers = turns(api.events_page(game, player="alice", limit=500, notes="whole"))
    assert hers["android-1", 2]["action"] == {"type": "android.wait", "memory": "alice-note-2"}
    assert hers["android-2", 2]["action"] == {"type": "android.wait", "memory": "[Redacted]"}
    assert (
        hers["android-2", 1]["reason"] == "[Redacted]"
    )  # a script chooses what it returns: its error text may carry notes
    everyone = turns(api.events_page(game, limit=500, notes="whole"))
    assert (
        everyone["android-2", 2]["action"]["memory"] == "bob-note-2"
        and everyone["android-2", 1]["reason"] != "[Redacted]"
    )


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        (dict(limit=0), "limit must be between 1 and 500, not 0"),
        (dict(limit=501), "limit must be between 1 and 500, not 501"),
        (dict(offset=-1), "offset must not be negative, not -1"),
        (dict(player="mallory"), "mallory"),
    ],
)
def test_arguments_out_of_range_are_one_sentence(game, arguments, says):
    with pytest.raises(api.USER_ERRORS, match=says):
        api.events_page(game, **arguments)


def test_an_androids_events_end_with_the_round_ends_that_hurt_or_destroyed_it(tmp_path):
    """`nova events --android` and `nova android`: the round ends that hurt an android (a hazard)
    or destroyed it are its events too, and say how a wreck fell."""
    world = Scenario(Rules(), width=6, height=6)
    world.player("alice", charger_at=(0, 0))
    world.player("bob", charger_at=(5, 5))
    world.script("alice")
    world.script("bob")
    world.tile(2, 2, radiation=2)
    hurt = world.android("alice", (2, 2))  # on radiation every round
    falls = world.android("bob", (4, 4), health=0.1)  # decays to nothing at the end of round 1
    path = tmp_path / "game.json"
    game = store.new_game(path, Rules(), 0, SANDBOX_BUILD, initial=world.build())
    for _ in range(2):
        game.record(
            engine.play_round(
                game.state, lambda state, android: engine.Decision(value={"type": "android.wait"})
            )
        )
    store.save(game)

    def seen(android):
        return [
            (e["type"], e["round"])
            for e in shown(api.events_page(path, android=android, limit=500))
        ]

    assert seen(hurt) == [("turn", 1), ("round.ended", 1), ("turn", 2), ("round.ended", 2)]
    assert seen(falls) == [("turn", 1), ("round.ended", 1)]
    assert api.android_fall(path, falls) == "destroyed at the end of round 1: health ran out"
    assert api.android_fall(path, hurt) is None  # hurt, not fallen
