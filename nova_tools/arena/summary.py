"""Per-script tallies over played games, and the JSON of one game's result (shared by compare and
tournament)."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .game import GameRecord
from .plan import Entrant
from .results import GameResult, ScriptTotals, Timing


@dataclass(frozen=True)
class ScriptTally:
    """How one script did over the games it played."""

    name: str
    games: int
    wins: int
    draws: int
    losses: int
    mean_score: float | None
    seat_means: tuple[float | None, ...]  # its mean score when it sat first, second...
    turns: int
    failed: tuple[tuple[str, int], ...]  # (reason code, failed turns), most frequent first

    @property
    def failed_turns(self) -> int:
        return sum(n for _, n in self.failed)

    def result(self) -> ScriptTotals:
        return ScriptTotals(
            name=self.name,
            games=self.games,
            wins=self.wins,
            draws=self.draws,
            losses=self.losses,
            mean_score=_round(self.mean_score),
            seat_mean_scores=tuple(_round(m) for m in self.seat_means),
            turns=self.turns,
            failed_turns=self.failed_turns,
            failed_turns_by_reason=dict(self.failed),
        )

    def to_json(self) -> dict:
        return self.result().to_json()


def _round(value: float | None) -> float | None:
    """Means are reported to 4 decimals, so the JSON does not depend on float summation noise."""
    return None if value is None else round(value, 4)


def tally(
    entrants: Sequence[Entrant], records: Sequence[GameRecord], seats: int = 2
) -> list[ScriptTally]:
    """One tally per entrant, in entrant order."""
    out = []
    for index, entrant in enumerate(entrants):
        scores: list[float] = []
        by_seat: list[list[float]] = [[] for _ in range(seats)]
        wins = draws = losses = turns = 0
        failed: Counter[str] = Counter()
        for record in records:
            mine = [(seat, s) for seat, s in enumerate(record.seats) if s.entrant == index]
            if not mine:
                continue
            seat, result = mine[0]
            scores.append(result.score)
            by_seat[seat].append(result.score)
            turns += result.turns
            failed.update(dict(result.failed))
            winner = record.winner
            if winner is None:
                draws += 1
            elif winner == index:
                wins += 1
            else:
                losses += 1
        out.append(
            ScriptTally(
                entrant.name,
                len(scores),
                wins,
                draws,
                losses,
                statistics.fmean(scores) if scores else None,
                tuple(statistics.fmean(s) if s else None for s in by_seat),
                turns,
                tuple(sorted(failed.items(), key=lambda item: (-item[1], item[0]))),
            )
        )
    return out


def game_result(
    record: GameRecord,
    entrants: Sequence[Entrant],
    file: str | None = None,
    *,
    detail: bool = False,
    game: str | None = None,
) -> GameResult:
    """One game as the ``results`` entries of DESIGN section 6 show it; with ``detail`` also
    the margin, when each seat first built an extractor and a charger, and its failed turns."""
    winner = record.winner
    more: dict[str, Any] = {}
    if detail:
        seats = record.seats
        more = dict(
            margin=seats[0].score - seats[1].score if len(seats) == 2 else None,
            first_extractor=tuple(dict(s.first_built).get("extractor") for s in seats),
            first_charger=tuple(dict(s.first_built).get("charger") for s in seats),
            failed_by_reason=tuple(dict(s.failed) for s in seats),
            game=game,
            players=tuple(s.player for s in seats),
        )
    return GameResult(
        **more,
        seed=record.task.seed,
        seats=tuple(entrants[s.entrant].name for s in record.seats),
        scores=tuple(s.score for s in record.seats),
        winner=None if winner is None else entrants[winner].name,
        failed_turns=tuple(s.failed_turns for s in record.seats),
        state_hash=record.state_hash,
        file=file,
    )


def timing(seconds: float, where: str, workers: int, records: Sequence[GameRecord]) -> Timing:
    """How long the run took and where it ran: everything that may differ between two runs of
    the same games."""
    per_game = [r.seconds for r in records]
    return Timing(
        seconds=round(seconds, 3),
        where=where,
        workers=workers,
        game_seconds_median=round(statistics.median(per_game), 3) if per_game else None,
        game_seconds_max=round(max(per_game), 3) if per_game else None,
    )
