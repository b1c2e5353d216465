"""`nova compare A B`: two scripts, every seed once per seat order, on fair maps.

The verdict rests on the paired difference: for each seed, A's score minus B's, averaged over the
two seat orders (so the map and the seat advantage cancel out), and Student's t interval of its
mean over the seeds. Single games say little (the same script can score 223 in one seat and 4 in
the other), so the report warns when they disagree with the mean more than the mean says.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .backends import Backend
from .plan import Contest, Entrant, compare_plan
from .results import ComparisonBrief, ComparisonResult, Difference, MapShape, SeedGap
from .run import Progress, Run, play_all
from .stats import Interval, interval
from .summary import ScriptTally, game_result, tally, timing

FEW_SEEDS = 10
MOST_DIFFERENT = 3


@dataclass(frozen=True)
class SeedDifference:
    """One seed: A's score minus B's averaged over the seat orders, and each game's scores as (A, B)."""

    seed: int
    difference: float
    games: tuple[tuple[float, float], ...]  # (A, B) with A first, then with B first


@dataclass(frozen=True)
class Comparison:
    run: Run
    scripts: tuple[ScriptTally, ScriptTally]
    difference: Interval | None  # of A - B per seed, over the seeds played in both seat orders
    seeds: tuple[SeedDifference, ...]  # in seed order
    warnings: tuple[str, ...]

    @property
    def games(self) -> int:
        return len(self.run.played)

    @property
    def draws(self) -> int:
        return sum(1 for r in self.run.played if r.winner is None)

    def most_different(self, count: int = MOST_DIFFERENT) -> list[SeedDifference]:
        return sorted(self.seeds, key=lambda s: (-abs(s.difference), s.seed))[:count]

    @property
    def identical(self) -> bool:
        """Whether every seed's two games were the same game: from each seat, A made exactly the
        moves B made there (so there is no difference to measure, however many seeds)."""
        by_seed: dict[int, list] = {}
        for record in self.run.played:
            by_seed.setdefault(record.task.seed, []).append(record)
        pairs = [games for games in by_seed.values() if len(games) == 2]
        return bool(pairs) and all(
            [s.moves for s in first.seats] == [s.moves for s in second.seats]
            and all(s.moves for s in first.seats)
            for first, second in pairs
        )

    def verdict(self) -> str:
        a, b = (s.name for s in self.scripts)
        if self.identical:
            return (
                "the games were identical in both seat orders (the two scripts made the same moves)"
            )
        ci = self.difference
        if ci is None:
            return "too few seeds for a confidence interval"
        if ci.low > 0:
            return f"{a} scores more than {b}"
        if ci.high < 0:
            return f"{b} scores more than {a}"
        return "no clear difference"

    def _difference(self) -> Difference | None:
        ci = self.difference
        if ci is None:
            return None
        a, b = (e.name for e in self.run.contest.entrants)
        return Difference(
            of=f"{a} - {b}",
            mean=round(ci.mean, 4),
            low=round(ci.low, 4),
            high=round(ci.high, 4),
            level=ci.level,
            seeds=ci.n,
            excludes_zero=ci.excludes_zero,
        )

    def _gaps(self, digits: int = 4) -> tuple[SeedGap, ...]:
        return tuple(
            SeedGap(seed=s.seed, difference=round(s.difference, digits), scores=s.games)
            for s in self.most_different()
        )

    def result(self, detail: bool = False) -> ComparisonResult:
        """The comparison's JSON shape; with ``detail``, each game's margin, first buildings and
        failed turns by reason (and its file under ``--out`` as its ``game``)."""
        entrants = self.run.contest.entrants
        rules = self.run.contest.rules
        return ComparisonResult(
            games=self.games,
            planned=len(self.run.planned),
            complete=self.run.complete,
            draws=self.draws,
            rounds=self.run.planned[0].rounds if self.run.planned else 0,
            seeds=tuple(sorted({t.seed for t in self.run.planned})),
            map=MapShape(
                width=rules.world.width,
                height=rules.world.height,
                symmetry=rules.world.symmetry,
            ),
            scripts=(self.scripts[0].result(), self.scripts[1].result()),
            difference=self._difference(),
            verdict=self.verdict(),
            most_different=self._gaps(),
            warnings=self.warnings,
            results=tuple(
                game_result(r, entrants, _file(self.run, r), detail=detail, game=_file(self.run, r))
                for r in self.run.played
            ),
            timing=timing(self.run.seconds, self.run.where, self.run.workers, self.run.played),
        )

    def brief(self) -> ComparisonBrief:
        """The comparison in a few lines: the 3 seeds that differ most, no per-game list."""
        return ComparisonBrief(
            played=self.games,
            draws=self.draws,
            seeds=len(self.seeds),
            rounds=self.run.planned[0].rounds if self.run.planned else 0,
            scripts=(self.scripts[0].result(), self.scripts[1].result()),
            difference=self._difference(),
            verdict=self.verdict(),
            most_different=tuple(g for g in self._gaps() if g.difference),
            warnings=self.warnings,
            seconds=round(self.run.seconds, 2),
        )

    def to_json(self, detail: bool = False) -> dict:
        return self.result(detail).to_json()


def _file(run: Run, record) -> str | None:
    return str(run.out / record.task.file_name(run.contest)) if run.out is not None else None


def seed_differences(records: Sequence) -> list[SeedDifference]:
    """A minus B per seed, over the seeds whose two seat orders were both played."""
    by_seed: dict[int, dict[tuple[int, ...], tuple[float, float]]] = {}
    for record in records:
        scores = (record.seat_of(0).score, record.seat_of(1).score)
        by_seed.setdefault(record.task.seed, {})[record.task.seats] = scores
    out = []
    for seed in sorted(by_seed):
        games = by_seed[seed]
        if (0, 1) in games and (1, 0) in games:
            pair = (games[(0, 1)], games[(1, 0)])
            out.append(SeedDifference(seed, statistics.fmean(a - b for a, b in pair), pair))
    return out


def _warnings(
    scripts: Sequence[ScriptTally], seeds: Sequence[SeedDifference], ci: Interval | None, run: Run
) -> list[str]:
    out = []
    if run.interrupted:
        out.append(f"interrupted: {len(run.played)} of {len(run.planned)} games were played")
    if len(seeds) < FEW_SEEDS:
        out.append(
            f"only {len(seeds)} seed(s) played in both seat orders: single games say little, and the interval "
            f"from so few is wide (play 20 seeds or more: seeds 1-20)"
        )
    if ci is not None and not ci.excludes_zero and ci.high > ci.low:
        out.append(
            f"the 95% interval of the difference, [{ci.low:.1f}, {ci.high:.1f}], includes zero: these games do not show "
            "which script is better"
        )
    # the seat swing: the same script on the same map, in the other seat
    # (games are (A, B) scores: with A seated first, then with B seated first)
    # (A sits first in games[0], B in games[1]: each script's score seated first, then second)
    swings = [
        (
            abs(s.games[0][k] - s.games[1][k]),
            s.seed,
            scripts[k].name,
            s.games[k][k],
            s.games[1 - k][k],
        )
        for s in seeds
        for k in (0, 1)
    ]
    if swings and ci is not None:
        swing, seed, name, first, second = max(swings, key=lambda w: (w[0], -w[1]))
        if swing > abs(ci.mean) and swing > 0:
            out.append(
                f"seed {seed}'s map favours one seat: the same {name} scored {first:g} seated first and "
                f"{second:g} seated second, so single games say little: read the mean over all seeds"
            )
    return out


def compare(
    entrants: tuple[Entrant, Entrant],
    rules,
    seeds: tuple[int, ...],
    rounds: int,
    backend: Backend,
    *,
    out: Path | None = None,
    progress: Progress | None = None,
) -> Comparison:
    """Play A against B on every seed in both seat orders and summarise (``rules``: resolved)."""
    contest = Contest(rules, tuple(entrants))
    run = play_all(contest, compare_plan(seeds, rounds), backend, out=out, progress=progress)
    scripts = tally(contest.entrants, run.played)
    seeds_played = seed_differences(run.played)
    ci = interval([s.difference for s in seeds_played])
    return Comparison(
        run,
        (scripts[0], scripts[1]),
        ci,
        tuple(seeds_played),
        tuple(_warnings(scripts, seeds_played, ci, run)),
    )
