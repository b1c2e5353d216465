"""`nova lab`: the browser lab (a local web app on 127.0.0.1; docs/lab.md)."""

from __future__ import annotations

import argparse
from pathlib import Path


def cmd_lab(args: argparse.Namespace) -> int:
    from ..lab import serve  # uvicorn and starlette load only for this command

    serve(root=Path(args.root), port=args.port, open_browser=not args.no_browser)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    from ..lab import DEFAULT_PORT  # the package alone: the web stack loads only when the lab runs

    p = sub.add_parser(
        "lab",
        help="the browser lab: replay viewer, Run panel, Match host/join, Arena (prints its URL first)",
        description="Serve the browser lab on 127.0.0.1 and print its URL on the first line. "
        "Games are the NAME.json files in --root; scripts are the .ts files under it.",
    )
    p.add_argument(
        "--root",
        default=".",
        help="the folder of games and scripts to serve (default: the current folder)",
    )
    p.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"the port on 127.0.0.1 (default {DEFAULT_PORT}; 0: any free port)",
    )
    p.add_argument("--no-browser", action="store_true", help="do not open a browser window")
    p.set_defaults(handler=cmd_lab)
