"""`nova league add | play | table`: a persistent league in one SQLite file (`nova_tools.arena.league`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .output import ProgressBar, emit_json, fmt_points, table
from .signals import terminate_as_interrupt

#: More new games than this in one `nova league play` earns a warning before the first is played:
#: at about a second a game, it is hours of play (a choice, not a limit).
MANY_GAMES = 2_000


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def cmd_add(args: argparse.Namespace) -> int:
    from ..arena import league

    added = league.add(args.league, args.name, args.script)
    if args.json:
        emit_json(added.to_json())
    else:
        print(
            f"Added {added.name} ({added.source}, bundle {added.sha256[:12]}) to {args.league}: "
            f"{_count(added.entries, 'entry', 'entries')}. "
            f"`nova league play --league {args.league}` plays its games."
        )
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from .. import arena
    from ..arena.league import League

    seeds = arena.parse_seeds(args.seeds)
    backend = arena.choose_backend(args.jobs, args.ray)
    bar = ProgressBar(unit="games", eta=True)

    def progress(done: int, total: int, game) -> None:
        if bar.enabled:
            bar(done, total)
            return
        scores = " - ".join(fmt_points(s) for s in game.scores)
        print(
            f"game {done}/{total}: seed {game.seed}, {game.seats[0]} vs {game.seats[1]}: {scores}",
            file=sys.stderr,
            flush=True,
        )

    def planned(games: int, entries: int) -> None:
        if games > MANY_GAMES:
            print(
                f"nova league play: {games} new games to play ({entries} entries on {len(seeds)} "
                "seeds, both seat orders) take hours; Ctrl-C stops between games and keeps every "
                "finished one, or give fewer seeds (like 1-20)",
                file=sys.stderr,
                flush=True,
            )

    with League.open(args.league) as league, terminate_as_interrupt() as terminated:
        played = league.play(seeds, args.rounds, backend, progress=progress, planned=planned)
    if args.json:
        emit_json(played.to_json())
    elif played.planned == 0:
        asked = f"{played.wanted} games asked for ({_count(len(seeds), 'seed', 'seeds')}, {played.rounds} rounds)"
        if played.complete:
            print(
                f"Nothing to play: the league already has all {asked}; "
                f"`nova league table --league {args.league}` shows them."
            )
        else:
            print(
                f"Nothing to play now: of the {asked}, {played.already} are in the league and "
                f"{played.elsewhere} are being played by another run."
            )
    else:
        print(
            f"Played {played.played} of {played.planned} new games {played.where} in {played.seconds:.1f} s; "
            f"{played.already} of {played.wanted} pairings were already in the league"
            + (f", {played.elsewhere} are being played by another run" if played.elsewhere else "")
            + (f", {played.taken_over} taken over from a stopped run" if played.taken_over else "")
            + "."
        )
        if played.complete:
            print(
                f"The league has every pairing asked for: `nova league table --league {args.league}`."
            )
    if played.interrupted:
        how = "terminated" if terminated else "interrupted"
        print(
            f"nova league play: {how} after {played.played} of {played.planned} games; "
            "those are kept, and the next play carries on",
            file=sys.stderr,
        )
        return 143 if terminated else 130
    return 0


def cmd_table(args: argparse.Namespace) -> int:
    from ..arena.league import table as league_table

    result = league_table(args.league)
    if args.json:
        emit_json(result.to_json())
        return 0
    if not result.entries:
        print(f"{args.league} has no entries yet (nova league add).")
        return 0
    print(
        f"{args.league}: {_count(len(result.entries), 'entry', 'entries')}, "
        f"{_count(result.games, 'game', 'games')}"
    )
    rows = [
        [
            str(s.rank),
            s.name,
            f"{s.rating:.2f}",
            f"{s.sigma:.2f}",
            str(s.games),
            str(s.wins),
            str(s.draws),
            str(s.losses),
            "-" if s.mean_score is None else fmt_points(round(s.mean_score, 2)),
            s.source,
        ]
        for s in result.entries
    ]
    print(
        table(
            rows,
            [
                "#",
                "entry",
                "rating",
                "±sigma",
                "games",
                "wins",
                "draws",
                "losses",
                "mean score",
                "from",
            ],
            right={0, 2, 3, 4, 5, 6, 7, 8},
        )
    )
    if len(result.entries) > 1:
        print("Head to head (row's wins-draws-losses against the column):")
        names = [s.name for s in result.entries]
        grid = []
        for s in result.entries:
            against = {h.opponent: h for h in s.against}
            grid.append(
                [s.name]
                + [
                    ""
                    if n == s.name
                    else f"{against[n].wins}-{against[n].draws}-{against[n].losses}"
                    for n in names
                ]
            )
        print(table(grid, ["", *names], right=set(range(1, len(names) + 1))))
    print(f"Rating: {result.rating}.")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "league",
        help="a persistent league of script versions and house androids in one file: add, play, table",
    )
    commands = p.add_subparsers(dest="league_command", metavar="add|play|table", required=True)

    def league_file(q: argparse.ArgumentParser) -> None:
        q.add_argument(
            "--league", type=Path, required=True, metavar="FILE", help="the league's SQLite file"
        )

    q = commands.add_parser(
        "add", help="add a version: a script (its bundle is kept) or house:NAME"
    )
    league_file(q)
    q.add_argument("name", metavar="NAME", help="the entry's name in the table")
    q.add_argument("script", metavar="SCRIPT.ts|house:NAME")
    q.add_argument("--json", action="store_true", help="print JSON")
    q.set_defaults(handler=cmd_add)

    q = commands.add_parser(
        "play", help="play the pairings the league does not have yet, committing each game"
    )
    league_file(q)
    q.add_argument("--seeds", default="1-20", help="seeds like 1-20 or 1,4,9-12 (default 1-20)")
    q.add_argument("--rounds", type=int, default=100, help="rounds per game (default 100)")
    q.add_argument(
        "--jobs", "-j", type=int, metavar="N", help="worker processes (default: the cores)"
    )
    q.add_argument("--ray", metavar="ADDRESS", help="play on this Ray cluster ('local' starts one)")
    q.add_argument("--json", action="store_true", help="print JSON")
    q.set_defaults(handler=cmd_play)

    q = commands.add_parser("table", help="ratings, records and head to head, best first")
    league_file(q)
    q.add_argument("--json", action="store_true", help='print {"entries": [...]} in rank order')
    q.set_defaults(handler=cmd_table)
