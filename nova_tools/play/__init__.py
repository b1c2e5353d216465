"""The game loop, without files: ``play_game(GameSpec(rules, seed, seats, rounds)) -> GameResult``,
:class:`GameSession` to play round by round, and the script runner that asks the sandbox for each
android's turn. ``api.run_rounds`` (over a game file), ``api.dry_run``, peer matches and the arena
all play through here: there is one game loop.

>>> from nova_tools.rules import Rules
>>> spec = GameSpec(Rules(), seed=3, seats=(), rounds=2)
>>> result = play_game(spec)
>>> result.rounds, result.scores, len(result.state_hash)
(2, (), 64)
"""

from .keeping import stored_game
from .runner import (
    FAILURE_CODES,
    ScriptRunner,
    TurnsBusy,
    failure_code,
    limit_turns,
    sandbox,
    sandbox_build,
    sandbox_lease,
    sandboxes_made,
    turns_limit,
)
from .session import GameResult, GameSession, GameSpec, RoundReport, Seat, SpecError, play_game

__all__ = [
    "FAILURE_CODES",
    "GameResult",
    "GameSession",
    "GameSpec",
    "RoundReport",
    "ScriptRunner",
    "Seat",
    "TurnsBusy",
    "SpecError",
    "failure_code",
    "limit_turns",
    "play_game",
    "sandbox",
    "sandbox_build",
    "sandbox_lease",
    "sandboxes_made",
    "stored_game",
    "turns_limit",
]
