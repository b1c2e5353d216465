"""Long work the lab starts for the page (a run, a match, a comparison): one thread per job, its
events kept in order, streamed to any page that listens (Server-Sent Events), and a cancel flag
the work checks between rounds or games.

A job's body gets a :class:`Reporter` and returns its result (a JSON object) or raises: a
``NovaError`` (or a match's ``MatchError``) becomes a ``failed`` event with its sentence; a
:class:`Cancelled` a ``cancelled`` event; anything else is a bug, logged with its traceback and
reported as one sentence.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import NovaError
from .wire import JobEvent, JobEventKind, JobKind, JobState, JobView

log = logging.getLogger("nova.lab")

MAX_JOBS_KEPT = 50  # finished jobs remembered (for a page that reconnects); older ones are dropped
KEEPALIVE_S = 15.0


class Cancelled(Exception):
    """The page asked the job to stop; the text says what was kept."""

    def __init__(self, sentence: str = "stopped as asked; nothing was written") -> None:
        super().__init__(sentence)


@dataclass
class Job:
    id: str
    kind: JobKind
    title: str
    state: JobState = "running"
    events: list[JobEvent] = field(default_factory=list)
    cancel: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = field(default_factory=list)
    thread: threading.Thread | None = None

    def publish(self, kind: JobEventKind, message: str, **fields: Any) -> None:
        with self.lock:
            event = JobEvent(seq=len(self.events), kind=kind, message=message, **fields)
            self.events.append(event)
            if kind == "done" or kind == "failed" or kind == "cancelled":
                self.state = kind
            waiters = list(self.waiters)
        for loop, ready in waiters:
            loop.call_soon_threadsafe(ready.set)

    def view(self) -> JobView:
        with self.lock:
            return JobView(
                id=self.id,
                kind=self.kind,
                title=self.title,
                state=self.state,
                events=tuple(self.events),
            )

    @property
    def finished(self) -> bool:
        return self.state != "running"

    async def stream(self, start: int = 0) -> AsyncIterator[JobEvent | None]:
        """The job's events from ``start`` on, as they come; ``None`` when a keepalive is due. Ends
        after the job's last event."""
        loop = asyncio.get_running_loop()
        ready = asyncio.Event()
        entry = (loop, ready)
        with self.lock:
            self.waiters.append(entry)
        try:
            index = start
            while True:
                ready.clear()
                with self.lock:
                    fresh = self.events[index:]
                    finished = self.finished
                for event in fresh:
                    yield event
                index += len(fresh)
                if finished and index >= len(self.events):
                    return
                try:
                    await asyncio.wait_for(ready.wait(), KEEPALIVE_S)
                except TimeoutError:
                    yield None
        finally:
            with self.lock:
                self.waiters.remove(entry)


class Reporter:
    """What a job's body uses to speak to the page, and to learn it should stop."""

    def __init__(self, job: Job) -> None:
        self.job = job

    def progress(self, done: int, total: int, message: str, **fields: Any) -> None:
        self.job.publish("progress", message, done=done, total=total, **fields)

    def notice(self, message: str, **fields: Any) -> None:
        self.job.publish("notice", message, **fields)

    def listening(self, url: str, message: str) -> None:
        self.job.publish("listening", message, url=url)

    @property
    def cancel(self) -> threading.Event:
        return self.job.cancel

    def stop_requested(self) -> bool:
        return self.job.cancel.is_set()

    def check(self) -> None:
        """Raise :class:`Cancelled` if the page asked to stop."""
        if self.job.cancel.is_set():
            raise Cancelled()


Body = Callable[[Reporter], tuple[str, dict]]  # returns (sentence, result JSON)


class JobBoard:
    """Every job of this lab, by id."""

    def __init__(self, user_errors: tuple[type[BaseException], ...] = ()) -> None:
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()
        self.ids = itertools.count(1)
        self.user_errors: tuple[type[BaseException], ...] = (NovaError, *user_errors)

    def start(self, kind: JobKind, title: str, body: Body) -> Job:
        with self.lock:
            job = Job(id=f"{kind}-{next(self.ids)}", kind=kind, title=title)
            self.jobs[job.id] = job
            self._forget_old()
        job.publish("started", title)
        job.thread = threading.Thread(
            target=self._run, args=(job, body), name=f"nova-lab-{job.id}", daemon=True
        )
        job.thread.start()
        return job

    def _run(self, job: Job, body: Body) -> None:
        try:
            sentence, result = body(Reporter(job))
        except Cancelled as stopped:
            job.publish("cancelled", str(stopped))
        except self.user_errors as error:
            job.publish("failed", str(error))
        except Exception as error:  # a bug: the log has the traceback, the page one sentence
            log.exception("job %s failed", job.id)
            job.publish(
                "failed",
                f"the lab hit an unexpected error ({error.__class__.__name__}: {error}); the lab's log has the details",
            )
        else:
            job.publish("done", sentence, result=result)

    def _forget_old(self) -> None:
        finished = [j for j in self.jobs.values() if j.finished]
        for job in finished[: max(0, len(finished) - MAX_JOBS_KEPT)]:
            del self.jobs[job.id]

    def get(self, job_id: str) -> Job | None:
        with self.lock:
            return self.jobs.get(job_id)

    def cancel_all(self, wait: float = 5.0) -> None:
        """Ask every running job to stop and wait (a little) for them: the lab is shutting down."""
        with self.lock:
            running = [j for j in self.jobs.values() if not j.finished]
        for job in running:
            job.cancel.set()
        for job in running:
            if job.thread is not None:
                job.thread.join(timeout=wait)
