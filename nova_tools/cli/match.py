"""`nova host` and `nova join`: peer matches (DESIGN section 6), thin adapters over `match`.

`nova host` prints `nova join ws://ADDR:PORT` as the first line of stdout, flushed at once. Both
commands exit 0 when the match was played and verified on both sides; otherwise one sentence on
stderr and: 1 no match was played (refused, incompatible, unreachable), 3 desync, 4 the peer left
or broke the protocol mid-match (the file holds the match finished here, partly unverified),
130 interrupted (Ctrl-C), 143 terminated (SIGTERM; kept and told to the peer as Ctrl-C is).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ..limits import DISCLOSURES
from .output import emit_json, score_table
from .signals import terminate_as_interrupt

# `match` (websockets and the protocol models) is imported when a match command runs, not for
# every `nova` command line.
DEFAULT_TIMEOUT = 60.0
EXIT_CODES = {"verified": 0, "desynced": 3, "abandoned": 4}


class MatchDisplay:
    """Progress (rounds played and verified) and notices on stderr; the bar only on a terminal."""

    def __init__(self, command: str, stream=None) -> None:
        self.command = command
        self.stream = stream or sys.stderr
        self.bar = self.stream.isatty()
        self.start = time.perf_counter()
        self.drawn = False

    def notice(self, sentence: str) -> None:
        self._clear()
        self.stream.write(f"nova {self.command}: {sentence}\n")
        self.stream.flush()

    def progress(self, p) -> None:
        if not self.bar:
            return
        width = 30
        played = int(width * p.played / p.rounds)
        verified = int(width * p.verified / p.rounds)
        cells = "=" * verified + "#" * (played - verified) + "." * (width - played)
        rate = p.played / max(time.perf_counter() - self.start, 1e-9)
        self.stream.write(
            f"\r[{cells}] played {p.played}/{p.rounds}, verified {p.verified}  {rate:.1f} rounds/s "
        )
        self.stream.flush()
        self.drawn = True

    def _clear(self) -> None:
        if self.drawn:
            self.stream.write("\r\033[K")
            self.drawn = False

    def done(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.drawn = False


def _finish(args: argparse.Namespace, run) -> int:
    from .. import match

    display = MatchDisplay(args.command)
    try:
        with terminate_as_interrupt() as terminated:
            result = run(display)
    except match.MatchInterrupted as stop:
        display.done()
        sentence = str(stop)
        if terminated and sentence.startswith("interrupted"):  # SIGTERM, not Ctrl-C
            sentence = "terminated" + sentence.removeprefix("interrupted")
        print(f"nova {args.command}: {sentence}", file=sys.stderr)
        return 143 if terminated else 130
    except match.MatchError as error:
        display.done()
        print(f"nova {args.command}: {error}", file=sys.stderr)
        return 1
    display.done()
    if args.json:
        emit_json(result.to_json())
    else:
        print(f"{'Verified' if result.verified else 'NOT verified'}: {result.sentence}.")
        print(
            f"Kept in {result.file} ({'a game file' if result.terms.disclosure == 'full' else 'a match record: scores and your androids’ recordings'}).\n"
        )
        print(score_table(result.status))
    if not result.verified:
        print(f"nova {args.command}: {result.sentence}", file=sys.stderr)
    return EXIT_CODES[result.state.value]


def cmd_host(args: argparse.Namespace) -> int:
    def run(display: MatchDisplay):
        from .. import match

        def announce(url: str) -> None:
            sys.stdout.write(f"nova join {url}\n")
            sys.stdout.flush()
            # the first line is the address; the opponent also needs their own id, script and file
            waiting = (
                "waiting for a joiner (Ctrl-C to give up)"
                if args.wait is None
                else f"waiting up to {args.wait:g} s for a joiner"
            )
            display.notice(
                f"{waiting}; your opponent runs: nova join {url} --player THEIR_ID THEIR_SCRIPT.ts --file THEIR_FILE.json"
            )

        return match.host(
            rounds=args.rounds,
            player=args.player,
            script=args.script,
            out=args.file,
            port=args.port,
            bind=args.bind,
            rules=args.rules,
            sizes=args.sizes,
            disclosure=args.disclosure,
            timeout=args.timeout,
            wait=args.wait,
            force=args.force,
            on_listening=announce,
            progress=display.progress,
            notice=display.notice,
        )

    return _finish(args, run)


def cmd_join(args: argparse.Namespace) -> int:
    def run(display: MatchDisplay):
        from .. import match

        return match.join(
            args.url,
            player=args.player,
            script=args.script,
            out=args.file,
            size=args.size,
            rounds=args.rounds,
            disclosure=args.disclosure,
            timeout=args.timeout,
            force=args.force,
            progress=display.progress,
            notice=display.notice,
        )

    return _finish(args, run)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--player", "-p", required=True, help="your player id in the match")
    p.add_argument(
        "script",
        metavar="SCRIPT.ts",
        help="your android's entry file (type-checked and bundled, as by upload), or house:NAME",
    )
    p.add_argument(
        "--file", "-f", required=True, type=Path, metavar="OUT.json", help="where to keep the match"
    )
    p.add_argument("--force", action="store_true", help="replace OUT.json if it exists")
    p.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"how long the peer may stay silent before it counts as gone (default {DEFAULT_TIMEOUT:g})",
    )
    p.add_argument(
        "--json", action="store_true", help="after the match, print the result as one JSON object"
    )


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "host",
        help="offer a peer match and play it with whoever joins (prints the `nova join` command)",
    )
    p.add_argument(
        "--rounds",
        "-n",
        type=int,
        required=True,
        help="the rounds of the match; also the humans' arrival (finalTurn)",
    )
    _common(p)
    p.add_argument(
        "--port", type=int, default=0, help="the port to listen on (default 0: any free port)"
    )
    p.add_argument(
        "--bind",
        default="127.0.0.1",
        metavar="ADDRESS",
        help="the address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 opens it to your network, deliberately)",
    )
    p.add_argument(
        "--rules",
        type=Path,
        help="a rules file (JSON with comments); the match plays a rotational map unless it chooses",
    )
    p.add_argument(
        "--sizes",
        metavar="WxH,...",
        help="the board sizes a joiner may pick (default: the size in the rules)",
    )
    p.add_argument(
        "--disclosure",
        choices=DISCLOSURES,
        default="full",
        help="full: both keep the whole game; recording: each keeps only the scores and its own androids' recordings",
    )
    p.add_argument(
        "--wait",
        type=float,
        metavar="SECONDS",
        help="give up if nobody joins within this time (default: wait until Ctrl-C)",
    )
    p.set_defaults(handler=cmd_host)

    p = sub.add_parser("join", help="join a peer match that `nova host` offers")
    p.add_argument(
        "url",
        metavar="ws://HOST:PORT",
        help="the address the host's `nova host` printed on its first line",
    )
    _common(p)
    p.add_argument(
        "--size",
        metavar="WxH",
        help="the board size to pick among those offered (default: the first)",
    )
    p.add_argument(
        "--rounds",
        "-n",
        type=int,
        help="refuse an offer of another number of rounds (default: take what the host offers)",
    )
    p.add_argument(
        "--disclosure",
        choices=DISCLOSURES,
        help="refuse an offer in another disclosure mode (default: take what the host offers)",
    )
    p.set_defaults(handler=cmd_join)
