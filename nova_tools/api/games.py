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
from ..rules import Rules, RulesError, load, loads, resolve
from ..toolchain.compile import CompiledScript, compile_android, compile_sources
from .errors import ApiError
from .turns import ScriptRunner, sandbox_build


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


@dataclass(frozen=True)
class Created:
    path: Path
    seed: int
    width: int
    height: int
    final_turn: int | None


def with_final_round(rules: Rules, final_round: int | None) -> Rules:
    """The rules with ``match.finalRound`` set (None leaves them as they are)."""
    if final_round is None:
        return rules
    if final_round < 1:
        raise ApiError(f"the final round must be at least 1, not {final_round}")
    return resolve({**rules.to_json(), "match": {**rules.to_json()["match"], "finalRound": final_round}}, "rules")


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
    if not 0 <= seed < 2**63:
        raise ApiError(f"the seed must be a whole number from 0 to 2^63 - 1, not {seed}")
    if path.parent and not path.parent.exists():
        raise ApiError(f"the folder {path.parent} does not exist")
    with store.locked(path):  # checked under the lock, so two creators cannot both win
        if path.exists() and not force:
            raise ApiError(f"{path} already exists; replace it only deliberately (--force on the command line)")
        game = store.new_game(path, resolved, seed, sandbox_build())
        store.save(game)
    return Created(path, seed, resolved.world.width, resolved.world.height, resolved.match.final_round)


def _script_name(entry: str) -> str:
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
    if game.match is not None:
        raise ApiError(
            f"{game.path} is a peer match played to its arrival round; a match cannot be continued once it has run "
            "(start a new game with `nova create-game`, or host a new match)"
        )


@dataclass(frozen=True)
class Uploaded:
    script_id: str
    player: str
    name: str
    sha256: str
    joined: bool  # the upload created the player


def compile_upload(entry: str | Path | None = None, files: Mapping[str, str] | None = None, entry_name: str | None = None) -> CompiledScript:
    if files is not None:
        if not files:
            raise ApiError("no files were given to upload")
        name = entry_name or ("main.ts" if "main.ts" in files else next(iter(files)))
        if name not in files:
            raise ApiError(f"the entry {name!r} is not among the files given ({', '.join(sorted(files))})")
        return compile_sources(dict(files), name)
    if entry is None:
        raise ApiError("give a script file (or files) to upload")
    return compile_android(Path(entry))


def upload_script(
    path: str | Path,
    player: str,
    entry: str | Path | None = None,
    *,
    files: Mapping[str, str] | None = None,
    entry_name: str | None = None,
    name: str | None = None,
) -> Uploaded:
    """Compile (type-check + bundle) a TypeScript android and store it as the player's script.

    The player joins the game on their first upload, with their initial charger."""
    compiled = compile_upload(entry, files, entry_name)  # slow part first, outside the lock
    name = name or _script_name(str(entry if entry is not None else entry_name or "main.ts"))
    with store.editing(path) as game:
        _refuse_finished_match(game)
        joined = player not in game.state.players
        events = []
        if joined:
            events.append(engine.join(game.state, player))
        event = engine.add_script(game.state, player, name)
        events.append(event)
        game.scripts[event["script"]] = store.StoredScript(player, name, compiled.sha256, compiled.bundle)
        game.record(events)
    return Uploaded(event["script"], player, name, compiled.sha256, joined)


@dataclass(frozen=True)
class Launched:
    android_id: str
    player: str
    script_id: str
    position: tuple[int, int]


def launch_android(path: str | Path, player: str, script_id: str) -> Launched:
    with store.editing(path) as game:
        _refuse_finished_match(game)
        event = engine.launch(game.state, player, script_id)
        game.record([event])
        android = game.state.androids[event["android"]]
    return Launched(android.id, player, script_id, (android.x, android.y))


@dataclass(frozen=True)
class RunSummary:
    rounds: int
    first_round: int
    last_round: int
    turns: int
    failed_turns: int
    destroyed: tuple[str, ...]
    seconds: float
    final_round: int | None = None  # rules.match.finalRound: None means the game has no arrival date


Progress = Callable[[int, int], None]  # (rounds done, rounds asked)


def run_rounds(path: str | Path, rounds: int, progress: Progress | None = None) -> RunSummary:
    """Play ``rounds`` more rounds, running every android's script in the sandbox.

    If interrupted, the rounds already completed are saved and the interruption re-raised."""
    if rounds < 1:
        raise ApiError(f"the number of rounds must be at least 1, not {rounds}")
    if rounds > 100_000:
        raise ApiError(f"{rounds} rounds is more than one run may play (at most 100000)")
    start = time.perf_counter()
    with store.locked(path):
        game = store.load(path)
        _refuse_finished_match(game)
        runner = ScriptRunner.for_game(game)
        first = game.state.round + 1
        turns = failed = 0
        destroyed: list[str] = []
        done = 0
        try:
            for done in range(1, rounds + 1):
                events = engine.play_round(game.state, runner.decide)
                game.record(events)
                for event in events:
                    if event["type"] == "turn":
                        turns += 1
                        failed += event["outcome"] != "accepted"
                    elif event["type"] == "round.ended":
                        destroyed.extend(event["destroyed"])
                if progress is not None:
                    progress(done, rounds)
        except BaseException:
            # play_round only returns whole rounds, so the recorded events always end on a round
            # boundary: keep what was completed.
            store.save(game)
            raise
        store.save(game)
    return RunSummary(
        done, first, game.state.round, turns, failed, tuple(destroyed), time.perf_counter() - start, game.rules.match.final_round
    )
