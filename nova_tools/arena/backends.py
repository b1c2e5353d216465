"""Where an arena's games run: in this process, a local process pool, or Ray tasks.

Every backend maps :func:`~nova_tools.arena.game.play_task` over the tasks and hands each record
to ``on_done`` as it finishes; the caller orders them by task, so results never depend on where or
in which order the games ran. Each worker process keeps one sandbox (and its bytecode cache) for
all the games it plays, and receives the contest (rules and compiled scripts) once.

Ctrl-C stops every backend between games: workers are stopped, and :class:`Interrupted` carries
the games already finished.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from .errors import ArenaError, Interrupted
from .game import GameRecord, play_task
from .plan import Contest, GameTask

OnDone = Callable[[GameRecord], None]


class Backend:
    """Runs games; ``describe()`` says where, in a few words (shown with the timings)."""

    workers: int = 1

    def run(self, contest: Contest, tasks: Sequence[GameTask], on_done: OnDone) -> list[GameRecord]:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError


class InProcess(Backend):
    """Plays the games one after another in this process (``--jobs 1``)."""

    def run(self, contest: Contest, tasks: Sequence[GameTask], on_done: OnDone) -> list[GameRecord]:
        played: list[GameRecord] = []
        try:
            for task in tasks:
                record = play_task(contest, task)
                on_done(
                    record
                )  # counted once its file is kept: a stop during the write leaves no counted game without its file
                played.append(record)
        except KeyboardInterrupt:
            raise Interrupted(played) from None
        return played

    def describe(self) -> str:
        return "in this process"


# --- a local process pool ------------------------------------------------------------------------

_CONTEST: Contest | None = None  # the contest of this worker process, received once


def _start_worker(contest: Contest) -> None:
    global _CONTEST
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    # the parent's stdout carries its result (--json, or an MCP server's protocol): nothing a
    # worker might print may land there
    os.dup2(2, 1)
    _CONTEST = contest


def _play_in_worker(task: GameTask) -> GameRecord:
    assert _CONTEST is not None
    return play_task(_CONTEST, task)


def _stop(executor: ProcessPoolExecutor) -> None:
    """Stop the workers now, mid-game (the executor itself only stops between tasks)."""
    processes = list(
        (getattr(executor, "_processes", None) or {}).values()
    )  # no public way to reach them
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=10)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore SIGINT while child processes start, so they inherit the ignored disposition (from
    the main thread only: elsewhere signal handlers cannot change, and no terminal is attached)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@dataclass
class ProcessPool(Backend):
    """``jobs`` worker processes on this machine (``--jobs N``), started fresh (spawn): a worker
    never inherits the parent's threads or sandbox."""

    workers: int = 2

    def run(self, contest: Contest, tasks: Sequence[GameTask], on_done: OnDone) -> list[GameRecord]:
        # concurrent.futures rather than multiprocessing.Pool: a worker that dies (the OOM killer,
        # a kill -9) breaks the executor, where a Pool waits forever for the game it was playing
        played: list[GameRecord] = []
        context = multiprocessing.get_context("spawn")
        workers = min(self.workers, max(len(tasks), 1))
        executor = ProcessPoolExecutor(
            workers, mp_context=context, initializer=_start_worker, initargs=(contest,)
        )
        waiting = iter(tasks)
        running: set[Future] = set()

        def submit_more() -> None:
            # a few games queued per worker, not all of them: 200,000 futures took 8 s and 400 MB
            for task in itertools.islice(waiting, 2 * workers - len(running)):
                running.add(executor.submit(_play_in_worker, task))

        try:
            with (
                _sigint_ignored()
            ):  # workers start with Ctrl-C ignored: a terminal sends it to them too
                submit_more()  # the first submissions spawn the workers
            while running:
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for future in done:  # the caller orders the records by task
                    record = future.result()
                    on_done(
                        record
                    )  # counted once its file is kept: a stop during the write leaves no counted game without its file
                    played.append(record)
                submit_more()
        except KeyboardInterrupt:
            _stop(executor)
            raise Interrupted(played) from None
        except BrokenProcessPool:
            _stop(executor)
            raise ArenaError(
                f"a worker process ended abruptly (killed, or out of memory) after {len(played)} of {len(tasks)} games; "
                "nothing was reported (the games finished so far are in --out, if given)"
            ) from None
        except BaseException:
            _stop(executor)
            raise
        executor.shutdown(wait=True)
        return played

    def describe(self) -> str:
        return f"on {self.workers} local worker process{'es' if self.workers != 1 else ''}"


def default_jobs() -> int:
    """The default number of workers: the cores this process may use."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # pragma: no cover - not on Linux
        return max(os.cpu_count() or 1, 1)


def choose_backend(jobs: int | None = None, ray: str | None = None) -> Backend:
    """The backend for ``--jobs`` / ``--ray`` (``"local"`` starts a local Ray instance)."""
    if jobs is not None and jobs < 1:
        raise ArenaError(f"--jobs must be at least 1, not {jobs}")
    if ray is not None:
        from .ray_backend import RayCluster

        return RayCluster(ray, jobs)
    jobs = jobs or default_jobs()
    return InProcess() if jobs == 1 else ProcessPool(jobs)
