"""The edge between the MCP SDK and the api: every tool call either returns a result with
structured content plus a short text summary, or an error result (``isError``) whose one
message says what went wrong and what to do next. Nothing a caller sends crashes the server.
"""

from __future__ import annotations

import functools
import inspect
import json
import logging
from collections.abc import Callable
from typing import Any

import anyio.to_thread
from mcp.types import CallToolResult, TextContent
from pydantic import ValidationError

from .. import api
from ..errors import NovaError
from ..rules import RulesError
from ..toolchain.diagnostics import CompileError

log = logging.getLogger("nova_tools.mcp")

MAX_PROBLEMS = 20  # rules problems or compile diagnostics listed in one error message


def reply(data: api.Result, text: str) -> CallToolResult:
    """A successful result: ``data`` as structured content, ``text`` as the readable summary."""
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=data.wire()
    )


def failure(message: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)


def _hint(error: BaseException) -> str:
    """What to do next, for the mistakes whose own message does not already say it."""
    if isinstance(error, api.UnknownPlayer):
        return (
            "a player joins a game with their first upload_script; list_games shows who has joined"
        )
    if isinstance(error, api.Refusal):
        # at-capacity needs no hint: the engine's own message already says what to do.
        return {
            "unknown-script": "use a script id that upload_script returned to this player (get_world lists them under yours.scripts)",
        }.get(error.code, "")
    if isinstance(error, CompileError):
        return "fix these and call upload_script again (dry_run_turn checks one turn without uploading)"
    if isinstance(error, RulesError):
        return "fix the rules (validate_rules checks them; resource nova://schemas/rules.schema.json is the schema)"
    return ""


def describe(error: BaseException, folder: api.GameFolder, game: str | None) -> str:
    """One clear message for a user error, with a hint at the next step."""
    if isinstance(error, CompileError):
        lines = str(error).splitlines()  # the summary, then file:line:col message lines
        more = len(lines) - 1 - MAX_PROBLEMS
        body = "\n".join(lines[: MAX_PROBLEMS + 1]) + (
            f"\n(and {more} more lines)" if more > 0 else ""
        )
    elif isinstance(error, RulesError):
        listed = [str(p) for p in error.problems[:MAX_PROBLEMS]]
        more = len(error.problems) - len(listed)
        body = (
            f"the rules are not valid ({len(error.problems)} problem{'s' if len(error.problems) != 1 else ''}):\n"
            + "\n".join(listed)
        )
        body += f"\n(and {more} more)" if more > 0 else ""
    else:
        body = str(error)
    body = folder.tidy(body, game)
    hint = _hint(error)
    return f"{body}\n{hint[0].upper() + hint[1:]}." if hint else body


def argument_problems(tool: str, error: ValidationError) -> str:
    """The SDK's argument validation failure, as one message per wrong argument."""
    lines = []
    for item in error.errors(include_url=False):
        where = ".".join(str(part) for part in item["loc"]) or "arguments"
        if item["type"] == "missing":
            lines.append(f"{where} is required")
        else:
            got = json.dumps(item.get("input"), default=str)
            lines.append(
                f"{where}: {item['msg'][:1].lower() + item['msg'][1:]} (got {got if len(got) <= 60 else got[:60] + '...'})"
            )
    return (
        f"{tool} was called with wrong arguments: "
        + "; ".join(lines)
        + ". The tool's inputSchema (tools/list) lists them."
    )


def tool_edge(folder: api.GameFolder, fn: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a tool body: run it off the event loop when it is synchronous, and turn every
    mistake into an error result. Anything unexpected is logged (stderr) with its traceback and
    reported as one sentence; the game file is only ever replaced whole, so it is never half-written."""

    @functools.wraps(fn)
    async def edge(**kwargs: Any) -> Any:
        game = kwargs.get("game") if isinstance(kwargs.get("game"), str) else kwargs.get("name")
        try:
            if inspect.iscoroutinefunction(fn):
                return await fn(**kwargs)
            return await anyio.to_thread.run_sync(functools.partial(fn, **kwargs))
        except NovaError as error:
            log.info("%s refused: %s", fn.__name__, error)
            return failure(describe(error, folder, game if isinstance(game, str) else None))
        except Exception:
            log.exception("%s failed unexpectedly (arguments: %s)", fn.__name__, sorted(kwargs))
            return failure(
                f"{fn.__name__} failed because of a bug in nova-tools (details are in the server's log); "
                "the game file was not changed by a half-finished write. Try again or report it."
            )

    return edge
