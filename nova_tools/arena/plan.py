"""What an arena plays: the entrants, the rules, and the list of games (seed x seat order).

A game is a pure function of (rules, seed, scripts, seat order): :class:`GameTask` names the seed
and the seat order by entrant index, :class:`Contest` holds what every game of a run shares (the
rules and the compiled scripts), so a worker receives the contest once and then only small tasks.

>>> parse_seeds("1-3,7")
(1, 2, 3, 7)
>>> [t.seats for t in compare_plan((5,), rounds=10)]
[(0, 1), (1, 0)]
>>> [(t.seed, t.seats) for t in round_robin_plan(3, (1,), rounds=10)]
[(1, (0, 1)), (1, (1, 0)), (1, (0, 2)), (1, (2, 0)), (1, (1, 2)), (1, (2, 1))]
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..limits import MAX_ROUNDS, MAX_SEED
from ..rules import RuleProblem, Rules, RulesError, resolve
from ..rules.loading import parse_text, read_file
from ..toolchain.compile import CompiledScript
from .errors import ArenaError

MAX_GAMES = 100_000  # games in one comparison (not a round count)
DEFAULT_ROUNDS = 100


@dataclass(frozen=True)
class Entrant:
    """One script in a contest: its name in reports and its compiled bundle."""

    name: str
    script: CompiledScript


@dataclass(frozen=True)
class Contest:
    """What every game of a run shares. ``keep_files``: each game also returns its game file."""

    rules: Rules
    entrants: tuple[Entrant, ...]
    keep_files: bool = False


@dataclass(frozen=True)
class GameTask:
    """One game: ``seats`` are entrant indices in seat order (seat 0 joins first)."""

    index: int
    seed: int
    seats: tuple[int, ...]
    rounds: int

    def file_name(self, contest: Contest) -> str:
        """The game file's name under ``--out``: seed, then the scripts in seat order."""
        names = "-vs-".join(_safe(contest.entrants[i].name) for i in self.seats)
        return f"seed-{self.seed}-{names}.json"


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:40] or "script"


def parse_seeds(text: str) -> tuple[int, ...]:
    """Seeds from ``"1-20"``, ``"3"`` or ``"1-5,9,12-14"``: each seed once, in the order given."""
    seeds: list[int] = []
    for part in text.split(","):
        part = part.strip()
        low, dash, high = part.partition("-")
        try:
            first = int(low)
            last = int(high) if dash else first
        except ValueError:
            raise ArenaError(
                f"{text!r} is not a list of seeds (write them like 1-20 or 1,2,5-8)"
            ) from None
        if not 0 <= first <= last <= MAX_SEED:
            raise ArenaError(f"the seed range {part!r} must run upwards, from 0 to 2^63 - 1")
        if last - first >= MAX_GAMES:
            raise ArenaError(f"the seed range {part!r} is more than {MAX_GAMES} seeds")
        seeds.extend(range(first, last + 1))
    unique = tuple(dict.fromkeys(seeds))
    if len(unique) > MAX_GAMES:
        raise ArenaError(f"{len(unique)} seeds is more than one run may play (at most {MAX_GAMES})")
    return unique


def _check_rounds(rounds: int) -> None:
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ArenaError(f"the number of rounds must be from 1 to {MAX_ROUNDS}, not {rounds}")


def compare_plan(seeds: tuple[int, ...], rounds: int) -> list[GameTask]:
    """Two entrants: every seed once per seat order (0 first, then 1 first)."""
    _check_rounds(rounds)
    orders = [(0, 1), (1, 0)]
    return [
        GameTask(i, seed, order, rounds)
        for i, (seed, order) in enumerate(itertools.product(seeds, orders))
    ]


def round_robin_plan(entrants: int, seeds: tuple[int, ...], rounds: int) -> list[GameTask]:
    """Every pair of entrants, in both seat orders, on every seed (pair by pair, seed by seed)."""
    _check_rounds(rounds)
    if entrants < 2:
        raise ArenaError("a tournament needs at least two scripts")
    games = [
        (seed, order)
        for a, b in itertools.combinations(range(entrants), 2)
        for seed in seeds
        for order in ((a, b), (b, a))
    ]
    if len(games) > MAX_GAMES:
        raise ArenaError(f"{len(games)} games is more than one run may play (at most {MAX_GAMES})")
    return [GameTask(i, seed, order, rounds) for i, (seed, order) in enumerate(games)]


def arena_rules(
    rules: Rules | Mapping | str | Path | None, rounds: int | None
) -> tuple[Rules, int]:
    """The rules an arena plays, and its number of rounds.

    Arenas play fair maps: ``world.symmetry`` is ``"rotational"`` unless the rules set it. Scripts
    know when the game ends: ``match.finalRound`` is the number of rounds unless the rules set it;
    the number of rounds, when not given, is the rules' final round, or 100."""
    raw: object
    if isinstance(rules, Rules):
        raw, source = rules.to_json(), "rules"
    elif isinstance(rules, Path):
        raw, source = read_file(rules), str(rules)
    elif isinstance(rules, str):
        raw, source = parse_text(rules, "rules").value, "rules"
    else:
        raw, source = dict(rules or {}), "rules"
    if not isinstance(raw, dict):
        raise RulesError(
            [RuleProblem((), f"a rules file holds one JSON object, not {type(raw).__name__}")],
            source,
        )
    raw = dict(raw)
    world = raw.get("world")
    if world is None or isinstance(world, dict) and "symmetry" not in world:
        raw["world"] = {**(world or {}), "symmetry": "rotational"}
    match = raw.get("match")
    given_final = match.get("finalRound") if isinstance(match, dict) else None
    if rounds is None:
        rounds = (
            given_final
            if isinstance(given_final, int) and not isinstance(given_final, bool)
            else DEFAULT_ROUNDS
        )
    _check_rounds(rounds)
    if match is None or isinstance(match, dict) and "finalRound" not in match:
        raw["match"] = {**(match or {}), "finalRound": rounds}
    return resolve(raw, source), rounds
