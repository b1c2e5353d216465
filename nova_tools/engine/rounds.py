"""A round, phase by phase, in the order of DESIGN section 5:

1. begin: the round counter advances and visibility is recomputed;
2. turns: every android active at the start of the round takes one turn, players interleaved,
   the leading player rotating each round, each player's androids in launch order; an action
   applies at once, so the next script sees its effect;
3. end: extraction, conversions (in order, each once), decay, hazard damage, destruction into
   wrecks, and visibility recomputed.

No I/O, no clock: a turn's decision comes from the ``decide`` callback (the sandbox in play,
the event log in a replay).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from pydantic import ValidationError

from ..limits import NOTES
from ..rules import BUILDING_TYPES, MATERIALS, Rules
from . import materials as mat
from .actions import HANDLERS, _settle
from .events import Event, Hazard, Production, RoundEnded, RoundStarted, Turn
from .notes import compact
from .prng import derive
from .reasons import Outcome, Reason
from .refusals import Refusal
from .state import Android, GameState
from .text import clip, quoted, utf16_length
from .visibility import recompute
from .wire import ACTION_ADAPTER, AnyAction


@dataclass(frozen=True)
class Decision:
    """What a turn produced before the engine judged it: the value the turn function returned,
    or the reason it produced none (a script error or an exhausted budget)."""

    value: object = None
    error: str | None = None
    ticks: int = 0
    code: Reason = (
        Reason.SCRIPT_ERROR
    )  # the reason code a failed turn records when ``error`` is set


def turn_order(state: GameState) -> list[str]:
    """The ids of the androids that act this round, in order.

    Players take turns one android at a time; the player who leads rotates by seat each round, so
    over any run of rounds every seat leads equally often.
    """
    # Called once a round by the replay too, so kept to plain loops: no generator, no lambda,
    # no comprehension (each is a function call of its own in this Python: a third of the time).
    seated = sorted(state.players.values(), key=_SEAT)
    if not seated:
        return []
    by_owner: dict[str, list[str]] = {}
    for player in seated:
        by_owner[player.id] = []
    get = by_owner.get
    for android in state.androids.values():  # launch order
        if android.active:
            queue = get(android.owner)
            if queue is not None:
                queue.append(android.id)
    queues = list(by_owner.values())  # in seat order
    lead = (state.round - 1) % len(queues)
    if lead:
        queues = queues[lead:] + queues[:lead]
    order: list[str] = []
    add = order.append
    for i in range(max(map(len, queues))):
        for queue in queues:
            if i < len(queue):
                add(queue[i])
    return order


_SEAT = attrgetter("seat")


def turn_seed(state: GameState, android_id: str) -> int:
    """The seed of ``Math.random`` (and friends) for one android's turn in this round."""
    return derive(state.seed, "turn", android_id, state.round)


def begin_round(state: GameState, *, sight: bool = True) -> RoundStarted:
    """The round counter advances and visibility is recomputed (``sight=False``: by the caller,
    later; a replay that reads nothing in between recomputes once at the end)."""
    state.round += 1
    if sight:
        recompute(state)
    return RoundStarted(state.round)


def _parse(value: object) -> AnyAction:
    if isinstance(value, dict) and "androidId" in value:
        # the engine adds androidId itself; a script that echoes it back is not wrong
        value = {k: v for k, v in value.items() if k != "androidId"}
    action: AnyAction = ACTION_ADAPTER.validate_python(value)
    return action


def _describe_invalid(error: ValidationError) -> str:
    item = error.errors(include_url=False)[0]
    loc = ".".join(str(part) for part in item["loc"][1:]) if len(item["loc"]) > 1 else ""
    message = item["msg"].replace("Input should be", "expected")
    if item["type"] == "union_tag_invalid":
        return f"returned an unknown action type {quoted(item['input'].get('type'))}"
    if item["type"] == "union_tag_not_found":
        return "returned an object without a 'type' naming an action"
    if item["type"] in ("model_type", "model_attributes_type", "dict_type"):
        return f"returned {type(item['input']).__name__} {quoted(str(item['input']), 60)} instead of an action object"
    if item["type"] == "extra_forbidden":
        return f"returned an action with an unknown field {quoted(loc)}"
    return f"returned an invalid action: {clip(loc) + ': ' if loc else ''}{clip(message, 200)}"


def charge_failed_turn(state: GameState, android: Android) -> None:
    """What a failed turn costs (rulebook 7.2): rules.android.failedTurnHealthPenalty health.
    The one place it is charged, live or in a replay."""
    android.health = _settle(android.health - state.rules.android.failed_turn_health_penalty)


def _fail(
    state: GameState,
    android: Android,
    ticks: int,
    outcome: Outcome,
    code: str,
    reason: str,
    action: dict[str, Any] | None = None,
) -> Turn:
    charge_failed_turn(state, android)
    return Turn(state.round, android.id, ticks, outcome, action, None, Reason.of(code), reason)


def apply_turn(
    state: GameState,
    android_id: str,
    decision: Decision,
    *,
    logged_notes: dict[str, Any] | None = None,
) -> Turn:
    """Judge and apply one android's turn. Returns the turn event; a failed turn costs
    rules.android.failedTurnHealthPenalty health and leaves memory and recording unchanged.

    ``logged_notes``: a replay's notes as the log holds them (see notes.py), used as they are
    instead of being worked out again."""
    android = state.androids[android_id]
    ticks = decision.ticks
    if decision.error is not None:
        return _fail(state, android, ticks, Outcome.ERROR, decision.code, decision.error)
    try:
        action = _parse(decision.value)
    except ValidationError as error:
        return _fail(
            state, android, ticks, Outcome.INVALID, Reason.NOT_AN_ACTION, _describe_invalid(error)
        )
    return judge(state, android, ticks, action, action.memory, action.recording, logged_notes)


def judge(
    state: GameState,
    android: Android,
    ticks: int,
    action: AnyAction,
    memory: str | None,
    recording: str | None,
    logged_notes: dict[str, Any] | None = None,
    logged: dict[str, Any] | None = None,
) -> Turn:
    """Judge a well-formed action and apply it: the step of :func:`apply_turn` after parsing.
    ``memory`` and ``recording`` are the notes the action sets (a replay knows the action
    without them: it hands in a note-less action, the whole notes, the notes as logged and,
    in ``logged``, the action's dump without its notes, so nothing is parsed or dumped twice)."""
    return Turn(
        state.round,
        android.id,
        ticks,
        *verdict(state, android, action, memory, recording, logged_notes, logged),
    )


# A judged turn's fields after its round, android and ticks: (outcome, action, result, code,
# reason), in the order of Turn's.
Verdict = tuple[Outcome, dict[str, Any] | None, dict[str, Any] | None, Reason | None, str | None]


def verdict(
    state: GameState,
    android: Android,
    action: AnyAction,
    memory: str | None,
    recording: str | None,
    logged_notes: dict[str, Any] | None = None,
    logged: dict[str, Any] | None = None,
    as_logged: dict[str, Any] | None = None,
) -> Verdict:
    """:func:`judge` without building the event: what a replay compares with the logged turn.

    ``as_logged`` (a replay): the action as its log holds it, which ``logged`` (its dump) and
    ``logged_notes`` were matched from; an accepted turn gives it back itself, not a copy made
    again from them (that the replay would only compare with it)."""
    limits = state.rules.android
    try:
        # lengths in UTF-16 code units: what the script's own .length counts
        if memory is not None and (size := utf16_length(memory)) > limits.memory_limit:
            raise Refusal(
                Reason.MEMORY_TOO_LONG,
                f"memory holds at most {limits.memory_limit} characters, got {size}",
            )
        if recording is not None and (size := utf16_length(recording)) > limits.recording_limit:
            raise Refusal(
                Reason.RECORDING_TOO_LONG,
                f"recording holds at most {limits.recording_limit} characters, got {size}",
            )
        details = HANDLERS[action.type](state, android, action)
    except Refusal as refusal:
        # the whole action but its notes, so a replay can judge it again (memory and recording
        # are left out: a refused turn never writes them, and they can be large)
        refused = (
            dict(logged)
            if logged is not None
            else action.model_dump(
                by_alias=True, exclude_none=True, exclude=set(NOTES), mode="json"
            )
        )
        charge_failed_turn(state, android)
        return (Outcome.REFUSED, refused, None, refusal.code, refusal.reason)
    if as_logged is not None:
        if memory is not None:
            android.memory = memory
        if recording is not None:
            android.recording = recording
        return (Outcome.ACCEPTED, as_logged, details or None, None, None)
    logged = (
        dict(logged)
        if logged is not None
        else action.model_dump(by_alias=True, exclude_none=True, exclude=set(NOTES), mode="json")
    )
    # The notes are logged as changes (see notes.py): most turns rewrite the same memory, or the
    # same recording with a line added, and both can be kilobytes.
    # (a replay hands in the notes as logged, already checked to rebuild these very notes)
    if logged_notes is not None:
        logged.update(logged_notes)
    else:
        if memory is not None:
            logged.update(compact("memory", android.memory, memory))
        if recording is not None:
            logged.update(compact("recording", android.recording, recording))
    if memory is not None:
        android.memory = memory
    if recording is not None:
        android.recording = recording
    return (Outcome.ACCEPTED, logged, details or None, None, None)


# What one building type does at a round end: its extractions as (source, material, amount), its
# conversions as (inputs, outputs) bags, and whether the extractions name their materials in the
# fixed material order (then what they extract is a bag in that order as it is made); None for a
# type that does neither.
_Plan = tuple[tuple[tuple[str, str, int], ...], tuple[tuple[mat.Bag, mat.Bag], ...], bool] | None
_PLANS: dict[int, tuple[Rules, dict[str, _Plan]]] = {}  # by id of the Rules they were read from


def _production_plans(rules: Rules) -> dict[str, _Plan]:
    """Each building type's round-end plan, read from the rules once per Rules object (a round
    end read them off the models for every building, a tenth of a replay)."""
    held = _PLANS.get(id(rules))
    if held is not None and held[0] is rules:
        return held[1]
    plans: dict[str, _Plan] = {}
    for kind in BUILDING_TYPES:
        building_rules = rules.building(kind)
        order = [MATERIALS.index(e.material) for e in building_rules.extraction]
        plans[kind] = (
            (
                tuple((e.source, e.material, e.amount) for e in building_rules.extraction),
                tuple((mat.bag(c.inputs), mat.bag(c.outputs)) for c in building_rules.conversion),
                order == sorted(order),
            )
            if building_rules.extraction or building_rules.conversion
            else None
        )
    if len(_PLANS) >= 64:  # many rules in one process (tests): start afresh
        _PLANS.clear()
    _PLANS[id(rules)] = (rules, plans)
    return plans


def _round_end_buildings(state: GameState) -> list[Production]:
    """Extraction, then each building's conversions; returns what each building made of it (only
    buildings where something happened)."""
    produced = []
    plans = _production_plans(state.rules)
    tiles, width = state.tiles, state.width
    for building in state.buildings.values():
        if not building.complete:
            continue
        plan = plans[building.type]
        if plan is None:
            continue
        extraction, conversion, in_order = plan
        storage = building.storage
        extracted: mat.Bag = {}
        if extraction:
            ground = tiles[building.y * width + building.x].composition
            for source, material, amount in extraction:  # what mat.add does, without a bag each
                units = min(amount, ground.get(source, 0))
                if units > 0:
                    extracted[material] = extracted.get(material, 0) + units
            for material, units in extracted.items():  # mat.add (every units here is > 0)
                storage[material] = storage.get(material, 0) + units
        used: mat.Bag = {}
        made: mat.Bag = {}
        for needs, outputs in conversion:  # the plan's bags are read, never changed
            if needs and mat.covers(storage, needs):
                mat.take(storage, needs)
                mat.add(storage, outputs)
                mat.add(used, needs)
                mat.add(made, outputs)
        if extracted or made:
            produced.append(
                Production(
                    building.id,
                    building.type,
                    building.owner,
                    (extracted if in_order else mat.ordered(extracted)) if extracted else None,
                    mat.ordered(used) if made else None,
                    mat.ordered(made) if made else None,
                )
            )
    return produced


def end_round(state: GameState) -> RoundEnded:
    event = resolve_round_end(state)
    recompute(state)
    return event


def resolve_round_end(state: GameState) -> RoundEnded:
    """The round end without the visibility recompute (which :func:`end_round` adds): extraction,
    conversions, decay, hazard damage, destruction. Replay uses it directly, recomputing
    visibility only when something could observe it.

    The event says what happened: ``destroyed`` (the ids), and when there is anything to say,
    ``production`` (what each building extracted, used and made), ``hazards`` (the acid and
    radiation damage each android took beyond ordinary decay) and ``causes`` (why each destroyed
    android was: ``health`` or ``battery``)."""
    rules = state.rules.android
    production = _round_end_buildings(state)
    destroyed: list[str] = []
    hazards: list[Hazard] = []
    causes: dict[str, str] = {}
    for android in state.androids.values():
        if not android.active:
            continue
        ground = state.tile(android.x, android.y).composition
        acid = ground.get("acid", 0) * rules.acid_damage_per_point
        radiation = ground.get("radiation", 0) * rules.radiation_damage_per_point
        android.health = _settle(android.health - (rules.decay_per_round + radiation + acid))
        if acid or radiation:
            hazards.append(
                Hazard(
                    android.id,
                    _settle(acid) if acid else None,
                    _settle(radiation) if radiation else None,
                )
            )
        if android.health <= 0 or android.battery <= 0:
            android.active = False
            destroyed.append(android.id)
            causes[android.id] = "health" if android.health <= 0 else "battery"
    return RoundEnded(
        state.round,
        tuple(destroyed),
        tuple(production) if production else None,
        tuple(hazards) if hazards else None,
        causes or None,
    )


def play_round(state: GameState, decide: Callable[[GameState, Android], Decision]) -> list[Event]:
    """Play one whole round, asking ``decide`` for each android's turn. Returns its events."""
    events: list[Event] = [begin_round(state)]
    for android_id in turn_order(state):
        android = state.androids[android_id]
        if not android.active:  # dismantled by a sibling earlier this round
            continue
        events.append(apply_turn(state, android_id, decide(state, android)))
    events.append(end_round(state))
    return events
