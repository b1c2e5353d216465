"""Set-up and helper commands: demo, new-android, generate, setup, doctor, and the servers."""

from __future__ import annotations

import argparse
from pathlib import Path

from .. import api
from .output import score_table


def cmd_demo(args: argparse.Namespace) -> int:
    """A demo game between two starter androids, ending with the score table."""
    import tempfile  # here, not at the top: every other command skips it

    folder = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="nova-demo-"))
    folder.mkdir(parents=True, exist_ok=True)
    game = folder / "demo.json"
    print(
        f"Demo game: {game} (seed {args.seed}), two players running the starter android for {args.rounds} rounds."
    )
    from .output import ProgressBar

    played = api.play_to_file(
        game, api.demo_spec(args.seed, args.rounds), force=True, progress=ProgressBar(args.rounds)
    )
    for seat in played.seats:
        print(
            f"  {seat.player}: uploaded {seat.script_id}, launched {seat.android_id} at {seat.position}"
        )
    result = played.result
    print(
        f"Played {args.rounds} rounds: {result.turns} turns, {result.failed_turns} failed, {len(result.destroyed)} androids destroyed.\n"
    )
    print(score_table(api.status(game).to_json()))
    print(f"\nLook closer: nova play --file {game}    nova android --file {game} android-1")
    print(
        f"In the browser: nova lab --root {folder}   (the replay viewer, the Run panel; docs/lab.md)"
    )
    return 0


def cmd_new_android(args: argparse.Namespace) -> int:
    from ..starter import scaffold

    target = Path(args.dir)
    scaffold(target, args.base)
    made_from = f" from {args.base}" if args.base else ""
    print(
        f"Created an android project in {target}{made_from}: edit src/main.ts, then `nova upload --file GAME --player YOU {target / 'src' / 'main.ts'}`."
    )
    return 0


def cmd_generate(args: argparse.Namespace) -> int:
    """Regenerate the committed generated files (schemas/, typings/)."""
    from ..rules.schema import SCHEMA_PATH, render_schema
    from ..toolchain import typings

    schema = render_schema()
    if SCHEMA_PATH.read_text(encoding="utf-8") != schema if SCHEMA_PATH.exists() else True:
        SCHEMA_PATH.write_text(schema, encoding="utf-8")
        print(f"wrote {SCHEMA_PATH}")
    for path in typings.write_typings():
        print(f"wrote {path}")
    for path in api.write_generated_docs():
        print(f"wrote {path}")
    print("generated files are up to date")
    return 0


def cmd_setup(args: argparse.Namespace) -> int:
    from ..toolchain.setup import setup

    result = setup(args.target)
    print(result.message if hasattr(result, "message") else result)
    return 0 if getattr(result, "ok", True) else 1


def cmd_doctor(args: argparse.Namespace) -> int:
    from ..toolchain.doctor import doctor, format_report, healthy

    checks = doctor()
    print(format_report(checks))
    return 0 if healthy(checks) else 1


def cmd_lsp(args: argparse.Namespace) -> int:
    from ..lsp import serve

    serve()
    return 0


def cmd_mcp(args: argparse.Namespace) -> int:
    from ..mcp import serve

    serve(root=Path(args.root), http=args.http, port=args.port, max_turns=args.max_turns)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "demo", help="play a demo game between two starter androids and show the scores"
    )
    p.add_argument("--rounds", type=int, default=100)
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--dir", help="where to keep the demo game (default: a new temporary folder)")
    p.set_defaults(handler=cmd_demo)

    p = sub.add_parser("new-android", help="scaffold a TypeScript android project from the starter")
    p.add_argument("dir", metavar="DIR")
    p.add_argument(
        "--from",
        dest="base",
        metavar="house:NAME",
        help="start from a house android instead of the starter (house:champion ...)",
    )
    p.set_defaults(handler=cmd_new_android)

    p = sub.add_parser(
        "generate", help="regenerate schemas/rules.schema.json and typings/nova.d.ts"
    )
    p.set_defaults(handler=cmd_generate)

    p = sub.add_parser(
        "setup",
        help="install the pinned TypeScript/esbuild/QuickJS toolchain into a per-user folder",
    )
    p.add_argument(
        "--target", type=Path, default=None, help="install here instead of the per-user folder"
    )
    p.set_defaults(handler=cmd_setup)

    p = sub.add_parser(
        "doctor", help="say which toolchain parts were found, and what to do about missing ones"
    )
    p.set_defaults(handler=cmd_doctor)

    p = sub.add_parser("lsp", help="the Nova language server (stdio)")
    p.add_argument(
        "--stdio", action="store_true", help="talk over stdio (the default and only transport)"
    )
    p.set_defaults(handler=cmd_lsp)

    p = sub.add_parser("mcp", help="the Nova MCP server for AI coding agents (stdio, or --http)")
    p.add_argument(
        "--root", default=".", help="the folder games live in (default: the current folder)"
    )
    p.add_argument(
        "--http", action="store_true", help="serve streamable HTTP on 127.0.0.1 instead of stdio"
    )
    p.add_argument("--port", type=int, default=8765)
    p.add_argument(
        "--max-turns",
        type=int,
        default=None,
        metavar="N",
        help="run at most N android turns at once (dry runs, rounds); more wait, then are refused "
        "(default: from the machine's cores and memory)",
    )
    p.set_defaults(handler=cmd_mcp)
