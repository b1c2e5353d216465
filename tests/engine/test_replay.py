"""Rebuilding a game from its event log, and refusing a log that does not fit the game."""

from __future__ import annotations

import copy

import determinism_game
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nova_tools.engine import (
    Outcome,
    ReplayError,
    Turn,
    from_json,
    log_from_json,
    replay,
    state_hash,
    to_json,
)


@pytest.fixture(scope="module")
def game():
    """The log as a game file holds it (JSON objects, which a test may tamper with), its final
    state hash and the initial world."""
    events, digest, initial = determinism_game.play(5, 25)
    return [e.to_json() for e in events], digest, initial


def replayed(initial: dict, log: list[dict], rules_=None):
    """``log`` read as a game file's log is read (engine.log_from_json), then replayed."""
    return replay(from_json(initial, rules_ or rules()), log_from_json(copy.deepcopy(log)))


def rules():
    from nova_tools.rules import resolve

    return resolve({"android": {"failedTurnHealthPenalty": 1}})


def test_replay_rebuilds_the_same_state(game) -> None:
    log, digest, initial = game
    assert state_hash(replayed(initial, log)) == digest


def live_states(initial: dict, log: list[dict]):
    """The live game re-driven step by step with the engine's own functions (not replay), yielding
    the state after every event: what a player would have seen at that moment."""
    from nova_tools.engine import (
        Decision,
        add_script,
        apply_turn,
        begin_round,
        end_round,
        join,
        launch,
    )

    state = from_json(initial, rules())
    for event in log:
        kind = event["type"]
        if kind == "player.joined":
            join(state, event["player"], at=(event["position"]["x"], event["position"]["y"]))
        elif kind == "script.uploaded":
            add_script(state, event["player"], event["name"])
        elif kind == "android.launched":
            launch(state, event["player"], event["script"], event.get("charger"))
        elif kind == "round.started":
            begin_round(state)
        elif kind == "round.ended":
            end_round(state)
        elif event["outcome"] == "accepted":
            apply_turn(state, event["android"], Decision(value=event["action"]))
        else:
            apply_turn(state, event["android"], Decision(error="replayed failure"))
        yield state


@pytest.mark.parametrize(
    "where", ["after a round end", "inside a round", "after a launch", "after setup"]
)
def test_replay_stops_midway_at_the_state_of_that_moment(game, where) -> None:
    """A log cut anywhere replays to the state of that moment — visibility included, which is
    derived (not hashed) and is what the next fogged view is built from."""
    log, _, initial = game
    ends = [i for i, e in enumerate(log) if e["type"] == "round.ended"]
    cut = {
        "after a round end": ends[9] + 1,
        "inside a round": ends[9] + 3,
        "after a launch": max(i for i, e in enumerate(log) if e["type"] == "android.launched") + 1,
        "after setup": 1,
    }[where]
    partial = replayed(initial, log[:cut])
    *_, live = live_states(initial, log[:cut])
    assert state_hash(partial) == state_hash(live)
    assert partial.visible == live.visible
    again = (
        replayed(copy.deepcopy(to_json(partial)), log[cut:]) if where != "inside a round" else None
    )
    if again is not None:
        assert state_hash(again) == game[1]


def _tampered(log: list[dict], index: int, change) -> list[dict]:
    log = copy.deepcopy(log)
    change(log[index])
    return log


def _first(log, predicate) -> int:
    return next(i for i, e in enumerate(log) if predicate(e))


@pytest.mark.parametrize(
    ("what", "find", "change", "says"),
    [
        (
            "an accepted move that went elsewhere",
            lambda e: e.get("outcome") == "accepted" and e["action"]["type"] == "android.move",
            lambda e: e["result"].update(to={"x": 99, "y": 99}),
            "came out differently",
        ),
        (
            "a launch of a script the player does not have",
            lambda e: e["type"] == "android.launched",
            lambda e: e.update(script="script-77"),
            "script-77",
        ),
        (
            "a turn by the wrong android",
            lambda e: e["type"] == "turn",
            lambda e: e.update(android="android-4" if e["android"] != "android-4" else "android-1"),
            "out of turn",
        ),
        (
            "an unknown event",
            lambda e: e["type"] == "round.started",
            lambda e: e.update(type="round.begun"),
            "unknown event type",
        ),
        (
            "a wrong round number",
            lambda e: e["type"] == "round.started",
            lambda e: e.update(round=7),
            "round 7 recorded",
        ),
        (
            "a round end that destroyed someone else",
            lambda e: e["type"] == "round.ended",
            lambda e: e.update(destroyed=["android-1"]),
            "round end came out differently",
        ),
    ],
    ids=lambda v: v if isinstance(v, str) and " " in v else "",
)
def test_a_log_that_does_not_fit_is_refused_with_its_index(game, what, find, change, says) -> None:
    log, _, initial = game
    index = _first(log, find)
    with pytest.raises(ReplayError) as caught:
        replayed(initial, _tampered(log, index, change))
    message = str(caught.value)
    assert message.startswith(f"event {index}"), message
    assert says in message, message


def test_a_log_cut_inside_a_round_is_refused_at_the_round_end(game) -> None:
    log, _, initial = game
    start = _first(log, lambda e: e["type"] == "round.started")
    first_turn = start + 1
    with pytest.raises(ReplayError) as caught:
        replayed(initial, log[:first_turn] + log[first_turn + 1 :])
    assert "out of turn" in str(caught.value) or "before every android acted" in str(caught.value)


def test_a_log_joining_two_players_on_one_tile_is_refused(game) -> None:
    log, _, initial = game
    first, second = [i for i, e in enumerate(log) if e["type"] == "player.joined"][:2]
    tampered = _tampered(log, second, lambda e: e.update(position=dict(log[first]["position"])))
    with pytest.raises(ReplayError) as caught:
        replayed(initial, tampered)
    assert str(caught.value).startswith(f"event {second} (player.joined) cannot be applied: ")
    assert "already holds a building" in str(caught.value)


def test_stepping_a_replayer_gives_the_live_state_after_every_event(game) -> None:
    """Tools that draw a game frame by frame (the board view) step a Replayer and look at the
    state between events: after each one it is the live state, visibility included."""
    from nova_tools.engine.replay import Replayer

    log, _, initial = game
    stepped = Replayer(from_json(initial, rules()))
    for index, (event, live) in enumerate(zip(log, live_states(initial, log), strict=True)):
        stepped.apply(index, log_from_json([event])[0])
        if event["type"] in ("round.ended", "android.launched", "player.joined"):
            assert stepped.state.visible == live.visible, index
            assert state_hash(stepped.state) == state_hash(live), index


def test_a_log_that_turns_an_accepted_move_into_a_refusal_does_not_replay(game) -> None:
    log, _, initial = game
    tampered = copy.deepcopy(log)
    index, event = next(
        (i, e)
        for i, e in enumerate(tampered)
        if e["type"] == "turn"
        and e["outcome"] == "accepted"
        and e["action"]["type"] == "android.move"
    )
    event.pop("result", None)
    event.update(
        outcome="refused", code="no-battery", reason="a move costs 1 battery and only 0 is left"
    )
    with pytest.raises(
        ReplayError, match=f"event {index}: the turn of {event['android']} came out differently"
    ):
        replayed(initial, tampered)


def test_a_log_that_claims_a_refusal_the_rules_do_not_make_does_not_replay() -> None:
    from nova_tools.engine import Decision, Scenario, apply_turn, begin_round

    scenario = Scenario(width=4, height=4)
    scenario.player("alice", charger_at=(0, 0))
    bot = scenario.android("alice", at=(0, 0))
    state = scenario.build()
    initial = to_json(state)
    events = [
        begin_round(state),
        apply_turn(state, bot, Decision(value={"type": "android.move", "direction": "north"})),
    ]
    assert events[1].outcome is Outcome.REFUSED and events[1].action == {
        "type": "android.move",
        "direction": "north",
    }
    replay(from_json(initial, state.rules), events)  # the honest log replays
    log = [e.to_json() for e in events]
    log[1]["action"] = {**log[1]["action"], "direction": "south"}  # accepted, claimed refused
    with pytest.raises(ReplayError, match="event 1"):
        replayed(initial, log, state.rules)


def test_notes_that_repeat_what_the_android_holds_are_not_logged_again() -> None:
    from nova_tools.engine import Decision, Scenario, apply_turn, begin_round, end_round

    scenario = Scenario(width=4, height=4)
    scenario.player("alice", charger_at=(0, 0))
    bot = scenario.android("alice", at=(1, 1))
    state = scenario.build()
    initial = to_json(state)
    log = []
    for memory, recording in (("plan A", "log 1"), ("plan A", "log 1"), ("plan B", "log 1")):
        log.append(begin_round(state))
        log.append(
            apply_turn(
                state,
                bot,
                Decision(value={"type": "android.wait", "memory": memory, "recording": recording}),
            )
        )
        log.append(end_round(state))
    actions = [e.action for e in log if isinstance(e, Turn)]
    assert actions == [
        {"type": "android.wait", "memory": "plan A", "recording": "log 1"},
        {"type": "android.wait"},
        {"type": "android.wait", "memory": "plan B"},
    ]
    rebuilt = replay(from_json(initial, state.rules), log)
    assert (rebuilt.androids[bot].memory, rebuilt.androids[bot].recording) == ("plan B", "log 1")
    assert state_hash(rebuilt) == state_hash(state)


_LINES = st.lists(st.text(alphabet="abc ()12,\n", min_size=0, max_size=40), max_size=12)


@settings(max_examples=300, deadline=None)
@given(old=_LINES, new=_LINES, dropped=st.integers(0, 5))
def test_a_note_logged_as_a_change_expands_back_to_the_whole_note(old, new, dropped) -> None:
    from nova_tools.engine.notes import compact, expand

    before = "\n".join(old)
    for after in ("\n".join(new), "\n".join(old[dropped:] + new), before + "\n".join(new)):
        logged = compact("recording", before, after)
        assert expand(before, logged, "recording") == (None if after == before else after)
        assert len(str(logged)) <= len(repr(after)) + 40  # never much bigger than the whole note


def _a_move(e) -> bool:
    return e.get("outcome") == "accepted" and e["action"]["type"] == "android.move"


@pytest.mark.parametrize(
    ("what", "change"),
    [
        ("a direction no move has", lambda a: a.update(direction="up")),
        ("a direction that is not text", lambda a: a.update(direction=1)),
        ("a field no move has", lambda a: a.update(speed=2)),
        ("a field under its Python name", lambda a: a.update(androidId="android-1")),
        ("a memory that is not text", lambda a: a.update(memory=7)),
        ("an object where text belongs", lambda a: a.update(direction={"to": "north"})),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_a_form_of_an_action_seen_before_is_judged_again_when_changed(game, what, change) -> None:
    """Replay reuses what it parsed of each exact action form (a move north, a deposit of the
    same cargo); the same log replayed first (so every honest form is known) and then changed in
    one action is still refused where that action is."""
    log, digest, initial = game
    assert state_hash(replayed(initial, log)) == digest
    index = _first(log, _a_move)
    with pytest.raises(ReplayError) as caught:
        replayed(initial, _tampered(log, index, lambda e: change(e["action"])))
    assert str(caught.value).startswith(f"event {index}"), str(caught.value)


def test_a_move_logged_as_another_known_move_does_not_replay(game) -> None:
    """Both moves' forms are known after one replay: swapping the direction of one is refused
    (the android would have gone elsewhere)."""
    log, digest, initial = game
    replayed(initial, log)
    index = _first(log, _a_move)
    turned = {"north": "south", "south": "north", "east": "west", "west": "east"}
    tampered = _tampered(
        log, index, lambda e: e["action"].update(direction=turned[e["action"]["direction"]])
    )
    with pytest.raises(ReplayError, match=f"event {index}"):
        replayed(initial, tampered)
