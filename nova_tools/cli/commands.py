"""The game commands: create-game, upload, launch, run, status, android, events, rules, dry-run,
replay export."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .. import api
from ..limits import NOTES, utf16_length
from .output import ProgressBar, emit_json, fmt_points, score_table


def _game_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--file", "-f", required=True, type=Path, metavar="GAME", help="the game file")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not at least 1")
    return value


def _json_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON (the stable, documented shape)")


def _report(args: argparse.Namespace, result: api.Result, text: str) -> int:
    """A command's answer: the result's documented JSON with --json, else a line for people."""
    if args.json:
        emit_json(result.to_json())
    else:
        print(text)
    return 0


def cmd_create_game(args: argparse.Namespace) -> int:
    created = api.create_game(
        args.file, args.rules, seed=args.seed, force=args.force, final_round=args.final_round
    )
    arrival = f", humans land on round {created.final_turn}" if created.final_turn else ""
    return _report(
        args,
        created,
        f"Created {created.path}: a {created.width}x{created.height} world from seed {created.seed}{arrival}.",
    )


def cmd_upload(args: argparse.Namespace) -> int:
    script, name = args.script, args.name
    from ..starter.house import entry_of  # imported here: `nova --help` stays light

    script, house_ref = entry_of(script)  # a house android by name, as wherever a script is taken
    name = name or house_ref
    uploaded = api.upload_script(args.file, args.player, script, name=name)
    joined = (
        f" ({uploaded.player} joined the game with an initial charger)" if uploaded.joined else ""
    )
    return _report(args, uploaded, f"{uploaded.script_id}{joined}")


def cmd_launch(args: argparse.Namespace) -> int:
    launched = api.launch_android(args.file, args.player, args.script)
    return _report(
        args, launched, f"{launched.android_id} (at {launched.position.x},{launched.position.y})"
    )


def cmd_run(args: argparse.Namespace) -> int:
    summary = api.run_rounds(
        args.file, args.rounds, progress=None if args.json else ProgressBar(args.rounds)
    )
    if args.json:
        emit_json(summary.to_json())
    else:
        if summary.final_round is None:
            print(
                "nova run: note: this game has no final round (scripts see finalTurn as undefined); "
                "give one with `nova create-game --final-round N`.",
                file=sys.stderr,
            )
        rate = summary.rounds / summary.seconds if summary.seconds else 0
        fallen = len(summary.destroyed)
        named = (
            f": {', '.join(summary.destroyed[:5])}{' ...' if fallen > 5 else ''}" if fallen else ""
        )
        print(
            f"Played rounds {summary.first_round}-{summary.last_round}: {summary.turns} turns, "
            f"{summary.failed_turns} failed, {fallen} android{'s' if fallen != 1 else ''} destroyed{named} ({rate:.1f} rounds/s)."
        )
        if summary.failed_turns or fallen:  # where a player looks next
            hints = [f"nova events --file {args.file} --failed"] if summary.failed_turns else []
            hints += [f"nova android --file {args.file} {summary.destroyed[0]}"] if fallen else []
            print("See why: " + "    ".join(hints))
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    if args.history:
        history = api.score_history(args.file)
        if args.json:
            emit_json(history.to_json())
        else:
            print("\n".join(api.wording.score_history_lines(history, args.every)))
        return 0
    # the current standings come from api.statuscache: quick when `nova run` has just scored this file
    status = (
        api.statuscache.status_json(args.file)
        if args.round is None
        else api.status_at(args.file, args.round).to_json()
    )
    if args.json:
        emit_json(status)
    else:
        print(score_table(status))
        if status.get("match"):
            print(match_line(status["match"]))
    return 0


def match_line(account: dict) -> str:
    """How a peer match's file describes itself in `nova status`."""
    head = f"Peer match: {account['player']} against {account['opponent']}, {account['rounds']} rounds on {account['size']}"
    if account["outcome"] == "verified":
        return f"{head}, verified on both sides."
    return f"{head}, {account['outcome']}: {account['note']}"


def cmd_android(args: argparse.Namespace) -> int:
    report = api.android_report(args.file, args.android_id)
    if args.json:
        emit_json(report.to_json())
        return 0
    state = "active" if report.active else "wreck"
    if isinstance(report, api.RecordedAndroid):  # a match record keeps only the recording
        print(
            f"{report.id} of {report.owner_id} ({state} at the end of the match), script {report.script_id}"
        )
        print(f"  recording ({utf16_length(report.recording)} chars):")
        print("    " + (report.recording.replace("\n", "\n    ") or "(empty)"))
        return 0
    cargo = ", ".join(f"{u} {m}" for m, u in report.cargo.items()) or "empty"
    print(f"{report.id} of {report.owner_id} ({state}), script {report.script_id}")
    if not report.active:
        fall = api.android_fall(args.file, args.android_id)
        print(
            f"  {fall or 'a wreck'} (its events: nova events --file {args.file} --android {report.id})"
        )
    print(
        f"  at ({report.position.x}, {report.position.y})  battery {fmt_points(report.battery)}  health {fmt_points(report.health)}"
    )
    print(f"  cargo: {cargo}")
    print(f"  memory ({utf16_length(report.memory)} chars):")
    print("    " + (report.memory.replace("\n", "\n    ") or "(empty)"))
    print(f"  recording ({utf16_length(report.recording)} chars):")
    print("    " + (report.recording.replace("\n", "\n    ") or "(empty)"))
    return 0


def cmd_events(args: argparse.Namespace) -> int:
    page = api.events_page(
        args.file,
        round=args.round,
        from_round=args.from_round,
        to_round=args.to_round,
        android=args.android,
        action=args.action,
        outcome=args.outcome,
        failed_only=args.failed,
        offset=args.offset,
        limit=args.limit,
        notes="whole" if args.notes else "none",
    )
    if args.json:
        emit_json(page.to_json())
        return 0
    if not page.events:
        filters = {
            "failed": args.failed,
            "round": args.round,
            "from_round": args.from_round,
            "to_round": args.to_round,
            "android": args.android,
            "action": args.action,
            "outcome": args.outcome,
            "offset": args.offset,
        }
        print(api.wording.nothing_matches(filters, page.log_length, page.total))
        return 0
    for line in page.events:
        print(line.text)
        action = line.event.action if isinstance(line.event, api.Turn) else None
        if args.notes:
            for note in NOTES:
                if isinstance(value := (action or {}).get(note), str):
                    print(f"  {note}: " + value.replace("\n", "\n  " + " " * len(note) + "  "))
    shown = len(page.events)
    if page.total > page.offset + shown:
        print(f"... {page.total - page.offset - shown} more (use --offset {page.offset + shown})")
    return 0


def cmd_rules_validate(args: argparse.Namespace) -> int:
    from ..rules import RulesError, load

    try:
        load(args.rules)
    except RulesError as error:
        if not error.problems:
            print(str(error), file=sys.stderr)
        for problem in error.problems:
            print(f"{error.source}: {problem}", file=sys.stderr)
        return 1
    print(f"{args.rules}: valid")
    return 0


def cmd_rules_show(args: argparse.Namespace) -> int:
    if args.file is not None:
        rules = api.game_rules(args.file)
    else:
        rules = api.resolve_rules(args.rules)
    if args.table:
        import shutil

        print(
            api.rules_table(
                rules, shutil.get_terminal_size().columns if sys.stdout.isatty() else None
            )
        )
    else:
        emit_json(rules.to_json())
    return 0


def cmd_dry_run(args: argparse.Namespace) -> int:
    result = api.dry_run(args.script, game=args.file, android_id=args.android)
    if args.json:
        emit_json(result.to_json())
        return 0 if result.accepted else 2
    shown = result.action
    if isinstance(shown, dict):  # the notes can be kilobytes: their sizes are printed below
        shown = {k: v for k, v in shown.items() if k not in NOTES}
    print(f"{result.android_id}, round {result.round}: returned {json.dumps(shown)}")
    print(f"  ticks spent: {result.ticks}")
    for line in result.logs:
        print(f"  console: {line}")
    if result.memory_size is not None or result.recording_size is not None:
        print(
            f"  memory {result.memory_size or 0} chars, recording {result.recording_size or 0} chars"
        )
    if result.accepted:
        print("  the engine would ACCEPT it")
        return 0
    print(f"  the engine would REFUSE it [{result.code}]: {result.reason}")
    print(f"  a failed turn costs {fmt_points(result.penalty)} health")
    return 2


def cmd_replay_export(args: argparse.Namespace) -> int:
    if args.output:
        events = api.write_replay(args.file, args.player, args.output)
        print(f"Wrote {args.output}: {events} events as {args.player} sees them.")
    else:
        sys.stdout.write(api.replay_json(args.file, args.player))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("create-game", help="create a new game file")
    _game_arg(p)
    p.add_argument(
        "--rules", type=Path, help="a rules file (JSON with comments); omitted: the shipped rules"
    )
    p.add_argument("--seed", type=int, default=0, help="the world seed (default 0)")
    p.add_argument("--force", action="store_true", help="replace an existing file")
    p.add_argument(
        "--final-round",
        type=int,
        metavar="N",
        help="the round the humans land on (sets rules.match.finalRound; scripts read it as finalTurn)",
    )
    _json_arg(p)
    p.set_defaults(handler=cmd_create_game)

    p = sub.add_parser(
        "upload", help="type-check, bundle and upload a TypeScript android; prints the script id"
    )
    _game_arg(p)
    p.add_argument("--player", "-p", required=True, help="the player id (a new one joins the game)")
    p.add_argument("--name", help="a name for the script (default: from the file name)")
    p.add_argument(
        "script",
        type=Path,
        metavar="SCRIPT.ts",
        help="the entry file (its relative imports come along), or house:NAME",
    )
    _json_arg(p)
    p.set_defaults(handler=cmd_upload)

    p = sub.add_parser(
        "launch", help="launch an android on the player's initial charger; prints its id"
    )
    _game_arg(p)
    p.add_argument("--player", "-p", required=True)
    p.add_argument("--script", "-s", required=True, metavar="SCRIPT_ID")
    _json_arg(p)
    p.set_defaults(handler=cmd_launch)

    p = sub.add_parser("run", help="play rounds")
    _game_arg(p)
    p.add_argument("--rounds", "-n", type=int, required=True)
    _json_arg(p)
    p.set_defaults(handler=cmd_run)

    p = sub.add_parser(
        "status", help="scores with each player's contributors (now, at a round, or round by round)"
    )
    _game_arg(p)
    when = p.add_mutually_exclusive_group()
    when.add_argument(
        "--round",
        type=int,
        metavar="N",
        help="the standings as they were at the end of round N (0: after setup)",
    )
    when.add_argument(
        "--history",
        action="store_true",
        help="each player's score round by round, and where the lead changed",
    )
    p.add_argument(
        "--every",
        type=_positive,
        metavar="N",
        help="with --history: list every Nth round (default: about 20 rows)",
    )
    _json_arg(p)
    p.set_defaults(handler=cmd_status)

    p = sub.add_parser(
        "android", help="one android as its owner sees it: state, cargo, memory, recording"
    )
    _game_arg(p)
    p.add_argument("android_id", metavar="ANDROID_ID")
    _json_arg(p)
    p.set_defaults(handler=cmd_android)

    p = sub.add_parser(
        "events",
        help="the event log in words (what each android did, what each round end produced, hurt and destroyed), filtered",
    )
    _game_arg(p)
    p.add_argument("--round", type=int, metavar="N", help="only round N")
    p.add_argument("--from-round", type=int, metavar="N", help="only rounds from N on")
    p.add_argument("--to-round", type=int, metavar="N", help="only rounds up to N")
    p.add_argument(
        "--android",
        metavar="ID",
        help="only this android: its turns, its launch, and the round ends that damaged or destroyed it",
    )
    p.add_argument(
        "--action", metavar="TYPE", help="only turns choosing this action (android.move, or move)"
    )
    p.add_argument(
        "--outcome",
        choices=("accepted", "refused", "invalid", "error"),
        help="only turns with this outcome",
    )
    p.add_argument("--failed", action="store_true", help="only failed turns")
    p.add_argument(
        "--notes",
        action="store_true",
        help="with each turn, the memory and recording it left (whole); left out otherwise",
    )
    p.add_argument(
        "--offset", type=int, default=0, metavar="N", help="skip the first N matching events"
    )
    p.add_argument(
        "--limit",
        type=int,
        default=50,
        metavar="N",
        help="show at most N events (default 50, at most 500)",
    )
    _json_arg(p)
    p.set_defaults(handler=cmd_events)

    rules = sub.add_parser("rules", help="validate or show rules")
    rules_sub = rules.add_subparsers(dest="rules_command", metavar="ACTION", required=True)
    p = rules_sub.add_parser(
        "validate", help="exit 0 if a rules file is valid, 1 with the problems otherwise"
    )
    p.add_argument("rules", type=Path, metavar="RULES")
    p.set_defaults(handler=cmd_rules_validate)
    p = rules_sub.add_parser(
        "show", help="the resolved rules as JSON (or, with --table, as a readable table)"
    )
    group = p.add_mutually_exclusive_group()
    group.add_argument(
        "--file", "-f", type=Path, metavar="GAME", help="the rules a game was created with"
    )
    group.add_argument(
        "--rules", type=Path, metavar="RULES", help="a rules file merged over the defaults"
    )
    p.add_argument(
        "--table",
        action="store_true",
        help="a rule a line with its value and meaning, * where it differs from the default (docs/rules.md has them all)",
    )
    p.set_defaults(handler=cmd_rules_show)

    p = sub.add_parser(
        "dry-run",
        help="one turn of a script, judged by the engine, changing nothing (exit 2 if refused)",
    )
    p.add_argument("script", type=Path, metavar="SCRIPT.ts")
    p.add_argument(
        "--file",
        "-f",
        type=Path,
        metavar="GAME",
        help="run against this game's current state (default: a fresh default world)",
    )
    p.add_argument(
        "--android", metavar="ID", help="the android to act as (default: the first active one)"
    )
    _json_arg(p)
    p.set_defaults(handler=cmd_dry_run)

    replay = sub.add_parser("replay", help="player-facing replays")
    replay_sub = replay.add_subparsers(dest="replay_command", metavar="ACTION", required=True)
    p = replay_sub.add_parser(
        "export", help="a replay with other players' scripts, memory and recordings redacted"
    )
    _game_arg(p)
    p.add_argument("--player", "-p", required=True)
    p.add_argument("--output", "-o", help="write to this file instead of stdout")
    p.set_defaults(handler=cmd_replay_export)
