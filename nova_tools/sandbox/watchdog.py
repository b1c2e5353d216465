"""The wall-clock watchdog: advances the engine's epoch while any turn is running.

wasmtime checks the epoch at function entries and loop back-edges and traps once a store's
deadline is passed. One ticker thread serves every store of the engine (an epoch is engine-wide,
so per-turn timers would cut each other's turns short); it sleeps while no turn is running.
This is the last line of defence: wasm fuel stops a runaway script deterministically long before
a default timeout, so the watchdog only fires on a very slow or overloaded host.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import wasmtime

EPOCH_SECONDS = 0.01  # one epoch tick; a deadline is rounded up to whole ticks


class Watchdog:
    def __init__(self, engine: wasmtime.Engine) -> None:
        self._engine = engine
        self._active = 0
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None

    @contextmanager
    def armed(self, store: wasmtime.Store, timeout_ms: int) -> Iterator[None]:
        """Run the block with ``store`` trapping (Interrupt) about ``timeout_ms`` from now."""
        # +1: the epoch may advance just after the deadline is set, which would cut a tick short.
        store.set_epoch_deadline(max(1, math.ceil(timeout_ms / 1000 / EPOCH_SECONDS)) + 1)
        with self._wake:
            self._active += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._tick, name="nova-sandbox-watchdog", daemon=True)
                self._thread.start()
            self._wake.notify()
        try:
            yield
        finally:
            with self._wake:
                self._active -= 1

    def _tick(self) -> None:
        while True:
            with self._wake:
                while self._active == 0:
                    self._wake.wait()
            self._engine.increment_epoch()
            time.sleep(EPOCH_SECONDS)


_watchdogs: dict[int, Watchdog] = {}
_lock = threading.Lock()


def watchdog_for(engine: wasmtime.Engine) -> Watchdog:
    with _lock:
        dog = _watchdogs.get(id(engine))
        if dog is None:
            dog = _watchdogs[id(engine)] = Watchdog(engine)
        return dog
