"""Reading a game: scores, one android, the event log, replays."""

from __future__ import annotations

import copy
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Literal

from .. import engine, store
from ..engine.events import AndroidLaunched, Event, Production, RoundEnded, Turn, round_of
from ..engine.notes import NoteTracker
from ..engine.reasons import Outcome
from ..engine.view import REDACTED, android_json
from ..engine.wire import ACTION_TYPES
from ..limits import NOTE_KEYS
from . import statuscache
from .access import open_game, read_game, require_player
from .convert import android_report as report_of
from .convert import standings
from .errors import ApiError
from .results import AndroidReport, EventLine, EventsPage, RecordedAndroid, Status
from .wording import CAUSES, describe_event

Notes = Literal["logged", "whole", "none"]


def status(path: str | Path | store.Game | store.MatchRecord) -> Status:
    """Scores with their breakdown, androids and wrecks: ``nova status --json`` (DESIGN section 6);
    a peer match's file (a game, or a record kept under --disclosure recording) adds its ``match``
    account. A file this code has scored before (``nova run``, MCP ``run_rounds``) is not read
    again: :mod:`.statuscache` answers for its exact bytes."""
    if isinstance(path, (str, Path)):
        return Status.model_validate(statuscache.status_json(path))
    game = read_game(path)
    if isinstance(game, store.MatchRecord):
        return Status.model_validate({**game.status, "match": game.match})
    return Status(
        round=game.state.round,
        final_turn=game.rules.match.final_round,
        players=standings(game.state),
        match=game.match,
    )


def android_report(
    path: str | Path | store.Game | store.MatchRecord, android_id: str, player: str | None = None
) -> AndroidReport | RecordedAndroid:
    """One android as its owner sees it. With ``player``, only that player's own androids."""
    game = read_game(path)
    if isinstance(game, store.MatchRecord):
        return _recorded_android(game, android_id, player)
    if player is not None:
        require_player(game, player)
    android = game.state.androids.get(android_id)
    if android is None:
        known = ", ".join(list(game.state.androids)[:10]) or "none yet"
        raise ApiError(f"there is no android {android_id!r} in {game.path} (androids: {known})")
    if player is not None and android.owner != player:
        raise ApiError(
            f"{android_id} belongs to another player; you can only read your own androids"
        )
    return report_of(android)


def android_fall(path: str | Path | store.Game, android_id: str) -> str | None:
    """How a wreck came to be, in words (``destroyed at the end of round 45: health ran out``), from
    the last event about it; None for an active android or one that left no such event (a
    sibling dismantled it: its events are that sibling's)."""
    game = open_game(path)
    last = events_page(game, android=android_id, offset=None, limit=1).events
    if not last:
        return None
    event = last[0].event
    if type(event) is RoundEnded and android_id in event.destroyed:
        cause = CAUSES.get((event.causes or {}).get(android_id, ""))
        return f"destroyed at the end of round {event.round}" + (f": {cause}" if cause else "")
    if (
        type(event) is Turn
        and not event.failed
        and event.action_type == "android.dismantle"
        and (event.action or {}).get("targetAndroidId", android_id) == android_id
    ):
        return f"dismantled itself in round {event.round}"
    return None


def _recorded_android(
    record: store.MatchRecord, android_id: str, player: str | None
) -> RecordedAndroid:
    """One of the player's own androids from a match record: its recording, nothing else."""
    for android in record.androids:
        if android["id"] == android_id and player in (None, android["ownerId"]):
            return RecordedAndroid.model_validate(android)
    # name only the reader's own: bob reading alice's file has none there, whatever it holds
    own = ", ".join(a["id"] for a in record.androids if player in (None, a["ownerId"])) or "none"
    raise ApiError(
        f"{record.path} is a match record that keeps only your own androids' recordings, and {android_id!r} is not one of them (yours: {own})"
    )


def events_page(
    path: str | Path | store.Game,
    *,
    round: int | None = None,
    android: str | None = None,
    failed_only: bool = False,
    mine_only: bool = False,
    player: str | None = None,
    offset: int | None = 0,
    limit: int = 50,
    notes: Notes = "logged",
    from_round: int | None = None,
    to_round: int | None = None,
    action: str | None = None,
    outcome: str | None = None,
    seen_only: bool = False,
) -> EventsPage:
    """A filtered page of the event log: one round (or ``from_round``-``to_round``, both
    included), one android, turns of one action type (``android.move``, or ``move``) or one
    outcome (``accepted``, ``refused``, ``invalid``, ``error``), failed turns only, or (with
    ``player``) only that player's own androids' turns. With ``player``, the events are redacted
    as that player may read them. ``offset=None`` gives the newest ``limit`` matching events.

    ``notes``: ``"logged"`` shows a turn's memory and recording as the log keeps them (often as
    edits of the previous note, docs/game-file.md); ``"whole"`` as the script returned them;
    ``"none"`` leaves them out (they are most of a turn's size). ``seen_only`` (with ``player``)
    keeps only what that player could see: their own androids' turns, the turns of other androids
    that ended their round on a tile the player saw, and the events of no tile (joins, rounds)."""
    game = open_game(path) if player is None else require_player(path, player)
    if mine_only and player is None:
        raise ApiError("mine_only needs the player whose androids are meant")
    if seen_only and player is None:
        raise ApiError("seen_only needs the player whose view is meant")
    seen, trimmed = events_seen_by(game, player) if seen_only and player is not None else (None, {})
    if limit < 1 or limit > 500:
        raise ApiError(f"limit must be between 1 and 500, not {limit}")
    if offset is not None and offset < 0:
        raise ApiError(f"offset must not be negative, not {offset}")
    rounds = _round_range(round, from_round, to_round)
    action_type = _action_type(action)
    outcome = _outcome(outcome)
    owners = {a.id: a.owner for a in game.state.androids.values()}
    selected = []
    for index, event in enumerate(game.events):
        if seen is not None and index not in seen:
            continue
        if rounds is not None:
            at = round_of(event)
            if at is None or not rounds[0] <= at <= rounds[1]:
                continue
        if android is not None and not _involves(event, android):
            continue
        turn = event if type(event) is Turn else None
        if failed_only and not (turn is not None and turn.failed):
            continue
        if mine_only and not (turn is not None and owners.get(turn.android) == player):
            continue
        if outcome is not None and not (turn is not None and turn.outcome == outcome):
            continue
        if action_type is not None and not (turn is not None and turn.action_type == action_type):
            continue
        selected.append(index)
    start = max(0, len(selected) - limit) if offset is None else offset
    page = selected[start : start + limit]
    shown = _with_whole_notes(game, page) if notes == "whole" else {i: game.events[i] for i in page}
    shown.update((i, trimmed[i]) for i in page if i in trimmed)
    if notes == "none":
        shown = {i: _without_notes(e) for i, e in shown.items()}
    items = tuple(
        _line(i, redact_event(shown[i], owners, player) if player is not None else shown[i], owners)
        for i in page
    )
    return EventsPage(
        total=len(selected), offset=start, limit=limit, events=items, log_length=len(game.events)
    )


def events_seen_by(game: store.Game, player: str) -> tuple[set[int], dict[int, Event]]:
    """The indices of the events ``player`` could see (see :func:`events_page`'s ``seen_only``):
    another player's turn counts when its android ends the round on a tile of the player's view
    then (the view a replay shows for that round, engine.world_view). Each round end comes back
    trimmed to what happened on those tiles (index -> the trimmed event): another player's
    buildings' production, and their androids' hazard damage and falls, only where seen."""
    state = engine.from_json(game.initial, game.rules)
    replayer = engine.Replayer(state)
    width = state.width
    seen: set[int] = set()
    trimmed: dict[int, Event] = {}
    others: list[tuple[int, str]] = []  # this round's turns of other players' androids
    for index, event in enumerate(game.events):
        replayer.apply(index, event)
        if type(event) is Turn:
            android = state.androids.get(event.android)
            if android is None or android.owner == player:
                seen.add(index)
            else:
                others.append((index, android.id))
        elif type(event) is RoundEnded:
            try:
                view = engine.world_view(state, player)
            except Exception:  # not in the game yet: nothing of theirs to see with
                view = {"tiles": []}
            visible = {t["position"]["y"] * width + t["position"]["x"] for t in view["tiles"]}
            for turn, android_id in others:
                android = state.androids[android_id]
                if android.y * width + android.x in visible:
                    seen.add(turn)
            others = []
            seen.add(index)
            trimmed[index] = _round_end_seen(event, state, player, visible)
        else:
            seen.add(index)
    return seen, trimmed


def _round_end_seen(
    event: RoundEnded, state: engine.GameState, player: str, visible: set[int]
) -> RoundEnded:
    """A round end as ``player`` saw it: what their own things did, and others' on tiles seen."""
    width = state.width

    def sees(owner: str | None, x: int, y: int) -> bool:
        return owner == player or y * width + x in visible

    def android_seen(android_id: str) -> bool:
        android = state.androids.get(android_id)
        return android is not None and sees(android.owner, android.x, android.y)

    def building_seen(entry: Production) -> bool:
        building = state.buildings.get(entry.building)
        return building is not None and sees(building.owner, building.x, building.y)

    production = tuple(p for p in event.production or () if building_seen(p))
    hazards = tuple(h for h in event.hazards or () if android_seen(h.android))
    causes = {a: c for a, c in (event.causes or {}).items() if android_seen(a)}
    return RoundEnded(
        event.round,
        tuple(a for a in event.destroyed if android_seen(a)),
        production or None,
        hazards or None,
        causes or None,
    )


def _round_range(round: int | None, first: int | None, last: int | None) -> tuple[int, int] | None:
    """The rounds asked for, both ends included, or None for every round."""
    if round is not None:
        if first is not None or last is not None:
            raise ApiError("give either round or a range (from_round, to_round), not both")
        return (round, round)
    if first is None and last is None:
        return None
    low, high = (0 if first is None else first), (sys.maxsize if last is None else last)
    if low > high:
        raise ApiError(
            f"the round range {first}-{last} is empty: from_round must not be above to_round"
        )
    return (low, high)


def _action_type(action: str | None) -> str | None:
    """An action type as turns log it, from its name with or without ``android.``."""
    if action is None:
        return None
    for known in ACTION_TYPES:
        if action in (known, known.split(".", 1)[-1]):
            return known
    raise ApiError(f"{action!r} is not an action type; the types are {', '.join(ACTION_TYPES)}")


def _outcome(outcome: str | None) -> str | None:
    if outcome is None:
        return None
    known = [o.value for o in Outcome]
    if outcome not in known:
        raise ApiError(f"{outcome!r} is not an outcome; a turn is {', '.join(known)}")
    return outcome


def _without_notes(event: Event) -> Event:
    """A turn without the memory and recording its action carried (or their edits)."""
    if type(event) is not Turn or event.action is None:
        return event
    return replace(event, action={k: v for k, v in event.action.items() if k not in NOTE_KEYS})


def _involves(event: Event, android: str) -> bool:
    """Whether ``event`` is about ``android``: its turn or launch, or a round end that hurt or
    destroyed it (so the events of one android end with why it fell)."""
    if type(event) is Turn or type(event) is AndroidLaunched:
        return event.android == android
    if type(event) is not RoundEnded:
        return False
    return android in event.destroyed or any(
        hurt.android == android for hurt in event.hazards or ()
    )


def _line(index: int, event: Event, owners: dict[str, str]) -> EventLine:
    """An event as a read gives it: its place in the log, the event, and what it says in words
    (each android named with its owner)."""
    return EventLine(event, describe_event(event, owners), index)


def _with_whole_notes(game: store.Game, indexes: list[int]) -> dict[int, Event]:
    """The events at ``indexes`` with their notes whole (following every note along the log)."""
    wanted = set(indexes)
    last = max(indexes, default=-1)
    tracker = NoteTracker(game.initial["androids"])
    shown = {}
    for index, event in enumerate(game.events[: last + 1]):
        whole = tracker.whole(event)
        if index in wanted:
            shown[index] = whole
    return shown


def redact_turn(turn: Turn, owners: dict[str, str], player: str) -> Turn:
    """A turn as ``player`` may read it: another player's memory and recording redacted."""
    if owners.get(turn.android) == player:
        return turn
    action, reason = turn.action, turn.reason
    if action and NOTE_KEYS & action.keys():
        action = {k: (REDACTED if k in NOTE_KEYS else v) for k, v in action.items()}
    if turn.outcome in (Outcome.ERROR, Outcome.INVALID):
        # A script chooses what it throws or returns, so its error text can carry its memory.
        reason = REDACTED
    return replace(turn, action=action, reason=reason)


def redact_event(event: Event, owners: dict[str, str], player: str) -> Event:
    """An event as ``player`` may read it: another player's memory and recording redacted."""
    return redact_turn(event, owners, player) if type(event) is Turn else event


def replay_export(path: str | Path | store.Game, player: str) -> dict:
    """A player-facing replay (rulebook section 14): the complete world for rendering, with
    another player's script source, android memory and recording replaced by [Redacted]."""
    game = require_player(path, player)
    owners = {a.id: a.owner for a in game.state.androids.values()}
    initial = copy.deepcopy(game.initial)
    for android in initial["androids"]:
        if android["owner"] != player:
            android["memory"] = android["recording"] = REDACTED
    return {
        "format": "nova-replay",
        "version": 1,
        "player": player,
        "rules": game.rules.to_json(),
        "seed": game.seed,
        "sandbox": game.sandbox,
        "initial": initial,
        "scripts": {sid: _replay_script(s, player) for sid, s in game.scripts.items()},
        "events": [redact_event(e, owners, player).to_json() for e in game.events],
        "final": {
            "round": game.state.round,
            "androids": [
                android_json(a, private=a.owner == player) for a in game.state.androids.values()
            ],
            "scores": status(game).to_json()["players"],
        },
    }


def _replay_script(script: store.StoredScript, player: str) -> dict:
    """A script as ``player``'s replay shows it: their own whole (with its source map), another
    player's without its code (the map, which names their files, is left out too)."""
    if script.player != player:
        return {
            "player": script.player,
            "name": script.name,
            "sha256": script.sha256,
            "bundle": REDACTED,
        }
    return script.to_json()


def replay_json(path: str | Path | store.Game, player: str) -> str:
    """:func:`replay_export` as compact JSON text (one line)."""
    return json.dumps(replay_export(path, player), ensure_ascii=False, separators=(",", ":")) + "\n"


def write_replay(path: str | Path | store.Game, player: str, output: str | Path) -> int:
    """Write :func:`replay_json` to ``output`` atomically; returns how many events it holds."""
    game = open_game(path)
    text = replay_json(game, player)
    try:
        store.write_atomic(Path(output), text.encode("utf-8"))
    except OSError as error:
        raise ApiError(f"cannot write {output} ({error.strerror or error})") from None
    return len(game.events)
