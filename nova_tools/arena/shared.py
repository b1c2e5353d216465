"""One pool of worker processes shared by every run of a long-lived process (the MCP server),
whose runs can be stopped at once.

A :class:`ProcessPool` starts fresh workers for each run and only stops between games; a server
that took comparisons from many agents that way would start a pool per call, and a cancelled
call would leave its workers playing. Here:

* ``workers`` processes serve every run, one game at a time each, started when first needed and
  stopped after :data:`IDLE_S` without a game (a worker's memory goes back with it);
* each game travels with its contest (sent to a worker only when it differs from the last one
  that worker played), so runs with different scripts share the same workers;
* a run's ``stop`` event (a cancelled call) drops its games not yet started and kills the workers
  playing its games now (a turn may take seconds: nothing waits for it); a fresh worker takes
  their place for the next game. A stopped run raises :class:`Interrupted` within
  :data:`POLL_S` of the event.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

from .backends import Backend, OnDone, default_jobs
from .errors import ArenaError, Interrupted
from .game import GameRecord, play_task
from .plan import Contest, GameTask

POLL_S = 0.1  # how often a run and a worker's driver look at the stop event
IDLE_S = 120.0  # a worker with no game for this long exits


@dataclass(eq=False)
class _Job:
    contest: Contest
    task: GameTask
    stop: threading.Event
    finished: queue.Queue[_Job]
    record: GameRecord | None = None
    error: BaseException | None = None
    cancelled: bool = False

    def end(self) -> None:
        self.finished.put(self)


def _serve(conn: Connection) -> None:
    """A worker: play each (contest or None, task) it receives, answer ("ok", record) or
    ("error", exception); exit when the parent goes (end of file) or sends None."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    os.dup2(2, 1)  # the parent's stdout carries its protocol: nothing of a worker may land there
    contest: Contest | None = None
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        sent, task = message
        contest = sent if sent is not None else contest
        assert contest is not None
        try:
            conn.send(("ok", play_task(contest, task)))
        except Exception as error:  # the run reports it; the worker serves on
            try:
                conn.send(("error", error))
            except Exception:
                conn.send(("error", ArenaError(f"a game failed in a worker ({error})")))


@dataclass(eq=False)
class _Worker:
    """One worker process and the thread in this process that feeds it games."""

    pool: WorkerPool
    process: BaseProcess | None = None
    conn: Connection | None = None
    contest: Contest | None = None  # the last contest this process received

    def start(self) -> None:
        here, there = multiprocessing.Pipe()
        context = multiprocessing.get_context("spawn")
        process = context.Process(target=_serve, args=(there,), daemon=True, name="nova-arena")
        process.start()
        there.close()
        self.process, self.conn, self.contest = process, here, None

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.join(5)
        if self.conn is not None:
            self.conn.close()
        self.process = self.conn = self.contest = None

    def drive(self) -> None:
        while True:
            job = self.pool.next_job(self.process is not None)
            if job is None:  # idle too long, or the pool is closing
                if self.process is not None and self.conn is not None:
                    try:
                        self.conn.send(None)
                    except OSError:
                        pass
                    self.process.join(5)
                self.kill()
                if self.pool.closing:
                    return
                continue
            self.play(job)

    def play(self, job: _Job) -> None:
        if job.stop.is_set():
            job.cancelled = True
            job.end()
            return
        if self.process is None or not self.process.is_alive():
            self.kill()
            self.start()
        assert self.conn is not None and self.process is not None
        sending = job.contest if job.contest is not self.contest else None
        try:
            self.conn.send((sending, job.task))
            self.contest = job.contest
            while not self.conn.poll(POLL_S):
                if job.stop.is_set():
                    self.kill()  # mid-game: the worker goes, a fresh one plays the next game
                    job.cancelled = True
                    return
                if not self.process.is_alive():
                    raise EOFError
            kind, value = self.conn.recv()
            if kind == "ok":
                job.record = value
            else:
                job.error = value
        except (EOFError, OSError):
            self.kill()
            job.error = ArenaError(
                "a worker process ended abruptly (killed, or out of memory) while playing a game"
            )
        finally:
            job.end()  # every path hands the job back to its run


@dataclass(eq=False)
class WorkerPool:
    """``workers`` processes shared by every run (``run``); see the module's docstring."""

    workers: int = field(default_factory=default_jobs)
    closing: bool = False

    def __post_init__(self) -> None:
        self._lock = threading.Condition()
        self._jobs: deque[_Job] = deque()
        self._drivers: list[_Worker] = []

    def submit(self, job: _Job) -> None:
        with self._lock:
            if not self._drivers:
                for _ in range(self.workers):
                    worker = _Worker(self)
                    threading.Thread(
                        target=worker.drive, name="nova-arena-driver", daemon=True
                    ).start()
                    self._drivers.append(worker)
            self._jobs.append(job)
            self._lock.notify()

    def next_job(self, has_process: bool) -> _Job | None:
        deadline = time.monotonic() + IDLE_S
        with self._lock:
            while not self._jobs:
                if self.closing:
                    return None
                left = deadline - time.monotonic()
                if left <= 0 and has_process:
                    return None
                self._lock.wait(left if left > 0 else None)
            return self._jobs.popleft()

    def busy_workers(self) -> list[int]:
        """The process ids of the workers alive now (for tests and benchmarks)."""
        return [
            w.process.pid
            for w in list(self._drivers)
            if w.process is not None and w.process.pid is not None and w.process.is_alive()
        ]

    def close(self) -> None:
        with self._lock:
            self.closing = True
            self._lock.notify_all()
        for worker in list(self._drivers):
            worker.kill()

    def backend(self, stop: threading.Event | None = None) -> SharedPool:
        """A backend for one run on this pool; setting ``stop`` stops the run at once."""
        return SharedPool(self, stop or threading.Event())


@dataclass
class SharedPool(Backend):
    """One run's games on a :class:`WorkerPool` (``WorkerPool.backend``)."""

    pool: WorkerPool
    stop: threading.Event

    @property
    def workers(self) -> int:  # type: ignore[override]
        return self.pool.workers

    def run(self, contest: Contest, tasks: Sequence[GameTask], on_done: OnDone) -> list[GameRecord]:
        finished: queue.Queue[_Job] = queue.Queue()
        for task in tasks:
            self.pool.submit(_Job(contest, task, self.stop, finished))
        played: list[GameRecord] = []
        waiting = len(tasks)
        try:
            while waiting:
                if self.stop.is_set():
                    raise Interrupted(played)
                try:
                    job = finished.get(timeout=POLL_S)
                except queue.Empty:
                    continue
                waiting -= 1
                if job.error is not None:
                    raise job.error
                if job.record is not None:
                    on_done(job.record)
                    played.append(job.record)
        except BaseException:
            self.stop.set()  # the run's other games are dropped or stopped
            raise
        return played

    def describe(self) -> str:
        n = self.pool.workers
        return f"on {n} shared worker process{'es' if n != 1 else ''}"
