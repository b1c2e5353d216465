"""How get_events (and dry_run_turn) show a turn to an agent: a memory or recording longer than
120 characters is cut with a note of how much more there is (get_android shows it whole), every
other field and every shorter note is left as it is, and each event's line is its index and its
words, cut at 300 characters. tests/mcp/test_sizes.py sees the same on a 100-round starter game;
this says it without one, so the mutation run can afford it (docs/mutation.md)."""

from __future__ import annotations

from nova_tools import api
from nova_tools.mcp.shaping import (
    EVENT_LINE_CHARS,
    EVENT_TEXT_CHARS,
    event_line,
    shorten_action,
    shorten_event,
)

LONG = "m" * (EVENT_TEXT_CHARS + 30)


def a_turn(**action) -> api.EventLine:
    turn = api.Turn(3, "android-1", 0, api.Outcome.ACCEPTED, {"type": "android.wait", **action})
    return api.EventLine(turn, "r3 android-1 waited", 7)


def test_a_long_memory_or_recording_is_cut_with_how_much_more_there_is():
    shown = shorten_event(a_turn(memory=LONG, recording="r" * EVENT_TEXT_CHARS)).event.action
    assert shown["memory"] == "m" * EVENT_TEXT_CHARS + "... [30 more characters]"
    assert shown["recording"] == "r" * EVENT_TEXT_CHARS  # exactly at the limit: whole
    assert shown["type"] == "android.wait"


def test_only_the_notes_are_cut_and_the_event_read_is_left_whole():
    line = a_turn(memory=LONG, content=LONG)  # a broadcast's content is not a note
    shown = shorten_event(line)
    assert shown.event.action["content"] == LONG
    assert {k: v for k, v in shown.to_json().items() if k != "action"} == {
        k: v for k, v in line.to_json().items() if k != "action"
    }
    assert line.event.action["memory"] == LONG  # the page it came from is untouched
    ended = api.EventLine(api.RoundEnded(3), "r3 round ended", 9)
    assert shorten_event(ended) is ended
    assert (
        shorten_event(a_turn(memory=None)).event.action["memory"] is None
    )  # not text: nothing to cut


def test_a_dry_run_shows_up_to_its_own_limit():
    assert shorten_action({"memory": LONG}, 1000)["memory"] == LONG


def test_an_events_line_is_its_index_and_its_words_cut_at_300_characters():
    started = api.RoundStarted(3)
    assert (
        event_line(api.EventLine(started, "r3 android-1 collected 5 metal", 12))
        == "#12 r3 android-1 collected 5 metal"
    )
    assert event_line(api.EventLine(started, "", 4)) == "#4 round.started"  # no words: the type
    long = "x" * (EVENT_LINE_CHARS + 1)
    assert (
        event_line(api.EventLine(started, long, 0))
        == "#0 " + "x" * EVENT_LINE_CHARS + "... [1 more characters]"
    )
    assert event_line(api.EventLine(started, long[:-1], 0)) == "#0 " + long[:-1]
