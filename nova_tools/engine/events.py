"""The events of a game's log, as small frozen values.

A game is its initial world plus the events that happened to it (:mod:`.replay` rebuilds it).
Each kind of event is one type here: :class:`PlayerJoined`, :class:`ScriptUploaded`,
:class:`AndroidLaunched`, :class:`RoundStarted`, :class:`Turn` and :class:`RoundEnded` (with
its :class:`Production` and :class:`Hazard` entries). The engine makes them, the store writes
``to_json()`` and reads ``event_from_json``, and every reader asks the value (``turn.outcome
.failed``, ``ended.destroyed``), never a dict by key.

``to_json()`` gives exactly the JSON object the game file holds (docs/game-file.md), so a file
read and written again is the same, byte for byte: a detail an older engine did not log
(``production`` of a round end, say) is None here and stays absent in the JSON.

>>> turn = event_from_json({"type": "turn", "round": 3, "android": "android-1", "ticks": 0,
...     "outcome": "refused", "code": "off-map", "reason": "(12, 3) is off the map",
...     "action": {"type": "android.move", "direction": "east"}})
>>> turn.outcome.failed, turn.code is Reason.OFF_MAP, turn.action_type
(True, True, 'android.move')
>>> event_from_json(turn.to_json()) == turn
True
>>> event_from_json({"type": "round.started", "round": 4, "extra": 1})
Traceback (most recent call last):
nova_tools.engine.events.EventError: a round.started event has an unknown field 'extra'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, TypeVar

from .reasons import Outcome, Reason

Json = dict[str, Any]
_T = TypeVar("_T")


class ReplayError(ValueError):
    """The event log does not fit the game it claims to describe."""


class EventError(ReplayError):
    """A logged event that is not one of the engine's (an unknown type, a missing or unknown
    field, an outcome or reason code the game does not have)."""


_OUTCOMES: dict[str, Outcome] = {o.value: o for o in Outcome}
_REASONS: dict[str, Reason] = {r.value: r for r in Reason}


def _fields(kind: str, data: Mapping[str, Any], known: frozenset[str]) -> None:
    if not data.keys() <= known:
        extra = sorted(k for k in data if k not in known)
        raise EventError(f"a {kind} event has an unknown field {extra[0]!r}")


def _quick(cls: type[_T]) -> type[_T]:
    """Give a frozen, slotted dataclass an ``__init__`` that sets each slot through its member
    descriptor: what the generated one does through ``object.__setattr__`` (the frozen guard is
    on the class's ``__setattr__``, which neither calls), a third cheaper. A log's load builds
    one value per event, and the replay more, so this is a tenth of opening a game."""
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]  # a dataclass, by decoration
    defaults = {
        f.name: f.default
        for f in fields(cls)  # type: ignore[arg-type]
        if f.default is not MISSING
    }
    params = ", ".join(f"{n}=_d_{n}" if n in defaults else n for n in names)
    body = "\n".join(f"    _s_{n}(self, {n})" for n in names)
    scope: dict[str, Any] = {f"_s_{n}": getattr(cls, n).__set__ for n in names}
    scope.update({f"_d_{n}": v for n, v in defaults.items()})
    exec(f"def __init__(self, {params}):\n{body}\n", scope)  # fixed text, like dataclasses'
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[method-assign]  # the point: a cheaper one
    return cls


def _draft(cls: type) -> type:
    """A plain class with the same slots as the frozen ``cls``, whose ``__init__`` (the fields
    in order) stores each one the way any attribute is stored, the fastest store there is. The
    log's readers build a value in it and then make it a ``cls`` by assigning ``__class__``
    (allowed between classes of the same slots): the very value ``cls(...)`` gives, frozen by
    its class like every other, in half the time. Only this module makes drafts."""
    names = [f.name for f in fields(cls)]
    defaults = {f.name: f.default for f in fields(cls) if f.default is not MISSING}
    params = ", ".join(f"{n}=_d_{n}" if n in defaults else n for n in names)
    scope: dict[str, Any] = {f"_d_{n}": v for n, v in defaults.items()}
    body = "\n".join(f"    self.{n} = {n}" for n in names)
    exec(f"def __init__(self, {params}):\n{body}\n", scope)  # fixed text, like dataclasses'
    return type(
        f"_{cls.__name__}Draft",
        (),
        {"__slots__": cls.__dict__["__slots__"], "__init__": scope["__init__"]},
    )


@_quick
@dataclass(frozen=True, slots=True)
class PlayerJoined:
    """A player joined, in ``seat`` (join order, from 0), with their initial charger placed."""

    kind: ClassVar[str] = "player.joined"
    player: str
    seat: int
    charger: str  # the initial charger's building id
    x: int  # where the initial charger stands
    y: int

    def to_json(self) -> Json:
        return {
            "charger": self.charger,
            "player": self.player,
            "position": {"x": self.x, "y": self.y},
            "seat": self.seat,
            "type": self.kind,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlayerJoined:
        if not _JOINED.issuperset(data):
            _fields(cls.kind, data, _JOINED)
        position = data["position"]
        if not isinstance(position, dict) or position.keys() != {"x", "y"}:
            raise EventError(f"a {cls.kind} event's position is not an {{x, y}} object")
        return cls(data["player"], data["seat"], data["charger"], position["x"], position["y"])


@_quick
@dataclass(frozen=True, slots=True)
class ScriptUploaded:
    """A player uploaded a script (its bundle is kept in the game file's scripts)."""

    kind: ClassVar[str] = "script.uploaded"
    player: str
    script: str  # the script id
    name: str

    def to_json(self) -> Json:
        return {"name": self.name, "player": self.player, "script": self.script, "type": self.kind}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ScriptUploaded:
        if not _UPLOADED.issuperset(data):
            _fields(cls.kind, data, _UPLOADED)
        return cls(data["player"], data["script"], data["name"])


@_quick
@dataclass(frozen=True, slots=True)
class AndroidLaunched:
    """A player launched an android between rounds, on one of their chargers."""

    kind: ClassVar[str] = "android.launched"
    player: str
    script: str
    android: str
    charger: str | None  # the charger it stands on (None: an old log that did not say)

    def to_json(self) -> Json:
        data: Json = {"android": self.android}
        if self.charger is not None:
            data["charger"] = self.charger
        data.update(player=self.player, script=self.script, type=self.kind)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> AndroidLaunched:
        if not _LAUNCHED.issuperset(data):
            _fields(cls.kind, data, _LAUNCHED)
        return cls(data["player"], data["script"], data["android"], data.get("charger"))


@_quick
@dataclass(frozen=True, slots=True)
class RoundStarted:
    kind: ClassVar[str] = "round.started"
    round: int

    def to_json(self) -> Json:
        return {"round": self.round, "type": self.kind}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundStarted:
        if not _STARTED.issuperset(data):
            _fields(cls.kind, data, _STARTED)
        made = _STARTED_DRAFT(data["round"])
        made.__class__ = RoundStarted  # frozen from here on (see _draft)
        return made  # type: ignore[no-any-return]


@_quick
@dataclass(frozen=True, slots=True)
class Turn:
    """One android's turn, as the engine judged it.

    ``outcome`` says how it ended; a failed one (``outcome.failed``) carries ``code`` and
    ``reason``. ``action`` is the action as logged (a JSON object: the action's wire form with
    its notes as changes, see notes.py; a refused turn's without its notes; None for a turn
    that returned no action), ``result`` what an accepted action did (None when it says
    nothing). Both are JSON objects of the game file and are never changed in place."""

    kind: ClassVar[str] = "turn"
    round: int
    android: str
    ticks: int
    outcome: Outcome
    action: Json | None = None
    result: Json | None = None
    code: Reason | None = None
    reason: str | None = None

    @property
    def failed(self) -> bool:
        """Refused, invalid, or a script error: the turn cost the android health."""
        return self.outcome is not Outcome.ACCEPTED

    @property
    def action_type(self) -> str | None:
        """The logged action's ``type`` (``android.move``), or None when it has none."""
        action = self.action
        if action is None:
            return None
        kind = action.get("type")
        return kind if isinstance(kind, str) else None

    def to_json(self) -> Json:
        data: Json = {}
        if self.action is not None:
            data["action"] = self.action
        data["android"] = self.android
        if self.code is not None:
            data["code"] = self.code.value
        data["outcome"] = self.outcome.value
        if self.reason is not None:
            data["reason"] = self.reason
        if self.result is not None:
            data["result"] = self.result
        data["round"] = self.round
        data["ticks"] = self.ticks
        data["type"] = "turn"
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Turn:
        get = data.get
        outcome = _OUTCOMES.get(get("outcome"))  # type: ignore[arg-type]  # checked just below
        code = get("code")
        action, result = get("action"), get("result")
        if (
            outcome is None
            or not _TURN.issuperset(data)
            or (code is not None and code not in _REASONS)
            or (action is not None and type(action) is not dict)
            or (result is not None and type(result) is not dict)
        ):
            _turn_problem(data)
        made = _TURN_DRAFT(
            data["round"],
            data["android"],
            data["ticks"],
            outcome,
            action,
            result,
            None if code is None else _REASONS[code],
            get("reason"),
        )
        made.__class__ = Turn  # frozen from here on (see _draft)
        return made  # type: ignore[no-any-return]


def _turn_problem(data: Mapping[str, Any]) -> None:
    """Raise the EventError that says what is wrong with a logged turn."""
    _fields(Turn.kind, data, _TURN)
    outcome, code = data.get("outcome"), data.get("code")
    if not isinstance(outcome, str) or outcome not in _OUTCOMES:
        raise EventError(f"a turn's outcome {outcome!r} is not one")
    if code is not None and (not isinstance(code, str) or code not in _REASONS):
        raise EventError(f"a turn's reason code {code!r} is not one")
    raise EventError("a turn's action and result are JSON objects")


@_quick
@dataclass(frozen=True, slots=True)
class Production:
    """What one building extracted, used and made at a round end."""

    building: str
    building_type: str
    owner: str | None
    extracted: Mapping[str, int] | None = None
    used: Mapping[str, int] | None = None
    made: Mapping[str, int] | None = None

    def to_json(self) -> Json:
        data: Json = {"building": self.building, "buildingType": self.building_type}
        if self.extracted is not None:
            data["extracted"] = self.extracted
        if self.made is not None:
            data["made"] = self.made
        data["owner"] = self.owner
        if self.used is not None:
            data["used"] = self.used
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Production:
        if type(data) is not dict:
            raise EventError("a round end's production entry is not an object")
        if not _PRODUCTION.issuperset(data):
            _fields("production", data, _PRODUCTION)
        get = data.get
        made = _PRODUCTION_DRAFT(
            data["building"],
            data["buildingType"],
            data["owner"],
            get("extracted"),
            get("used"),
            get("made"),
        )
        made.__class__ = Production  # frozen from here on (see _draft)
        return made  # type: ignore[no-any-return]


@_quick
@dataclass(frozen=True, slots=True)
class Hazard:
    """The acid and radiation damage an android took at a round end (beyond ordinary decay)."""

    android: str
    acid: float | None = None
    radiation: float | None = None

    def to_json(self) -> Json:
        data: Json = {}
        if self.acid is not None:
            data["acid"] = self.acid
        data["android"] = self.android
        if self.radiation is not None:
            data["radiation"] = self.radiation
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Hazard:
        if type(data) is not dict:
            raise EventError("a round end's hazard entry is not an object")
        if not _HAZARD.issuperset(data):
            _fields("hazard", data, _HAZARD)
        return cls(data["android"], data.get("acid"), data.get("radiation"))


_production, _hazard = Production.from_json, Hazard.from_json  # a round end reads a few


@_quick
@dataclass(frozen=True, slots=True)
class RoundEnded:
    """A round's end: the androids ``destroyed`` and, when there is anything to say (and the log
    is recent enough to say it), what buildings produced, what hazards hurt and why each
    destroyed android fell (``causes``: android -> ``health`` or ``battery``)."""

    kind: ClassVar[str] = "round.ended"
    round: int
    destroyed: tuple[str, ...] = ()
    production: tuple[Production, ...] | None = None
    hazards: tuple[Hazard, ...] | None = None
    causes: Mapping[str, str] | None = None

    def to_json(self) -> Json:
        data: Json = {}
        if self.causes is not None:
            data["causes"] = self.causes
        data["destroyed"] = list(self.destroyed)
        if self.hazards is not None:
            data["hazards"] = [h.to_json() for h in self.hazards]
        if self.production is not None:
            data["production"] = [p.to_json() for p in self.production]
        data["round"] = self.round
        data["type"] = self.kind
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundEnded:
        if not _ENDED.issuperset(data):
            _fields(cls.kind, data, _ENDED)
        production, hazards, causes = (
            data.get("production"),
            data.get("hazards"),
            data.get("causes"),
        )
        destroyed = data["destroyed"]
        if type(destroyed) is not list or (causes is not None and type(causes) is not dict):
            raise EventError("a round end's destroyed is a list and its causes an object")
        made = _ENDED_DRAFT(
            data["round"],
            tuple(destroyed),
            None if production is None else tuple([_production(p) for p in production]),
            None if hazards is None else tuple([_hazard(h) for h in hazards]),
            causes,
        )
        made.__class__ = RoundEnded  # frozen from here on (see _draft)
        return made  # type: ignore[no-any-return]


_TURN_DRAFT, _PRODUCTION_DRAFT, _ENDED_DRAFT, _STARTED_DRAFT = (
    _draft(Turn),
    _draft(Production),
    _draft(RoundEnded),
    _draft(RoundStarted),
)

Event = PlayerJoined | ScriptUploaded | AndroidLaunched | RoundStarted | Turn | RoundEnded

_JOINED = frozenset({"type", "player", "seat", "charger", "position"})
_UPLOADED = frozenset({"type", "player", "script", "name"})
_LAUNCHED = frozenset({"type", "player", "script", "android", "charger"})
_STARTED = frozenset({"type", "round"})
_TURN = frozenset(
    {"type", "round", "android", "ticks", "outcome", "action", "result", "code", "reason"}
)
_ENDED = frozenset({"type", "round", "destroyed", "production", "hazards", "causes"})
_PRODUCTION = frozenset({"building", "buildingType", "owner", "extracted", "used", "made"})
_HAZARD = frozenset({"android", "acid", "radiation"})

_KINDS: dict[str, Callable[[Mapping[str, Any]], Event]] = {
    "turn": Turn.from_json,  # by far the most common
    "round.started": RoundStarted.from_json,
    "round.ended": RoundEnded.from_json,
    "player.joined": PlayerJoined.from_json,
    "script.uploaded": ScriptUploaded.from_json,
    "android.launched": AndroidLaunched.from_json,
}

EVENT_TYPES = tuple(_KINDS)  # every event type a log holds


def event_from_json(data: object) -> Event:
    """The event a JSON object of the log stands for (EventError if it is none; KeyError names
    a missing field)."""
    if type(data) is not dict:
        raise EventError(f"an event is a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    parse = _KINDS.get(kind) if isinstance(kind, str) else None
    if parse is None:
        raise EventError(f"unknown event type {kind!r}")
    return parse(data)


def log_from_json(logged: Iterable[object]) -> list[Event]:
    """A log of JSON objects (a game file's ``events``) as events; EventError saying which is
    none (``event 12: unknown event type 'round.begun'``)."""
    turn = Turn.from_json
    events: list[Event] = []
    append = events.append
    try:
        for data in logged:
            # a turn is by far the most common event: read without the general dispatch
            if type(data) is dict and data.get("type") == "turn":
                append(turn(data))
            else:
                append(event_from_json(data))
    except EventError as error:
        raise EventError(f"event {len(events)}: {error}") from None
    except KeyError as error:
        data = list(logged)[len(events)]
        kind = data.get("type") if isinstance(data, dict) else None
        raise EventError(f"event {len(events)}: a {kind} event lacks its field {error}") from None
    except (TypeError, ValueError, AttributeError) as error:
        raise EventError(f"event {len(events)} is malformed: {error}") from None
    return events


def round_of(event: Event) -> int | None:
    """The round an event belongs to (None for the events between rounds: joins, uploads,
    launches)."""
    if type(event) is Turn or type(event) is RoundStarted or type(event) is RoundEnded:
        return event.round
    return None


def failed_turn(event: Event) -> bool:
    """Whether an event is a turn that failed (refused, invalid, or a script error).

    >>> failed_turn(Turn(3, "android-1", 0, Outcome.REFUSED)), failed_turn(RoundStarted(3))
    (True, False)
    """
    return type(event) is Turn and event.outcome is not Outcome.ACCEPTED


__all__ = [
    "EVENT_TYPES",
    "AndroidLaunched",
    "Event",
    "EventError",
    "Hazard",
    "PlayerJoined",
    "Production",
    "ReplayError",
    "RoundEnded",
    "RoundStarted",
    "ScriptUploaded",
    "Turn",
    "event_from_json",
    "failed_turn",
    "log_from_json",
    "round_of",
]
