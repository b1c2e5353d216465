"""Games as Ray tasks, on an existing cluster (``--ray ADDRESS``) or a local instance (``--ray local``).

Ray is an optional extra (``pip install 'nova-tools[ray]'``). Every node needs the same nova-tools
installed (and its toolchain: ``nova doctor`` on the node says what is missing). The contest is put
in Ray's object store once; each task plays one game and returns its record. Ray keeps its worker
processes between tasks, so each worker's sandbox and bytecode cache serve many games.
"""

from __future__ import annotations

import logging
import signal
import socket
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from .backends import Backend, OnDone, default_jobs
from .errors import ArenaError, Interrupted
from .game import GameRecord, play_task
from .plan import Contest, GameTask


def _ray():
    try:
        import ray
    except ImportError:
        raise ArenaError("--ray needs the ray package: pip install 'nova-tools[ray]'") from None
    return ray


def _python_sigterm_handler():
    """The SIGTERM handler a Python caller installed in the main thread, if any."""
    if threading.current_thread() is not threading.main_thread():
        return None
    handler = signal.getsignal(signal.SIGTERM)
    return handler if callable(handler) else None


def _play(contest: Contest, task: GameTask) -> GameRecord:
    return play_task(contest, task)


@dataclass
class RayCluster(Backend):
    """``address``: a Ray address (``auto``, ``ray://host:10001``, ``host:6379``) or ``local``
    (a fresh local instance with ``jobs`` CPUs, by default all of them, shut down afterwards)."""

    address: str
    jobs: int | None = None

    @property
    def local(self) -> bool:
        return self.address == "local"

    def _check_reachable(self) -> None:
        """Fail at once, in one sentence, when a host:port address does not answer: Ray itself
        retries for minutes, logging from C++ as it goes."""
        if self.local or self.address == "auto":
            return
        hostport = self.address.removeprefix("ray://")
        host, colon, port = hostport.rpartition(":")
        if not colon or not port.isdigit():
            raise ArenaError(
                f"{self.address!r} is not a Ray address (give host:port, ray://host:port, auto or local)"
            )
        try:
            socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
        except OSError as error:
            raise ArenaError(
                f"cannot reach the Ray cluster at {self.address!r} ({error.strerror or error})"
            ) from None

    def _connect(self, ray) -> None:
        self._check_reachable()
        options = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": logging.ERROR,
        }
        ours = _python_sigterm_handler()
        try:
            if self.local:
                # "local" starts a new instance even when another cluster is (or a stale
                # /tmp/ray/ray_current_cluster says one was) running on this machine
                ray.init(address="local", num_cpus=self.jobs or default_jobs(), **options)
            else:
                ray.init(address=self.address, **options)
        except (ConnectionError, ValueError, RuntimeError) as error:
            first = (
                str(error).strip().splitlines()[0]
                if str(error).strip()
                else error.__class__.__name__
            )
            raise ArenaError(f"cannot reach the Ray cluster at {self.address!r}: {first}") from None
        finally:
            # ray.init replaces the caller's SIGTERM handler (the CLI's stops the games as Ctrl-C
            # does, and `run` then shuts Ray down); put it back. Without one, Ray's stays: it at
            # least stops the local instance.
            if ours is not None:
                signal.signal(signal.SIGTERM, ours)
        self.workers = int(ray.cluster_resources().get("CPU", 1))

    def run(self, contest: Contest, tasks: Sequence[GameTask], on_done: OnDone) -> list[GameRecord]:
        ray = _ray()
        self._connect(ray)
        played: list[GameRecord] = []
        pending: list = []
        try:
            remote = ray.remote(num_cpus=1, max_retries=0)(_play)
            shared = ray.put(contest)
            pending = [remote.remote(shared, task) for task in tasks]
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    record = ray.get(ref)
                    on_done(
                        record
                    )  # counted once its file is kept: a stop during the write leaves no counted game without its file
                    played.append(record)
        except KeyboardInterrupt:
            # A local instance is torn down whole by the shutdown below. Cancelling its tasks first
            # races with replies already on their way and can abort the driver inside Ray
            # ("Tried to complete task that was not pending"); a shared cluster keeps running,
            # so there the games left are cancelled.
            if not self.local:
                for ref in pending:
                    ray.cancel(ref, force=True)
            raise Interrupted(played) from None
        except ray.exceptions.RayError as error:  # a worker died, or a node without nova-tools
            lines = [line for line in str(error).splitlines() if line.strip()]
            raise ArenaError(
                f"a game failed on {self.describe()[3:]}: {lines[-1] if lines else error.__class__.__name__}"
            ) from None
        finally:
            ray.shutdown()
        return played

    def describe(self) -> str:
        where = "on a local Ray instance" if self.local else f"on the Ray cluster at {self.address}"
        return f"{where} ({self.workers} CPUs)"
