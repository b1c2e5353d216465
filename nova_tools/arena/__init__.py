"""Many games at once: ``nova compare`` (A/B) and ``nova tournament`` (round robin, ratings).

A game is a pure function of (rules, seed, scripts, seat order) -> :class:`GameRecord`; a run is
a map of that function over a plan of games, on a backend chosen at the edge (this process, a
local process pool, or Ray), so results never depend on where a game ran. Scripts are compiled
once in the caller; each worker process receives them once and keeps its sandbox (and bytecode
cache) for every game it plays.

    entrants = entrants_from_files([Path("a.ts"), Path("b.ts")])
    rules, rounds = arena_rules(None, None)          # rotational maps, 100 rounds, finalRound 100
    result = compare(entrants, rules, parse_seeds("1-20"), rounds, choose_backend(jobs=2))
    result.to_json()                                 # the DESIGN section 6 shape
"""

from .backends import Backend, InProcess, ProcessPool, choose_backend, default_jobs
from .compare import Comparison, SeedDifference, compare
from .errors import ArenaError, Interrupted
from .game import GameRecord, SeatRecord, play_task, seat_players
from .plan import (
    Contest,
    Entrant,
    GameTask,
    arena_rules,
    compare_plan,
    parse_seeds,
    round_robin_plan,
)
from .results import (
    ArenaRun,
    ComparisonBrief,
    ComparisonResult,
    Difference,
    GameResult,
    MapShape,
    PairTotals,
    RankedScript,
    ScriptTotals,
    SeedGap,
    Timing,
    TournamentResult,
)
from .run import Run, entrants_from_files, play_all, script_entry, script_name
from .stats import Interval, interval, t_quantile
from .summary import ScriptTally, game_result
from .tournament import PairResult, Standing, Tournament, tournament

__all__ = [
    "ArenaError",
    "ArenaRun",
    "ComparisonBrief",
    "ComparisonResult",
    "Difference",
    "GameResult",
    "PairTotals",
    "MapShape",
    "RankedScript",
    "ScriptTotals",
    "SeedGap",
    "Timing",
    "TournamentResult",
    "Backend",
    "Comparison",
    "Contest",
    "Entrant",
    "GameRecord",
    "GameTask",
    "InProcess",
    "Interrupted",
    "Interval",
    "PairResult",
    "ProcessPool",
    "Run",
    "ScriptTally",
    "SeatRecord",
    "SeedDifference",
    "Standing",
    "Tournament",
    "arena_rules",
    "choose_backend",
    "compare",
    "compare_plan",
    "default_jobs",
    "entrants_from_files",
    "game_result",
    "interval",
    "parse_seeds",
    "play_all",
    "play_task",
    "round_robin_plan",
    "script_entry",
    "script_name",
    "seat_players",
    "t_quantile",
    "tournament",
]
