"""The MCP tool validate_rules: check rules overrides without creating a game."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult

from ... import api
from ...rules import RulesError
from ..edge import reply
from .common import RulesArg
from .registry import tool


@tool("Validate rules", read_only=True)
def validate_rules(rules: RulesArg) -> Annotated[CallToolResult, api.RulesCheck]:
    """Check rules overrides without creating a game. Every problem names its JSON path."""
    try:
        resolved = api.resolve_rules(rules)
    except RulesError as error:
        problems = tuple(api.RuleProblem(path=p.dotted, message=p.message) for p in error.problems)
        text = "The rules are NOT valid:\n" + "\n".join(f"{p.path}: {p.message}" for p in problems)
        return reply(api.RulesCheck(valid=False, problems=problems), text)
    final = resolved.match.final_round
    text = f"The rules are valid: a {resolved.world.width}x{resolved.world.height} world" + (
        f", humans land on round {final}." if final else ", no arrival date."
    )
    return reply(
        api.RulesCheck(
            valid=True, width=resolved.world.width, height=resolved.world.height, final_turn=final
        ),
        text,
    )
