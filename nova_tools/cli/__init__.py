"""`nova`: the command line. One entry point; each sub-command is a thin adapter over `api`.

Errors a user can make are printed to stderr as one sentence with a non-zero exit, never a
traceback; `--json` output is the stable contract of DESIGN section 6.
"""

from __future__ import annotations

import argparse
import os
import sys

from ..errors import NovaError
from . import arena, commands, lab, league, match, play, tools


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nova",
        description="Project: Nova from the command line: create games, upload android scripts, launch, run, read scores.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    commands.register(sub)
    play.register(sub)
    match.register(sub)
    arena.register(sub)
    league.register(sub)
    lab.register(sub)
    tools.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    # Pydantic looks for plugins in every installed package's entry points the first time a model
    # is built (tens of milliseconds); nova uses none.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except NovaError as error:
        print(f"nova {args.command}: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"nova {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `nova status | head`
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
