"""Small helpers shared by the engine tests: exact worlds, one turn, and "nothing else changed"."""

from __future__ import annotations

import copy

from nova_tools.engine import (
    Decision,
    Event,
    GameState,
    Scenario,
    Turn,
    apply_turn,
    event_from_json,
    to_json,
)
from nova_tools.rules import Rules, resolve

W, H = 7, 7
P1, P2 = "p1", "p2"
P1_CHARGER, P2_CHARGER = (0, 0), (6, 6)
CENTRE = (3, 3)


def rules_with(override: dict | None = None) -> Rules:
    return resolve(override or {})


def scenario(override: dict | None = None, *, width: int = W, height: int = H) -> Scenario:
    """A bare board with two players and their initial chargers in opposite corners."""
    s = Scenario(rules_with(override), width=width, height=height)
    s.player(P1, charger_at=P1_CHARGER)
    s.player(P2, charger_at=(width - 1, height - 1))
    s.script(P1, "starter")
    s.script(P2, "starter")
    return s


def turn(state: GameState, android_id: str, action: object) -> Turn:
    return apply_turn(state, android_id, Decision(value=action))


def as_json(events: list[Event]) -> list[dict]:
    """A log as the game file holds it (copies: a test may tamper with them)."""
    return copy.deepcopy([e.to_json() for e in events])


def typed(log: list[dict]) -> list[Event]:
    """A log of JSON objects (as a file holds it, perhaps tampered with) as the engine's events."""
    return [event_from_json(e) for e in log]


def snapshot(state: GameState) -> dict:
    return copy.deepcopy(to_json(state))


def without_android_health(data: dict, android_id: str) -> dict:
    data = copy.deepcopy(data)
    for android in data["androids"]:
        if android["id"] == android_id:
            android.pop("health")
    return data


def android_health(data: dict, android_id: str) -> float:
    return next(a["health"] for a in data["androids"] if a["id"] == android_id)


def mirror_x(x: int, width: int) -> int:
    return width - 1 - x
