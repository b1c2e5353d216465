"""One turn of a script, judged by the real engine, without touching any game file."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from ..engine.state import from_json, to_json
from ..limits import utf16_length
from ..play import GameSession, GameSpec, Seat
from ..rules import Rules
from ..toolchain.compile import CompiledScript
from .access import open_game, require_player
from .errors import ApiError
from .games import compile_upload
from .results import DryRun, SourcePlace

DRY_RUN_PLAYER = "you"
MAX_LOG_LINES = 50
MAX_LOG_LINE_CHARS = 500


def dry_run(
    entry: str | Path | None = None,
    *,
    files: Mapping[str, str] | None = None,
    entry_name: str | None = None,
    compiled: CompiledScript | None = None,
    game: str | Path | None = None,
    android_id: str | None = None,
    player: str | None = None,
    rules: Rules | None = None,
) -> DryRun:
    """Run one turn of a script against a game's current state (as ``android_id``, or the
    player's first active android) or a fresh default world, and say what the engine would do.
    The game, player and android are checked before the (slower) compile."""
    if game is not None:
        loaded = open_game(game) if player is None else require_player(game, player)
        rules = loaded.rules
        state = from_json(to_json(loaded.state), rules)  # a copy: the game itself is never changed
        if android_id is None:
            candidates = [
                a
                for a in state.androids.values()
                if a.active and (player is None or a.owner == player)
            ]
            if not candidates:
                raise ApiError(
                    f"{game} has no active android{' of ' + player if player else ''} to dry-run as; pass an android id"
                )
            android_id = candidates[0].id
        android = state.androids.get(android_id)
        if android is None:
            raise ApiError(f"there is no android {android_id!r} in {game}")
        if player is not None and android.owner != player:
            raise ApiError(f"{android_id} belongs to another player")
        if not android.active:
            raise ApiError(f"{android_id} is a wreck and takes no more turns")
        compiled = compiled or compile_upload(entry, files, entry_name)
        session = GameSession(
            state,
            {android.script: compiled.bundle},
            source_maps={android.script: compiled.source_map},
        )
    else:
        # a fresh default world with one player and one android on its initial charger
        rules = rules or Rules()
        compiled = compiled or compile_upload(entry, files, entry_name)
        session = GameSession.start(
            GameSpec(rules, 0, (Seat(DRY_RUN_PLAYER, compiled, "dry-run"),), rounds=1)
        )
        android_id = next(iter(session.state.androids))
    decision, event = session.trial_turn(android_id)
    value = decision.value if decision.error is None else None
    memory = value.get("memory") if isinstance(value, dict) else None
    recording = value.get("recording") if isinstance(value, dict) else None
    located = session.runner.last_place
    return DryRun(
        android_id=android_id,
        round=session.round,
        action=cast(Any, value),  # the action the script returned; the model validates it
        ticks=decision.ticks,
        accepted=not event.failed,
        outcome=event.outcome,
        code=event.code,
        reason=event.reason,
        penalty=rules.android.failed_turn_health_penalty,
        memory_size=utf16_length(memory) if isinstance(memory, str) else None,
        recording_size=utf16_length(recording) if isinstance(recording, str) else None,
        logs=tuple(line[:MAX_LOG_LINE_CHARS] for line in session.runner.last_logs[:MAX_LOG_LINES]),
        stack=tuple(
            SourcePlace(file=p.file, line=p.line, column=p.column, function=f)
            for f, p in located.stack
        )
        if located
        else (),
    )
