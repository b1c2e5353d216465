"""Peer matches: `nova host` / `nova join` (DESIGN section 6).

Two players, each on their own machine, play one match under the host's rules: the host offers,
the joiner accepts a board size (or refuses), the seed comes from both sides (commit, then
reveal), each side receives the other's compiled script, both play every round locally and
compare a state hash after each one. The CLI, the browser lab and the MCP server call
:func:`host` and :func:`join`; both return a :class:`MatchResult` when a match was played
(verified, desynced, or finished alone after the peer left) and raise :class:`MatchError` with
one sentence when none was.

    result = match.host(rounds=20, player="alice", script="bot.ts", out="match.json",
                        on_listening=lambda url: print("nova join", url))
    result.state, result.sentence, result.status

Modules: ``messages`` (the protocol and its version), ``states`` (the state machine),
``channel`` (bounded receives over a WebSocket), ``offer`` (terms and checks), ``seed``
(commit-reveal), ``lockstep`` (per-round verification), ``game`` (the match's game), ``session``
(the agreed match), ``result`` (what is returned and written), ``host`` and ``join``.
"""

from ..limits import DISCLOSURES
from .channel import PeerError
from .host import DEFAULT_TIMEOUT, host
from .join import join
from .lockstep import MatchProgress
from .messages import PROTOCOL, VERSION, Size
from .result import MatchError, MatchResult, MatchTerms
from .session import MatchInterrupted
from .states import MatchState

__all__ = [
    "DEFAULT_TIMEOUT",
    "DISCLOSURES",
    "PROTOCOL",
    "VERSION",
    "MatchError",
    "MatchInterrupted",
    "MatchProgress",
    "MatchResult",
    "MatchState",
    "MatchTerms",
    "PeerError",
    "Size",
    "host",
    "join",
]
