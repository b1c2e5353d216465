"""``nova lsp``: the Nova language server (pygls 2, stdio).

Android scripts get type diagnostics from a warm TypeScript 7 checker, hover that explains rules
and actions with this game's values, completion through the typings, Nova-specific checks with
quick fixes, and a dry-run of the turn (code lens ``nova.dryRun``). Rules files get diagnostics at
the offending key or value, hover docs and key completion. See ``docs/editors.md``.
"""

from __future__ import annotations

import atexit
import logging
import os
import sys

__all__ = ["create_server", "serve"]


def create_server():
    from .server import create_server as _create

    return _create()


def serve() -> None:
    """Run the server over stdio until the client says ``exit`` (or goes away)."""
    level = os.environ.get("NOVA_LSP_LOG_LEVEL", "WARNING").upper()
    handler: logging.Handler
    if log_file := os.environ.get("NOVA_LSP_LOG"):
        handler = logging.FileHandler(log_file, encoding="utf-8")
    else:
        handler = logging.StreamHandler(sys.stderr)  # stdout is the protocol's
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    logging.basicConfig(level=getattr(logging, level, logging.WARNING), handlers=[handler])
    server = create_server()
    atexit.register(server.ts.kill)  # no orphan tsc, whatever way the loop ends
    server.start_io(stdin=BoundedInput(sys.stdin.buffer))


# The largest message read whole: a didOpen of the largest script an upload takes (4 MiB of
# source, JSON-escaped) fits many times over.
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
MAX_HEADER_LINE = 64 * 1024
_CHUNK = 1024 * 1024


class BoundedInput:
    """stdin as pygls's reader sees it, with limits: pygls reads a frame's body in one piece of
    the size its Content-Length claims, so a header claiming a terabyte was a MemoryError that
    ended the server. A body beyond ``MAX_MESSAGE_BYTES`` is read in chunks and thrown away
    (the frames after it stay in step); what is handed on instead is not JSON, which pygls logs
    and skips. A header line is read at most ``MAX_HEADER_LINE`` bytes at a time."""

    def __init__(self, raw) -> None:
        self.raw = raw

    def readline(self) -> bytes:
        return self.raw.readline(MAX_HEADER_LINE)

    def read(self, n: int) -> bytes:
        if n <= MAX_MESSAGE_BYTES:
            return self.raw.read(n)
        logging.getLogger(__name__).warning("a message of %d bytes was skipped (at most %d are read)", n, MAX_MESSAGE_BYTES)
        remaining = n
        while remaining > 0:
            chunk = self.raw.read(min(remaining, _CHUNK))
            if not chunk:
                return b""  # the client went away mid-message: the server stops, as at any end of input
            remaining -= len(chunk)
        return b" "
