"""The game engine: pure, deterministic game logic. No I/O, no sandbox, no clock.

The whole game is a :class:`GameState` changed by a few functions whose phases follow the
rulebook: :func:`generate` a world, players :func:`join` and :func:`launch`, :func:`play_round`
asks a ``decide`` callback for each turn, and :func:`replay` rebuilds a state from its log.
"""

from .events import (
    AndroidLaunched,
    Event,
    EventError,
    Hazard,
    PlayerJoined,
    Production,
    ReplayError,
    RoundEnded,
    RoundStarted,
    ScriptUploaded,
    Turn,
    event_from_json,
    failed_turn,
    log_from_json,
)
from .generation import generate
from .players import active_count, add_script, capacity, join, launch
from .reasons import REFUSAL_CODES, Outcome, Reason
from .refusals import Refusal, UnknownPlayer
from .replay import Replayer, replay
from .rounds import Decision, apply_turn, begin_round, end_round, play_round, turn_order, turn_seed
from .scenario import Scenario
from .scoring import Contribution, Score, score, scores
from .state import GameState, from_json, state_hash, to_json
from .view import REDACTED, world_texts, world_view

__all__ = [
    "REDACTED",
    "REFUSAL_CODES",
    "AndroidLaunched",
    "Contribution",
    "Decision",
    "Event",
    "EventError",
    "Hazard",
    "Outcome",
    "Reason",
    "GameState",
    "PlayerJoined",
    "Production",
    "Refusal",
    "ReplayError",
    "Replayer",
    "RoundEnded",
    "RoundStarted",
    "Scenario",
    "Score",
    "ScriptUploaded",
    "Turn",
    "UnknownPlayer",
    "active_count",
    "add_script",
    "apply_turn",
    "begin_round",
    "capacity",
    "end_round",
    "event_from_json",
    "log_from_json",
    "failed_turn",
    "from_json",
    "generate",
    "join",
    "launch",
    "play_round",
    "replay",
    "score",
    "scores",
    "state_hash",
    "to_json",
    "turn_order",
    "turn_seed",
    "world_texts",
    "world_view",
]
