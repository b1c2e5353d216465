"""The tool list is an interface agents and their configs rely on: names, descriptions, input and
output schemas and hints are pinned in snapshots/tools.json.

A deliberate change: run `NOVA_UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/mcp/test_tools_snapshot.py`,
read the diff of snapshots/tools.json, and commit it with the change. Renaming a tool or an
argument breaks every agent that uses it (DESIGN section 6): add, don't rename.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from nova_mcp_testing import connect

SNAPSHOT = Path(__file__).resolve().parent / "snapshots" / "tools.json"
LIMIT = 20_000  # characters of the whole tools/list, as json.dumps writes it
DESIGN_TOOLS = {
    "create_game": ["name", "rules", "seed"],
    "validate_rules": ["rules"],
    "upload_script": ["game", "player", "source", "files", "entry"],
    "launch_android": ["game", "player", "script_id"],
    "run_rounds": ["game", "rounds"],
    "get_status": ["game"],
    "get_world": ["game", "player"],
    "get_android": ["game", "player", "android_id"],
    "dry_run_turn": ["source", "game", "player", "android_id"],
    "get_events": ["game"],
}


async def listed_tools(tmp_path) -> list[dict]:
    async with connect(tmp_path) as client:
        result = await client.list_tools()
    return sorted(
        (tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in result.tools),
        key=lambda t: t["name"],
    )


async def test_the_tool_list_matches_the_committed_snapshot(tmp_path):
    tools = await listed_tools(tmp_path)
    text = json.dumps(tools, indent=2, ensure_ascii=False) + "\n"
    if os.environ.get("NOVA_UPDATE_SNAPSHOTS") == "1":
        SNAPSHOT.parent.mkdir(parents=True, exist_ok=True)
        SNAPSHOT.write_text(text, encoding="utf-8")
    assert SNAPSHOT.is_file(), "no snapshot yet: run with NOVA_UPDATE_SNAPSHOTS=1 to write it"
    assert json.loads(SNAPSHOT.read_text(encoding="utf-8")) == tools, (
        "the tool list changed; if that was deliberate, run with NOVA_UPDATE_SNAPSHOTS=1 and commit snapshots/tools.json"
    )


async def test_every_tool_of_the_design_takes_the_design_argument_names(tmp_path):
    tools = {tool["name"]: tool for tool in await listed_tools(tmp_path)}
    for name, arguments in DESIGN_TOOLS.items():
        assert name in tools
        assert set(arguments) <= set(tools[name]["inputSchema"]["properties"]), name
    for name, tool in tools.items():
        assert name == name.lower() and " " not in name
        assert tool["outputSchema"]["type"] == "object", name  # structured output for every tool
        assert tool["description"] and tool["title"], name
        required = {
            "name",
            "game",
            "player",
            "rules",
            "rounds",
            "script_id",
            "android_id",
            "a",
            "b",
            "league",
        }  # a, b: compare_scripts' two sides; league: the league tools' file
        assert set(tool["inputSchema"].get("required", [])) <= required, name


async def test_descriptions_read_as_plain_paragraphs_without_source_indentation(tmp_path):
    for tool in await listed_tools(tmp_path):
        lines = tool["description"].splitlines()
        assert lines and not any(line.startswith((" ", "\t")) for line in lines), tool["name"]


async def test_the_whole_tool_list_stays_under_20000_characters(tmp_path):
    """Agents hold the tool list in their context on every turn (issue 22: it was 66,000)."""
    tools = await listed_tools(tmp_path)
    size = len(json.dumps(tools))
    print(f"tools/list: {size} characters for {len(tools)} tools")
    assert size < LIMIT, f"tools/list is {size} characters, over {LIMIT}"


async def test_every_output_schema_names_its_full_schema_in_the_results_resource(tmp_path):
    async with connect(tmp_path) as client:
        listed = (await client.list_tools()).tools
        document = json.loads(
            (await client.read_resource("nova://schemas/results.json")).contents[0].text
        )
    for tool in listed:
        assert tool.output_schema == {"type": "object", "title": tool.output_schema["title"]}
        full = document["$defs"][tool.output_schema["title"]]
        assert full["properties"], tool.name  # the fields, their types and descriptions


async def test_dry_run_turns_result_schema_types_the_action(tmp_path):
    async with connect(tmp_path) as client:
        document = json.loads(
            (await client.read_resource("nova://schemas/results.json")).contents[0].text
        )
    schema = document["$defs"]["DryRun"]
    [typed] = [
        option for option in schema["properties"]["action"]["anyOf"] if "discriminator" in option
    ]
    assert {"android.move", "android.wait", "android.start-construction"} <= set(
        typed["discriminator"]["mapping"]
    )
    move = document["$defs"]["MoveAction"]
    assert set(move["properties"]["direction"]["enum"]) == {"north", "south", "east", "west"}
