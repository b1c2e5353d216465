"""Games as Ray tasks, on an existing cluster (``--ray ADDRESS``) or a local instance (``--ray local``).

Ray is an optional extra (``pip install 'nova-tools[ray]'``). Every node needs the same nova-tools
installed (and its toolchain: ``nova doctor`` on the node says what is missing). The contest is put
in Ray's object store once; each task plays one game and returns its record. Ray keeps its worker
processes between tasks, so each worker's sandbox and bytecode cache serve many games.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

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


#: What a cluster with token authentication (Ray 2.52+) needs of a client, in one sentence.
TOKEN_HINT = (
    "give its token (`ray get-auth-token` on the head node prints it) in ~/.ray/auth_token or "
    "RAY_AUTH_TOKEN, with RAY_AUTH_MODE=token"
)


def ray_token_available() -> bool:
    """Whether this machine has a Ray token where Ray looks for one (``RAY_AUTH_TOKEN``,
    ``RAY_AUTH_TOKEN_PATH``, ``~/.ray/auth_token``)."""
    if os.environ.get("RAY_AUTH_TOKEN"):
        return True
    path = os.environ.get("RAY_AUTH_TOKEN_PATH") or str(Path.home() / ".ray" / "auth_token")
    return Path(path).is_file()


def follow_token_auth() -> None:
    """Use the machine's Ray token when it has one: ``ray start`` gives a cluster with token
    authentication when ``~/.ray/auth_token`` exists, and a client without ``RAY_AUTH_MODE=token``
    then retries for 20 s and says only "Failed to connect". A token client also reaches a cluster
    without authentication. An explicit ``RAY_AUTH_MODE`` is left as it is."""
    if "RAY_AUTH_MODE" not in os.environ and ray_token_available():
        os.environ["RAY_AUTH_MODE"] = "token"


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Ray's C++ core logs each refused attempt straight to file descriptor 2."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _check_token(address: str) -> None:
    """Ask the cluster's control service once (milliseconds) whether it takes this client, so a
    cluster that wants a token says so at once instead of after Ray's 20 s of retries."""
    try:
        from ray._raylet import GcsClient  # type: ignore[attr-defined]  # Ray's own client
        from ray.exceptions import AuthenticationError
    except ImportError:  # another Ray: ray.init says what it says
        return
    try:
        with _quiet_stderr():
            GcsClient(address=address)
    except AuthenticationError:
        if os.environ.get("RAY_AUTH_MODE") == "token":
            raise ArenaError(
                f"the Ray cluster at {address!r} refused this machine's Ray token; {TOKEN_HINT}"
            ) from None
        raise ArenaError(
            f"the Ray cluster at {address!r} wants a token (token authentication is on); {TOKEN_HINT}"
        ) from None
    except Exception:  # anything else is ray.init's to report, in its words
        return


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
        if not self.local and self.address != "auto" and not self.address.startswith("ray://"):
            _check_token(self.address)
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
        if not self.local:
            follow_token_auth()  # before Ray is imported: its core reads RAY_AUTH_MODE then
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
