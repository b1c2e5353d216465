"""What each side checks and prepares before it talks to the other: its player id, its output
file, and its compiled script (type-checked and bundled, as `nova upload` does)."""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

from ..limits import overwrite_refusal
from ..play import Seat
from .messages import PLAYER_ID
from .result import MatchError

MAX_BUNDLE_BYTES = 4 * 1024 * 1024


def check_player(player: str) -> None:
    if not re.fullmatch(PLAYER_ID, player or ""):
        raise MatchError(
            f"{player!r} is not a valid player id (use 1-64 letters, digits, '-', '_' or '.')"
        )


def check_out_file(out: str | Path, force: bool) -> Path:
    """The file the match will be written to: checked before any network traffic, so a match is
    never played only to find it cannot be kept."""
    out = Path(out)
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        raise MatchError(f"the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise MatchError(f"the folder {folder} cannot be written to")
    if out.is_dir():
        raise MatchError(f"{out} is a folder, not a file to write the match to")
    if refusal := overwrite_refusal(out, force=force):
        raise MatchError(refusal)
    return out


def script_name(entry: Path) -> str:
    """A name for the script in the game: the entry file's, or for a generic one (main.ts, index.ts)
    the project folder's (my-bot/src/main.ts -> my-bot)."""
    path = entry.resolve()
    name = path.stem
    if name in ("main", "index", "android"):
        folder = path.parent.parent if path.parent.name == "src" else path.parent
        name = folder.name or name
    cleaned = re.sub(r"[^A-Za-z0-9 ._@+-]", "-", name)[:64]
    return cleaned or "script"


def own_seat(player: str, script: str | Path) -> Seat:
    """Compile this side's script (a CompileError is the user's sentence, before anything is offered)."""
    from ..starter.house import entry_of
    from ..toolchain.compile import compile_android

    entry = entry_of(script)[0]
    compiled = compile_android(entry)
    size = len(compiled.bundle.encode("utf-8"))
    if size > MAX_BUNDLE_BYTES:
        raise MatchError(
            f"{entry} bundles to {size / 2**20:.1f} MiB; a match carries scripts of at most 4 MiB"
        )
    # Both sides must keep the same game file, and the protocol carries bundles, not source maps:
    # so neither side keeps its own map (a failed turn in a match names the bundle's line).
    return Seat(player, dataclasses.replace(compiled, source_map=None), script_name(entry))
