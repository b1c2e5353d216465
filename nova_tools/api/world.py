"""A player's world: what they see (fogged, rulebook section 14) and what they own."""

from __future__ import annotations

from pathlib import Path

from .. import engine, store
from ..engine.materials import add
from ..engine.state import GameState
from .access import require_player
from .convert import holdings, message, visible_tile
from .errors import ApiError
from .results import AndroidState, BuildingState, PlayerWorld


def state_after_round(game: store.Game, round: int) -> GameState:
    """The game as it stood after round ``round`` (0: after setup) and anything done between that
    round and the next (launches, uploads), replayed from its log."""
    if not 0 <= round <= game.state.round:
        raise ApiError(f"{game.path} has no round {round} (it has rounds 0-{game.state.round})")
    if round == game.state.round:
        return game.state
    end = next(
        i
        for i, e in enumerate(game.events)
        if type(e) is engine.RoundStarted and e.round == round + 1
    )
    return engine.replay(engine.from_json(game.initial, game.rules), game.events[:end])


def player_world(
    path: str | Path | store.Game, player: str, round: int | None = None, *, whole: bool = False
) -> PlayerWorld:
    """What ``player`` sees now (between rounds), or after round ``round``, and what they own.

    ``whole``: the complete world instead of the player's sight, as ``player``'s replay keeps it
    (every tile, android, building and broadcast; other androids' memory and recording and other
    players' code stay redacted): to study a recorded round, not to play it."""
    game = require_player(path, player)
    state = game.state if round is None else state_after_round(game, round)
    view = engine.world_view(state, player, whole=whole)
    loose: dict[str, int] = {}
    for tile in view["tiles"]:
        add(loose, tile["scattered"])
    return PlayerWorld(
        player=player,
        round=state.round,
        width=state.width,
        height=state.height,
        tiles=tuple(visible_tile(t) for t in view["tiles"]),
        androids=tuple(AndroidState.model_validate(a) for a in view["androids"]),
        buildings=tuple(BuildingState.model_validate(b) for b in view["buildings"]),
        messages=tuple(message(m) for m in view["messages"]),
        yours=holdings(state, player),
        loose=loose,
    )
