"""`nova tournament S1 S2 S3...`: a round robin (every pair, both seat orders, every seed) ranked by
an OpenSkill rating (the Plackett-Luce model of the maintained ``openskill`` library).

Ratings are updated game by game in the plan's order (pair by pair, seed by seed), never in the
order games happened to finish, so the ranking does not depend on ``--jobs`` or the backend. The
``rating`` shown is OpenSkill's ordinal, mu - 3 sigma: a conservative estimate that rises as a
script wins and as the games make the estimate surer.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .backends import Backend
from .errors import ArenaError
from .plan import Contest, Entrant, round_robin_plan
from .results import MapShape, PairTotals, RankedScript, TournamentResult
from .run import Progress, Run, play_all
from .summary import ScriptTally, game_result, tally, timing


@dataclass(frozen=True)
class Standing:
    """One script's place in the ranking."""

    tally: ScriptTally
    rating: float  # OpenSkill ordinal: mu - 3 sigma
    mu: float
    sigma: float

    def result(self) -> RankedScript:
        return RankedScript(
            **dict(self.tally.result()),
            rating=round(self.rating, 4),
            mu=round(self.mu, 4),
            sigma=round(self.sigma, 4),
        )

    def to_json(self) -> dict:
        return self.result().to_json()


@dataclass(frozen=True)
class PairResult:
    """Head to head: two scripts' wins against each other, draws, and mean scores in those games."""

    names: tuple[str, str]
    wins: tuple[int, int]
    draws: int
    mean_scores: tuple[float | None, float | None]

    def result(self) -> PairTotals:
        return PairTotals(
            scripts=self.names,
            wins=self.wins,
            draws=self.draws,
            mean_scores=(
                None if self.mean_scores[0] is None else round(self.mean_scores[0], 4),
                None if self.mean_scores[1] is None else round(self.mean_scores[1], 4),
            ),
        )

    def to_json(self) -> dict:
        return self.result().to_json()


@dataclass(frozen=True)
class Tournament:
    run: Run
    ranking: tuple[Standing, ...]  # best first
    pairs: tuple[PairResult, ...]
    warnings: tuple[str, ...]

    @property
    def games(self) -> int:
        return len(self.run.played)

    def result(self) -> TournamentResult:
        entrants = self.run.contest.entrants
        rules = self.run.contest.rules
        return TournamentResult(
            games=self.games,
            planned=len(self.run.planned),
            complete=self.run.complete,
            draws=sum(1 for r in self.run.played if r.winner is None),
            rounds=self.run.planned[0].rounds if self.run.planned else 0,
            seeds=tuple(sorted({t.seed for t in self.run.planned})),
            map=MapShape(
                width=rules.world.width, height=rules.world.height, symmetry=rules.world.symmetry
            ),
            ranking=tuple(s.result() for s in self.ranking),
            pairs=tuple(p.result() for p in self.pairs),
            warnings=self.warnings,
            results=tuple(
                game_result(
                    r,
                    entrants,
                    str(self.run.out / r.task.file_name(self.run.contest))
                    if self.run.out
                    else None,
                )
                for r in self.run.played
            ),
            timing=timing(self.run.seconds, self.run.where, self.run.workers, self.run.played),
        )

    def to_json(self) -> dict:
        return self.result().to_json()


def ratings(entrants: Sequence[Entrant], records: Sequence) -> list[tuple[float, float, float]]:
    """(ordinal, mu, sigma) per entrant after rating every game in task order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = [model.rating(name=e.name) for e in entrants]
    for record in sorted(records, key=lambda r: r.task.index):
        teams = [[current[s.entrant]] for s in record.seats]
        rated = model.rate(teams, scores=[s.score for s in record.seats])
        for seat, team in zip(record.seats, rated, strict=True):
            current[seat.entrant] = team[0]
    return [(r.ordinal(), r.mu, r.sigma) for r in current]


def head_to_head(entrants: Sequence[Entrant], records: Sequence) -> list[PairResult]:
    out = []
    for a, b in itertools.combinations(range(len(entrants)), 2):
        games = [r for r in records if {s.entrant for s in r.seats} == {a, b}]
        wins = (sum(1 for r in games if r.winner == a), sum(1 for r in games if r.winner == b))
        mean_a, mean_b = (
            sum(r.seat_of(i).score for r in games) / len(games) if games else None for i in (a, b)
        )
        out.append(
            PairResult(
                (entrants[a].name, entrants[b].name), wins, len(games) - sum(wins), (mean_a, mean_b)
            )
        )
    return out


def tournament(
    entrants: Sequence[Entrant],
    rules,
    seeds: tuple[int, ...],
    rounds: int,
    backend: Backend,
    *,
    out: Path | None = None,
    progress: Progress | None = None,
) -> Tournament:
    """Play every pair of ``entrants`` on every seed in both seat orders, and rank them."""
    if len(entrants) < 2:
        raise ArenaError("a tournament needs at least two scripts")
    contest = Contest(rules, tuple(entrants))
    run = play_all(
        contest, round_robin_plan(len(entrants), seeds, rounds), backend, out=out, progress=progress
    )
    tallies = tally(contest.entrants, run.played)
    rated = ratings(contest.entrants, run.played)
    standings = [Standing(t, *r) for t, r in zip(tallies, rated, strict=True)]
    standings.sort(
        key=lambda s: (-s.rating, -s.tally.wins, -(s.tally.mean_score or 0), s.tally.name)
    )
    warnings = []
    if run.interrupted:
        warnings.append(f"interrupted: {len(run.played)} of {len(run.planned)} games were played")
    if len(seeds) < 5:
        warnings.append(
            f"only {len(seeds)} seed(s): ratings from so few games are unsure (see sigma)"
        )
    return Tournament(
        run, tuple(standings), tuple(head_to_head(contest.entrants, run.played)), tuple(warnings)
    )
