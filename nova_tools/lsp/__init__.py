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
    server.start_io()
