"""Starting the lab: bind 127.0.0.1, print the URL (the first line of stdout), serve until Ctrl-C."""

from __future__ import annotations

import errno
import logging
import os
import socket
import sys
import threading
import webbrowser
from pathlib import Path
from typing import TextIO

import uvicorn

from ..errors import NovaError
from . import DEFAULT_PORT
from .app import STATIC, create_app

HOST = "127.0.0.1"  # the lab is for this machine only: never another interface


class LabError(NovaError):
    """The lab cannot start (the port is taken, the root is not a folder, the page is not built)."""


def bind(port: int) -> socket.socket:
    if not 0 <= port <= 65535:
        raise LabError(f"a port is a number from 0 to 65535, not {port}")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise LabError(
                f"port {port} on {HOST} is already in use (another lab?); pass --port 0 for any free port"
            ) from None
        raise LabError(
            f"cannot listen on {HOST}:{port} ({os.strerror(error.errno) if error.errno else error})"
        ) from None
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


def _has_windows() -> bool:
    """Whether a browser window can open here. Without a display (over ssh, in a container)
    Python's webbrowser falls back to a text browser (lynx, w3m) that would take over the
    terminal the lab is printing to: then the lab only says where it is."""
    return sys.platform in ("darwin", "win32") or bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )


def serve(
    root: str | Path = ".",
    port: int = DEFAULT_PORT,
    open_browser: bool = True,
    out: TextIO | None = None,
) -> None:
    """Serve the lab for ``root`` until interrupted. The first line written to ``out`` (stdout)
    is the lab's URL, flushed at once."""
    out = out or sys.stdout
    if not (STATIC / "index.html").is_file():
        raise LabError(
            f"the lab's page is not built ({STATIC / 'index.html'} is missing); run `python -m nova_tools.lab.build`"
        )
    guard, lab = create_app(root)
    sock = bind(port)
    guard.port = sock.getsockname()[1]
    url = f"http://{HOST}:{guard.port}/"
    print(url, file=out, flush=True)
    print(
        f"nova lab: serving {lab.folder.root} (games: NAME.json there; scripts: .ts files under it). Ctrl-C stops.",
        file=out,
        flush=True,
    )
    logging.basicConfig(
        level=logging.WARNING, format="nova lab: %(levelname)s %(name)s: %(message)s"
    )
    config = uvicorn.Config(
        guard,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=3,
        lifespan="on",
        ws="none",  # the lab speaks HTTP only (live updates are Server-Sent Events)
    )
    server = uvicorn.Server(config)
    if open_browser and _has_windows():
        threading.Timer(0.3, lambda: webbrowser.open(url)).start()
    elif open_browser:
        print(
            f"nova lab: no display to open a browser window on; open {url} in a browser on this machine (over ssh: ssh -L {guard.port}:127.0.0.1:{guard.port} HOST, then the same URL)",
            file=out,
            flush=True,
        )
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
