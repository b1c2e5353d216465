"""The Nova MCP server: tools over :mod:`nova_tools.api` for AI agents that play the game.

Every tool is a thin adapter: check the arguments, call the api, shape the answer (structured
content plus a short text summary). Game facts come from the api; nothing here decides a rule.
Tool names and argument names are a stable interface (DESIGN section 6); their schemas are
pinned by ``tests/mcp/snapshots/tools.json``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from pydantic import ValidationError

from .. import api
from ..api import GameFolder
from . import content, tools
from .edge import argument_problems, failure

MAX_ROUNDS = tools.MAX_ROUNDS

INSTRUCTIONS = """\
Nova is a programming strategy game: you write TypeScript androids, upload them, launch them and
run rounds, then read the results and improve the code. Read the resource nova://guide first
(the loop, the actions, what failed turns cost, how scoring works) and nova://typings/nova.d.ts
(the globals and action shapes). Games are addressed by name; every read is as one player, who
sees only their own androids' memory and recordings. Send a script's code once: upload_script and
add_script return a library_id that any other game (upload_script) or compare_scripts takes
instead of the source."""


class NovaServer(MCPServer):
    """MCPServer whose argument validation failures read as sentences about the arguments."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context | None = None
    ) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as error:
            if isinstance(error.__cause__, ValidationError) and not isinstance(
                error, UnexpectedToolError
            ):
                return failure(argument_problems(name, error.__cause__))
            raise


def build_server(root: str | Path, max_turns: int | None = None) -> MCPServer:
    """The Nova MCP server for the games in ``root``: the tools (``mcp/tools/``), then the
    resources and the prompt (``mcp/content.py``). ``max_turns``: the most android turns the
    process runs at once (each holds a sandbox and up to the rules' heap); by default from the
    machine's cores and memory (``api.turns_limit()``)."""
    folder = GameFolder.at(root)
    if max_turns is not None:
        api.limit_turns(max_turns)
    app = NovaServer(
        "nova",
        title="Project: Nova",
        instructions=INSTRUCTIONS,
        version=_version(),
        log_level="WARNING",
    )
    tools.register(app, folder, tools.TOOLS)
    content.register(app, folder)
    return app


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("nova-tools")
    except Exception:  # pragma: no cover - running from a checkout without metadata
        return "0"
