"""Whole games played in memory (through :mod:`nova_tools.play`) and kept as game files.

``nova demo`` is one: :func:`demo_spec` says what the demo plays, :func:`play_to_file` plays it
and writes a game file that ``nova status``, ``nova play`` and the other reads open like any
other. The file is the one the same game played command by command would give (create-game,
upload, launch, run), byte for byte.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .. import store
from ..engine.events import AndroidLaunched
from ..engine.state import GameState
from ..limits import overwrite_refusal
from ..play import GameResult, GameSession, GameSpec, Seat, SpecError, stored_game
from ..rules import Rules
from ..toolchain.compile import CompiledScript, compile_android
from .errors import ApiError

DEMO_PLAYERS = ("alice", "bob")
DEMO_SCRIPT_NAME = "starter"


def starter_entry() -> Path:
    """The shipped starter android's entry file."""
    from .. import starter

    return starter.SRC / starter.ENTRY


def demo_spec(seed: int = 3, rounds: int = 100, script: CompiledScript | None = None) -> GameSpec:
    """The demo game: the shipped rules, two players (alice, bob) each running the starter android."""
    script = script or compile_android(starter_entry())
    return GameSpec(
        Rules(),
        seed,
        tuple(Seat(player, script, DEMO_SCRIPT_NAME) for player in DEMO_PLAYERS),
        rounds,
    )


@dataclass(frozen=True)
class SeatPlayed:
    player: str
    script_id: str
    android_id: str
    position: tuple[int, int]


@dataclass(frozen=True)
class PlayedGame:
    path: Path
    seats: tuple[SeatPlayed, ...]
    result: GameResult
    seconds: float


def _seats(result: GameResult, state: GameState) -> tuple[SeatPlayed, ...]:
    seats = []
    for event in result.events:
        if type(event) is not AndroidLaunched:
            continue
        # launched on its charger (an initial charger is never salvaged)
        charger = state.buildings.get(event.charger) if event.charger is not None else None
        site = charger or state.androids[event.android]
        seats.append(SeatPlayed(event.player, event.script, event.android, (site.x, site.y)))
    return tuple(seats)


def play_to_file(
    path: str | Path,
    spec: GameSpec,
    *,
    force: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> PlayedGame:
    """Play ``spec`` in memory and write it as the game file ``path`` (atomically)."""
    start = time.perf_counter()
    session = play_and_save(path, spec, force=force, progress=progress)
    result = session.result()
    return PlayedGame(
        Path(path), _seats(result, session.state), result, time.perf_counter() - start
    )


def play_and_save(
    path: str | Path,
    spec: GameSpec,
    *,
    force: bool = False,
    progress: Callable[[int, int], None] | None = None,
    stop: Callable[[], bool] | None = None,
    extra: dict[str, object] | None = None,
) -> GameSession:
    """The one way a whole game is played in memory and kept: refuse to replace a file unless
    ``force`` (asked again under the lock, after the play), play ``spec.rounds`` rounds (``stop()``
    is asked before each: a true answer abandons the game and nothing is written), write the game
    file atomically with the top-level keys ``extra`` (a run's ``run``)."""
    path = Path(path)
    if not path.parent.is_dir():
        raise ApiError(f"the folder {path.parent} does not exist")
    if refusal := overwrite_refusal(path, force=force):
        raise ApiError(refusal)
    try:
        session = GameSession.start(spec)
    except SpecError as error:
        raise ApiError(str(error)) from None
    session.play(spec.rounds, progress=progress, stop=stop)
    if session.round < spec.rounds:
        raise ApiError(
            f"the game was stopped after round {session.round} of {spec.rounds}; nothing was written"
        )
    with store.locked(path):
        if overwrite_refusal(path, force=force):
            raise ApiError(f"{path} appeared while the game was played; pick another name")
        game = stored_game(session, path)
        for key, value in (extra or {}).items():
            setattr(game, key, value)
        store.save(game)
    return session
