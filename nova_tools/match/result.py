"""What a match gives back to its caller, and what it leaves on disk.

Under ``--disclosure full`` each side keeps a normal game file (both scripts, the whole log) with
a ``match`` section: `nova status`, `nova play`, `nova android` and `nova events` read it, and
`nova run` refuses to continue it. Under ``--disclosure recording`` each side keeps a match
record: the rules, the final scores with their breakdown, and its own androids' recordings; the
other side's scripts, memory and recordings are never written anywhere (they live in this
process's memory only while the match is played).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .. import engine, store
from ..engine import GameState
from ..rules import Rules
from .lockstep import Verification
from .messages import PROTOCOL, VERSION, Size
from .states import MatchState


class MatchError(Exception):
    """A match that could not be played (refused, incompatible, the peer left before round 1, a bad
    argument); the text is one sentence."""

    def __init__(self, sentence: str, state: MatchState = MatchState.REFUSED) -> None:
        super().__init__(sentence)
        self.state = state


@dataclass(frozen=True)
class MatchTerms:
    """What both sides agreed on before round 1."""

    role: str  # "host" or "joiner"
    player: str
    opponent: str
    rounds: int
    size: Size
    disclosure: str
    seed: int


@dataclass(frozen=True)
class MatchResult:
    state: MatchState  # verified, desynced or abandoned
    terms: MatchTerms
    file: Path
    verification: Verification
    status: dict  # the `nova status --json` object of the file written

    @property
    def verified(self) -> bool:
        return self.state is MatchState.VERIFIED

    @property
    def sentence(self) -> str:
        """One sentence on how the match ended."""
        v, t = self.verification, self.terms
        if self.state is MatchState.VERIFIED:
            return f"{t.rounds} rounds played against {t.opponent} and verified on both sides"
        if self.state is MatchState.DESYNCED:
            return f"{v.problem}; {self.file} keeps the match up to round {v.desync_at}, as played here"
        reached = (
            "the match was finished here alone"
            if v.played == t.rounds
            else f"the match stopped at round {v.played}"
        )
        return f"{v.problem}; {reached}, and the result is unverified from round {v.unverified_from} on"

    def account(self) -> dict:
        """The ``match`` section both file kinds carry."""
        v, t = self.verification, self.terms
        return {
            "protocol": PROTOCOL,
            "version": VERSION,
            "role": t.role,
            "player": t.player,
            "opponent": t.opponent,
            "rounds": t.rounds,
            "size": str(t.size),
            "disclosure": t.disclosure,
            "seed": t.seed,
            "outcome": self.state.value,
            "played": v.played if v.desync_at is None else v.desync_at,
            "verifiedThrough": v.verified,
            "unverifiedFrom": v.unverified_from,
            "desyncAt": v.desync_at,
            "note": None if self.state is MatchState.VERIFIED else self.sentence,
        }

    def to_json(self) -> dict:
        return {"file": str(self.file), **self.account(), "status": self.status}


def write_result(
    game: store.Game,
    own_player: str,
    result_state: MatchState,
    terms: MatchTerms,
    out: Path,
    verification: Verification,
) -> MatchResult:
    """Write ``out`` atomically (a game file or a match record, by the disclosure), read it back
    (a file that does not load is never reported as kept), and return the result."""
    account = MatchResult(result_state, terms, out, verification, {}).account()
    game.path = out
    game.match = account
    with store.locked(out):
        if terms.disclosure == "full":
            store.save(game)
        else:
            store.save_record(record_of(game, own_player, account))
    kept = store.read(out)
    status = (
        kept.status if isinstance(kept, store.MatchRecord) else final_status(kept.state, kept.rules)
    )
    return MatchResult(result_state, terms, out, verification, {**status, "match": account})


def final_status(state: GameState, rules: Rules) -> dict:
    """The ``nova status --json`` object (DESIGN section 6) of a match's last state: what a match
    record keeps, which `nova status` reads back through its own model."""
    players = []
    for score in engine.scores(state):
        owned = [a for a in state.androids.values() if a.owner == score.player]
        players.append(
            {
                "id": score.player,
                "score": score.points,
                "breakdown": [{"source": c.source, "points": c.points} for c in score.breakdown],
                "activeAndroids": sum(1 for a in owned if a.active),
                "wrecks": sum(1 for a in owned if not a.active),
            }
        )
    return {"round": state.round, "finalTurn": rules.match.final_round, "players": players}


def record_of(game: store.Game, player: str, account: dict) -> store.MatchRecord:
    """The match record: nothing in it comes from the other side's scripts, memory or recordings."""
    androids = [
        {
            "id": a.id,
            "ownerId": a.owner,
            "scriptId": a.script,
            "active": a.active,
            "recording": a.recording,
        }
        for a in game.state.androids.values()
        if a.owner == player
    ]
    scripts = {
        sid: {"name": s.name, "sha256": s.sha256}
        for sid, s in game.scripts.items()
        if s.player == player
    }
    return store.MatchRecord(
        game.path,
        game.rules,
        account,
        final_status(game.state, game.rules),
        androids,
        scripts,
        dict(game.sandbox),
    )
