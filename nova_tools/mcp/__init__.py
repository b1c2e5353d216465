"""`nova mcp`: the Nova MCP server, for AI agents that write and play androids.

:func:`build_server` makes the server for a folder of games (tests connect to it in-process);
:func:`serve` runs it over stdio, or streamable HTTP bound to 127.0.0.1. See docs/mcp.md.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from . import stdin_gate
from .server import MAX_ROUNDS, build_server

__all__ = ["MAX_ROUNDS", "build_server", "serve"]

LOCALHOST = "127.0.0.1"


def serve(root: Path, http: bool = False, port: int = 8765, max_turns: int | None = None) -> None:
    """Serve the games in ``root``. stdout carries protocol messages only; logs go to stderr.
    ``max_turns``: the most android turns run at once (default: from the machine)."""
    root = Path(root)
    if max_turns is not None and max_turns < 1:
        raise SystemExit(f"nova mcp: --max-turns must be at least 1, not {max_turns}")
    if not root.is_dir():
        raise SystemExit(
            f"nova mcp: the games folder {root} does not exist; create it or pass --root DIR"
        )
    logging.basicConfig(
        stream=sys.stderr,
        level=logging.WARNING,
        format="nova mcp: %(levelname)s %(name)s: %(message)s",
    )
    app = build_server(root, max_turns=max_turns)
    if http:
        app.run("streamable-http", host=LOCALHOST, port=port)
    else:
        stdin_gate.install()  # a request the SDK cannot read still gets an answer
        app.run("stdio")
