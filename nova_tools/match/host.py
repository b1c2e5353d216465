"""`nova host`: offer a match on a WebSocket and play it with the first peer that accepts.

The host listens (on 127.0.0.1 unless told otherwise), and every connection first receives the
offer. A connection that does not answer in the protocol (garbage, an oversized frame, a wrong
message, silence) is dropped with one sentence and the host keeps waiting. The first peer that
answers in the protocol is *the* joiner: its refusal, or an answer this host cannot accept (another
protocol version, another sandbox, a size not offered), ends the match before round 1. Once a
joiner is taken, any further connection is turned away with a sentence.
"""

from __future__ import annotations

import queue
import socket
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from websockets.sync.server import ServerConnection, serve

from ..limits import is_disclosure
from ..rules import Rules
from .channel import CONNECTION_OPTIONS, Channel, PeerError, PeerVersionMismatch, PeerViolation
from .lockstep import Progress
from .messages import PROTOCOL, VERSION, Accept, Offer, Refuse
from .offer import (
    check_accept,
    nova_version,
    offered_rules,
    parse_sizes,
    sandbox_build,
)
from .result import MatchError, MatchResult
from .seed import Nonce
from .session import Agreement, MatchInterrupted, Notice, play_agreed
from .setup import check_out_file, check_player, own_seat
from .states import MatchState, Tracker

DEFAULT_TIMEOUT = 60.0


class _Lobby:
    """Connection handlers (one thread each) meet the main thread here."""

    def __init__(self, offer: Offer, timeout: float, notice: Notice) -> None:
        self.offer = offer
        self.timeout = timeout
        self.notice = notice
        self.lock = threading.Lock()
        self.taken_by: str | None = None
        self.arrivals: queue.Queue = queue.Queue()
        self.finished = threading.Event()

    def handle(self, connection: ServerConnection) -> None:
        try:
            self._handle(connection)
        except Exception as error:  # a handler thread has no caller: never a traceback
            self.notice(
                f"a connection failed unexpectedly ({error.__class__.__name__}: {error}); still waiting"
            )

    def _handle(self, connection: ServerConnection) -> None:
        channel = Channel(connection, self.timeout)
        where = channel.address
        if self.taken_by is not None:
            self._turn_away(channel, where)
            return
        try:
            channel.send(self.offer)
            answer: Accept | Refuse | PeerVersionMismatch = channel.receive(Accept, Refuse)
        except PeerVersionMismatch as mismatch:
            answer = mismatch  # it speaks the protocol, in another version: it is the joiner
        except PeerError as error:
            channel.close(
                f"this host dropped the connection: {error}"
                if isinstance(error, PeerViolation)
                else None,
                code=1008,
            )
            if not self.finished.is_set():
                meanwhile = (
                    "still waiting for a joiner"
                    if self.taken_by is None
                    else f"the match with {self.taken_by} goes on"
                )
                self.notice(f"a connection from {where} was dropped: {error}; {meanwhile}")
            return
        with self.lock:
            if self.taken_by is not None:
                claimed = False
            else:
                self.taken_by, claimed = (
                    (answer.player if isinstance(answer, Accept) else where),
                    True,
                )
        if not claimed:
            self._turn_away(channel, where)
            return
        self.arrivals.put((channel, answer))
        self.finished.wait()  # the main thread plays the match over this connection

    def _turn_away(self, channel: Channel, where: str) -> None:
        self.notice(
            f"a second joiner from {where} was turned away: the match with {self.taken_by} is already under way"
        )
        channel.close(
            f"this host is already playing a match against {self.taken_by}; ask {self.offer.host} to host a new one",
            code=1013,
        )


def _join_address(bind: str, port: int) -> str:
    if bind in ("0.0.0.0", "::", ""):
        try:  # the address this machine would use to reach the outside (no packet is sent)
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect(("192.0.2.1", 9))
                bind = probe.getsockname()[0]
        except OSError:
            bind = socket.gethostname()
    host = f"[{bind}]" if ":" in bind else bind
    return f"ws://{host}:{port}"


def host(
    *,
    rounds: int,
    player: str,
    script: str | Path,
    out: str | Path,
    port: int = 0,
    bind: str = "127.0.0.1",
    rules: Rules | Mapping | str | Path | None = None,
    sizes: str | None = None,
    disclosure: str = "full",
    timeout: float = DEFAULT_TIMEOUT,
    wait: float | None = None,
    force: bool = False,
    on_listening: Callable[[str], None] | None = None,
    progress: Progress | None = None,
    notice: Notice | None = None,
    cancel: threading.Event | None = None,
) -> MatchResult:
    """Host one match: listen, offer, play with the first joiner, write ``out``.

    ``on_listening(url)`` is called once the port is open (the CLI prints ``nova join URL``).
    Returns the result of a match that was played (verified, desynced, or abandoned by the
    peer); raises :class:`MatchError` when none was (refused, incompatible, nobody came within
    ``wait`` seconds, ``cancel`` set before a joiner arrived).
    """
    say = notice or (lambda sentence: None)
    check_player(player)
    if not is_disclosure(disclosure):
        raise MatchError(f"the disclosure is 'full' or 'recording', not {disclosure!r}")
    if not 0 <= port <= 65535:
        raise MatchError(f"a port is a number from 0 to 65535, not {port}")
    if timeout <= 0:
        raise MatchError(f"the timeout must be a positive number of seconds, not {timeout:g}")
    out = check_out_file(out, force)
    offered = offered_rules(rules, rounds)
    offer_sizes = parse_sizes(sizes, offered)
    me = own_seat(player, script)
    nonce = Nonce()
    offer = Offer(
        protocol=PROTOCOL,
        version=VERSION,
        host=player,
        rounds=rounds,
        rules=offered,
        sizes=offer_sizes,
        disclosure=disclosure,
        sandbox=sandbox_build(),
        nova=nova_version(),
        seed_commit=nonce.commitment("host"),
        script_commit=me.script.sha256,
    )
    lobby = _Lobby(offer, timeout, say)
    try:
        server = serve(lobby.handle, bind, port, **CONNECTION_OPTIONS)
    except OSError as error:
        # not os.strerror(errno): a name that does not resolve has a resolver code for errno
        # ('Unknown error -2'); socket.create_server adds where it tried, which we say ourselves
        why = (error.strerror or str(error)).split(" (while attempting to bind", 1)[0]
        where = f"[{bind}]" if ":" in bind else bind
        raise MatchError(f"cannot listen on {where}:{port} ({why})") from None
    except UnicodeError:
        raise MatchError(f"{bind!r} is not an address to listen on") from None
    listening = threading.Thread(
        target=server.serve_forever, name="nova-host-listener", daemon=True
    )
    listening.start()
    tracker = Tracker("host")
    try:
        url = _join_address(bind, server.socket.getsockname()[1])
        if on_listening is not None:
            on_listening(url)
        channel, answer = _wait_for_joiner(lobby, wait, cancel)
        tracker.move(MatchState.OFFERED, f"to {channel.address}")
        deal = _agree(channel, tracker, offer, answer, me, nonce, say)
        return play_agreed(channel, tracker, deal, out, progress, say, cancel)
    finally:
        lobby.finished.set()
        server.shutdown()
        listening.join(timeout=5)


def _wait_for_joiner(
    lobby: _Lobby, wait: float | None, cancel: threading.Event | None
) -> tuple[Channel, object]:
    deadline = None if wait is None else time.monotonic() + wait
    while True:
        if cancel is not None and cancel.is_set():
            raise MatchInterrupted("the match was cancelled before anyone joined")
        if deadline is not None and time.monotonic() > deadline:
            raise MatchError(f"nobody joined within {wait:g} s", MatchState.ABANDONED)
        try:
            return lobby.arrivals.get(timeout=0.2)
        except queue.Empty:
            continue
        except KeyboardInterrupt:
            raise MatchInterrupted("interrupted before anyone joined") from None


def _agree(
    channel: Channel, tracker: Tracker, offer: Offer, answer: object, me, nonce: Nonce, say: Notice
) -> Agreement:
    """The joiner's answer: a refusal, a version this host cannot speak, or an acceptance to check."""
    if isinstance(answer, Refuse):
        tracker.move(MatchState.REFUSED, answer.reason)
        channel.close()
        raise MatchError(f"the joiner refused the offer: {answer.reason}")
    if isinstance(answer, PeerVersionMismatch):
        tracker.move(MatchState.REFUSED, str(answer))
        channel.send_refusal(str(answer).replace("the peer speaks", "you speak", 1))
        raise MatchError(f"the joiner could not play: {answer}")
    assert isinstance(answer, Accept)
    try:
        rules = check_accept(answer, offer)
    except MatchError as problem:
        tracker.move(MatchState.REFUSED, str(problem))
        channel.send_refusal(str(problem))
        raise MatchError(f"refused {answer.player}: {problem}") from None
    tracker.move(MatchState.ACCEPTED, f"{answer.player} on {answer.size}")
    say(
        f"{answer.player} joined from {channel.address} and accepted {offer.rounds} rounds on {answer.size}"
    )
    return Agreement(
        role="host",
        me=me,
        nonce=nonce,
        opponent=answer.player,
        peer_seed_commit=answer.seed_commit,
        peer_script_commit=answer.script_commit,
        rules=rules,
        terms_size=answer.size,
        rounds=offer.rounds,
        disclosure=offer.disclosure,
    )
