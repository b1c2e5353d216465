"""What the server offers besides tools: resources to read (the guide, the typings, the rules
schema, a game's resolved rules, the starter android) and a prompt that sets an agent up to write
or improve an android."""

from __future__ import annotations

import json
from pathlib import Path

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError
from mcp.server.mcpserver.resources import FunctionResource

from .. import api
from ..api import GameFolder
from ..errors import NovaError

GUIDE_PATH = Path(__file__).with_name("guide.md")
GUIDE_URI = "nova://guide"
TYPINGS_URI = "nova://typings/nova.d.ts"
SCHEMA_URI = "nova://schemas/rules.schema.json"
RESULTS_URI = "nova://schemas/results.json"
RULES_URI = "nova://games/{name}/rules"
STARTER_URI = "nova://starter/{file}"


STARTER_FILES_MARK = "<!-- the starter files: one line each, from nova_tools/starter/README.md -->"


def guide() -> str:
    """The agents' guide to the game (also in docs/mcp.md, checked identical by a test), with
    the starter README's line on what each source file decides as a table."""
    return GUIDE_PATH.read_text(encoding="utf-8").replace(STARTER_FILES_MARK, _starter_table())


def starter_decides() -> dict[str, str]:
    """The README's ``src/FILE.ts  what it decides`` lines, declared there once: file -> line."""
    try:
        from ..starter import readme
    except ImportError:  # the starter is not installed
        return {}
    lines = {}
    for line in readme().splitlines():
        name, _, what = line.partition(" ")
        if name.startswith("src/") and name.endswith(".ts") and what.strip():
            lines[name[4:]] = what.strip()
    return lines


def _starter_table() -> str:
    decides = starter_decides()
    if not decides:
        return "(the starter android is not installed with this nova-tools)"
    rows = ["| file | decides |", "|---|---|"]
    rows += [f"| `{file}` | {what} |" for file, what in decides.items()]
    return "\n".join(rows)


def typings() -> str:
    from ..toolchain.typecheck import typings_path

    return typings_path().read_text(encoding="utf-8")


def rules_schema() -> str:
    from ..rules.schema import render_schema

    return render_schema()


def starter_files() -> dict[str, str]:
    """The starter android's sources (entry first), or none while the starter is not installed."""
    try:
        from .. import starter
    except ImportError:  # pragma: no cover - every release ships the starter
        return {}
    return starter.files()


def results_schema() -> str:
    """Every tool's result, in full: the schema each tool's outputSchema names by its title."""
    from . import schemas, tools
    from .tools.registry import output_model

    return schemas.results_document(output_model(fn) for fn in tools.TOOLS)


def register(app: MCPServer, folder: GameFolder) -> None:
    app.resource(
        RESULTS_URI,
        name="results-schema",
        title="JSON Schema of every tool's result, each field described ($defs by outputSchema title)",
        mime_type="application/json",
    )(results_schema)
    app.resource(
        GUIDE_URI, name="guide", title="How to play Nova (for agents)", mime_type="text/markdown"
    )(guide)
    app.resource(
        TYPINGS_URI,
        name="typings",
        title="nova.d.ts: the globals a script sees and the actions it returns",
        mime_type="text/plain",
    )(typings)
    app.resource(
        SCHEMA_URI,
        name="rules-schema",
        title="JSON Schema of a rules file",
        mime_type="application/json",
    )(rules_schema)

    @app.resource(
        RULES_URI,
        name="game-rules",
        title="A game's resolved rules (every number it is played with)",
        mime_type="application/json",
    )
    def game_rules(name: str) -> str:
        try:
            rules = api.game_rules(folder.existing(name))
        except NovaError as error:
            raise ResourceNotFoundError(folder.tidy(str(error), name)) from None
        return json.dumps(rules.to_json(), indent=2)

    decides = starter_decides()
    for file, text in starter_files().items():
        app.add_resource(
            FunctionResource.from_function(
                fn=lambda text=text: text,
                uri=STARTER_URI.format(file=file),
                name=f"starter-{file}",
                title=f"Starter android: {file}"
                + (" (entry: default export is the turn function)" if file == "main.ts" else ""),
                description=decides.get(file),
                mime_type="text/plain",
            )
        )

    @app.prompt(name="write_android", title="Write or improve a Nova android")
    def write_android(game: str | None = None, player: str | None = None) -> str:
        """Set up an agent to write a new android, or improve the one playing in a game."""
        return android_brief(folder, game, player)


def android_brief(folder: GameFolder, game: str | None, player: str | None) -> str:
    """The write_android prompt: the task, where to read, how to check, and (for a game) where
    the player stands now."""
    files = list(starter_files())
    lines = [
        "You are writing an android for Nova, a programming strategy game. Your code plays; you do not.",
        "",
        f"1. Read {GUIDE_URI} (how the game works and what failed turns cost) and {TYPINGS_URI} (the globals: "
        "androidId, world, rules, turn, finalTurn, and the Action union the turn function returns).",
        f"2. Start from the starter android: {', '.join(STARTER_URI.format(file=f) for f in files) or '(not installed)'}. "
        "main.ts default-exports the turn function; the other files are its helpers.",
        "3. Read every number from `rules`, never from memory; check every action is legal before returning it, "
        "because a refused action costs health. Write a short `recording` so you can see what the android did.",
        "4. Check one turn with dry_run_turn (files=..., and game/player to run against a real game), then "
        "upload_script(game, player, files=...). Fix any file:line:col errors it returns.",
        "5. launch_android with the new script id, run_rounds, then judge it: get_status (the score breakdown), "
        "get_events(failed_only=true, mine_only=true), get_android (memory and recording), get_world.",
        "6. Improve and repeat. Each version is a new script id; androids keep the script they were launched with.",
    ]
    if game is not None:
        lines += ["", *_standing(folder, game, player)]
    return "\n".join(lines)


def _standing(folder: GameFolder, game: str, player: str | None) -> list[str]:
    try:
        path = folder.existing(game)
        status = api.status(path)
    except NovaError as error:
        return [f"(The game {game!r} could not be read: {folder.tidy(str(error), game)}.)"]
    lines = [
        f"The game is {game!r}, at round {status.round}"
        + (f" of {status.final_turn}." if status.final_turn else ".")
    ]
    for p in status.players:
        breakdown = ", ".join(f"{b.source} {b.points:g}" for b in p.breakdown) or "nothing yet"
        lines.append(
            f"- {p.id}: {p.score:g} points ({breakdown}); {p.active_androids} active androids, {p.wrecks} wrecks"
        )
    if player is None:
        lines.append("Pick the player you write for; pass it as `player` to every tool.")
    elif player not in [p.id for p in status.players]:
        lines.append(
            f"You play as {player!r}, who has not joined yet: your first upload_script adds you to the game."
        )
    else:
        failed = api.events_page(
            path, player=player, failed_only=True, mine_only=True, offset=None, limit=5
        )
        lines.append(
            f"You play as {player!r}. Your androids have {failed.total} failed turns so far"
            + (":" if failed.total else ".")
        )
        lines += [
            f"- round {t.round} {t.android}: [{t.code}] {t.reason}"
            for t in (line.event for line in failed.events)
            if isinstance(t, api.Turn)
        ]
        lines.append(
            "Improve on what is there: read your androids with get_android and the events before changing the code."
        )
    return lines
