"""Rebuilding a game from its event log.

The log records every input the engine cannot derive: players joining, scripts uploaded, player
launches, and each turn's judged outcome. Round ends are derived, and recorded for readers.
Replaying the log re-applies exactly those inputs without running any script, and checks that
each event comes out the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from ..limits import NOTE_KEYS, NOTES
from . import players
from .events import (
    AndroidLaunched,
    Event,
    PlayerJoined,
    ReplayError,
    RoundEnded,
    RoundStarted,
    ScriptUploaded,
    Turn,
)
from .notes import expand
from .reasons import Outcome, Reason
from .refusals import Refusal
from .rounds import (
    Decision,
    apply_turn,
    begin_round,
    charge_failed_turn,
    resolve_round_end,
    turn_order,
    verdict,
)
from .state import Android, GameState
from .visibility import recompute
from .wire import ACTION_ADAPTER, AnyAction

# Refusals of an action's memory or recording: the log does not keep those notes, so the replay
# takes the recorded verdict (the penalty is all such a turn does).
_NOTE_REFUSALS = (Reason.MEMORY_TOO_LONG, Reason.RECORDING_TOO_LONG)


# Details the engine added to its events after game files were first written (what a turn did,
# by action type; what a round end produced and why an android fell). A log written before lacks
# them and still replays: a produced event fits a logged one that lacks exactly these fields.
LATER_RESULT_FIELDS = {
    "android.deposit": frozenset({"buildingType"}),
    "android.withdraw": frozenset({"buildingType"}),
    "android.start-construction": frozenset({"owed", "remainingTicks"}),
    "android.continue-construction": frozenset({"buildingType", "owed", "remainingTicks"}),
    "android.salvage": frozenset({"buildingType", "owner", "tile"}),
    "android.repair": frozenset({"buildingType", "repaired", "paid"}),
    "android.clean-acid": frozenset({"acidLeft"}),
}
LATER_ROUND_END_FIELDS = ("production", "hazards", "causes")  # None in an older log's round end


def fits(produced: Event, logged: Event) -> bool:
    """Whether a replayed event matches the logged one, allowing for a log written before the
    later details (fields named above that the logged event lacks)."""
    if produced == logged:
        return True
    if type(produced) is RoundEnded and type(logged) is RoundEnded:
        return (
            produced.round == logged.round
            and produced.destroyed == logged.destroyed
            and (logged.production is None or logged.production == produced.production)
            and (logged.hazards is None or logged.hazards == produced.hazards)
            and (logged.causes is None or logged.causes == produced.causes)
        )
    if type(produced) is not Turn or type(logged) is not Turn:
        return False
    result, was = produced.result, logged.result
    later = LATER_RESULT_FIELDS.get(produced.action_type or "")
    if later is None or result is None or was is None:
        return False
    older = {k: v for k, v in result.items() if k in was or k not in later}
    return replace(produced, result=older) == logged


def _expect(condition: bool, index: int, message: str) -> None:
    if not condition:
        raise ReplayError(f"event {index}: {message}")


class Replayer:
    """Applies logged events one at a time, keeping track of the round in progress."""

    def __init__(self, state: GameState, *, defer_sight: bool = False) -> None:
        self.state = state
        self.defer_sight = defer_sight
        self.pending: list[str] = []  # the current round's turn order
        self.next = 0  # index in ``pending`` of the android due to act next
        self.in_round = False
        # Visibility is derived state that no rule reads. With defer_sight (what replay() uses),
        # the recomputes of round starts and ends are deferred: a launch or a join recomputes
        # anyway, and replay() recomputes once at the end if nothing did since, so the result is
        # the same state. Without it, the state after every apply() is exactly the
        # live one, visibility included (for callers that look at the state between events).
        self.sight_stale = False

    def apply(self, index: int, event: Event) -> None:
        state = self.state
        if type(event) is Turn:  # by far the most common event: checked first
            self._turn(index, event)
        elif type(event) is RoundStarted:
            _expect(not self.in_round, index, "a round starts before the previous one ended")
            begin_round(state, sight=not self.defer_sight)
            # no action reads visibility: recomputed once, at the end
            self.sight_stale = self.defer_sight
            if state.round != event.round:
                raise ReplayError(
                    f"event {index}: round {event.round} recorded, {state.round} expected"
                )
            self.pending = turn_order(state)
            self.next = 0
            self.in_round = True
        elif type(event) is RoundEnded:
            _expect(self.in_round, index, "a round ends that never started")
            androids = state.androids
            _expect(
                not any(androids[a].active for a in self.pending[self.next :]),
                index,
                "a round ends before every android acted",
            )
            produced = resolve_round_end(state)
            if self.defer_sight:
                self.sight_stale = True
            else:
                recompute(state)
            _expect(fits(produced, event), index, "the round end came out differently")
            self.in_round = False
        elif type(event) is PlayerJoined:
            players.join(state, event.player, at=(event.x, event.y))
            self.sight_stale = False  # join recomputes visibility
        elif type(event) is ScriptUploaded:
            uploaded = players.add_script(state, event.player, event.name)
            _expect(
                uploaded.script == event.script,
                index,
                f"script id {event.script} came out as {uploaded.script}",
            )
        elif type(event) is AndroidLaunched:
            launched = players.launch(state, event.player, event.script, event.charger)
            self.sight_stale = False  # launch recomputes visibility
            _expect(
                launched.android == event.android,
                index,
                "a launch produced a different android id",
            )
        else:
            raise ReplayError(f"event {index}: {event!r} is not an event")

    def _turn(self, index: int, event: Turn) -> None:
        state = self.state
        if not self.in_round:
            raise ReplayError(f"event {index}: a turn outside a round")
        androids, pending, position = state.androids, self.pending, self.next
        while position < len(pending) and not androids[pending[position]].active:
            position += 1  # dismantled earlier in the round: no turn
        android_id = event.android
        if position >= len(pending) or pending[position] != android_id:
            raise ReplayError(f"event {index}: {android_id} acts out of turn")
        self.next = position + 1
        outcome = event.outcome
        if outcome is Outcome.ACCEPTED or (
            outcome is Outcome.REFUSED and event.code not in _NOTE_REFUSALS
        ):
            # judged again: a log that claims a refusal the rules would not make (or the
            # reverse) does not replay
            logged = event.action
            android = androids[android_id]
            # the notes gathered while the form is read (one pass over the action, not three)
            logged_notes: dict[str, Any] = {}
            known = _known_action(logged, logged_notes)
            whole = (
                _whole_note_values(android, logged_notes)
                if known is not None and logged is not None
                else None
            )
            if known is not None and whole is not None and logged is not None:
                # an action seen before in this exact form: judged without parsing it again,
                # and compared field by field (no event built unless it differs)
                judged = verdict(
                    state,
                    android,
                    known[0],
                    whole[0],
                    whole[1],
                    logged_notes or None,
                    known[1],
                    logged,
                )
                if judged == (event.outcome, logged, event.result, event.code, event.reason) and (
                    state.round == event.round
                ):
                    return
                produced = Turn(state.round, android_id, event.ticks, *judged)
            else:
                notes = (
                    {k: v for k, v in logged.items() if k in NOTE_KEYS}
                    if isinstance(logged, dict)
                    else None
                )
                produced = apply_turn(
                    state,
                    android_id,
                    Decision(value=_whole_notes(android, logged), ticks=event.ticks),
                    logged_notes=notes,
                )
            if not fits(produced, event):
                raise ReplayError(f"event {index}: the turn of {android_id} came out differently")
        else:
            charge_failed_turn(state, androids[android_id])


# Logged actions (their notes left out) already parsed in this process, by their exact form: the
# action and its dump, which is what parsing that form again would give. A log repeats a few
# forms (a move north, a charge, a deposit of the same cargo) hundreds of times, and parsing each
# again was a third of a replay. Only a form whose dump is itself is kept (what this engine
# writes); any other form is parsed every time, and judged exactly as before.
_Form = tuple[tuple[str, type, object], ...]
_KNOWN: dict[_Form, tuple[AnyAction, dict[str, Any]]] = {}
_KNOWN_LIMIT = 4096  # forms kept at most (a broadcast's text makes each one new)


def _form(logged: dict[str, Any], notes: dict[str, Any] | None = None) -> _Form | None:
    """A hashable key for a logged action's exact form without its notes: each field's name,
    type and value (True and 1 differ here), one level of objects inside (its resources), in
    the logged order; None for a form no action has (a list, a float, an object deeper down).
    Its notes (memory, recording and their edits) go into ``notes`` when given."""
    key: list[tuple[str, type, object]] = []
    for name, value in logged.items():
        if name in NOTE_KEYS:
            if notes is not None:
                notes[name] = value
            continue
        kind = type(value)
        if kind is dict:
            inner: list[tuple[str, type, object]] = []
            for part, amount in value.items():
                if type(amount) not in (int, str):
                    return None
                inner.append((part, type(amount), amount))
            value = tuple(inner)
        elif kind not in (int, str):
            return None
        key.append((name, kind, value))
    # in the logged order: a dict's order is no part of its form, so a form in another order is
    # its own entry, checked against its dump in name order when first seen (a file's keys are
    # sorted, a dump's not); not sorting every turn's key is a twentieth of the replay
    return tuple(key)


def _unordered(form: _Form) -> frozenset[tuple[str, type, object]]:
    """A form's fields whatever their order, an object's inside too (its tuple of fields)."""
    return frozenset(
        (name, kind, frozenset(value) if isinstance(value, tuple) else value)
        for name, kind, value in form
    )


def _known_action(logged: object, notes: dict[str, Any]) -> tuple[AnyAction, dict[str, Any]] | None:
    """The parsed action and its dump for a logged action in a form this engine writes, or None
    (not such a form: the caller parses it the usual way, and judges it as before). The logged
    notes go into ``notes`` (all of them when the answer is not None)."""
    if type(logged) is not dict:
        return None
    key = _form(logged, notes)
    if key is None:
        return None
    known = _KNOWN.get(key)
    if known is None:
        plain = {k: v for k, v in logged.items() if k not in NOTE_KEYS}
        try:
            action = ACTION_ADAPTER.validate_python(plain)
        except ValidationError:
            return None
        dump = action.model_dump(by_alias=True, exclude_none=True, exclude=set(NOTES), mode="json")
        made = _form(dump)
        # the same fields, whatever their order (an object's inside too: a dump lists
        # resources in the model's order, a file in name order)
        if made is None or _unordered(made) != _unordered(key):
            return None
        if len(_KNOWN) >= _KNOWN_LIMIT:
            _KNOWN.clear()
        known = _KNOWN[key] = (action, dump)
    return known


def _whole_note_values(
    android: Android, logged: dict[str, Any]
) -> tuple[str | None, str | None] | None:
    """The whole memory and recording a logged action sets (None: unchanged), or None when a
    logged note is not text (the caller parses the action the usual way, which refuses it).
    ``logged``: the action, or only its notes."""
    if not logged:
        return (None, None)
    memory = expand(android.memory, logged, "memory")
    recording = expand(android.recording, logged, "recording")
    if (memory is not None and type(memory) is not str) or (
        recording is not None and type(recording) is not str
    ):
        return None
    return (memory, recording)


def _whole_notes(android: Android, logged: dict[str, Any] | None) -> object:
    """The action as the script returned it: notes logged as changes made whole again."""
    if logged is None or not NOTE_KEYS & logged.keys():
        return logged
    action = {k: v for k, v in logged.items() if k not in NOTE_KEYS}
    for name in NOTES:
        whole = expand(getattr(android, name), logged, name)
        if whole is not None:
            action[name] = whole
    return action


def replay(initial: GameState, events: Iterable[Event]) -> GameState:
    """Apply a log to an initial state (changed in place and returned)."""
    replayer = Replayer(initial, defer_sight=True)
    for index, event in enumerate(events):
        try:
            replayer.apply(index, event)
        except ReplayError:
            raise
        except Refusal as refusal:  # e.g. a logged launch the rules refuse: the log does not fit
            raise ReplayError(
                f"event {index} ({event.kind}) cannot be applied: {refusal.reason}"
            ) from None
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise ReplayError(
                f"event {index} ({getattr(event, 'kind', type(event).__name__)}) cannot be applied: {error}"
            ) from None
    if replayer.sight_stale:
        recompute(initial)
    return initial
