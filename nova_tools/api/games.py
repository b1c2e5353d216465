"""Changing a game: create it, upload scripts, launch androids, run rounds.

Every change is a locked read-modify-write of the game file (see :mod:`nova_tools.store`):
nothing is written unless the whole command succeeds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from .. import engine, store
from ..limits import MAX_ROUNDS, MAX_SEED, overwrite_refusal
from ..play import GameSession, sandbox_build
from ..rules import Rules, RulesError, load, loads, resolve
from ..toolchain.compile import CompiledScript, compile_android, compile_sources
from . import statuscache
from .convert import position, standings
from .errors import ApiError
from .results import Created, Launched, RunSummary, Status, Uploaded


def resolve_rules(rules: Rules | Mapping | str | Path | None, source: str = "rules") -> Rules:
    """Rules from a Rules object, a parsed JSON object, JSONC text, or a file path."""
    if rules is None:
        return Rules()
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, Path):
        return load(rules)
    if isinstance(rules, str):
        return loads(rules, source)
    if isinstance(rules, Mapping):
        return resolve(dict(rules), source)
    raise RulesError([], source)  # pragma: no cover - guarded by the types above


def with_final_round(rules: Rules, final_round: int | None) -> Rules:
    """The rules with ``match.finalRound`` set (None leaves them as they are)."""
    if final_round is None:
        return rules
    if final_round < 1:
        raise ApiError(f"the final round must be at least 1, not {final_round}")
    return resolve(
        {**rules.to_json(), "match": {**rules.to_json()["match"], "finalRound": final_round}},
        "rules",
    )


def create_game(
    path: str | Path,
    rules: Rules | Mapping | str | Path | None = None,
    seed: int = 0,
    force: bool = False,
    final_round: int | None = None,
) -> Created:
    """A new game file. ``final_round`` sets ``rules.match.finalRound`` over whatever the rules say."""
    path = Path(path)
    resolved = with_final_round(resolve_rules(rules), final_round)
    if not 0 <= seed <= MAX_SEED:
        raise ApiError(f"the seed must be a whole number from 0 to 2^63 - 1, not {seed}")
    if path.parent and not path.parent.exists():
        raise ApiError(f"the folder {path.parent} does not exist")
    with store.locked(path):  # checked under the lock, so two creators cannot both win
        if refusal := overwrite_refusal(path, force=force):
            raise ApiError(refusal)
        game = store.new_game(path, resolved, seed, sandbox_build())
        store.save(game)
    return Created(
        path=path,
        seed=seed,
        width=resolved.world.width,
        height=resolved.world.height,
        final_turn=resolved.match.final_round,
    )


def script_name(entry: str) -> str:
    """A name for an upload: the entry file's name, or for a generic one (main.ts, index.ts) the
    project folder's (my-bot/src/main.ts -> my-bot)."""
    path = Path(entry)
    if path.stem not in ("main", "index", "android"):
        return path.stem
    folder = path.resolve().parent if path.is_absolute() or path.exists() else path.parent
    if folder.name == "src":
        folder = folder.parent
    return folder.name or path.stem


def _refuse_finished_match(game: store.Game) -> None:
    if game.run is not None:
        raise ApiError(
            f"{game.path} is a run played to its arrival round in the browser lab; a run cannot be continued once it has run "
            "(start a new game with `nova create-game`, or play a new run)"
        )
    if game.match is not None:
        raise ApiError(
            f"{game.path} is a peer match played to its arrival round; a match cannot be continued once it has run "
            "(start a new game with `nova create-game`, or host a new match)"
        )


def compile_upload(
    entry: str | Path | None = None,
    files: Mapping[str, str] | None = None,
    entry_name: str | None = None,
) -> CompiledScript:
    if files is not None:
        if not files:
            raise ApiError("no files were given to upload")
        name = entry_name or ("main.ts" if "main.ts" in files else next(iter(files)))
        if name not in files:
            raise ApiError(
                f"the entry {name!r} is not among the files given ({', '.join(sorted(files))})"
            )
        return compile_sources(dict(files), name)
    if entry is None:
        raise ApiError("give a script file (or files) to upload")
    return compile_android(Path(entry))


@dataclass(frozen=True)
class PlayerScript:
    """One of a player's uploaded scripts, as it was compiled when uploaded (to play it elsewhere,
    e.g. in a comparison)."""

    script_id: str
    name: str
    script: CompiledScript


def player_script(path: str | Path, player: str, script_id: str) -> PlayerScript:
    """A script ``player`` uploaded to the game at ``path``; only the player's own (a script's code
    is private to its owner)."""
    game = store.load(path)
    stored = game.scripts.get(script_id)
    if stored is None or stored.player != player:
        raise ApiError(
            f"{script_id!r} is not one of {player}'s scripts in {Path(path).stem} (upload_script returns the ids)"
        )
    entry = f"{Path(path).name}:{script_id}"
    return PlayerScript(
        script_id,
        stored.name,
        CompiledScript(stored.bundle, entry, stored.sha256, source_map=stored.source_map),
    )


def upload_script(
    path: str | Path,
    player: str,
    entry: str | Path | None = None,
    *,
    files: Mapping[str, str] | None = None,
    entry_name: str | None = None,
    name: str | None = None,
    compiled: CompiledScript | None = None,
) -> Uploaded:
    """Compile (type-check + bundle) a TypeScript android and store it as the player's script.
    With ``compiled`` (a script compiled before, e.g. from the script library), store that as it
    is: the game then holds the very bundle and source map it was compiled to.

    The player joins the game on their first upload, with their initial charger."""
    if compiled is None:
        compiled = compile_upload(entry, files, entry_name)  # slow part first, outside the lock
    name = name or script_name(str(entry if entry is not None else entry_name or "main.ts"))
    with store.editing(path) as game:
        _refuse_finished_match(game)
        joined = player not in game.state.players
        events: list[engine.Event] = []
        if joined:
            events.append(engine.join(game.state, player))
        uploaded = engine.add_script(game.state, player, name)
        events.append(uploaded)
        game.scripts[uploaded.script] = store.StoredScript(
            player, name, compiled.sha256, compiled.bundle, compiled.source_map
        )
        game.record(events)
    return Uploaded(
        script_id=uploaded.script, player=player, name=name, sha256=compiled.sha256, joined=joined
    )


def launch_android(path: str | Path, player: str, script_id: str) -> Launched:
    with store.editing(path) as game:
        _refuse_finished_match(game)
        event = engine.launch(game.state, player, script_id)
        game.record([event])
        android = game.state.androids[event.android]
        launched = Launched(
            android_id=android.id,
            player=player,
            script_id=script_id,
            position=position(android.x, android.y),
            active_androids=engine.active_count(game.state, player),
            capacity=engine.capacity(game.state, player),
        )
    return launched


Progress = Callable[[int, int], None]  # (rounds done, rounds asked)


def bundles_of(game: store.Game) -> dict[str, str]:
    """The game's stored scripts, as the game loop runs them (script id -> bundle)."""
    return {sid: s.bundle for sid, s in game.scripts.items()}


def source_maps_of(game: store.Game) -> dict[str, dict]:
    """The stored scripts' source maps (script id -> map), for the positions of their errors."""
    return {sid: s.source_map for sid, s in game.scripts.items() if s.source_map is not None}


def run_rounds(
    path: str | Path,
    rounds: int,
    progress: Progress | None = None,
    stop: Callable[[], bool] | None = None,
) -> RunSummary:
    """Play ``rounds`` more rounds, running every android's script in the sandbox (through the
    one game loop, :class:`nova_tools.play.GameSession`, resumed from the file's state).

    ``stop()`` (if given) is asked before each round: a true answer ends the run there, and the
    rounds played so far are saved (a cancelled MCP call, say); ``RunSummary.rounds`` says how many.
    If interrupted, the rounds already completed are saved and the interruption re-raised."""
    if rounds < 1:
        raise ApiError(f"the number of rounds must be at least 1, not {rounds}")
    if rounds > MAX_ROUNDS:
        raise ApiError(f"{rounds} rounds is more than one run may play (at most {MAX_ROUNDS})")
    start = time.perf_counter()
    with store.locked(path):
        game = store.load(path)
        _refuse_finished_match(game)
        # A game recorded by an older sandbox build plays on under this one (loading never reruns
        # a script, so its earlier rounds stay as they were played); the file then names the
        # build that played its latest rounds.
        game.sandbox = sandbox_build()
        session = GameSession(
            game.state, bundles_of(game), keep_events=False, source_maps=source_maps_of(game)
        )
        first = game.state.round + 1
        try:
            # each whole round is recorded as soon as it is played
            session.play(
                rounds, progress=progress, stop=stop, on_round=lambda r: game.record(r.events)
            )
        except BaseException:
            # a round is recorded only once it is whole, so the recorded events always end on a
            # round boundary: keep what was completed.
            store.save(game)
            raise
        written = store.save(game)
    status = Status(
        round=game.state.round,
        final_turn=game.rules.match.final_round,
        players=standings(game.state),
        match=game.match,
    )
    statuscache.remember(written, status.to_json())  # the next `nova status` reads it back
    return RunSummary(
        rounds=game.state.round - first + 1,
        first_round=first,
        last_round=game.state.round,
        turns=session.turns,
        failed_turns=session.failed_turns,
        destroyed=session.destroyed,
        owners={a: game.state.androids[a].owner for a in session.destroyed},
        seconds=time.perf_counter() - start,
        final_round=game.rules.match.final_round,
        status=status,
    )
