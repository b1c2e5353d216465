"""The MCP tool compare_scripts: two scripts over many seeds in both seat orders, on fair maps,
summarised in a few lines (the arena's comparison, without its per-game results)."""

from __future__ import annotations

import functools
import threading
from typing import Annotated, Any

import anyio.from_thread
import anyio.to_thread
from mcp.server.mcpserver import Context
from mcp.types import CallToolResult
from pydantic import BaseModel, ConfigDict, Field

from ... import api, arena
from ...api import ApiError, GameFolder
from ...arena.shared import WorkerPool
from ..edge import log, reply
from ..models import ComparedScript, ScoreDifference, ScriptsCompared, SeedGap
from ..shaping import points_text
from .common import RULES_DOC, check_player, sources
from .registry import tool

MAX_GAMES = 40  # seeds x 2 seat orders in one call: a call returns within a few minutes
MAX_ROUNDS = 300

# Every comparison of this server plays on these workers (one per core), whoever calls; a call
# that is cancelled stops its games within a second (arena/shared.py).
WORKERS = WorkerPool()


class ScriptChoice(BaseModel):
    """One side of a comparison: code to compile (source, files or the starter), a script in the
    player's library (library_id, player), or a script already uploaded to a game (game, player,
    script_id)."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(
        None,
        description="A name for this script in the summary (default: 'a' or 'b', or the uploaded script's name).",
    )
    source: str | None = Field(None, description="The android as one TypeScript file.")
    files: dict[str, str] | None = Field(
        None, description="A multi-file android: {relative path: TypeScript text}, with entry."
    )
    entry: str | None = Field(None, description="With files: the entry file (default 'main.ts').")
    starter: bool = Field(False, description="The shipped starter android.")
    game: str | None = Field(
        None, description="With player and script_id: a game holding the uploaded script."
    )
    player: str | None = Field(
        None,
        description="With game: the player who uploaded the script (you can compare only your own).",
    )
    script_id: str | None = Field(
        None, description="With game and player: the uploaded script, e.g. 'script-3'."
    )
    library_id: str | None = Field(
        None,
        description="With player: a script of the player's library (add_script, upload_script return the ids).",
    )


def _entrant(folder: GameFolder, side: str, choice: ScriptChoice) -> arena.Entrant:
    if choice.library_id is not None:
        if (
            choice.player is None
            or any(
                v is not None for v in (choice.game, choice.script_id, choice.source, choice.files)
            )
            or choice.starter
        ):
            raise ApiError(
                f"{side}: a library script is named by library_id and player together, and nothing else"
            )
        kept = folder.library.get(check_player(choice.player), choice.library_id)
        return arena.Entrant(choice.name or kept.entry.name, kept.script)
    game, player, script_id = choice.game, choice.player, choice.script_id
    if game is not None or player is not None or script_id is not None:
        if (
            game is None
            or player is None
            or script_id is None
            or choice.source is not None
            or choice.files is not None
            or choice.starter
        ):
            raise ApiError(
                f"{side}: an uploaded script is named by game, player and script_id together, and nothing else"
            )
        stored = api.player_script(folder.existing(game), check_player(player), script_id)
        return arena.Entrant(choice.name or stored.name, stored.script)
    texts, entry_name = sources(choice.source, choice.files, choice.entry, choice.starter)
    compiled = api.compile_upload(files=texts, entry_name=entry_name)
    return arena.Entrant(choice.name or ("starter" if choice.starter else side), compiled)


@tool("Compare two scripts", read_only=True)
async def compare_scripts(
    folder: GameFolder,
    a: Annotated[
        ScriptChoice,
        Field(
            description="Script A: {library_id, player} or {source} or {files, entry} or {starter: true} or {game, player, script_id}."
        ),
    ],
    b: Annotated[ScriptChoice, Field(description="Script B, given the same way.")],
    ctx: Context,
    seeds: Annotated[
        str,
        Field(
            description=f"Seeds like '1-10' or '1,4,9-12'; each is played in both seat orders ({MAX_GAMES} games at most)."
        ),
    ] = "1-10",
    rounds: Annotated[
        int,
        Field(
            description=f"Rounds per game, 1 to {MAX_ROUNDS} (also the games' final round unless rules set one)."
        ),
    ] = 100,
    rules: Annotated[
        dict[str, Any] | str | None,
        Field(description=RULES_DOC + " Maps are rotational (fair) unless world.symmetry is set."),
    ] = None,
) -> Annotated[CallToolResult, ScriptsCompared]:
    """Is A better than B? Play them against each other on every seed in both seat orders, on
    fair (rotational) maps, in parallel worker processes, and summarise: wins, mean scores, the
    95% interval of A's score minus B's (paired by seed), failed turns by reason, the seeds that
    differ most. Nothing is stored. Reports progress while it plays."""
    seed_list = arena.parse_seeds(seeds)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ApiError(f"rounds must be from 1 to {MAX_ROUNDS}, not {rounds}")
    if 2 * len(seed_list) > MAX_GAMES:
        raise ApiError(
            f"{len(seed_list)} seeds make {2 * len(seed_list)} games; one call plays at most {MAX_GAMES} (give at most {MAX_GAMES // 2} seeds)"
        )
    resolved, rounds = arena.arena_rules(rules, rounds)
    entrants = (_entrant(folder, "a", a), _entrant(folder, "b", b))
    if entrants[0].name == entrants[1].name:
        entrants = (entrants[0], arena.Entrant(entrants[1].name + "#2", entrants[1].script))
    reporting = True

    def progress(done: int, total: int) -> None:
        nonlocal reporting  # best effort: a client that stops listening must not stop the games
        if reporting:
            try:
                anyio.from_thread.run(
                    functools.partial(ctx.report_progress, done, total, f"game {done} of {total}")
                )
            except Exception:
                log.warning(
                    "could not report progress of compare_scripts; the games go on", exc_info=True
                )
                reporting = False

    stop = threading.Event()
    try:
        # abandoned when the call is cancelled: then ``stop`` ends its games at once
        result = await anyio.to_thread.run_sync(
            functools.partial(
                arena.compare,
                entrants,
                resolved,
                seed_list,
                rounds,
                WORKERS.backend(stop),
                progress=progress,
            ),
            abandon_on_cancel=True,
        )
    finally:
        stop.set()
    return reply(_summary(result), _text(result))


def _summary(result: arena.Comparison) -> ScriptsCompared:
    ci = result.difference
    return ScriptsCompared(
        games=result.games,
        draws=result.draws,
        seeds=len(result.seeds),
        rounds=result.run.planned[0].rounds,
        scripts=[
            ComparedScript(
                name=s.name,
                wins=s.wins,
                draws=s.draws,
                losses=s.losses,
                mean_score=round(s.mean_score or 0, 2),
                failed_turns=s.failed_turns,
                failed_by_reason=dict(s.failed),
            )
            for s in result.scripts
        ],
        difference=None
        if ci is None
        else ScoreDifference(
            mean=round(ci.mean, 2),
            low=round(ci.low, 2),
            high=round(ci.high, 2),
            excludes_zero=ci.excludes_zero,
        ),
        verdict=result.verdict(),
        most_different=[
            SeedGap(seed=s.seed, difference=round(s.difference, 2))
            for s in result.most_different()
            if s.difference
        ],
        warnings=list(result.warnings),
        seconds=round(result.run.seconds, 2),
    )


def _text(result: arena.Comparison) -> str:
    a, b = result.scripts
    parts = [
        f"{a.name} vs {b.name}: {result.games} games over {len(result.seeds)} seeds: "
        f"{a.name} won {a.wins}, {b.name} won {b.wins}, {result.draws} draws; mean score {points_text(round(a.mean_score or 0, 2))} "
        f"vs {points_text(round(b.mean_score or 0, 2))}."
    ]
    ci = result.difference
    if ci is not None:
        parts.append(
            f"{a.name} - {b.name}: {ci.mean:+.2f} a game, 95% interval [{ci.low:+.2f}, {ci.high:+.2f}]: {result.verdict()}."
        )
    for s in result.scripts:
        if s.failed_turns:
            parts.append(
                f"{s.name} failed {s.failed_turns} turns ({', '.join(f'{code} {n}' for code, n in s.failed)})."
            )
    gaps = [str(s.seed) for s in result.most_different() if s.difference]
    if gaps:
        parts.append(
            f"Seeds that differ most: {', '.join(gaps)} (to watch one: create_game with that seed and rules "
            f"{{'world': {{'symmetry': 'rotational'}}, 'match': {{'finalRound': {result.run.planned[0].rounds}}}}})."
        )
    parts += [f"Warning: {w}." for w in result.warnings]
    return " ".join(parts)
