"""`nova compare` and `nova tournament`: many games at once, through `nova_tools.arena`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .output import ProgressBar, emit_json, fmt_points, table
from .signals import terminate_as_interrupt


def _run(args: argparse.Namespace, play: str, show) -> int:
    """Play the contest (``arena.compare`` or ``arena.tournament``) the arguments ask for, then
    print its JSON or its report; exit 130 when interrupted, 143 when terminated (the report covers the games played)."""
    from .. import arena

    backend = arena.choose_backend(args.jobs, args.ray)
    rules, rounds = arena.arena_rules(args.rules, args.rounds)
    seeds = arena.parse_seeds(args.seeds)
    entrants = arena.entrants_from_files(args.scripts)
    with terminate_as_interrupt() as terminated:
        result = getattr(arena, play)(
            entrants,
            rules,
            seeds,
            rounds,
            backend,
            out=args.out,
            progress=ProgressBar(unit="games", eta=True),
        )
    detail = getattr(args, "detail", False)
    if args.json:
        emit_json(result.to_json(detail) if detail else result.to_json())
    elif detail:
        show(result, detail=True)
    else:
        show(result)
    if not result.run.interrupted:
        return 0
    return _interrupted(args.command, result.run, "terminated" if terminated else "interrupted")


def _failed(tally) -> str:
    if not tally.failed_turns:
        return "0"
    reasons = ", ".join(f"{code} {n}" for code, n in tally.failed)
    return f"{tally.failed_turns} ({reasons})"


def _mean(value) -> str:
    return "-" if value is None else fmt_points(round(value, 2))


def _games_words(run, how: str) -> str:
    """'40 games (20 seeds x 2 seat orders, ...)', or '15 of 40 games (...)' after an interruption."""
    seeds = len({t.seed for t in run.planned})
    played = f"{len(run.played)} of {len(run.planned)}" if run.interrupted else str(len(run.played))
    return f"{played} games ({how}{seeds} seed{'s' if seeds != 1 else ''} x 2 seat orders, {_map_words(run)})"


def _map_words(run) -> str:
    world = run.contest.rules.world
    kind = "rotational" if world.symmetry == "rotational" else "random"
    rounds = run.planned[0].rounds if run.planned else 0
    return f"{rounds} rounds, {kind} {world.width}x{world.height} maps"


def _footer(run, stream=sys.stdout) -> None:
    per_game = run.seconds / len(run.played) if run.played else 0
    print(f"Played {run.where} in {run.seconds:.1f} s ({per_game:.2f} s per game).", file=stream)
    if run.out is not None:
        print(f"Game files in {run.out} (open one with `nova play --file FILE`).", file=stream)


def _interrupted(command: str, run, how: str) -> int:
    print(
        f"nova {command}: {how} after {len(run.played)} of {len(run.planned)} games; the report covers those",
        file=sys.stderr,
    )
    return 143 if how == "terminated" else 130


def cmd_compare(args: argparse.Namespace) -> int:
    if len(args.scripts) != 2:
        print(
            "nova compare: give exactly two scripts (A.ts B.ts); for more, use nova tournament",
            file=sys.stderr,
        )
        return 2
    return _run(args, "compare", print_comparison)


def print_comparison(result, detail: bool = False) -> None:
    run = result.run
    a, b = result.scripts
    print(f"{a.name} vs {b.name}: {_games_words(run, '')}")
    rows = [
        [
            s.name,
            str(s.wins),
            str(s.draws),
            str(s.losses),
            _mean(s.mean_score),
            _mean(s.seat_means[0]),
            _mean(s.seat_means[1]),
            _failed(s),
        ]
        for s in result.scripts
    ]
    print(
        table(
            rows,
            ["script", "wins", "draws", "losses", "mean score", "seat 1", "seat 2", "failed turns"],
            right={1, 2, 3, 4, 5, 6},
        )
    )
    ci = result.difference
    if result.identical:
        print(f"{a.name} - {b.name}: {result.verdict()}, so there is no difference to measure.")
    elif ci is not None:
        print(
            f"{a.name} - {b.name}: {ci.mean:+.2f} points a game, 95% interval [{ci.low:+.2f}, {ci.high:+.2f}] "
            f"over {ci.n} seeds: {result.verdict()}."
        )
    else:
        print(f"{a.name} - {b.name}: {result.verdict()}.")
    differ = [s for s in result.most_different() if s.difference != 0]
    if differ:
        parts = ", ".join(f"{s.seed} ({s.difference:+g})" for s in differ)
        print(f"Seeds that differ most: {parts}")
    for warning in result.warnings:
        print(f"warning: {warning}")
    if detail:
        print_games(result)
    _footer(run)


def print_games(result) -> None:
    """The per-game table of `nova compare --detail`: per seed and seat order both scores, the
    margin, when each side first completed an extractor and a charger, and its failed turns."""

    def pair(values, show=str) -> str:
        return " / ".join("-" if v is None else show(v) for v in values)

    def failed(by_reason: dict) -> str:
        return ", ".join(f"{code} {n}" for code, n in sorted(by_reason.items())) or "0"

    rows = []
    for game in result.result(detail=True).results:
        rows.append(
            [
                str(game.seed),
                " vs ".join(game.seats),
                pair(game.scores, fmt_points),
                fmt_points(game.margin) if game.margin is not None else "-",
                pair(game.first_extractor or ()),
                pair(game.first_charger or ()),
                " / ".join(failed(f) for f in game.failed_by_reason or ()),
            ]
        )
    print("Every game (first seat / second seat):")
    print(
        table(
            rows,
            ["seed", "seats", "scores", "margin", "1st extractor", "1st charger", "failed turns"],
            right={0, 3},
        )
    )


def cmd_tournament(args: argparse.Namespace) -> int:
    if len(args.scripts) < 2:
        print("nova tournament: give at least two scripts", file=sys.stderr)
        return 2
    return _run(args, "tournament", print_tournament)


def print_tournament(result) -> None:
    run = result.run
    pairs = f"{len(result.pairs)} pair{'s' if len(result.pairs) != 1 else ''} x "
    print(f"Round robin of {len(result.ranking)} scripts: {_games_words(run, pairs)}")
    rows = [
        [
            str(i + 1),
            s.tally.name,
            f"{s.rating:.2f}",
            str(s.tally.wins),
            str(s.tally.draws),
            str(s.tally.losses),
            _mean(s.tally.mean_score),
            _failed(s.tally),
        ]
        for i, s in enumerate(result.ranking)
    ]
    print(
        table(
            rows,
            ["#", "script", "rating", "wins", "draws", "losses", "mean score", "failed turns"],
            right={0, 2, 3, 4, 5, 6},
        )
    )
    print("Head to head (wins each, draws):")
    for pair in result.pairs:
        print(
            f"  {pair.names[0]} {pair.wins[0]} - {pair.wins[1]} {pair.names[1]}  ({pair.draws} draws)"
        )
    print(
        "Rating: OpenSkill (Plackett-Luce) mu - 3 sigma, updated game by game in the plan's order."
    )
    for warning in result.warnings:
        print(f"warning: {warning}")
    _footer(run)


def _options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--seeds", default="1-20", help="the seeds to play, like 1-20 or 1,4,9-12 (default 1-20)"
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=None,
        help="rounds per game (default: the rules' final round, or 100)",
    )
    p.add_argument(
        "--rules",
        type=Path,
        metavar="RULES",
        help="a rules file; maps are rotational and the final round is --rounds unless it says otherwise",
    )
    p.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=None,
        metavar="N",
        help="worker processes (default: the number of cores)",
    )
    p.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="run the games as Ray tasks on this cluster ('local' starts a local Ray instance)",
    )
    p.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="keep every game as a game file in DIR (replay with nova play)",
    )
    p.add_argument("--json", action="store_true", help="print JSON (the stable, documented shape)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "compare",
        help="play two scripts against each other on many seeds, both seat orders; who is better, with a confidence interval",
    )
    p.add_argument(
        "scripts",
        nargs="+",
        metavar="SCRIPT",
        help="A.ts B.ts: entry files, or house:NAME for a house android (house:starter ...)",
    )
    _options(p)
    p.add_argument(
        "--detail",
        action="store_true",
        help="also the per-game table: scores, margin, first extractor and charger, failed turns",
    )
    p.set_defaults(handler=cmd_compare)

    p = sub.add_parser(
        "tournament",
        help="a round robin of scripts (every pair, both seat orders, every seed), ranked by rating",
    )
    p.add_argument(
        "scripts",
        nargs="+",
        metavar="SCRIPT",
        help="entry files, or house:NAME for a house android",
    )
    _options(p)
    p.set_defaults(handler=cmd_tournament)
