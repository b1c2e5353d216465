"""Reading a game: scores, one android, a player's fogged world, the event log, replays."""

from __future__ import annotations

import copy
from pathlib import Path

from .. import engine, store
from ..engine.notes import NOTE_KEYS
from ..engine.view import REDACTED, android_json
from .errors import ApiError


def status(path: str | Path | store.Game | store.MatchRecord) -> dict:
    """The documented ``nova status --json`` shape (DESIGN section 6); a peer match's file (a game
    or a record kept under --disclosure recording) adds its ``match`` account."""
    game = path if isinstance(path, (store.Game, store.MatchRecord)) else store.read(path)
    if isinstance(game, store.MatchRecord):
        return {**game.status, "match": game.match}
    state = game.state
    players = []
    for score in engine.scores(state):
        owned = [a for a in state.androids.values() if a.owner == score.player]
        players.append(
            {
                "id": score.player,
                "score": score.points,
                "breakdown": [{"source": c.source, "points": c.points} for c in score.breakdown],
                "activeAndroids": sum(1 for a in owned if a.active),
                "wrecks": sum(1 for a in owned if not a.active),
            }
        )
    result = {"round": state.round, "finalTurn": game.rules.match.final_round, "players": players}
    if game.match is not None:
        result["match"] = game.match
    return result


def android_report(path: str | Path | store.Game, android_id: str, player: str | None = None) -> dict:
    """One android as its owner sees it. With ``player``, only that player's own androids."""
    game = path if isinstance(path, (store.Game, store.MatchRecord)) else store.read(path)
    if isinstance(game, store.MatchRecord):
        return _recorded_android(game, android_id)
    android = game.state.androids.get(android_id)
    if android is None:
        known = ", ".join(list(game.state.androids)[:10]) or "none yet"
        raise ApiError(f"there is no android {android_id!r} in {game.path} (androids: {known})")
    if player is not None and android.owner != player:
        raise ApiError(f"{android_id} belongs to another player; you can only read your own androids")
    data = android_json(android, private=True)
    return data


def _recorded_android(record: store.MatchRecord, android_id: str) -> dict:
    """One of the player's own androids from a match record: its recording, nothing else."""
    for android in record.androids:
        if android["id"] == android_id:
            return dict(android)
    own = ", ".join(a["id"] for a in record.androids) or "none"
    raise ApiError(f"{record.path} is a match record that keeps only your own androids' recordings, and {android_id!r} is not one of them (yours: {own})")


def world_for(path: str | Path | store.Game, player: str) -> dict:
    """The fogged world as ``player`` sees it now (between rounds)."""
    game = path if isinstance(path, store.Game) else store.load(path)
    if player not in game.state.players:
        raise engine.UnknownPlayer(player)
    return engine.world_view(game.state, player)


def events_page(
    path: str | Path | store.Game,
    *,
    round: int | None = None,
    android: str | None = None,
    failed_only: bool = False,
    mine_only: bool = False,
    player: str | None = None,
    offset: int | None = 0,
    limit: int = 50,
) -> dict:
    """A filtered page of the event log: one round, one android, failed turns only, or (with
    ``player``) only that player's own androids' turns. With ``player``, the events are redacted
    as that player may read them. ``offset=None`` gives the newest ``limit`` matching events."""
    game = path if isinstance(path, store.Game) else store.load(path)
    if player is not None and player not in game.state.players:
        raise engine.UnknownPlayer(player)
    if mine_only and player is None:
        raise ApiError("mine_only needs the player whose androids are meant")
    if limit < 1 or limit > 500:
        raise ApiError(f"limit must be between 1 and 500, not {limit}")
    if offset is not None and offset < 0:
        raise ApiError(f"offset must not be negative, not {offset}")
    owners = {a.id: a.owner for a in game.state.androids.values()}
    selected = []
    for index, event in enumerate(game.events):
        if round is not None and event.get("round") != round:
            continue
        if android is not None and event.get("android") != android:
            continue
        is_turn = event["type"] == "turn"
        if failed_only and not (is_turn and event["outcome"] != "accepted"):
            continue
        if mine_only and not (is_turn and owners.get(event["android"]) == player):
            continue
        selected.append((index, event))
    start = max(0, len(selected) - limit) if offset is None else offset
    page = selected[start : start + limit]
    items = [{"index": i, **(redact_event(e, owners, player) if player is not None else e)} for i, e in page]
    return {"total": len(selected), "offset": start, "limit": limit, "events": items}


def redact_event(event: dict, owners: dict[str, str], player: str) -> dict:
    """An event as ``player`` may read it: another player's memory and recording redacted."""
    if event.get("type") != "turn" or owners.get(event.get("android")) == player:
        return event
    redacted = dict(event)
    action = event.get("action")
    if action and NOTE_KEYS & action.keys():
        redacted["action"] = {k: (REDACTED if k in NOTE_KEYS else v) for k, v in action.items()}
    if event.get("outcome") in ("error", "invalid"):
        # A script chooses what it throws or returns, so its error text can carry its memory.
        redacted["reason"] = REDACTED
    return redacted


def replay_export(path: str | Path | store.Game, player: str) -> dict:
    """A player-facing replay (rulebook section 14): the complete world for rendering, with
    another player's script source, android memory and recording replaced by [Redacted]."""
    game = path if isinstance(path, store.Game) else store.load(path)
    if player not in game.state.players:
        raise engine.UnknownPlayer(player)
    owners = {a.id: a.owner for a in game.state.androids.values()}
    initial = copy.deepcopy(game.initial)
    for android in initial["androids"]:
        if android["owner"] != player:
            android["memory"] = android["recording"] = REDACTED
    return {
        "format": "nova-replay",
        "version": 1,
        "player": player,
        "rules": game.rules.to_json(),
        "seed": game.seed,
        "sandbox": game.sandbox,
        "initial": initial,
        "scripts": {
            sid: {"player": s.player, "name": s.name, "sha256": s.sha256, "bundle": s.bundle if s.player == player else REDACTED}
            for sid, s in game.scripts.items()
        },
        "events": [redact_event(e, owners, player) for e in game.events],
        "final": {
            "round": game.state.round,
            "androids": [android_json(a, private=a.owner == player) for a in game.state.androids.values()],
            "scores": status(game)["players"],
        },
    }
