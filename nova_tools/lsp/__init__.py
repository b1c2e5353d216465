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
import re
import sys

__all__ = ["create_server", "serve"]

SAVE_CODE_AFTER_S = 10.0


def create_server():
    from .routes import create_server as _create

    return _create()


def serve() -> None:
    """Run the server over stdio until the client says ``exit`` (or goes away)."""
    configure_logging()
    from . import turnhost

    # first of all: the dry-run's process imports the game and warms up on the other core
    # while this one imports the protocol's libraries
    turnhost.shared().start()
    atexit.register(turnhost.shared().kill)
    import threading

    from .codecache import CodeCache, cache_path

    code = CodeCache(cache_path())
    code.install()  # before lsprotocol defines its classes
    atexit.register(code.save)
    # and once the start's messages have been converted, for a server that is killed later
    later = threading.Timer(SAVE_CODE_AFTER_S, code.save)
    later.daemon = True
    later.start()
    server = create_server()
    atexit.register(server.ts.kill)  # no orphan tsc, whatever way the loop ends
    _serve_stdio(server, BoundedInput(sys.stdin.buffer))


def configure_logging() -> None:
    """The server's log (and its dry-run process's): stderr, or the file ``NOVA_LSP_LOG``
    names, at the level ``NOVA_LSP_LOG_LEVEL`` names (WARNING by default)."""
    level = os.environ.get("NOVA_LSP_LOG_LEVEL", "WARNING").upper()
    handler: logging.Handler
    if log_file := os.environ.get("NOVA_LSP_LOG"):
        handler = logging.FileHandler(log_file, encoding="utf-8")
    else:
        handler = logging.StreamHandler(sys.stderr)  # stdout is the protocol's
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    logging.basicConfig(level=getattr(logging, level, logging.WARNING), handlers=[handler])


def _serve_stdio(server, stdin: BoundedInput) -> None:
    """pygls's ``start_io``, except that an input that ends without ``shutdown`` and ``exit`` (an
    editor that crashed, a client that just closes the pipe) ends the server the same polite way:
    the features stop their children while the event loop still runs. Otherwise asyncio closed the
    loop under the tsc child's pipes and requests still waiting, and the server's last words on
    stderr were tracebacks."""
    import asyncio
    import threading

    from pygls.io_ import StdinAsyncReader, StdoutWriter, run_async

    class Reader(StdinAsyncReader):
        async def readline(self) -> bytes:
            line = await super().readline()
            if not line:
                await _end_politely(server)
            return line

        async def readexactly(self, n: int) -> bytes:
            body = await super().readexactly(n)
            if not body:
                await _end_politely(server)
            return body

    server._stop_event = threading.Event()  # what pygls's own start_io sets up
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    try:
        asyncio.run(
            run_async(
                stop_event=server._stop_event,
                # pygls types stdin as BinaryIO and calls only readline and read, as BoundedInput has
                reader=Reader(stdin, server.thread_pool),  # type: ignore[arg-type]
                protocol=server.protocol,
                error_handler=server.report_server_error,
            )
        )
    except BrokenPipeError:
        logging.getLogger(__name__).warning("the client went away; the server stops")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()


async def _end_politely(server) -> None:
    """What ``shutdown`` then ``exit`` do, for an input that ended without them (at most a few
    seconds: a child that does not answer is killed)."""
    import asyncio

    log = logging.getLogger(__name__)
    log.info("the input ended without shutdown and exit: stopping as if they had come")
    for feature in server.features:
        try:
            await asyncio.wait_for(feature.shutdown(), 5.0)
        except Exception:  # ending anyway; what is left is killed below
            log.warning("a feature did not stop cleanly", exc_info=True)
    for feature in server.features:
        feature.exit()
    # Requests still being answered (an initialize waiting for tsc, say) end by themselves now
    # that the children are gone; what does not within a second is cancelled.
    current = asyncio.current_task()
    waiting = [task for task in asyncio.all_tasks() if task is not current and not task.done()]
    if waiting:
        _, left = await asyncio.wait(waiting, timeout=1.0)
        for task in left:
            task.cancel()


# The largest message read whole: a didOpen of the largest script an upload takes (4 MiB of
# source, JSON-escaped) fits many times over.
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
MAX_HEADER_LINE = 64 * 1024
_CHUNK = 1024 * 1024
# A frame's header line. It cannot occur inside a JSON body (a JSON string holds no raw CR or
# LF), so finding one in the bytes of a skipped message is where the next frame starts.
_FRAME_HEADER = re.compile(rb"Content-Length: *[0-9]+\r\n")
# What pygls is handed for a skipped message: a notification the server ignores (non-JSON would
# be logged with a traceback); server.IGNORED names it.
_SKIPPED = b'{"jsonrpc":"2.0","method":"$/nova/ignored","params":null}'


class BoundedInput:
    """stdin as pygls's reader sees it, with limits: pygls reads a frame's body in one piece of
    the size its Content-Length claims, so a header claiming a terabyte was a MemoryError that
    ended the server. A body beyond ``MAX_MESSAGE_BYTES`` is thrown away instead, read in
    chunks, up to its claimed length or to the next frame's header, whichever comes first: a
    real message that is too big is skipped and the frames after it stay in step, and a header
    that lies (a terabyte claimed, two bytes sent) costs that one message, not every later one.
    A header line is read at most ``MAX_HEADER_LINE`` bytes at a time."""

    def __init__(self, raw) -> None:
        self.raw = raw
        self.ahead = b""  # read while skipping, past the skipped message: the next frame's start

    def readline(self) -> bytes:
        if not self.ahead:
            return self.raw.readline(MAX_HEADER_LINE)
        end = self.ahead.find(b"\n", 0, MAX_HEADER_LINE)
        if end >= 0 or len(self.ahead) >= MAX_HEADER_LINE:
            cut = end + 1 if end >= 0 else MAX_HEADER_LINE
            line, self.ahead = self.ahead[:cut], self.ahead[cut:]
            return line
        line, self.ahead = self.ahead, b""
        return line + self.raw.readline(MAX_HEADER_LINE - len(line))

    def read(self, n: int) -> bytes:
        if n > MAX_MESSAGE_BYTES:
            return self._skip(n)
        body, self.ahead = self.ahead[:n], self.ahead[n:]
        return body + self.raw.read(n - len(body)) if len(body) < n else body

    def _skip(self, n: int) -> bytes:
        logging.getLogger(__name__).warning(
            "a message of %d bytes was skipped (at most %d are read)", n, MAX_MESSAGE_BYTES
        )
        read_some = getattr(
            self.raw, "read1", self.raw.read
        )  # what has arrived, without waiting for the rest
        window, self.ahead = self.ahead, b""
        taken = len(window)
        while True:
            found = _FRAME_HEADER.search(window)
            if found:
                self.ahead = window[found.start() :]
                return _SKIPPED
            if taken >= n:
                return _SKIPPED
            chunk = read_some(min(n - taken, _CHUNK))
            if not chunk:
                return b""  # the client went away mid-message: the server stops, as at any end of input
            taken += len(chunk)
            window = window[-64:] + chunk  # a header cut in two by a chunk boundary is still found
