"""A recorded game for a viewer: its frames as changes (a timeline), and one android at one moment.

``replay_frames`` gives every frame whole, which is what a text board wants; a viewer that lets
its user scrub through hundreds of rounds wants them all at once and small: the board after setup
once, then what each round (or turn) changed. :func:`replay_timeline` replays the log once and
gives exactly that; :func:`android_at` answers a click on an android at any moment (its state,
notes and last turn). Nothing here decides a rule: the frames are the engine's state, the fog is
the engine's world view, the scores are the engine's.
"""

from __future__ import annotations

from pathlib import Path

from .. import engine, store
from ..engine.events import Turn
from ..engine.materials import ordered
from ..engine.state import ordered_dict
from ..engine.view import REDACTED, android_json, building_json
from ..limits import NOTE_KEYS
from .access import open_game, require_player
from .errors import ApiError
from .frames import Moment, moments
from .reports import redact_turn
from .results import (
    AndroidMoment,
    AndroidState,
    BuildingState,
    FrameChange,
    FrameScore,
    Position,
    ScoreLine,
    Timeline,
    TurnSummary,
    VisibleTile,
)


def _position(index: int, width: int) -> dict:
    return {"x": index % width, "y": index // width}


class _Changes:
    """Items of one kind keyed by id, compared with the previous frame's by a cheap fingerprint;
    only what changed is turned into its result model."""

    def __init__(self) -> None:
        self.seen: dict = {}  # key -> fingerprint

    def update(self, current: dict, build) -> tuple[list, list]:
        """``current``: key -> fingerprint; ``build(key)`` makes the model of a changed item."""
        changed = [build(key) for key, mark in current.items() if self.seen.get(key) != mark]
        gone = [key for key in self.seen if key not in current]
        self.seen = current
        return changed, gone


def _building_mark(b) -> tuple:
    return (
        b.x,
        b.y,
        b.owner,
        b.type,
        b.health,
        b.complete,
        b.remaining_ticks,
        tuple(b.invested.items()),
        tuple(b.storage.items()),
    )


def _android_mark(a) -> tuple:
    return (a.x, a.y, a.owner, a.script, a.battery, a.health, a.active, tuple(a.cargo.items()))


class _Framer:
    """Turns successive moments of one replay into :class:`FrameChange` records."""

    def __init__(self, game: store.Game, player: str | None) -> None:
        self.player = player
        self.width = game.state.width
        self.tiles = _Changes()
        self.androids = _Changes()
        self.buildings = _Changes()
        self.scores: tuple | None = None
        self.score_inputs: tuple | None = None

    def _tile(
        self, state: engine.GameState, index: int, revealed: list[str] | None = None
    ) -> VisibleTile:
        tile = state.tiles[index]
        return VisibleTile(
            position=Position(**_position(index, self.width)),
            composition=ordered_dict(tile.composition),
            scattered=ordered(tile.scattered),
            revealed_by=tuple(revealed or ()),
        )

    def _android(self, state: engine.GameState, android_id: str) -> AndroidState:
        # built without validation: one per android per turn that changed it (thousands in a long
        # game), from the engine's own typed state (a test holds it equal to the validated form)
        a = state.androids[android_id]
        return AndroidState.model_construct(
            id=a.id,
            owner_id=a.owner,
            script_id=a.script,
            position=Position.model_construct(x=a.x, y=a.y),
            battery=a.battery,
            health=a.health,
            active=a.active,
            cargo=ordered(a.cargo),
        )

    def _building(self, state: engine.GameState, building_id: str) -> BuildingState:
        return BuildingState.model_validate(building_json(state, state.buildings[building_id]))

    def observe(self, moment: Moment) -> FrameChange:
        state = moment.state
        if self.player is None:
            tiles, androids, buildings = self._whole(state)
        else:
            tiles, androids, buildings = self._fogged(state, self.player)
        changed_tiles, gone_tiles = self.tiles.update(tiles[0], tiles[1])
        changed_androids, gone_androids = self.androids.update(
            androids, lambda key: self._android(state, key)
        )
        changed_buildings, gone_buildings = self.buildings.update(
            buildings, lambda key: self._building(state, key)
        )
        return FrameChange(
            round=moment.round,
            turn=moment.turn,
            tiles=tuple(changed_tiles),
            tiles_gone=tuple(Position(**_position(i, self.width)) for i in gone_tiles),
            androids=tuple(changed_androids),
            androids_gone=tuple(gone_androids),
            buildings=tuple(changed_buildings),
            buildings_gone=tuple(gone_buildings),
            players=self._scores(state),
            events=len(moment.events),
        )

    def _whole(self, state: engine.GameState):
        """Every tile with something in the ground or on it, every android, every building."""
        tiles = {
            index: (tuple(tile.composition.items()), tuple(tile.scattered.items()))
            for index, tile in enumerate(state.tiles)
            if tile.composition or tile.scattered
        }
        androids = {a.id: _android_mark(a) for a in state.androids.values()}
        buildings = {b.id: _building_mark(b) for b in state.buildings.values()}
        return (tiles, lambda index: self._tile(state, index)), androids, buildings

    def _fogged(self, state: engine.GameState, player: str):
        """What ``player`` saw (engine.world_view) and their own things wherever they were."""
        view = engine.world_view(state, player)
        width = self.width
        revealed = {
            t["position"]["y"] * width + t["position"]["x"]: t.get("revealedBy", [])
            for t in view["tiles"]
        }
        tiles = {
            index: (
                tuple(state.tiles[index].composition.items()),
                tuple(state.tiles[index].scattered.items()),
                tuple(seen),
            )
            for index, seen in revealed.items()
        }
        seen_androids = {a["id"] for a in view["androids"]}
        seen_buildings = {b["id"] for b in view["buildings"]}
        androids = {
            a.id: _android_mark(a)
            for a in state.androids.values()
            if a.id in seen_androids or a.owner == player
        }
        buildings = {
            b.id: _building_mark(b)
            for b in state.buildings.values()
            if b.id in seen_buildings or b.owner == player
        }
        return (tiles, lambda index: self._tile(state, index, revealed[index])), androids, buildings

    def _scores(self, state: engine.GameState) -> tuple[FrameScore, ...] | None:
        if self.player is not None:
            return None  # the scores are everyone's, in the whole timeline
        # engine.scores reads the completed buildings (and what they store) of each player: with
        # the same players and buildings, the scores are the last frame's (a test holds this
        # against replay_frames, which scores every frame).
        inputs = (tuple(state.players), self.buildings.seen)
        if inputs == self.score_inputs:
            return None
        self.score_inputs = inputs
        seats = {p.id: p.seat for p in state.players.values()}
        current = tuple((s.player, s.points, s.breakdown) for s in engine.scores(state))
        if current == self.scores:
            return None
        self.scores = current
        return tuple(
            FrameScore(
                id=player,
                seat=seats[player],
                score=points,
                breakdown=tuple(ScoreLine(source=c.source, points=c.points) for c in breakdown),
            )
            for player, points, breakdown in current
        )


def _check_rounds(game: store.Game, first_round: int, last_round: int | None) -> None:
    if first_round < 0 or (last_round is not None and last_round < first_round):
        raise ApiError(
            f"there is no round range {first_round}-{last_round}; give rounds from 0 to {game.state.round}"
        )
    if first_round > game.state.round:
        raise ApiError(
            f"{game.path} has no round {first_round} (it has rounds 0-{game.state.round})"
        )


def replay_timeline(
    path: str | Path | store.Game,
    *,
    player: str | None = None,
    per_turn: bool = False,
    first_round: int = 0,
    last_round: int | None = None,
) -> Timeline:
    """The frames of a recorded game from ``first_round`` to ``last_round`` (both included) as
    changes: the first frame's against the last frame before ``first_round`` (for round 0, an
    empty board), each later one's against the one before it. With ``per_turn``, a frame after
    every turn too; with ``player``, the board as that player saw it (fogged; their own things
    always shown)."""
    game = open_game(path) if player is None else require_player(path, player)
    _check_rounds(game, first_round, last_round)
    framer = _Framer(game, player)
    frames = []
    for moment in moments(game, per_turn=per_turn):
        if last_round is not None and moment.round > last_round:
            break
        if moment.round < first_round:
            if moment.round == first_round - 1 and moment.turn is None:
                framer.observe(moment)  # the base the first frame is told against
            continue
        frames.append(framer.observe(moment))
    return Timeline(
        player=player,
        width=game.state.width,
        height=game.state.height,
        final_turn=game.rules.match.final_round,
        last_round=game.state.round,
        per_turn=per_turn,
        frames=tuple(frames),
    )


def _turn_summary(turn: Turn) -> TurnSummary:
    action = turn.action
    if action is not None:
        action = {
            k: v for k, v in action.items() if k not in NOTE_KEYS
        }  # the notes (or the log's edits of them)
    return TurnSummary.of(turn, action)


def android_at(
    path: str | Path | store.Game,
    android_id: str,
    *,
    round: int,
    turn: int | None = None,
    player: str | None = None,
) -> AndroidMoment:
    """Android ``android_id`` as it stood after round ``round`` (0: after setup), or with ``turn``
    after that many turns of the round, and its last turn up to then. With ``player``, as that
    player may read it: another player's memory and recording are redacted (rulebook section 14)."""
    game = open_game(path) if player is None else require_player(path, player)
    _check_rounds(game, round, round)
    if android_id not in game.state.androids:
        known = ", ".join(list(game.state.androids)[:10]) or "none yet"
        raise ApiError(f"there is no android {android_id!r} in {game.path} (androids: {known})")
    owners = {a.id: a.owner for a in game.state.androids.values()}
    last: Turn | None = None
    found: tuple[dict | None, Turn | None] | None = None  # (the android then, its last turn then)
    for moment in moments(game, per_turn=turn is not None):
        if moment.round > round:
            break
        for event in moment.events:
            if type(event) is Turn and event.android == android_id:
                last = event
        if moment.round == round and (turn is None or moment.turn == turn):
            # the moment's state is live (the replay goes on): keep a copy of the android now
            android = moment.state.androids.get(android_id)
            found = (None if android is None else android_json(android, private=True), last)
            if turn is not None:
                break
    if found is None:
        raise ApiError(f"round {round} of {game.path} has no turn {turn}")
    data, last = found
    if data is None:
        raise ApiError(
            f"{android_id} had not been launched by round {round}"
            + (f", turn {turn}" if turn is not None else "")
        )
    if player is not None and data["ownerId"] != player:
        data["memory"] = data["recording"] = REDACTED
    if last is not None and player is not None:
        last = redact_turn(last, owners, player)
    return AndroidMoment.model_validate(
        {
            **data,
            "round": round,
            "turn": turn,
            "lastTurn": None if last is None else _turn_summary(last),
        }
    )
