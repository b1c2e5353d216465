"""The words every front end uses for a game's events and scores, written once.

`nova events`, `nova play`, the MCP tools and the lab all say what happened in the same
sentences: an event line says what an action did (what was collected, deposited, paid, damaged,
repaired, built, destroyed and why), a round end what the buildings produced and what hurt or
wrecked an android. The facts come from the engine's event payloads; this module only words them.
Events written before the payloads carried the details (older game files) are worded with what
they have.

Plain functions over the engine's event values (read by their ``kind`` and fields, the engine
itself never imported here) and score results by duck typing: no model is imported here, so a
command that only prints stays quick to start.

>>> from nova_tools.engine.events import RoundEnded, Turn
>>> from nova_tools.engine.reasons import Outcome
>>> describe_event(Turn(4, "android-2", 0, Outcome.ACCEPTED, {"type": "android.collect"},
...     {"collected": {"metal": 5, "electronics": 1}}))
'r4 android-2 collected 5 metal and 1 electronics'
>>> describe_event(RoundEnded(9, ("android-3",), causes={"android-3": "battery"}))
'r9 round ended: android-3 destroyed (battery ran out)'
>>> points(12.5), points(3.0), materials({})
('12.5', '3', 'nothing')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:  # only for the annotations: importing the engine would slow a quick command
    from ..engine.events import (
        AndroidLaunched,
        Event,
        PlayerJoined,
        RoundEnded,
        RoundStarted,
        ScriptUploaded,
        Turn,
    )

QUOTE = 60  # characters of a broadcast quoted in its line

# The materials in the order the game lists them (rules.models.MATERIALS; repeated here so this
# module imports nothing heavy: a test checks the two agree).
MATERIAL_ORDER = ("metal", "electronics", "polymer", "ore", "water", "acidCanister")

CAUSES = {"health": "health ran out", "battery": "battery ran out"}


def points(value: float) -> str:
    """A score or a health figure as people write it: ``12.5``, ``3``, ``99.85``."""
    if value == int(value):
        return f"{int(value)}"
    return f"{value:.2f}".rstrip("0").rstrip(".")


def materials(bag: Mapping[str, int] | None) -> str:
    """``{"metal": 3, "ore": 1}`` -> ``3 metal and 1 ore`` (``nothing`` when empty)."""
    bag = bag or {}
    parts = [f"{bag[m]} {m}" for m in MATERIAL_ORDER if bag.get(m)]
    parts += [f"{u} {m}" for m, u in bag.items() if m not in MATERIAL_ORDER and u]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def at(position: Mapping[str, int]) -> str:
    return f"({position['x']},{position['y']})"


def breakdown(lines: Iterable) -> str:
    """Where a score comes from: ``buildings.charger 4, materials.ore 24`` (``nothing yet``)."""
    return ", ".join(f"{line.source} {points(line.points)}" for line in lines) or "nothing yet"


def article(noun: str) -> str:
    """``a depot``, ``an extractor``: the word with its article (``noun`` itself comes after)."""
    return "an" if noun[:1].lower() in "aeiou" else "a"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _building(result: Mapping, *, article: str = "the") -> str:
    """``the depot building-4`` (just ``building-4`` when an older event lacks the type)."""
    kind = result.get("buildingType")
    name = result.get("building", "a building")
    return f"{article} {kind} {name}" if kind else name


def _still_to_do(result: Mapping) -> str:
    owed, ticks = result.get("owed"), result.get("remainingTicks")
    parts = []
    if owed:
        parts.append(f"owes {materials(owed)}")
    if ticks is not None:
        parts.append(
            f"{ticks} tick{'s' if ticks != 1 else ''} of work left" if ticks else "no work left"
        )
    return f" ({', '.join(parts)})" if parts else ""


def _turn_words(action: Mapping, result: Mapping) -> str:
    """What an accepted action did."""
    kind = action.get("type", "")
    if kind == "android.wait":
        return "waited"
    if kind == "android.move":
        to = result.get("to")
        return (
            f"moved {action.get('direction', '')} to {at(to)}"
            if to
            else f"moved {action.get('direction', '')}"
        )
    if kind == "android.charge":
        return f"charged {points(result.get('charged', 0))} battery"
    if kind == "android.collect":
        return f"collected {materials(result.get('collected'))}"
    if kind == "android.deposit":
        return f"deposited {materials(result.get('deposited'))} into {_building(result)}"
    if kind == "android.withdraw":
        return f"withdrew {materials(result.get('withdrawn'))} from {_building(result)}"
    if kind == "android.start-construction":
        kind_built = action.get("buildingType", "building")
        name = result.get("building", "")
        paid = f", paying {materials(result['paid'])}" if result.get("paid") else ""
        if result.get("completed"):
            return f"built {article(kind_built)} {kind_built} {name} at once{paid}"
        return f"started {article(kind_built)} {kind_built} site {name}{paid}{_still_to_do(result)}"
    if kind == "android.continue-construction":
        did = [f"paid {materials(result['paid'])}"] if result.get("paid") else []
        if result.get("ticked"):
            did.append("did a tick of work")
        done = ", ".join(did) or "nothing to do"
        kind_built, name = result.get("buildingType"), result.get("building", "")
        if result.get("completed"):
            return f"completed {f'the {kind_built} ' if kind_built else ''}{name} ({done})"
        site = f"the {kind_built} site {name}" if kind_built else f"the site {name}"
        return f"worked on {site}: {done}{_still_to_do(result)}"
    if kind == "android.salvage":
        return _salvage_words(result)
    if kind == "android.repair":
        repaired = result.get("repaired")
        health = points(result["health"]) if "health" in result else "?"
        gained = f" by {points(repaired)}" if repaired is not None else ""
        paid = f" for {materials(result['paid'])}" if result.get("paid") else ""
        return f"repaired {_building(result)}{gained} to health {health}{paid}"
    if kind == "android.broadcast":
        content = str(action.get("content", ""))
        return f"broadcast {_clip(content, QUOTE)!r}"
    if kind == "android.clean-acid":
        tile = result.get("tile")
        where = f" on {at(tile)}" if tile else ""
        left = f" ({result['acidLeft']} left)" if "acidLeft" in result else ""
        into = (
            f"; {result.get('cleaned', 0)} acidCanister into {result['building']}"
            if result.get("cleaned") and result.get("building")
            else ""
        )
        return f"cleaned {result.get('cleaned', 0)} acid{where}{left}{into}"
    if kind == "android.launch":
        return f"launched {result.get('android', 'an android')} running {result.get('script', action.get('scriptId', '?'))}"
    if kind == "android.dismantle":
        target = action.get("targetAndroidId")
        return f"dismantled {target}" if target else "dismantled itself"
    return kind or "acted"


def _salvage_words(result: Mapping) -> str:
    owner = result.get("owner")
    kind = result.get("buildingType")
    name = result.get("building", "a building")
    target = (
        f"{owner}'s {kind} {name}" if owner and kind else (f"the {kind} {name}" if kind else name)
    )
    damage = f"{points(result['damage'])} damage" if "damage" in result else "damaged it"
    if not result.get("destroyed"):
        health = f", health {points(result['health'])} left" if "health" in result else ""
        return f"salvaged {target}: {damage}{health}"
    where = f" on {at(result['tile'])}" if result.get("tile") else " on its tile"
    parts = []
    if result.get("returned"):
        parts.append(f"{materials(result['returned'])} returned")
    if result.get("spilled"):
        parts.append(f"{materials(result['spilled'])} spilled from its storage")
    scattered = f"; {' and '.join(parts)}{where}" if parts else "; nothing returned"
    return f"salvaged {target}: {damage}, destroyed it{scattered}"


def _failed_words(turn: Turn) -> str:
    kind = turn.action_type
    head = f"FAILED {kind}" if kind else "FAILED"
    return f"{head} [{turn.code or '?'}] {turn.reason or ''}".rstrip()


def whose(android: object, owners: Mapping[str, str] | None) -> str:
    """``alice's android-4``: an android named with its owner (just its id when unknown).

    >>> whose("android-4", {"android-4": "alice"}), whose("android-9", {}), whose("android-2", None)
    ("alice's android-4", 'android-9', 'android-2')
    """
    owner = owners.get(android) if owners and isinstance(android, str) else None
    return f"{owner}'s {android}" if owner else f"{android}"


def _round_end_words(event: RoundEnded, owners: Mapping[str, str] | None) -> list[str]:
    parts = []
    for made in event.production or ():
        owner = f"{made.owner}'s " if made.owner else ""
        what = f"{owner}{made.building_type or 'building'} {made.building}".rstrip()
        did = []
        if made.extracted:
            did.append(f"extracted {materials(made.extracted)}")
        if made.made:
            did.append(f"turned {materials(made.used)} into {materials(made.made)}")
        parts.append(f"{what} {' and '.join(did)}")
    for hurt in event.hazards or ():
        took = [
            f"{points(amount)} {name}"
            for name, amount in (("acid", hurt.acid), ("radiation", hurt.radiation))
            if amount
        ]
        parts.append(f"{whose(hurt.android, owners)} took {' and '.join(took)} damage")
    causes = event.causes or {}
    for android in event.destroyed:
        cause = CAUSES.get(causes.get(android, ""), "")
        parts.append(f"{whose(android, owners)} destroyed" + (f" ({cause})" if cause else ""))
    return parts


def describe_event(event: Event, owners: Mapping[str, str] | None = None) -> str:
    """One line saying what an event of the log was: ``r12 alice's android-3 deposited 5 metal
    into the depot building-4``; a failed turn says FAILED, its reason code and why. ``owners``
    (android id -> player) names each android's owner; without it an android is named by its id.
    Every player may read whose android is whose: each launch is in the log under its player."""
    # read by its kind: isinstance would need the engine imported (see the module's docstring)
    kind = event.kind
    if kind == "turn":
        turn = cast("Turn", event)
        head = f"r{turn.round} {whose(turn.android, owners)}"
        if turn.outcome.failed:
            return f"{head} {_failed_words(turn)}"
        return f"{head} {_turn_words(turn.action or {}, turn.result or {})}"
    if kind == "round.ended":
        ended = cast("RoundEnded", event)
        parts = _round_end_words(ended, owners)
        return f"r{ended.round} round ended" + (f": {'; '.join(parts)}" if parts else "")
    if kind == "round.started":
        return f"r{cast('RoundStarted', event).round} round started"
    if kind == "player.joined":
        joined = cast("PlayerJoined", event)
        return (
            f"{joined.player} joined in seat {joined.seat + 1}, with the initial charger "
            f"{joined.charger} at ({joined.x},{joined.y})"
        )
    if kind == "script.uploaded":
        uploaded = cast("ScriptUploaded", event)
        return f"{uploaded.player} uploaded {uploaded.script} ({uploaded.name})"
    launched = cast("AndroidLaunched", event)
    return f"{launched.player} launched {launched.android} running {launched.script} on {launched.charger}"


def nothing_matches(filters: Mapping[str, object], log_length: int, matching: int = 0) -> str:
    """The sentence for an empty page of events: what was asked for and found nothing (or, past
    the end of the matches, where they end), and how big the log is.

    >>> nothing_matches({"failed": True, "round": 3}, 120)
    'No failed turns in round 3 (the log holds 120 events).'
    >>> nothing_matches({"offset": 50}, 120, 12)
    'No events from offset 50: the 12 matching events are at offsets 0-11.'
    >>> nothing_matches({"action": "deposit", "outcome": "refused", "from_round": 5}, 120)
    'No refused deposit turns from round 5 on (the log holds 120 events).'
    """
    kind = " ".join(
        str(filters[k]).removeprefix("android.") for k in ("outcome", "action") if filters.get(k)
    )
    what = "failed turns" if filters.get("failed") else "events"
    if kind:
        what = f"{kind} turns" if not filters.get("failed") else f"failed {kind} turns"
    scope = []
    first, last = filters.get("from_round"), filters.get("to_round")
    if filters.get("round") is not None:
        scope.append(f"in round {filters['round']}")
    elif first is not None and last is not None:
        scope.append(f"in rounds {first}-{last}")
    elif first is not None:
        scope.append(f"from round {first} on")
    elif last is not None:
        scope.append(f"up to round {last}")
    if filters.get("android") is not None:
        scope.append(f"of {filters['android']}")
    elif filters.get("mine"):
        scope.append("of your androids")
    where = " " + " ".join(scope) if scope else ""
    if matching:
        return f"No {what}{where} from offset {filters.get('offset')}: the {matching} matching {what} are at offsets 0-{matching - 1}."
    return f"No {what}{where} (the log holds {log_length} event{'s' if log_length != 1 else ''})."


# --- scores over time ---------------------------------------------------------------------------

NICE_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)


def history_step(rounds: int, rows: int = 20) -> int:
    """A round step that lists a game of ``rounds`` rounds in about ``rows`` rows (1, 2, 5, 10 ...).

    >>> history_step(100), history_step(12), history_step(400)
    (5, 1, 20)
    """
    for step in NICE_STEPS:
        if rounds / step <= rows:
            return step
    return -(-rounds // rows)


def _leaders_text(leaders, names, scores) -> str:
    if not leaders:
        return "nobody leads (no points yet)"
    by_player = dict(zip(names, scores, strict=True))
    if len(leaders) > 1:
        return f"{' and '.join(leaders)} tie at {points(by_player[leaders[0]])}"
    leader = leaders[0]
    others = sorted((v for p, v in by_player.items() if p != leader), reverse=True)
    ahead = (
        f" ({points(by_player[leader])} to {points(others[0])})"
        if others
        else f" ({points(by_player[leader])})"
    )
    return f"{leader} leads{ahead}"


def score_history_lines(history, every: int | None = None) -> list[str]:
    """`nova status --history`: a table of the scores every ``every`` rounds (the last round
    always listed), then the rounds where the lead changed and the widest gap. ``history`` is an
    :class:`~nova_tools.api.results.ScoreHistory`."""
    names = [p.id for p in history.players]
    if not names or not history.rounds:
        return ["No scores yet: nobody has joined the game (`nova upload` a script to join)."]
    last = history.rounds[-1]
    step = every or history_step(last)
    shown = history.sampled(step) if step > 1 else history
    columns = [[points(v) for v in p.scores] for p in shown.players]
    widths = [max(len(n), *(len(v) for v in col)) for n, col in zip(names, columns, strict=True)]
    round_width = max(len("round"), len(str(last)))
    title = "every round" if step == 1 else f"every {step} rounds and the last"
    lines = [f"Scores after each round ({title}; round 0 is after setup):"]
    lines.append(
        "  "
        + "round".rjust(round_width)
        + "".join("  " + n.rjust(w) for n, w in zip(names, widths, strict=True))
    )
    for i, round_number in enumerate(shown.rounds):
        lines.append(
            "  "
            + str(round_number).rjust(round_width)
            + "".join("  " + col[i].rjust(w) for col, w in zip(columns, widths, strict=True))
        )
    if history.lead_changes:
        lines.append("Where the lead changed:")
        lines += [
            f"  round {c.round}: {_leaders_text(c.leaders, names, c.scores)}"
            for c in history.lead_changes
        ]
    if len(names) >= 2:
        gap, at_round, ahead, behind = _widest_gap(history)
        if gap > 0:
            lines.append(
                f"Widest gap: {points(gap)} points, round {at_round} ({ahead} over {behind})."
            )
    return lines


def _widest_gap(history) -> tuple[float, int, str, str]:
    """The biggest lead the first player had over the second (or any over any), and when."""
    best = (0.0, 0, "", "")
    for i, round_number in enumerate(history.rounds):
        ranked = sorted(history.players, key=lambda p: -p.scores[i])
        gap = ranked[0].scores[i] - ranked[1].scores[i]
        if gap > best[0]:
            best = (gap, round_number, ranked[0].id, ranked[1].id)
    return best
