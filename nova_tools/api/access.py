"""Opening a game to read it, and checking who reads it.

Every read takes a path or a game opened once with :func:`open_game` (to pass to several reads
without reading the file again); a front end passes that object along and never looks inside.
"""

from __future__ import annotations

from pathlib import Path

from .. import engine, store
from ..rules import Rules


def open_game(path: str | Path | store.Game) -> store.Game:
    """A game read once, to hand to several reads (each also accepts a path)."""
    return path if isinstance(path, store.Game) else store.load(path)


def read_game(path: str | Path | store.Game | store.MatchRecord) -> store.Game | store.MatchRecord:
    """A game, or a peer match record (kept under ``--disclosure recording``), for the reads that
    take both (status, an android)."""
    return path if isinstance(path, (store.Game, store.MatchRecord)) else store.read(path)


def require_player(game: str | Path | store.Game, player: str) -> store.Game:
    """The game, if ``player`` has joined it; else the refusal ``unknown-player``."""
    game = open_game(game)
    if player not in game.state.players:
        raise engine.UnknownPlayer(player)
    return game


def game_rules(path: str | Path | store.Game) -> Rules:
    """The rules a game is played with (every number resolved)."""
    return open_game(path).rules


def write_game_bytes(path: str | Path, data: bytes) -> None:
    """Keep a game file played elsewhere (an arena game's bytes) at ``path``, written whole."""
    store.write_atomic(Path(path), data)
