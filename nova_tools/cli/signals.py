"""SIGTERM as Ctrl-C, for the commands that keep what they played when stopped."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[list[int]]:
    """SIGTERM (`timeout`, `kill`, a cancelled CI job) raises KeyboardInterrupt, so the command
    stops as Ctrl-C stops it: workers stopped, the peer told, what was played kept and reported.
    Without this the process died at once, and whatever it had started (a process pool, Ray's
    C++ core) printed its own complaints. The yielded list is non-empty once SIGTERM arrived."""
    received: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield received
        return

    def stop(signum, frame) -> None:
        received.append(signum)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield received
    finally:
        signal.signal(signal.SIGTERM, previous)
