"""A run: a whole game of given scripts played to an arrival round, kept as a game file.

The browser lab's Run panel plays one (rulebook 1.1: "a run in the browser lab, where the arrival
is the round count in the Run panel"): each player's script is uploaded and one android launched
on its initial charger, ``rounds`` rounds are played, and ``rules.match.finalRound`` is that round
count, so every script knows when the humans land. The file is the one the same game played
command by command would give (create-game --final-round, upload, launch, run), with one more
key, ``run``: like a peer match, a run cannot be continued once it has run (rulebook 1.1), so
``nova run``, ``upload`` and ``launch`` refuse it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..limits import overwrite_refusal
from ..play import GameSpec, Seat, SpecError
from ..rules import Rules
from .access import open_game
from .convert import standings
from .errors import ApiError
from .games import compile_upload, resolve_rules, script_name, with_final_round
from .played import play_and_save
from .results import RunGame

MAX_RUN_ROUNDS = 10_000
MAX_SEATS = 8

Progress = Callable[[int, int], None]  # (rounds played, rounds asked)


def run_rules(
    rules: Rules | dict | str | Path | None,
    rounds: int,
    width: int | None = None,
    height: int | None = None,
) -> Rules:
    """The rules of a run: ``rules`` (default: the shipped ones) with the board size given and
    ``match.finalRound`` = ``rounds``."""
    resolved = resolve_rules(rules)
    if width is not None or height is not None:
        data = resolved.to_json()
        world = {
            **data["world"],
            **({"width": width} if width is not None else {}),
            **({"height": height} if height is not None else {}),
        }
        resolved = resolve_rules({**data, "world": world}, "the run's board size")
    return with_final_round(resolved, rounds)


def play_run(
    path: str | Path,
    seats: Sequence[tuple[str, str | Path]],
    *,
    rounds: int,
    seed: int = 0,
    width: int | None = None,
    height: int | None = None,
    rules: Rules | dict | str | Path | None = None,
    force: bool = False,
    progress: Progress | None = None,
    stop: Callable[[], bool] | None = None,
) -> RunGame:
    """Play ``rounds`` rounds of the scripts in ``seats`` (``(player, entry file)`` in seat order)
    and write the game to ``path`` (atomically). ``stop()`` is asked before each round: a true
    answer abandons the run and nothing is written."""
    path = Path(path)
    if not 1 <= rounds <= MAX_RUN_ROUNDS:
        raise ApiError(f"a run plays from 1 to {MAX_RUN_ROUNDS} rounds, not {rounds}")
    if not 1 <= len(seats) <= MAX_SEATS:
        raise ApiError(f"a run needs from 1 to {MAX_SEATS} players, not {len(seats)}")
    if not path.parent.is_dir():
        raise ApiError(f"the folder {path.parent} does not exist")
    if refusal := overwrite_refusal(path, force=force):
        raise ApiError(refusal)
    resolved = run_rules(rules, rounds, width, height)
    start = time.perf_counter()
    compiled = [
        Seat(player, compile_upload(entry), script_name(str(entry))) for player, entry in seats
    ]
    try:
        spec = GameSpec(resolved, seed, tuple(compiled), rounds)
    except SpecError as error:
        raise ApiError(str(error)) from None
    session = play_and_save(
        path, spec, force=force, progress=progress, stop=stop, extra={"run": {"rounds": rounds}}
    )
    game = open_game(path)  # read back: a file that does not load is never reported as written
    return RunGame(
        path=path,
        seed=seed,
        width=resolved.world.width,
        height=resolved.world.height,
        final_turn=resolved.match.final_round,
        rounds=game.state.round,
        turns=session.turns,
        failed_turns=session.failed_turns,
        seconds=time.perf_counter() - start,
        players=standings(game.state),
    )
