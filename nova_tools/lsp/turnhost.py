"""The editor's dry-runs, played in a process of their own (``python -m nova_tools.lsp.turnhost``).

Before the first dry-run can be played, Python imports the game (the engine, the rules' models,
the sandbox, the toolchain's front) and the sandbox loads its compiled module and plays a first
turn: about as much CPU as the language server spends importing pygls and lsprotocol before it
can answer ``initialize``. In one process they took turns on one core; here the host process is
launched first thing, imports and plays a throwaway turn (its warm-up) on the other core while
the server imports its own, and then waits for the server's requests. A dry-run asked before the
warm-up is over waits in the pipe and is played right after it, the same way.

A request is one turn of an entry file, the open buffers read instead of their files
(``overlay``), against a game or a fresh world (:func:`play`), the upload's type check beside
the sandboxed turn. The answer is the verdict (the api's :class:`~nova_tools.api.results.DryRun`,
what ``nova dry-run --json`` prints), or the
:class:`~nova_tools.toolchain.diagnostics.CompileError` it raised, or what any other
error said. Requests and answers are pickled (both ends are this package), one frame each: an
8-byte length, then the bytes. The host ends when its input ends (the server stopped or died);
if it dies itself, the dry-run under way says so and the next one starts a new host.
"""

from __future__ import annotations

import logging
import os
import pickle
import struct
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..api.results import DryRun

log = logging.getLogger(__name__)

_LENGTH = struct.Struct(">Q")

#: The warm-up's script, as the bundler makes it (so that no bundler runs for it): a turn that
#: waits. One turn of it loads everything a dry-run needs.
WARM_UP_BUNDLE = 'var main_default = () => ({ type: "android.wait" });\nexport {\n  main_default as default\n};\n'


@dataclass(frozen=True)
class TurnRequest:
    entry: str  # the entry file's absolute path
    overlay: dict[str, str]  # absolute path -> the open buffer's text
    game: str | None  # a game file: the turn is played against its current state
    android_id: str | None


class TurnFailed(Exception):
    """The turn could not be played for a reason that is not the user's (a bug, the host gone):
    ``kind`` names what went wrong (the exception's type), ``message`` says it."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


class TurnRefused(Exception):
    """A :class:`~nova_tools.errors.NovaError` in the host (a missing game file, a wreck to play
    as...): ``str()`` is its message."""


def _write(out: IO[bytes], value: object) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(_LENGTH.pack(len(data)) + data)
    out.flush()


def _read(source: IO[bytes]) -> Any:
    """The next frame's value; EOFError when the other end has gone."""
    head = source.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        raise EOFError
    (size,) = _LENGTH.unpack(head)
    data = source.read(size)
    if len(data) < size:
        raise EOFError
    return pickle.loads(data)


# --- the server's end -------------------------------------------------------------------------------


class TurnHost:
    """The host process, from the server's side: started once (:meth:`start`, as early as
    possible), then one :meth:`turn` at a time, each blocking until its answer (call it in a
    thread)."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()  # one request on the pipe at a time
        self.starts = 0

    def start(self) -> None:
        """Launch the host if none is running (it begins its warm-up at once)."""
        if self._proc is not None and self._proc.poll() is None:
            return
        env = dict(os.environ)
        # the host imports the same nova_tools as this process, however this one found it (and
        # not one in its working folder: -P)
        package_root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join([package_root, *filter(None, [env.get("PYTHONPATH")])])
        self._proc = subprocess.Popen(
            [sys.executable, "-P", "-m", "nova_tools.lsp.turnhost"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        self.starts += 1

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    def turn(self, request: TurnRequest) -> DryRun:
        """The verdict; raises the CompileError of a script that does not compile,
        :class:`TurnRefused` for the user's other mistakes, :class:`TurnFailed` for the rest."""
        with self._lock:
            self.start()
            proc = self._proc
            assert proc is not None and proc.stdin is not None and proc.stdout is not None
            try:
                _write(proc.stdin, request)
                # the verdict's module, imported while the host plays (the first time only)
                from ..api import results  # noqa: F401

                kind, value = _read(proc.stdout)
            except (EOFError, OSError):
                code = proc.wait()
                self._proc = None  # the next dry-run starts a new host
                raise TurnFailed(
                    "the dry-run process ended",
                    f"exit code {code}; the next dry-run starts it again",
                ) from None
        if kind == "verdict":
            return value
        if kind == "refused":
            raise TurnRefused(value)
        if kind == "compile-error":
            raise value
        raise TurnFailed(*value)

    def stop(self, timeout: float = 2.0) -> None:
        """End the host politely (its input closed), or kill it after ``timeout`` seconds."""
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        try:
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait(timeout)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()

    def kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.kill()


_shared: TurnHost | None = None


def shared() -> TurnHost:
    """The process's one host (the language server's)."""
    global _shared
    if _shared is None:
        _shared = TurnHost()
    return _shared


# --- the host's end -----------------------------------------------------------------------------------


def play(request: TurnRequest) -> DryRun:
    """One turn of ``request.entry`` as the toolchain resolves its imports, the overlay read
    instead of those files, with the upload's type check beside it; the errors an upload would
    report first (syntax, imports), then type errors, then the turn's own."""
    from .. import api
    from ..toolchain.compile import compile_overlapped

    game = Path(request.game) if request.game is not None else None
    return compile_overlapped(
        Path(request.entry),
        lambda compiled: api.dry_run(compiled=compiled, game=game, android_id=request.android_id),
        {Path(path): text for path, text in request.overlay.items()},
    )


def warm_up(waiting: Callable[[], bool]) -> None:
    """The game's modules imported, then one turn of a throwaway script (the sandbox's module
    loaded and a first instance made), unless a dry-run is ``waiting`` already: its own turn
    warms the same things, and sooner."""
    from ..api import dry_run
    from ..toolchain.compile import CompiledScript  # the module of the compiler a dry-run runs

    if not waiting():
        dry_run(compiled=CompiledScript.of(WARM_UP_BUNDLE, "main.ts"))


def _ready_to_read(source: IO[bytes]) -> Callable[[], bool]:
    """Whether bytes wait on ``source`` (POSIX; elsewhere, never said)."""
    if os.name != "posix":
        return lambda: False
    import select

    return lambda: bool(select.select([source], [], [], 0)[0])


def answer(request: TurnRequest) -> tuple[str, object]:
    from ..errors import NovaError
    from ..toolchain.diagnostics import CompileError

    try:
        return "verdict", play(request)
    except CompileError as error:
        return "compile-error", error
    except NovaError as error:
        return "refused", str(error)
    except Exception as error:  # the outer edge: the server says it in one sentence
        log.exception("dry-run of %s failed", request.entry)
        return "failed", (type(error).__name__, str(error))


def serve(requests: IO[bytes], answers: IO[bytes]) -> None:
    import time

    began = time.perf_counter()
    try:
        warm_up(_ready_to_read(requests))
        log.info("dry-run warm-up: %.0f ms", 1000 * (time.perf_counter() - began))
    except Exception as error:  # a missing toolchain is reported when a dry-run is asked for
        log.info("the dry-run warm-up did not complete: %s", error)
    while True:
        try:
            request = _read(requests)
        except EOFError:
            return
        _write(answers, answer(request))


def main() -> None:
    from . import configure_logging

    configure_logging()
    # the answers go out on a copy of stdout; anything else written there (a stray print, a
    # native library's output) reaches stderr instead of the server's pipe
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    from nova_tools.lsp import turnhost  # the module proper, whose classes the requests name

    turnhost.main()
