"""One side's end of the match connection: typed messages in and out, every receive bounded.

Each receive names the messages due at that moment, waits at most ``timeout`` seconds, and takes
at most the size those messages may have (:func:`~nova_tools.match.messages.decode`). Everything
that can go wrong with the peer becomes a :class:`PeerError` whose text is one sentence.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TypedDict, TypeVar, overload

from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.connection import Connection

from .messages import (
    MAX_FRAME,
    Abort,
    Message,
    ProtocolViolation,
    Refuse,
    VersionMismatch,
    _Message,
    decode,
)

log = logging.getLogger("nova.match")

# The WebSocket layer's own logs (handshake failures, keepalive) go to our logger at debug level:
# they are never a traceback on the user's terminal; what matters becomes a PeerError sentence.
WS_LOGGER = logging.getLogger("nova.match.websockets")
WS_LOGGER.propagate = False
WS_LOGGER.addHandler(logging.NullHandler())

# Options shared by both ends: no compression (no decompression bombs, and bundles are small),
# the frame limit, keepalive pings that notice a vanished peer even while we compute.
M1 = TypeVar("M1", bound=_Message)
M2 = TypeVar("M2", bound=_Message)


class ConnectionOptions(TypedDict):
    compression: None
    max_size: int
    ping_interval: float
    ping_timeout: float
    close_timeout: float
    logger: logging.Logger


CONNECTION_OPTIONS = ConnectionOptions(
    compression=None,
    max_size=MAX_FRAME,
    ping_interval=10,
    ping_timeout=30,
    close_timeout=5,
    logger=WS_LOGGER,
)


class PeerError(Exception):
    """The peer cannot go on with the match; the text is one sentence saying why."""


class PeerLeft(PeerError):
    """The connection closed or broke."""


class PeerSilent(PeerError):
    """Nothing arrived within the timeout."""


class PeerViolation(PeerError):
    """The peer sent something the protocol does not allow (garbage, oversized, out of turn)."""


class PeerVersionMismatch(PeerViolation):
    """The peer speaks another version of the protocol."""


class PeerAborted(PeerError):
    """The peer stopped the match and said why."""


class Channel:
    def __init__(self, connection: Connection, timeout: float) -> None:
        self.connection = connection
        self.timeout = timeout
        self.closed = False

    @property
    def address(self) -> str:
        try:
            host, port = self.connection.remote_address[:2]
        except Exception:  # a closed socket has no address any more
            return "an unknown address"
        return f"{host}:{port}"

    def send(self, message: Message) -> None:
        try:
            self.connection.send(message.encode())
        except (ConnectionClosed, OSError) as error:
            raise PeerLeft(_closed_sentence(error)) from None

    @overload
    def receive(self, one: type[M1], /, *, timeout: float | None = None) -> M1: ...
    @overload
    def receive(
        self, one: type[M1], other: type[M2], /, *, timeout: float | None = None
    ) -> M1 | M2: ...
    def receive(self, *expected: type[_Message], timeout: float | None = None) -> _Message:
        """The next message, which must be one of ``expected`` (or an abort, raised as PeerAborted)."""
        wait = self.timeout if timeout is None else timeout
        try:
            raw = self.connection.recv(timeout=wait)
        except TimeoutError:
            raise PeerSilent(f"the peer sent nothing for {wait:g} s") from None
        except ConnectionClosed as error:
            raise PeerLeft(_closed_sentence(error)) from None
        except (WebSocketException, OSError) as error:
            raise PeerLeft(f"the connection to the peer broke ({error})") from None
        try:
            message = decode(raw, expected)
        except VersionMismatch as mismatch:
            raise PeerVersionMismatch(str(mismatch)) from None
        except ProtocolViolation as violation:
            raise PeerViolation(str(violation)) from None
        if isinstance(message, Abort) and Abort not in expected:
            raise PeerAborted(f"the peer stopped the match: {message.reason}")
        return message

    @overload
    def poll(self, one: type[M1], /) -> M1 | None: ...
    @overload
    def poll(self, one: type[M1], other: type[M2], /) -> M1 | M2 | None: ...
    def poll(self, *expected: type[_Message]) -> _Message | None:
        """A message that has already arrived, or None at once."""
        try:
            return self.receive(*expected, timeout=0)
        except PeerSilent:
            return None

    def send_refusal(self, reason: str) -> None:
        """Refuse the offer (or the answer to it) in one sentence, then close. Never raises."""
        with contextlib.suppress(Exception):
            self.connection.send(Refuse(reason=reason[:1000]).encode())
        self.close()

    def close(self, reason: str | None = None, *, code: int = 1000) -> None:
        """Tell the peer why we stop (an abort message), then close. Never raises."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(Exception):
            if reason is not None:
                self.connection.send(Abort(reason=reason[:1000]).encode())
            # a close reason is at most 123 bytes of UTF-8
            self.connection.close(
                code=code, reason=(reason or "").encode("utf-8")[:120].decode("utf-8", "ignore")
            )


def _closed_sentence(error: BaseException) -> str:
    if isinstance(error, ConnectionClosed):
        sent, received = error.sent, error.rcvd
        # a close frame received first and echoed back carries the peer's code, not ours
        if sent is not None and sent.code == 1009 and not error.rcvd_then_sent:
            return f"the peer sent a frame larger than {MAX_FRAME // (1024 * 1024)} MiB"
        if received is not None and received.code == 1009:
            return "the peer refused a message as too large"
        if received is not None:
            why = f": {received.reason}" if received.reason else ""
            return f"the peer closed the connection (code {received.code}{why})"
        return "the connection to the peer broke without a goodbye"
    return f"the connection to the peer broke ({error})"
