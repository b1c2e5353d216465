"""The two sides of compare_scripts and play_game: a script named the way an agent has it at
hand (a library id, the starter or a house android by name, code, or a base plus what changes)."""

from __future__ import annotations

import hashlib
import json

from pydantic import BaseModel, ConfigDict

from ... import api, arena
from ...api import ApiError, GameFolder
from .common import check_player, script_files

SIDE_DOC = "'starter', 'house:NAME', a library id, {base, files, edits}, {game, script_id}"


class ScriptChoice(BaseModel):
    """One side: a script of the player's library, code (whole, or as a base and what
    changes), or a script already uploaded to a game."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = None
    library_id: str | None = None
    player: str | None = None
    base: str | None = None
    files: dict[str, str | None] | None = None
    edits: list[api.Edit] | None = None
    source: str | None = None
    entry: str | None = None
    starter: bool = False
    game: str | None = None
    script_id: str | None = None


Side = ScriptChoice | str


def entrant(
    folder: GameFolder, side: str, choice: Side, player: str | None = None
) -> arena.Entrant:
    """The compiled script a side names, and its name (``player``: whose library and games a
    side without its own player is read from)."""
    if isinstance(choice, str):
        if choice == "starter" or choice.startswith("house:"):
            choice = ScriptChoice(base=choice, name=choice.removeprefix("house:"))
        elif choice.startswith("lib-"):
            if player is None:
                raise ApiError(
                    f"{side}: {choice!r} is a library id: give player too (whose library)"
                )
            choice = ScriptChoice(library_id=choice, player=player)
        else:
            raise ApiError(
                f"{side}: {choice!r} is not 'starter', 'house:NAME' or a library id ('lib-' and 16 hex digits)"
            )
    if choice.player is None and player is not None:
        choice = choice.model_copy(update={"player": player})
    if choice.library_id is not None:
        others = (choice.game, choice.script_id, choice.source, choice.files, choice.base)
        if choice.player is None or any(v is not None for v in others) or choice.starter:
            raise ApiError(
                f"{side}: a library script is named by library_id and player together, and nothing else"
            )
        kept = folder.library.get(check_player(choice.player), choice.library_id)
        return arena.Entrant(choice.name or kept.entry.name, kept.script)
    if choice.game is not None or choice.script_id is not None:
        if (
            choice.game is None
            or choice.player is None
            or choice.script_id is None
            or any(v is not None for v in (choice.source, choice.files, choice.base))
            or choice.starter
        ):
            raise ApiError(
                f"{side}: an uploaded script is named by game, player and script_id together, and nothing else"
            )
        stored = api.player_script(
            folder.existing(choice.game), check_player(choice.player), choice.script_id
        )
        return arena.Entrant(choice.name or stored.name, stored.script)
    texts, entry_name = script_files(
        folder,
        choice.player,
        source=choice.source,
        files=choice.files,
        entry=choice.entry,
        starter=choice.starter,
        base=choice.base,
        edits=choice.edits,
    )
    compiled = api.compile_upload(files=texts, entry_name=entry_name)
    default = "starter" if choice.starter or choice.base == "starter" else side
    return arena.Entrant(choice.name or default, compiled)


def two_entrants(
    folder: GameFolder, a: Side, b: Side, player: str | None = None
) -> tuple[arena.Entrant, arena.Entrant]:
    """Both sides, their names made different (``#2``) when they are the same."""
    first, second = entrant(folder, "a", a, player), entrant(folder, "b", b, player)
    if first.name == second.name:
        second = arena.Entrant(second.name + "#2", second.script)
    return first, second


def kept_name(contest: arena.Contest, task: arena.GameTask) -> str:
    """The name a game of a comparison is kept under: its scripts in seat order, the seed and
    a digest of what decides it (the scripts' code, the rules, the rounds), so the same game
    always gets the same name and compare_scripts and play_game share it."""
    digest = hashlib.sha256()
    for entrant_index in task.seats:
        e = contest.entrants[entrant_index]
        digest.update(f"{e.name}\0{e.script.sha256}\0".encode())
    digest.update(json.dumps(contest.rules.to_json(), sort_keys=True).encode())
    digest.update(f"{task.seed}\0{task.rounds}".encode())
    names = "-vs-".join(_slug(contest.entrants[i].name) for i in task.seats)
    return f"{names}-s{task.seed}-{digest.hexdigest()[:6]}"[-64:]


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:20] or "script"


def keep_games(folder: GameFolder, contest: arena.Contest, records) -> dict[int, str]:
    """Write each record's game file into the folder under its kept name: task index -> name."""
    names = {}
    for record in records:
        name = kept_name(contest, record.task)
        path = folder.path(name)
        if record.game_file is not None and not (
            path.is_file() and path.read_bytes() == record.game_file
        ):
            api.write_game_bytes(path, record.game_file)
        names[record.task.index] = name
    return names
