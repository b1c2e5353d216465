"""The event log, and rebuilding a game from it.

A game is its initial world plus the events that happened to it. The log records every input
the engine cannot derive: players joining, scripts uploaded, player launches, and each turn's
judged outcome. Round ends are derived, and recorded for readers. Replaying the log re-applies
exactly those inputs without running any script, and checks that each event comes out the same.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import players
from .actions import _settle
from .refusals import Refusal
from .rounds import Decision, apply_turn, begin_round, end_round, turn_order
from .state import GameState


class ReplayError(ValueError):
    """The event log does not fit the game it claims to describe."""


def _expect(condition: bool, index: int, message: str) -> None:
    if not condition:
        raise ReplayError(f"event {index}: {message}")


class Replayer:
    """Applies logged events one at a time, keeping track of the round in progress."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.pending: list[str] = []  # androids still due a turn in the current round
        self.in_round = False

    def apply(self, index: int, event: dict) -> None:
        state, kind = self.state, event.get("type")
        if kind == "player.joined":
            position = event["position"]
            players.join(state, event["player"], at=(position["x"], position["y"]))
        elif kind == "script.uploaded":
            produced = players.add_script(state, event["player"], event["name"])
            _expect(produced["script"] == event["script"], index, f"script id {event['script']} came out as {produced['script']}")
        elif kind == "android.launched":
            produced = players.launch(state, event["player"], event["script"], event.get("charger"))
            _expect(produced["android"] == event["android"], index, "a launch produced a different android id")
        elif kind == "round.started":
            _expect(not self.in_round, index, "a round starts before the previous one ended")
            begin_round(state)
            _expect(state.round == event["round"], index, f"round {event['round']} recorded, {state.round} expected")
            self.pending = turn_order(state)
            self.in_round = True
        elif kind == "turn":
            self._turn(index, event)
        elif kind == "round.ended":
            _expect(self.in_round, index, "a round ends that never started")
            _expect(not [a for a in self.pending if state.androids[a].active], index, "a round ends before every android acted")
            produced = end_round(state)
            _expect(produced == event, index, "the round end came out differently")
            self.in_round = False
        else:
            raise ReplayError(f"event {index}: unknown event type {kind!r}")

    def _turn(self, index: int, event: dict) -> None:
        state = self.state
        _expect(self.in_round, index, "a turn outside a round")
        while self.pending and not state.androids[self.pending[0]].active:
            self.pending.pop(0)
        _expect(bool(self.pending) and self.pending[0] == event["android"], index, f"{event['android']} acts out of turn")
        self.pending.pop(0)
        if event["outcome"] == "accepted":
            produced = apply_turn(state, event["android"], Decision(value=event["action"], ticks=event["ticks"]))
            _expect(produced == event, index, f"the turn of {event['android']} came out differently")
        else:
            android = state.androids[event["android"]]
            android.health = _settle(android.health - state.rules.android.failed_turn_health_penalty)


def replay(initial: GameState, events: Iterable[dict]) -> GameState:
    """Apply a log to an initial state (changed in place and returned)."""
    replayer = Replayer(initial)
    for index, event in enumerate(events):
        try:
            replayer.apply(index, event)
        except ReplayError:
            raise
        except Refusal as refusal:  # e.g. a logged launch the rules refuse: the log does not fit
            raise ReplayError(f"event {index} ({event.get('type')}) cannot be applied: {refusal.reason}") from None
        except (KeyError, TypeError, ValueError) as error:
            raise ReplayError(f"event {index} ({event.get('type') if isinstance(event, dict) else event!r}) cannot be applied: {error}") from None
    return initial
