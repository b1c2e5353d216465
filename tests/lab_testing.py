"""Shared helpers for the lab's tests: the real `nova lab` process, and Debian's Chromium driven by
Playwright (never a mock of either)."""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from nova_testing import REPO

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
START_TIMEOUT_S = 60
#: Where the browser tests leave their screenshots (``NOVA_TEST_OUTPUT`` overrides; git ignores it).
OUTPUT = Path(os.environ.get("NOVA_TEST_OUTPUT", REPO / "test-output")) / "lab"


def chromium() -> str:
    """Debian's chromium, or a skip that says how to get it (a skip fails the run under CI=true)."""
    found = (
        os.environ.get("NOVA_CHROMIUM")
        or shutil.which("chromium")
        or shutil.which("chromium-browser")
    )
    if not found:
        pytest.skip(
            "no Chromium: install Debian's `chromium` (`apt-get install -y chromium`; `make test` does) to run the browser tests"
        )
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("Playwright is not installed: `pip install -e '.[dev]'`")
    return found


@dataclass
class Lab:
    url: str
    root: Path
    process: subprocess.Popen

    def get(self, path: str, headers: dict | None = None) -> tuple[int, object]:
        request = urllib.request.Request(self.url.rstrip("/") + path, headers=headers or {})
        return _open(request)

    def post(self, path: str, body: object, headers: dict | None = None) -> tuple[int, object]:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        request = urllib.request.Request(
            self.url.rstrip("/") + path,
            data=data,
            method="POST",
            headers={"Content-Type": "application/json", **(headers or {})},
        )
        return _open(request)

    @property
    def port(self) -> int:
        return int(self.url.rstrip("/").rsplit(":", 1)[1])


def _open(request: urllib.request.Request) -> tuple[int, object]:
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


@contextmanager
def running_lab(
    root: Path,
    *extra: str,
    command: list[str] | None = None,
    env: dict | None = None,
    browser: bool = False,
) -> Iterator[Lab]:
    """`nova lab --root ROOT --port 0 --no-browser` as a user starts it; stopped with Ctrl-C.
    ``command``: the `nova` to run (default: this checkout's, through this Python); ``browser``:
    leave out --no-browser."""
    process = subprocess.Popen(
        [
            *(command or [sys.executable, "-m", "nova_tools.cli"]),
            "lab",
            "--root",
            str(root),
            "--port",
            "0",
            *([] if browser else ["--no-browser"]),
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=root,
        env=env,
    )
    try:
        ready, _, _ = select.select([process.stdout], [], [], START_TIMEOUT_S)
        if not ready:
            raise AssertionError(f"nova lab printed nothing within {START_TIMEOUT_S} s")
        url = process.stdout.readline().strip()
        if not url.startswith("http://127.0.0.1:"):
            process.kill()
            raise AssertionError(
                f"nova lab's first line is not its URL: {url!r}; stderr: {process.stderr.read()}"
            )
        yield Lab(url, root, process)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        for stream in (process.stdout, process.stderr):
            if stream:
                stream.close()


def wait_for(predicate, timeout: float, what: str, every: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"{what} did not happen within {timeout:g} s")
