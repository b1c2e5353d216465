"""A game played in memory, kept as a game file (:mod:`nova_tools.store`): what ``nova demo``, a
peer match and the arena's ``--out`` write. The file is the one the same game played command by
command gives (create-game, upload, launch, run), byte for byte."""

from __future__ import annotations

from pathlib import Path

from .. import store
from .runner import sandbox_build
from .session import GameSession, SpecError


def stored_game(session: GameSession, path: str | Path) -> store.Game:
    """The game file of a session started from a spec (:meth:`GameSession.start`) that kept its
    events; write it with ``store.save``. Later rounds the session plays are recorded in it too."""
    if session.initial is None or not session.keep_events:
        raise SpecError(
            "only a game played from its start, with its events kept, can be kept as a game file"
        )
    scripts = {
        sid: store.StoredScript(
            seat.player, seat.name, seat.script.sha256, seat.script.bundle, seat.script.source_map
        )
        for sid, seat in session.seats.items()
    }
    state = session.state
    return store.Game(
        Path(path),
        state.rules,
        state.seed,
        sandbox_build(),
        session.initial,
        scripts,
        session.events,
        state,
    )
