"""Playing a planned list of games on a backend: entrants compiled once, records in task order,
game files written by the caller's process, and a clean stop on Ctrl-C."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..starter.house import entry_of
from ..store import write_atomic
from ..toolchain.compile import CompiledScript, compile_android
from .backends import Backend
from .errors import ArenaError, Interrupted
from .game import GameRecord
from .plan import Contest, Entrant, GameTask

Progress = Callable[[int, int], None]  # (games done, games planned)


def script_name(entry: Path) -> str:
    """A script's name in reports: its file name, or for a generic entry (main.ts, index.ts) its
    project folder's (my-bot/src/main.ts -> my-bot)."""
    if entry.stem not in ("main", "index", "android"):
        return entry.stem
    folder = entry.resolve().parent
    if folder.name == "src":
        folder = folder.parent
    return folder.name or entry.stem


def unique_names(names: Sequence[str]) -> list[str]:
    """Names made distinct in order: the second "starter" becomes "starter#2".

    >>> unique_names(["starter", "raider", "starter"])
    ['starter', 'raider', 'starter#2']
    """
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


def script_entry(ref: Path | str) -> tuple[Path, str]:
    """The entry file a script reference means and its name in reports: ``house:NAME`` is that
    house android (named as written), anything else a path to a ``.ts`` entry file."""
    entry, name = entry_of(ref)
    return entry, name or script_name(entry)


def entrants_from_files(
    paths: Sequence[Path | str], names: Sequence[str] | None = None
) -> tuple[Entrant, ...]:
    """Type-check and bundle each script once (a file given twice is compiled once); a
    ``house:NAME`` stands for that house android."""
    entries = [script_entry(p) for p in paths]
    compiled: dict[Path, CompiledScript] = {}
    for (entry, _), given in zip(entries, paths, strict=True):
        key = entry.resolve()
        if key not in compiled:
            if not key.exists():
                raise ArenaError(f"the script {given} does not exist")
            compiled[key] = compile_android(key)
    labels = unique_names(list(names) if names else [label for _, label in entries])
    return tuple(
        Entrant(label, compiled[entry.resolve()])
        for label, (entry, _) in zip(labels, entries, strict=True)
    )


@dataclass(frozen=True)
class Run:
    """The games a run played (in task order), out of those it planned."""

    contest: Contest
    planned: tuple[GameTask, ...]
    played: tuple[GameRecord, ...]
    seconds: float
    where: str  # the backend, in words
    workers: int
    interrupted: bool = False
    out: Path | None = None

    @property
    def complete(self) -> bool:
        return len(self.played) == len(self.planned)


def play_all(
    contest: Contest,
    tasks: Sequence[GameTask],
    backend: Backend,
    *,
    out: Path | None = None,
    progress: Progress | None = None,
) -> Run:
    """Play every task on ``backend``; with ``out``, keep each game as a file there.

    Ctrl-C (KeyboardInterrupt) stops the run between games: the returned run is marked
    ``interrupted`` and holds the games finished by then."""
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ArenaError(
                f"cannot create the folder {out} for the game files ({error.strerror or error})"
            ) from None
        contest = Contest(contest.rules, contest.entrants, keep_files=True)
    start = time.perf_counter()
    done = 0

    def finished(record: GameRecord) -> None:
        nonlocal done
        done += 1
        if out is not None and record.game_file is not None:
            try:
                write_atomic(out / record.task.file_name(contest), record.game_file)
            except OSError as error:
                raise ArenaError(
                    f"cannot write a game file in {out} ({error.strerror or error})"
                ) from None
        if progress is not None:
            progress(done, len(tasks))

    interrupted = False
    try:
        played = backend.run(contest, tasks, finished)
    except Interrupted as stop:
        played, interrupted = stop.played, True
    played = sorted(played, key=lambda r: r.task.index)
    return Run(
        contest,
        tuple(tasks),
        tuple(played),
        time.perf_counter() - start,
        backend.describe(),
        backend.workers,
        interrupted,
        out,
    )
