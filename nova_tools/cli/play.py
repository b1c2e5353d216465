"""`nova play`: step through a recorded game in the terminal, round by round.

On a terminal the board is drawn in colour (rich) and the keys step through the rounds; in a pipe
the frames are printed as plain text. Everything shown comes from ``api.replay_frames``.
"""

from __future__ import annotations

import argparse
import os
import sys

WIDTH = 80  # the narrowest terminal drawn for (a 12x12 board fits beside its panel)
HEIGHT = 40
FIXED_LINES = 20  # title, column header, window note, legend (6), events (10) and prompt: the rest is for rows
EVENT_LINES = 8
# A short terminal (80x24 is a common default) gets the compact layout: the legend without its
# note on amounts, and two events, so that a 12x12 board still shows whole
COMPACT_FIXED_LINES = (
    12  # title, column header, legend (5), events heading, 2 events, "more" and prompt
)
ROWS_WORTH_KEEPING = 12


def compact(frame, height: int) -> bool:
    """Whether the screen is too short for the full layout to show the board's rows (or 12)."""
    return height - FIXED_LINES < min(frame.height, ROWS_WORTH_KEEPING)


def render(
    frame,
    position: str,
    width: int = WIDTH,
    height: int = HEIGHT,
    window=None,
    event_lines: int = EVENT_LINES,
) -> list:
    """The lines of one screen: title, board with its panel, legend, the round's events."""
    from rich.text import Text

    from .. import api
    from .board import CELL, LABEL, board_lines, legend_lines, panel_lines, side_by_side

    if window is None:
        window = fitted_window(frame, width, height, None)
    scores = (
        "  ".join(f"{p.id} {p.score:g}" for p in sorted(frame.players, key=lambda p: p.seat))
        or "no players yet"
    )
    out = [Text.assemble((f"Round {frame.round}", "bold"), f"  {position}   score: {scores}")]
    board = board_lines(frame, window)
    out += side_by_side(
        board, [Text("")] + panel_lines(frame), LABEL + window.columns * CELL + 1, width
    )
    if not window.whole(frame):
        last_x, last_y = window.x0 + window.columns - 1, window.y0 + window.rows - 1
        out.append(
            Text(
                f"showing columns {window.x0}-{last_x}, rows {window.y0}-{last_y} of {frame.width}x{frame.height} "
                "(arrow keys or --at X,Y move it)",
                style="bright_black",
            )
        )
    out += legend_lines(frame, compact=compact(frame, height))
    interesting = [e for e in frame.events if e.event.kind != "round.started"]
    failed = sum(1 for e in interesting if api.failed_turn(e.event))
    out.append(Text(f"events ({len(interesting)}, {failed} failed turns):"))
    # the events get what the board, its panel and the legend leave of the screen (the heading,
    # a "more" line and the prompt take 3), so a long panel never pushes the prompt off it
    shown = interesting[: max(2, min(event_lines, height - len(out) - 3))]
    out += [Text("  " + e.text, style="red" if api.failed_turn(e.event) else "") for e in shown]
    if len(interesting) > len(shown):
        out.append(
            Text(
                f"  ... {len(interesting) - len(shown)} more (nova events --round {frame.round})",
                style="bright_black",
            )
        )
    for line in out:
        line.truncate(width, overflow="ellipsis")
    return out


def fitted_window(frame, width: int, height: int, centre: tuple[int, int] | None):
    """The biggest window of the board that fits beside the panel and above the legend."""
    from .board import CELL, LABEL, PANEL, Window

    columns = max(4, (width - PANEL - LABEL - 1) // CELL)
    if compact(frame, height):
        rows = height - COMPACT_FIXED_LINES
        rows = max(4, rows if frame.height <= rows else rows - 1)  # a window's note takes a line
    else:
        rows = max(4, height - FIXED_LINES)
    return Window.around(frame, centre, columns, rows)


def _position(text: str) -> tuple[int, int]:
    try:
        x, y = (int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a position X,Y (e.g. 12,7)") from None
    return x, y


KEYS = {
    "\x1b[A": (0, -1),
    "\x1b[B": (0, 1),
    "\x1b[C": (1, 0),
    "\x1b[D": (-1, 0),
    "w": (0, -1),
    "s": (0, 1),
    "d": (1, 0),
    "a": (-1, 0),
}


def cmd_play(args: argparse.Namespace) -> int:
    from .. import api

    interactive = sys.stdin.isatty() and sys.stdout.isatty() and not args.no_input
    frames = api.replay_frames(args.file)
    last = frames.last_round
    if args.round is not None and not 0 <= args.round <= last:
        print(
            f"nova play: {args.file} has no round {args.round} (it has rounds 0-{last})",
            file=sys.stderr,
        )
        return 1
    if not interactive:
        import shutil  # here, not at the top: `nova --help` and every other command skip it

        size = shutil.get_terminal_size((WIDTH, HEIGHT))
        width = max(WIDTH, min(size.columns, 200)) if sys.stdout.isatty() else WIDTH
        shown = frames if args.round is None else iter([_last_of_round(frames, args.round)])
        # one frame at a time, printed and let go: a long game is never held whole in a pipe
        for frame in shown:
            window = fitted_window(frame, width, 10_000, args.at)
            lines = render(frame, f"({frame.round}/{last})", width, 10_000, window)
            sys.stdout.write("\n".join(line.plain.rstrip() for line in lines) + "\n\n")
        return 0
    all_frames = list(frames)
    index = 0
    if args.round is not None:
        index = [i for i, f in enumerate(all_frames) if f.round == args.round][-1]
    return _step_through(all_frames, index, args.at)


def _last_of_round(frames, number: int):
    """The last frame of round ``number`` (a launch between rounds makes a frame of its own),
    reading no frame past it."""
    chosen = None
    for frame in frames:
        if frame.round > number:
            break
        if frame.round == number:
            chosen = frame
    return chosen


def _terminal_size() -> tuple[int, int]:
    """The terminal's size now (it may be resized between screens). Asked of the terminal itself:
    the LINES and COLUMNS variables that shutil prefers are set once by readline, at the size the
    terminal had when the first prompt was read."""
    try:
        size = os.get_terminal_size(sys.stdout.fileno())
    except (OSError, ValueError):
        return WIDTH, HEIGHT
    return min(size.columns or WIDTH, 200), size.lines or HEIGHT


def _read_key(fd: int) -> str:
    """One key from a terminal in cbreak mode: a character, or an escape sequence whole (the
    arrows send three bytes, ``ESC [ C``)."""
    import select

    data = os.read(fd, 1)
    if data == b"\x1b":
        while select.select([fd], [], [], 0.05)[0]:
            data += os.read(fd, 8)
            if len(data) >= 3 and data[-1:].isalpha() or data[-1:] == b"~":
                break
    return data.decode("utf-8", "replace")


class _Keys:
    """Keys as they are pressed (cbreak mode: no Enter needed, Ctrl-C still interrupts), the
    terminal restored afterwards. Digits gather into a round number, ended by Enter."""

    def __init__(self) -> None:
        self.fd = sys.stdin.fileno()

    def __enter__(self) -> _Keys:
        import termios
        import tty

        self.saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        return self

    def __exit__(self, *exc: object) -> None:
        import termios

        termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)

    def read(self, prompt: str) -> str:
        """The next command: a key, or digits and Enter (shown as they are typed)."""
        sys.stdout.write(prompt)
        sys.stdout.flush()
        digits = ""
        while True:
            key = _read_key(self.fd)
            if key.isdigit():
                digits += key
                sys.stdout.write(key)
                sys.stdout.flush()
            elif digits and key in ("\r", "\n"):
                sys.stdout.write("\n")
                return digits
            elif digits and key in ("\x7f", "\b"):
                digits = digits[:-1]
                sys.stdout.write("\b \b")
                sys.stdout.flush()
            elif key == "":  # the terminal went away
                return "q"
            elif not digits:
                return key


def _step_through(frames: list, index: int, centre: tuple[int, int] | None) -> int:
    """On a terminal the keys act at once (raw keys: arrows, space, q); with stdin not a terminal
    the same commands are read a line at a time."""
    from contextlib import nullcontext

    from rich.console import Console

    console = Console(highlight=False, soft_wrap=False)
    raw = sys.stdin.isatty()
    with _Keys() if raw else nullcontext() as keys:
        while True:
            frame = frames[index]
            width, height = _terminal_size()
            window = fitted_window(frame, width, height, centre)
            console.clear()
            for line in render(frame, f"({index + 1}/{len(frames)})", width, height, window):
                console.print(line, overflow="ellipsis", no_wrap=True, crop=True)
            pan = "  [arrows/wasd] move" if not window.whole(frame) else ""
            if keys is not None:
                steps = "[space] next  [p] previous  [N Enter] round  [q] quit"
                more = "  [arrows] move" if pan else "  [left/right] round"
                answer = keys.read(f"{steps}{more} > ")
            else:
                try:
                    answer = input(
                        f"[Enter] next  [p] previous  [NUMBER] round  [q] quit{pan} > "
                    ).strip()
                except EOFError:
                    return 0
            lowered = answer.lower()
            if lowered in ("q", "quit", "exit", "\x04"):
                return 0
            if answer in KEYS and not window.whole(frame):
                dx, dy = KEYS[answer]
                moved = window.moved(
                    frame, dx * max(1, window.columns // 2), dy * max(1, window.rows // 2)
                )
                centre = (moved.x0 + moved.columns // 2, moved.y0 + moved.rows // 2)
            elif lowered in ("p", "prev", "b") or answer == "\x1b[D":
                index = max(0, index - 1)
            elif lowered.isdigit():
                target = int(lowered)
                matches = [i for i, f in enumerate(frames) if f.round == target]
                index = matches[-1] if matches else index
            elif answer in ("\x1b[A", "\x1b[B", "\x1b", "w", "s", "a", "d"):
                continue  # a move with nothing to move, or a lone Escape
            else:
                index = min(len(frames) - 1, index + 1)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "play",
        help="step through a recorded game (or a player's replay export) in the terminal, round by round",
    )
    p.add_argument(
        "--file",
        "-f",
        required=True,
        metavar="GAME",
        help="a game file, or a replay from `nova replay export` (the whole map, as that player may see it)",
    )
    p.add_argument("--round", type=int, help="start at (or, in a pipe, show only) this round")
    p.add_argument(
        "--at",
        type=_position,
        metavar="X,Y",
        help="on a board bigger than the terminal, centre the view on this tile",
    )
    p.add_argument(
        "--no-input", action="store_true", help="print the frames instead of stepping through them"
    )
    p.set_defaults(handler=cmd_play)
