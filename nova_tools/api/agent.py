"""Reads an agent front end (the MCP server) needs beyond the CLI's: a player's own holdings
wherever they stand, a one-line summary of a game, and the event log scoped to one player.

Each is a read of the game file; none changes it. Everything a player may not see is left out
or redacted exactly as :func:`~nova_tools.api.reports.replay_export` does.
"""

from __future__ import annotations

from pathlib import Path

from .. import engine, store
from ..engine.view import android_json, building_json
from .reports import events_page


def open_game(path: str | Path) -> store.Game:
    """Read a game file once, to pass to several reports (each accepts the loaded game)."""
    return store.load(path)


def _game(path: str | Path | store.Game) -> store.Game:
    return path if isinstance(path, store.Game) else store.load(path)


def _require_player(game: store.Game, player: str) -> None:
    if player not in game.state.players:
        raise engine.UnknownPlayer(player)


def player_overview(path: str | Path | store.Game, player: str) -> dict:
    """What ``player`` owns, wherever it is (fog does not hide your own things): android cap and
    use, every android (wrecks included, memory and recording left out: read them one android at
    a time), every building and construction site, and the scripts uploaded so far."""
    game = _game(path)
    _require_player(game, player)
    state = game.state
    androids = []
    for android in state.androids.values():
        if android.owner != player:
            continue
        data = android_json(android, private=True)
        data["memoryLength"] = len(data.pop("memory"))
        data["recordingLength"] = len(data.pop("recording"))
        androids.append(data)
    return {
        "player": player,
        "capacity": engine.capacity(state, player),
        "activeAndroids": engine.active_count(state, player),
        "androids": androids,
        "buildings": [building_json(state, b) for b in state.buildings.values() if b.owner == player],
        "scripts": [{"id": s.id, "name": s.name} for s in state.scripts.values() if s.owner == player],
    }


def game_summary(path: str | Path | store.Game) -> dict:
    """Round, arrival, players and android counts: enough to tell games apart in a list."""
    game = _game(path)
    state = game.state
    return {
        "round": state.round,
        "finalTurn": game.rules.match.final_round,
        "width": state.width,
        "height": state.height,
        "players": list(state.players),
        "activeAndroids": sum(1 for a in state.androids.values() if a.active),
    }


def player_events(
    path: str | Path | store.Game,
    player: str,
    *,
    round: int | None = None,
    android: str | None = None,
    failed_only: bool = False,
    mine_only: bool = False,
    offset: int | None = None,
    limit: int = 20,
) -> dict:
    """A page of the event log as ``player`` may read it (other players' memory and recordings
    redacted). Filters: one round, one android, failed turns only, only the player's own androids'
    turns. Without ``offset``, the newest ``limit`` matching events."""
    return events_page(
        path, round=round, android=android, failed_only=failed_only, mine_only=mine_only, player=player, offset=offset, limit=limit
    )
