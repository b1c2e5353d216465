"""Helpers for peer-match tests: real `nova host` / `nova join` processes on 127.0.0.1, and a raw
WebSocket peer that speaks (or breaks) the protocol by hand. Every wait is bounded."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from nova_testing import Run
from websockets.sync.client import connect

PEER_PROGRAM = Path(__file__).resolve().parent / "match" / "peer.py"
LIMIT = 120  # seconds: no process of these tests may live longer


class Process:
    """A `nova` (or test peer) process whose output is collected as it comes (so a test can wait for
    a line); killed if it outlives its limit."""

    running: list[Process] = []  # killed by the tests' fixture if a test fails half-way

    def __init__(self, argv: list[str], cwd: Path) -> None:
        Process.running.append(self)
        self.proc = subprocess.Popen(
            argv,
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.out: list[str] = []
        self.err: list[str] = []
        self.readers = [
            threading.Thread(target=self._drain, args=(pipe, into), daemon=True)
            for pipe, into in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))
        ]
        for reader in self.readers:
            reader.start()

    @staticmethod
    def _drain(pipe, into: list[str]) -> None:
        for line in pipe:
            into.append(line)

    def wait_for(self, text: str, stream: str = "err", timeout: float = 60) -> str:
        """The first line of stdout or stderr containing ``text``, waiting at most ``timeout``."""
        lines = self.out if stream == "out" else self.err
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(lines):
                if text in line:
                    return line
            if self.proc.poll() is not None and all(not r.is_alive() for r in self.readers):
                break
            time.sleep(0.05)
        result = self.kill_and_collect()
        raise AssertionError(
            f"no line with {text!r} within {timeout} s; stdout: {result.out}; stderr: {result.err}"
        )

    def read_first_line(self, timeout: float = 60) -> str:
        self.wait_for("", "out", timeout)
        return self.out[0]

    def alive(self) -> bool:
        return self.proc.poll() is None

    def interrupt(self) -> None:
        """Ctrl-C, as a user at the terminal would."""
        self.proc.send_signal(signal.SIGINT)

    def finish(self, timeout: float = LIMIT) -> Run:
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            result = self.kill_and_collect()
            raise AssertionError(
                f"the process did not end within {timeout} s; stderr: {result.err}"
            ) from None
        return self._collect()

    def kill_and_collect(self) -> Run:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        return self._collect()

    def _collect(self) -> Run:
        for reader in self.readers:
            reader.join(timeout=10)
        for pipe in (self.proc.stdout, self.proc.stderr):
            pipe.close()
        return Run(self.proc.returncode, "".join(self.out), "".join(self.err))


def nova_argv(*args: object) -> list[str]:
    return [sys.executable, "-m", "nova_tools.cli", *map(str, args)]


def start_host(cwd: Path, *args: object) -> tuple[Process, str]:
    """`nova host ...` on port 0; returns the process and the URL from its first line."""
    host = Process(nova_argv("host", "--port", 0, *args), cwd)
    line = host.read_first_line()
    assert line.startswith("nova join ws://127.0.0.1:"), line
    return host, line.split()[2]


def start_join(cwd: Path, url: str, *args: object) -> Process:
    return Process(nova_argv("join", url, *args), cwd)


def start_peer(cwd: Path, *args: object) -> Process:
    """The test peer program (a real match peer that lies, leaves or falls silent on purpose)."""
    return Process([sys.executable, str(PEER_PROGRAM), *map(str, args)], cwd)


def no_traceback(*runs: Run) -> None:
    for run in runs:
        assert "Traceback" not in run.err and "Traceback" not in run.out, run.err


def no_temporary_files(folder: Path) -> None:
    leftovers = [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]
    assert not leftovers, leftovers


def one_sentence(err: str, command: str) -> str:
    """The one `nova <command>: ...` error line of a failed run (notices aside)."""
    lines = [line for line in err.strip().splitlines() if line.startswith(f"nova {command}: ")]
    assert lines, err
    return lines[-1]


TINY_BUNDLE = (
    "export default function turn() { return { type: 'android.wait', recording: 'raw peer' }; }\n"
)


class RawPeer:
    """A joiner written by hand over a real WebSocket: it can follow the protocol, or break it."""

    def __init__(self, url: str) -> None:
        self.ws = connect(
            url, proxy=None, open_timeout=10, compression=None, max_size=None
        ).__enter__()
        self.nonce = bytes(range(32))
        self.told: dict | None = None  # an abort received during the handshake

    def send(self, data: dict | str | bytes) -> None:
        self.ws.send(json.dumps(data) if isinstance(data, dict) else data)

    def receive(self, timeout: float = 30) -> dict:
        return json.loads(self.ws.recv(timeout=timeout))

    def accept(self, offer: dict, player: str = "mallory", **override) -> None:
        from nova_tools.match.seed import commitment

        accept = {
            "type": "accept",
            "protocol": "nova-match",
            "version": 1,
            "player": player,
            "size": offer["sizes"][0],
            "sandbox": offer["sandbox"],
            "nova": offer["nova"],
            "seedCommit": commitment("joiner", self.nonce),
            "scriptCommit": hashlib.sha256(TINY_BUNDLE.encode()).hexdigest(),
        }
        self.send({**accept, **override})

    def handshake(
        self, player: str = "mallory", bundle: str = TINY_BUNDLE, nonce: bytes | None = None
    ) -> dict:
        """Everything up to round 1: offer, accept, scripts, reveals. Returns the offer. A
        ``bundle`` or ``nonce`` other than the ones committed to breaks the commitments."""
        offer = self.receive()
        assert offer["type"] == "offer", offer
        self.accept(offer, player)
        assert self.receive()["type"] == "script"
        self.send(
            {
                "type": "script",
                "name": "raw",
                "sha256": hashlib.sha256(bundle.encode()).hexdigest(),
                "bundle": bundle,
            }
        )
        reply = self.receive()
        if reply["type"] == "abort":  # the host caught a broken commitment
            self.told = reply
            return offer
        assert reply["type"] == "reveal", reply
        self.send({"type": "reveal", "nonce": (nonce or self.nonce).hex()})
        return offer

    def close(self) -> None:
        self.ws.close()


def game_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))
