"""Helpers for the MCP server tests: calling tools through the SDK's client, and small androids."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
from mcp import Client
from mcp.types import CallToolResult

from nova_tools.mcp import build_server

# Secrets the androids of the shared "secrets" game write (see conftest.py).
ALICE_MEMORY = "alice-memory-5150"
ALICE_LOG = "alice-recording-8080"
BOB_MEMORY = "bob-memory-4242"
BOB_LOG = "bob-recording-9001"
BOB_SOURCE = "bob-source-marker-3141"
BOB_THROWN = "bob-thrown-secret-2718"


@dataclass
class Reply:
    """One tool result, read the way an agent reads it."""

    result: CallToolResult

    @property
    def error(self) -> bool:
        return bool(self.result.is_error)

    @property
    def text(self) -> str:
        return "\n".join(block.text for block in self.result.content if block.type == "text")

    @property
    def data(self) -> dict[str, Any]:
        return self.result.structured_content or {}

    @property
    def size(self) -> int:
        """Characters an agent reads: the text plus the structured content as JSON."""
        return len(self.text) + len(json.dumps(self.data, ensure_ascii=False))

    def everything(self) -> str:
        """All of it as one string, to search for things that must not be there."""
        return self.text + "\n" + json.dumps(self.data, ensure_ascii=False)


async def call(client: Client, tool: str, /, **arguments: Any) -> Reply:
    return Reply(await client.call_tool(tool, arguments))


async def ok(client: Client, tool: str, /, **arguments: Any) -> Reply:
    reply = await call(client, tool, **arguments)
    assert not reply.error, f"{tool} failed: {reply.text}"
    return reply


class CheckedClient(Client):
    """The SDK's client, checking every structured result as the MCP Inspector does: against
    the tool's declared outputSchema, and against the full schema of its result
    (nova://schemas/results.json) that the outputSchema names by its title."""

    _schemas: dict[str, tuple[dict, dict]] | None = None

    async def call_tool(self, name: str, arguments: dict[str, Any] | None = None, *args, **kwargs):
        result = await super().call_tool(name, arguments, *args, **kwargs)
        if not result.is_error and result.structured_content is not None:
            check_structured(name, result.structured_content, await self._schemas_of(name))
        return result

    async def _schemas_of(self, name: str) -> tuple[dict, dict]:
        if self._schemas is None:
            listed = (await self.list_tools()).tools
            document = json.loads(
                (await self.read_resource("nova://schemas/results.json")).contents[0].text
            )
            self._schemas = {}
            for tool in listed:
                declared = tool.output_schema or {}
                full = {"$defs": document["$defs"], "$ref": f"#/$defs/{declared.get('title')}"}
                self._schemas[tool.name] = (declared, full)
        return self._schemas[name]


def check_structured(tool: str, data: dict[str, Any], schemas: tuple[dict, dict]) -> None:
    """Fail when ``data`` does not validate against the tool's declared and full schemas."""
    for schema in schemas:
        problems = sorted(
            jsonschema.Draft202012Validator(schema).iter_errors(data), key=lambda e: e.path
        )
        assert not problems, f"{tool}'s structured result does not match its schema: " + "; ".join(
            f"{list(p.absolute_path)}: {p.message[:200]}" for p in problems[:5]
        )


def connect(root: Path) -> Client:
    return CheckedClient(build_server(root))


def secret_keeper(
    memory: str, recording: str, marker: str = "", watch_for: tuple[str, ...] = ()
) -> str:
    """An android that never fails a turn: it paces about the middle of the board (a step east
    or west on odd turns, north or south on even ones, never off the map), writing the given
    memory and recording. ``marker`` is a string its bundle keeps (to prove the source is never
    shown); any of ``watch_for`` found in its globals is written down (" saw ...") in its recording."""
    return f"""export const marker = {json.dumps(marker)};  // kept by the bundle, unlike a comment
// reversed, so that this source does not hold the words it watches for
const watched = ({json.dumps([w[::-1] for w in watch_for])} as string[]).map((w) => w.split('').reverse().join(''));
const keep: AndroidTurn = () => {{
  const me = world.androids.find((a) => a.id === androidId)!;
  const middle = {{ x: Math.floor(world.width / 2), y: Math.floor(world.height / 2) }};
  const direction: Direction = turn % 2
    ? (me.position.x < middle.x ? 'east' : 'west')
    : (me.position.y < middle.y ? 'south' : 'north');
  const seen = watched.filter((s) => JSON.stringify(world).includes(s));
  const saw = seen.length ? ' saw ' + seen.join(',') : '';
  return {{ type: 'android.move', direction, memory: {json.dumps(memory)}, recording: {json.dumps(recording)} + ' ' + turn + saw }};
}};
export default keep;
"""


def thrower(message: str) -> str:
    """An android whose every turn throws ``message``: a script error the engine records."""
    return f"""
const fail: AndroidTurn = () => {{ throw new Error({json.dumps(message)}); }};
export default fail;
"""


def wall_walker() -> str:
    """An android that walks north until the edge, then keeps trying: refused turns (off-map)."""
    return """
const walk: AndroidTurn = () => ({ type: 'android.move', direction: 'north', recording: 'north at ' + turn });
export default walk;
"""
