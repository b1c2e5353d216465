"""What an agent reads besides tool results: the guide, the typings, the rules schema, a game's
resolved rules, the starter's sources, and the write_android prompt."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from mcp import MCPError
from nova_mcp_testing import connect, ok

from nova_tools import starter
from nova_tools.mcp.content import guide

REPO = Path(__file__).resolve().parents[2]


async def read(client, uri: str) -> str:
    result = await client.read_resource(uri)
    [contents] = result.contents
    return contents.text


async def test_every_resource_is_listed_and_readable(tmp_path):
    async with connect(tmp_path) as client:
        listed = {str(r.uri): r for r in (await client.list_resources()).resources}
        templates = [
            t.uri_template for t in (await client.list_resource_templates()).resource_templates
        ]
        assert {
            "nova://guide",
            "nova://typings/nova.d.ts",
            "nova://schemas/rules.schema.json",
        } <= set(listed)
        assert {f"nova://starter/{name}" for name in starter.files()} <= set(listed)
        # each starter file says what it decides, in the starter README's own words
        for name in starter.files():
            line = next(
                row for row in starter.readme().splitlines() if row.startswith(f"src/{name} ")
            )
            assert listed[f"nova://starter/{name}"].description == line.partition(" ")[2].strip()
        assert templates == ["nova://games/{name}/rules"]
        for uri in listed:
            assert await read(client, uri)


async def test_the_guide_covers_the_loop_the_actions_refusals_rules_and_scoring(tmp_path):
    async with connect(tmp_path) as client:
        text = await read(client, "nova://guide")
    for action in (
        "wait",
        "move",
        "charge",
        "collect",
        "deposit",
        "withdraw",
        "start-construction",
        "continue-construction",
        "salvage",
        "repair",
        "broadcast",
        "clean-acid",
        "launch",
        "dismantle",
    ):
        assert f"android.{action}" in text
    assert "failedTurnHealthPenalty" in text and "(10 by default)" in text
    assert "Read every number from `rules`" in text
    assert "rules.scoring.buildings" in text and "rules.scoring.materials" in text
    for tool in (
        "create_game",
        "upload_script",
        "launch_android",
        "run_rounds",
        "get_status",
        "get_events",
        "get_world",
        "get_android",
        "dry_run_turn",
    ):
        assert tool in text


async def test_the_typings_and_schema_are_the_generated_ones(tmp_path):
    from nova_tools.rules.schema import rules_schema
    from nova_tools.toolchain.typecheck import typings_path

    async with connect(tmp_path) as client:
        typings = await read(client, "nova://typings/nova.d.ts")
        schema = json.loads(await read(client, "nova://schemas/rules.schema.json"))
    assert typings == typings_path().read_text(encoding="utf-8") and "AndroidTurn" in typings
    assert schema == rules_schema()


async def test_a_games_rules_resource_holds_the_numbers_it_is_played_with(tmp_path):
    async with connect(tmp_path) as client:
        await ok(
            client,
            "create_game",
            name="tuned",
            rules={"android": {"cargoCapacity": 6}, "match": {"finalRound": 30}},
        )
        rules = json.loads(await read(client, "nova://games/tuned/rules"))
        with pytest.raises(MCPError, match="is not a valid game name"):
            await client.read_resource("nova://games/bad.name/rules")
    assert rules["android"]["cargoCapacity"] == 6 and rules["match"]["finalRound"] == 30
    assert rules["android"]["memoryLimit"] == 4096  # everything else at its default


async def test_the_starter_sources_are_served_as_they_ship(tmp_path):
    async with connect(tmp_path) as client:
        for name, text in starter.files().items():
            assert await read(client, f"nova://starter/{name}") == text


async def test_the_write_android_prompt_points_at_the_guide_and_the_players_standing(tmp_path):
    async with connect(tmp_path) as client:
        prompts = (await client.list_prompts()).prompts
        assert [(p.name, sorted(a.name for a in p.arguments or [])) for p in prompts] == [
            ("write_android", ["game", "player"])
        ]
        assert all(not a.required for a in prompts[0].arguments or [])
        bare = await client.get_prompt("write_android", {})
        await ok(client, "create_game", name="duel")
        await ok(
            client,
            "upload_script",
            game="duel",
            player="alice",
            source="const walk: AndroidTurn = () => ({ type: 'android.move', direction: 'north' });\nexport default walk;",
        )
        script = "script-1"
        await ok(client, "launch_android", game="duel", player="alice", script_id=script)
        await ok(client, "run_rounds", game="duel", rounds=12)
        standing = await client.get_prompt("write_android", {"game": "duel", "player": "alice"})
        newcomer = await client.get_prompt("write_android", {"game": "duel", "player": "bob"})
        missing = await client.get_prompt("write_android", {"game": "nope"})
    text = bare.messages[0].content.text
    assert (
        "nova://guide" in text
        and "nova://typings/nova.d.ts" in text
        and "nova://starter/main.ts" in text
    )
    assert "dry_run_turn" in text and "upload_script" in text
    assert "The game is" not in text  # no game, no standing
    standing_text = standing.messages[0].content.text
    assert "The game is 'duel', at round 12." in standing_text
    assert (
        re.search(r"Your androids have \d+ failed turns so far:", standing_text)
        and "[off-map]" in standing_text
    )
    assert "has not joined yet" in newcomer.messages[0].content.text
    assert "could not be read: there is no game 'nope'" in missing.messages[0].content.text


def test_the_docs_carry_the_same_guide_the_server_serves():
    doc = (REPO / "docs" / "mcp.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- guide:start[^>]*-->\n(.*)<!-- guide:end -->", doc, re.S)
    assert match, "docs/mcp.md has no guide section"
    demoted = re.sub(
        r"^(#+) ", lambda m: "#" + m.group(0), guide(), flags=re.M
    )  # headings one level down
    assert match.group(1) == demoted


def test_the_docs_show_how_to_register_the_server():
    doc = (REPO / "docs" / "mcp.md").read_text(encoding="utf-8")
    config = json.loads(re.search(r"```json\n(.*?)```", doc, re.S).group(1))
    assert config["mcpServers"]["nova"] == {
        "command": "nova",
        "args": ["mcp", "--root", "/home/you/nova-games"],
    }


async def test_every_resource_the_guide_names_exists(tmp_path):
    async with connect(tmp_path) as client:
        text = await read(client, "nova://guide")
        named = {
            uri for uri in re.findall(r"nova://[\w./-]+", text) if not uri.endswith("/")
        }  # not templates
        assert "nova://starter/main.ts" in named
        for uri in sorted(named):
            assert await read(client, uri), uri  # readable, not empty
