"""`nova play`: step through a recorded game in the terminal, round by round."""

from __future__ import annotations

import argparse
import shutil
import sys

from .. import api
from .board import draw, legend
from .output import fmt_points

WIDTH = 80


def _clip(line: str, width: int) -> str:
    return line if len(line) <= width else line[: width - 1] + "…"


def render(frame: api.Frame, game_legend: list[str], position: str, width: int = WIDTH, event_lines: int = 8) -> str:
    scores = "  ".join(f"{p.id} {fmt_points(p.score)}" for p in frame.players)
    out = [f"Round {frame.round}  {position}   score: {scores}"]
    out += draw(frame)
    out += game_legend
    interesting = [e for e in frame.events if e["type"] not in ("round.started",)]
    failed = [e for e in interesting if api.failed_turn(e)]
    out.append(f"events ({len(interesting)}, {len(failed)} failed turns):")
    shown = interesting[:event_lines]
    out += ["  " + e["text"] for e in shown]
    if len(interesting) > len(shown):
        out.append(f"  ... {len(interesting) - len(shown)} more (nova events --round {frame.round})")
    return "\n".join(_clip(line, width) for line in out)


def cmd_play(args: argparse.Namespace) -> int:
    all_frames = list(api.replay_frames(args.file))
    game_legend = legend(all_frames[-1])
    width = min(shutil.get_terminal_size((WIDTH, 24)).columns, 200)
    index = 0
    if args.round is not None:
        matches = [i for i, f in enumerate(all_frames) if f.round == args.round]
        if not matches:
            print(f"nova play: {args.file} has no round {args.round} (it has rounds 0-{all_frames[-1].round})", file=sys.stderr)
            return 1
        index = matches[-1]
    interactive = sys.stdin.isatty() and sys.stdout.isatty() and not args.no_input
    if not interactive:
        chosen = [all_frames[index]] if args.round is not None else all_frames
        for frame in chosen:
            print(render(frame, game_legend, f"({frame.round}/{all_frames[-1].round})", width))
            print()
        return 0
    while True:
        frame = all_frames[index]
        sys.stdout.write("\x1b[2J\x1b[H")
        print(render(frame, game_legend, f"({index + 1}/{len(all_frames)})", width))
        try:
            answer = input("[Enter] next  [p] previous  [NUMBER] go to round  [q] quit > ").strip().lower()
        except EOFError:
            return 0
        if answer in ("q", "quit", "exit"):
            return 0
        if answer in ("p", "prev", "b"):
            index = max(0, index - 1)
        elif answer.isdigit():
            target = int(answer)
            matches = [i for i, f in enumerate(all_frames) if f.round == target]
            index = matches[-1] if matches else index
        else:
            index = min(len(all_frames) - 1, index + 1)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="step through a recorded game in the terminal, round by round")
    p.add_argument("--file", "-f", required=True, metavar="GAME")
    p.add_argument("--round", type=int, help="start at (or, in a pipe, show only) this round")
    p.add_argument("--no-input", action="store_true", help="print the frames instead of stepping through them")
    p.set_defaults(handler=cmd_play)
