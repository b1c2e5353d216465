"""What the arena returns: ``nova compare --json``, ``nova tournament --json`` and the MCP
``compare_scripts`` answer, each declared once here (the lab's Arena page and the MCP output
schemas are generated from these models). Means are rounded to 4 decimals, so the JSON does not
depend on float summation noise.
"""

from __future__ import annotations

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer

from ..shape import Result

Points = int | float  # a score of 4 stays 4


class ScriptTotals(Result):
    """How one script did over the games it played."""

    name: str
    games: int
    wins: int
    draws: int
    losses: int
    mean_score: float | None = Field(description="Its mean score over every game it played.")
    seat_mean_scores: tuple[float | None, ...] = Field(
        description="Its mean score when it sat first, second..."
    )
    turns: int
    failed_turns: int = Field(description="Its failed turns over every game.")
    failed_turns_by_reason: dict[str, int] = Field(
        description="Failed turns by reason code, most frequent first (docs: game-details)."
    )


class RankedScript(ScriptTotals):
    """A tournament's standing: the script's rating (openskill's ordinal), mu and sigma."""

    rating: float
    mu: float
    sigma: float


class PairTotals(Result):
    scripts: tuple[str, str]
    wins: tuple[int, int]
    draws: int
    mean_scores: tuple[float | None, float | None]


class GameResult(Result):
    """One game: the seed, the scripts in seat order, their scores."""

    seed: int
    seats: tuple[str, ...] = Field(description="The scripts' names in seat order.")
    scores: tuple[Points, ...] = Field(description="Their scores, in seat order.")
    winner: str | None = Field(description="The winning script's name; null on a draw.")
    failed_turns: tuple[int, ...] = Field(description="Each seat's failed turns.")
    state_hash: str = Field(description="The final state's hash: the same game gives the same.")
    file: str | None = Field(None, description="The game file kept under --out.")
    # --- with detail (nova compare --detail, compare_scripts detail=true) ---
    margin: Points | None = Field(None, description="The first seat's score minus the second's.")
    first_extractor: tuple[int | None, ...] | None = Field(
        None,
        description="Per seat, the round its first extractor was complete (null: never).",
    )
    first_charger: tuple[int | None, ...] | None = Field(
        None,
        description="Per seat, the round its first charger beside the initial one was complete.",
    )
    failed_by_reason: tuple[dict[str, int], ...] | None = Field(
        None, description="Per seat, its failed turns by reason code."
    )
    game: str | None = Field(
        None,
        description="The kept game's name: get_status, get_events, get_world, get_board_image open it.",
    )
    players: tuple[str, ...] | None = Field(
        None, description="The seats' player ids in that game: the scripts' names as ids."
    )

    @model_serializer(mode="wrap")
    def _leave_out_none(self, handler: SerializerFunctionWrapHandler) -> dict:
        data = handler(self)
        for key in OPTIONAL_KEYS:  # a file only under --out, the rest only with detail
            if data.get(key, ...) is None:
                del data[key]
        return data


OPTIONAL_KEYS = (
    "file",
    "margin",
    "firstExtractor",
    "firstCharger",
    "failedByReason",
    "game",
    "players",
)


class Difference(Result):
    """A's score minus B's per seed (averaged over both seat orders), with its 95% interval."""

    of: str = Field(description="Which minus which, e.g. 'a - b'.")
    mean: float
    low: float = Field(description="The interval's low end.")
    high: float = Field(description="The interval's high end.")
    level: float
    seeds: int = Field(description="Seeds played in both seat orders.")
    excludes_zero: bool = Field(description="True when the interval says which script scores more.")


class SeedGap(Result):
    seed: int
    difference: float = Field(
        description="A's score minus B's on this seed, averaged over both seat orders."
    )
    scores: tuple[tuple[Points, Points], ...] = Field(
        description="(A, B) with A seated first, then with B seated first."
    )


class MapShape(Result):
    width: int
    height: int
    symmetry: str


class Timing(Result):
    """How long the run took and where: everything that may differ between two runs."""

    seconds: float
    where: str
    workers: int
    game_seconds_median: float | None
    game_seconds_max: float | None


class ArenaRun(Result):
    """What every arena run reports: the games planned and played, on which map, in how long."""

    games: int = Field(description="Games played: every seed once per seat order.")
    planned: int
    complete: bool
    draws: int
    rounds: int = Field(description="Rounds per game.")
    seeds: tuple[int, ...]
    map: MapShape
    warnings: tuple[str, ...] = Field(
        description="When single games say little, or the interval is wide."
    )
    results: tuple[GameResult, ...]
    timing: Timing


class ComparisonResult(ArenaRun):
    """``nova compare --json``: A against B."""

    scripts: tuple[ScriptTotals, ScriptTotals] = Field(description="A, then B.")
    difference: Difference | None = Field(
        description="A minus B with its 95% interval (none with fewer than two seeds)."
    )
    verdict: str = Field(description="Which script scores more, or 'no clear difference'.")
    most_different: tuple[SeedGap, ...] = Field(
        description="The seeds where the scripts differ most: where to look first."
    )


class TournamentResult(ArenaRun):
    """``nova tournament --json``: every pair of scripts, ranked."""

    ranking: tuple[RankedScript, ...] = Field(description="Best first.")
    pairs: tuple[PairTotals, ...]


class ComparisonBrief(Result):
    """A comparison in a few lines (the MCP compare_scripts answer): who won, by how much, and
    where to look."""

    played: int = Field(description="Games played: every seed once per seat order.")
    draws: int
    seeds: int = Field(description="Seeds played in both seat orders.")
    rounds: int = Field(
        description="Rounds per game (also the games' final round unless the rules set one)."
    )
    scripts: tuple[ScriptTotals, ScriptTotals] = Field(description="A, then B.")
    difference: Difference | None = Field(
        None, description="A minus B with its 95% interval (none with fewer than two seeds)."
    )
    verdict: str = Field(description="Which script scores more, or 'no clear difference'.")
    most_different: tuple[SeedGap, ...] = Field(
        (), description="The 3 seeds where the scripts differ most: where to look first."
    )
    warnings: tuple[str, ...] = ()
    seconds: float
    games: tuple[GameResult, ...] | None = Field(
        None,
        description="With detail: every game, by seed and seat order, with the name of its kept game.",
    )
