"""The tools are plain functions, one module each under nova_tools/mcp/tools/, registered from
one list: a tool can be called directly (given the games folder), and the server lists exactly
the tools of that list, in its order."""

from __future__ import annotations

import inspect
import pkgutil
from pathlib import Path

from nova_mcp_testing import connect

from nova_tools import api
from nova_tools.mcp import tools
from nova_tools.mcp.tools import TOOLS, create_game, get_status, list_games, validate_rules


def test_a_tool_is_a_plain_function_given_the_games_folder(tmp_path: Path) -> None:
    folder = api.GameFolder.at(tmp_path)
    assert list_games(folder).structured_content == {
        "games": [],
        "more": 0,
        "offset": 0,
        "total": 0,
    }
    created = create_game(folder, name="duel", seed=3)
    assert created.structured_content["seed"] == 3 and (tmp_path / "duel.json").is_file()
    status = get_status(folder, game="duel")
    assert status.structured_content == {"round": 0, "finalTurn": None, "players": []}
    assert validate_rules(rules={"world": {"width": "wide"}}).structured_content["valid"] is False


def test_every_tool_module_holds_one_listed_tool() -> None:
    support = {"common", "registry", "sides"}
    modules = sorted(m.name for m in pkgutil.iter_modules(tools.__path__) if m.name not in support)
    assert modules == sorted(fn.__name__ for fn in TOOLS)
    for fn in TOOLS:
        assert fn.__module__ == f"nova_tools.mcp.tools.{fn.__name__}"
        assert inspect.getdoc(fn), f"{fn.__name__} has no description"


async def test_the_server_lists_the_tools_in_the_order_of_the_list(tmp_path: Path) -> None:
    async with connect(tmp_path) as client:
        listed = (await client.list_tools()).tools
    assert [t.name for t in listed] == [fn.__name__ for fn in TOOLS]
    # the games folder is given by the server, never an argument an agent sees
    assert all("folder" not in t.input_schema.get("properties", {}) for t in listed)
