"""A recorded game, moment by moment: the frames `nova play` steps through and the lab draws.

The log is replayed from the initial world, without running any script (the engine's Replayer
checks each event as it goes); a frame is the whole board after setup, after each round, or with
``per_turn`` after each turn too.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .. import engine, store
from ..engine.events import Event, RoundEnded, RoundStarted, Turn
from ..engine.state import GameState
from ..engine.view import tile_json
from .convert import android_state, building_state, score_lines, visible_tile
from .errors import ApiError
from .results import EventLine, Frame, FrameScore
from .wording import describe_event


@dataclass
class Moment:
    """The replayed state at one moment, and the events since the previous moment."""

    round: int
    turn: int | None
    state: GameState
    events: list[Event]


def moments(game: store.Game, *, per_turn: bool = False) -> Iterator[Moment]:
    """The game after setup, after each round (and with ``per_turn`` after each turn), in order.
    Each moment's state is the live one: it changes when the iteration goes on."""
    state = engine.from_json(game.initial, game.rules)
    replayer = engine.Replayer(state)
    pending: list[Event] = []
    turn = 0
    for index, event in enumerate(game.events):
        kind = type(event)
        if kind is RoundStarted and pending:
            # setup events before a round (joins, uploads, launches) make a moment of their own
            yield Moment(state.round, None, state, pending)
            pending = []
        replayer.apply(index, event)
        pending.append(event)
        if kind is RoundStarted:
            turn = 0
        elif kind is Turn:
            turn += 1
            if per_turn:
                yield Moment(state.round, turn, state, pending)
                pending = []
        elif kind is RoundEnded:
            yield Moment(state.round, None, state, pending)
            pending = []
    if pending or not game.events:
        yield Moment(state.round, None, state, pending)


def frame_of(moment: Moment) -> Frame:
    state = moment.state
    tiles = tuple(
        visible_tile(tile_json(state, index))  # the views' projection (engine/view.py)
        for index, tile in enumerate(state.tiles)
        if tile.composition or tile.scattered
    )
    seats = {p.id: p.seat for p in state.players.values()}
    owners = {a.id: a.owner for a in state.androids.values()}
    return Frame(
        round=moment.round,
        turn=moment.turn,
        width=state.width,
        height=state.height,
        tiles=tiles,
        androids=tuple(android_state(a) for a in state.androids.values()),
        buildings=tuple(building_state(state, b) for b in state.buildings.values()),
        players=tuple(
            FrameScore(id=s.player, seat=seats[s.player], score=s.points, breakdown=score_lines(s))
            for s in engine.scores(state)
        ),
        events=tuple(EventLine(event, describe_event(event, owners)) for event in moment.events),
    )


class Frames(Iterator[Frame]):
    """The frames of a recorded game, made one at a time as they are read (a long game is never
    held whole: `nova play` in a pipe prints each frame and lets it go). ``last_round`` is the
    game's last round, known before the first frame."""

    def __init__(self, game: store.Game, frames: Iterator[Frame]) -> None:
        self.last_round: int = game.state.round
        self._frames = frames

    def __next__(self) -> Frame:
        return next(self._frames)


def replay_frames(
    path: str | Path | store.Game,
    *,
    first_round: int = 0,
    last_round: int | None = None,
    per_turn: bool = False,
) -> Frames:
    """The frames of a recorded game (a game file, or a player's replay export), from
    ``first_round`` to ``last_round`` (both included; the frame of round 0 is the world after
    setup). With ``per_turn``, a frame after every turn too (``turn`` counts the turns of its
    round), then the round's end. A range that the game does not have is refused at once, before
    any frame is made."""
    game = path if isinstance(path, store.Game) else store.load(path, replays=True)
    if first_round < 0 or (last_round is not None and last_round < first_round):
        raise ApiError(
            f"there is no round range {first_round}-{last_round}; give rounds from 0 to {game.state.round}"
        )
    if first_round > game.state.round:
        raise ApiError(
            f"{game.path} has no round {first_round} (it has rounds 0-{game.state.round})"
        )
    return Frames(game, _frames(game, first_round, last_round, per_turn))


def _frames(
    game: store.Game, first_round: int, last_round: int | None, per_turn: bool
) -> Iterator[Frame]:
    for moment in moments(game, per_turn=per_turn):
        if moment.round < first_round:
            continue
        if last_round is not None and moment.round > last_round:
            return
        yield frame_of(moment)
