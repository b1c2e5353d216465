"""From the engine's records to the api's results (nova_tools.api.results): the one place that
knows both. Nothing here decides a rule; capacity, scores and sight come from the engine."""

from __future__ import annotations

from .. import engine
from ..engine.state import Android, Building, GameState
from ..engine.view import android_json, building_json
from ..limits import utf16_length
from .results import (
    AndroidReport,
    AndroidState,
    BuildingState,
    Holdings,
    Message,
    OwnAndroid,
    Position,
    ScoreLine,
    ScriptRef,
    Standing,
    VisibleTile,
)


def position(x: int, y: int) -> Position:
    return Position(x=x, y=y)


def android_state(android: Android) -> AndroidState:
    data = android_json(android, private=False)
    del data["memory"], data["recording"]
    return AndroidState.model_validate(data)


def android_report(android: Android) -> AndroidReport:
    return AndroidReport.model_validate(android_json(android, private=True))


def own_android(android: Android) -> OwnAndroid:
    data = android_json(android, private=True)
    data["memoryLength"] = utf16_length(data.pop("memory"))
    data["recordingLength"] = utf16_length(data.pop("recording"))
    return OwnAndroid.model_validate(data)


def building_state(state: GameState, building: Building) -> BuildingState:
    return BuildingState.model_validate(building_json(state, building))


def score_lines(score: engine.Score) -> tuple[ScoreLine, ...]:
    return tuple(ScoreLine(source=c.source, points=c.points) for c in score.breakdown)


def standings(state: GameState) -> tuple[Standing, ...]:
    """Every player's score with its breakdown, active androids and wrecks, in join order."""
    players = []
    for score in engine.scores(state):
        owned = [a for a in state.androids.values() if a.owner == score.player]
        players.append(
            Standing(
                id=score.player,
                score=score.points,
                breakdown=score_lines(score),
                active_androids=sum(1 for a in owned if a.active),
                wrecks=sum(1 for a in owned if not a.active),
            )
        )
    return tuple(players)


def holdings(state: GameState, player: str) -> Holdings:
    """What ``player`` owns, wherever it is (fog does not hide your own things)."""
    return Holdings(
        capacity=engine.capacity(state, player),
        active_androids=engine.active_count(state, player),
        androids=tuple(own_android(a) for a in state.androids.values() if a.owner == player),
        buildings=tuple(
            building_state(state, b) for b in state.buildings.values() if b.owner == player
        ),
        scripts=tuple(
            ScriptRef(id=s.id, name=s.name) for s in state.scripts.values() if s.owner == player
        ),
    )


def visible_tile(data: dict) -> VisibleTile:
    """A tile of the script-facing world view (engine.world_view)."""
    return VisibleTile.model_validate(data)


def message(data: dict) -> Message:
    return Message.model_validate(data)
