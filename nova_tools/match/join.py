"""`nova join`: connect to a host, check its offer, accept (or refuse in one sentence), play."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from websockets.exceptions import InvalidHandshake, InvalidURI, WebSocketException
from websockets.sync.client import connect

from ..limits import DISCLOSURES, MAX_ROUNDS
from .channel import CONNECTION_OPTIONS, Channel, PeerError, PeerVersionMismatch, PeerViolation
from .host import DEFAULT_TIMEOUT
from .lockstep import Progress
from .messages import PROTOCOL, VERSION, Accept, Offer, Size
from .offer import check_offer, nova_version, sandbox_build
from .result import MatchError, MatchResult
from .seed import Nonce
from .session import Agreement, MatchInterrupted, Notice, play_agreed
from .setup import check_out_file, check_player, own_seat
from .states import MatchState, Tracker


def _connect(url: str, timeout: float):
    if not url.startswith(("ws://", "wss://")):
        raise MatchError(
            f"{url!r} is not a match address; the host prints one like ws://127.0.0.1:8765"
        )
    try:
        return connect(url, open_timeout=timeout, proxy=None, **CONNECTION_OPTIONS)
    except InvalidURI:
        raise MatchError(f"{url!r} is not a valid match address") from None
    except TimeoutError:
        raise MatchError(f"{url} did not answer within {timeout:g} s") from None
    except ConnectionRefusedError:
        raise MatchError(f"nobody is hosting at {url} (connection refused)") from None
    except InvalidHandshake as error:
        raise MatchError(f"{url} did not answer as a nova host ({error})") from None
    except (OSError, WebSocketException) as error:
        raise MatchError(
            f"cannot reach {url} ({getattr(error, 'strerror', None) or error})"
        ) from None


def join(
    url: str,
    *,
    player: str,
    script: str | Path,
    out: str | Path,
    size: str | Size | None = None,
    rounds: int | None = None,
    disclosure: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    force: bool = False,
    progress: Progress | None = None,
    notice: Notice | None = None,
    on_offer=None,
    cancel: threading.Event | None = None,
) -> MatchResult:
    """Join the match hosted at ``url``: check the offer, accept it on ``size`` (default: the first
    size offered), play, write ``out``. Raises :class:`MatchError` when no match was played.

    ``rounds`` and ``disclosure``, when given, are terms the joiner insists on: an offer of
    another length or disclosure mode is refused (by default whatever the host offers is taken)."""
    say = notice or (lambda sentence: None)
    check_player(player)
    if disclosure is not None and disclosure not in DISCLOSURES:
        raise MatchError(f"the disclosure is 'full' or 'recording', not {disclosure!r}")
    if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
        raise MatchError(f"a match has from 1 to {MAX_ROUNDS} rounds, not {rounds}")
    expected = Expected(rounds, disclosure)
    if timeout <= 0:
        raise MatchError(f"the timeout must be a positive number of seconds, not {timeout:g}")
    wanted = None
    if size is not None:
        try:
            wanted = size if isinstance(size, Size) else Size.parse(size)
        except ValueError as error:
            raise MatchError(str(error)) from None
    out = check_out_file(out, force)
    me = own_seat(player, script)
    nonce = Nonce()
    tracker = Tracker("joiner")
    # (a context manager: websockets 17.1 deprecates the bare connection)
    with _connect(url, timeout) as connection:
        channel = Channel(connection, timeout)
        try:
            deal = _answer(channel, tracker, me, nonce, wanted, say, on_offer, expected)
            return play_agreed(channel, tracker, deal, out, progress, say, cancel)
        except KeyboardInterrupt:
            channel.close(f"{player} stopped before round 1")
            raise MatchInterrupted("interrupted before round 1; nothing was played") from None
        finally:
            channel.close()


@dataclass(frozen=True)
class Expected:
    """The terms this joiner insists on (None: whatever the host offers)."""

    rounds: int | None = None
    disclosure: str | None = None

    def check(self, offer: Offer) -> None:
        if self.rounds is not None and offer.rounds != self.rounds:
            raise MatchError(
                f"you asked for {self.rounds} rounds and the host offers {offer.rounds}"
            )
        if self.disclosure is not None and offer.disclosure != self.disclosure:
            raise MatchError(
                f"you asked for disclosure {self.disclosure} and the host offers {offer.disclosure}"
            )


def _answer(
    channel: Channel,
    tracker: Tracker,
    me,
    nonce: Nonce,
    wanted: Size | None,
    say: Notice,
    on_offer,
    expected: Expected = Expected(),
) -> Agreement:
    try:
        offer = channel.receive(Offer)
    except PeerVersionMismatch as mismatch:
        tracker.move(MatchState.REFUSED, str(mismatch))
        channel.send_refusal(str(mismatch).replace("the peer speaks", "you speak", 1))
        raise MatchError(
            f"cannot play with this host: {str(mismatch).replace('the peer', 'it', 1)}"
        ) from None
    except PeerError as error:
        if isinstance(error, PeerViolation):
            channel.close(f"the match was stopped: {error}", code=1008)
        tracker.move(MatchState.ABANDONED, str(error))
        raise MatchError(_before_offer(error), MatchState.ABANDONED) from None
    assert isinstance(offer, Offer)
    tracker.move(MatchState.OFFERED, f"from {offer.host}")
    if on_offer is not None:
        on_offer(offer)
    try:
        size, rules = check_offer(offer, me.player, wanted)
        expected.check(offer)
    except MatchError as problem:
        tracker.move(MatchState.REFUSED, str(problem))
        channel.send_refusal(str(problem).replace("you asked", f"{me.player} asked", 1))
        raise
    channel.send(
        Accept(
            protocol=PROTOCOL,
            version=VERSION,
            player=me.player,
            size=size,
            sandbox=sandbox_build(),
            nova=nova_version(),
            seed_commit=nonce.commitment("joiner"),
            script_commit=me.script.sha256,
        )
    )
    tracker.move(MatchState.ACCEPTED, f"{offer.rounds} rounds on {size}")
    say(
        f"accepted {offer.host}'s offer: {offer.rounds} rounds on {size}, disclosure {offer.disclosure}"
    )
    return Agreement(
        role="joiner",
        me=me,
        nonce=nonce,
        opponent=offer.host,
        peer_seed_commit=offer.seed_commit,
        peer_script_commit=offer.script_commit,
        rules=rules,
        terms_size=size,
        rounds=offer.rounds,
        disclosure=offer.disclosure,
    )


def _before_offer(error: PeerError) -> str:
    text = str(error)
    if text.startswith("the peer stopped the match: "):  # a busy host says why it turns us away
        return "the host turned this joiner away: " + text.removeprefix(
            "the peer stopped the match: "
        )
    return text.replace("the peer", "the host", 1)
