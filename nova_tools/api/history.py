"""A game's past: each player's score round by round, and the standings at any round.

Both replay the log from the initial world (no script runs, every event checked as it goes), the
way `nova play` and the lab's frames do, scoring the world after setup and after each round.
"""

from __future__ import annotations

from pathlib import Path

from .. import engine, store
from .access import read_game
from .convert import standings
from .errors import ApiError
from .frames import moments
from .results import LeadChange, PlayerHistory, ScoreHistory, Status


def _replayable(path: str | Path | store.Game | store.MatchRecord, what: str) -> store.Game:
    game = read_game(path)
    if isinstance(game, store.MatchRecord):
        raise ApiError(
            f"{game.path} is a match record that keeps only the final scores, not {what} (its log stays with the host)"
        )
    return game


def score_history(path: str | Path | store.Game | store.MatchRecord) -> ScoreHistory:
    """Each player's score after setup (round 0) and after every round, and the rounds where
    the lead changed hands (or became a tie)."""
    game = _replayable(path, "a score history")
    by_round: dict[int, dict[str, float]] = {}
    for moment in moments(game):
        by_round[moment.round] = {
            s.player: s.points for s in engine.scores(moment.state)
        }  # a round's last moment wins
    rounds = sorted(by_round)
    players = list(game.state.players)  # join order
    history = {p: tuple(by_round[r].get(p, 0) for r in rounds) for p in players}
    return ScoreHistory(
        rounds=tuple(rounds),
        players=tuple(PlayerHistory(id=p, scores=history[p]) for p in players),
        lead_changes=_lead_changes(rounds, players, history),
    )


def _leaders(scores: dict[str, float]) -> tuple[str, ...]:
    """Who holds the most points (several on a tie; nobody while everyone is at 0)."""
    best = max(scores.values(), default=0)
    if best <= 0 and all(v == best for v in scores.values()):
        return ()
    return tuple(p for p, v in scores.items() if v == best)


def _lead_changes(
    rounds: list[int], players: list[str], history: dict[str, tuple]
) -> tuple[LeadChange, ...]:
    changes = []
    previous: tuple[str, ...] = ()
    for i, round_number in enumerate(rounds):
        scores = {p: history[p][i] for p in players}
        leaders = _leaders(scores)
        if leaders != previous:
            changes.append(
                LeadChange(
                    round=round_number, leaders=leaders, scores=tuple(scores[p] for p in players)
                )
            )
            previous = leaders
    return tuple(changes)


def status_at(path: str | Path | store.Game | store.MatchRecord, round: int) -> Status:
    """``nova status --round N``: the standings (scores with their breakdown, androids, wrecks) as
    they were at the end of round ``round`` (0: after setup)."""
    game = _replayable(path, "earlier rounds")
    last = game.state.round
    if not 0 <= round <= last:
        raise ApiError(f"{game.path} has no round {round} (it has rounds 0-{last})")
    found = None
    for moment in moments(game):
        if moment.round == round:
            found = standings(
                moment.state
            )  # the live state: read it now (the last moment of the round wins)
        elif moment.round > round:
            break
    if found is None:  # a round 0 with no setup events of its own: nobody had joined yet
        found = ()
    return Status(round=round, final_turn=game.rules.match.final_round, players=found)
