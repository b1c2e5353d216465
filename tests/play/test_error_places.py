"""A failed turn names the place in the files the player wrote, not in the bundle: a two-file
android throws on line 4 of its imported ``lib/nav.ts``; ``nova events --failed``, ``nova
dry-run`` (text and JSON) and the MCP tools ``get_events`` and ``dry_run_turn`` all say
``lib/nav.ts:4``, with the caller ``main.ts:4``. (The language server's dry-run:
tests/lsp/test_server_e2e.py.)"""

from __future__ import annotations

import json
import re

from mcp import Client
from nova_testing import CALLED_AT, THROWER_FILES, THROWN_AT, nova, write_files

from nova_tools.mcp import build_server

THROWN = re.compile(
    r"threw Error: no way north in round (\d+) at lib/nav\.ts:4:\d+ in pick, called from act at main\.ts:4:\d+"
)


def test_nova_events_and_dry_run_name_the_imported_file_and_line(tmp_path):
    project = write_files(tmp_path / "bot", THROWER_FILES)
    game = tmp_path / "game.json"
    for args in (
        ("create-game", "--file", game, "--seed", 3),
        ("upload", "--file", game, "--player", "p", project / "main.ts"),
        ("launch", "--file", game, "--player", "p", "--script", "script-1"),
        ("run", "--file", game, "--rounds", 2),
    ):
        assert (ran := nova(*args)).code == 0, ran.err

    failed = nova("events", "--file", game, "--failed")
    dry = nova("dry-run", project / "main.ts")
    dry_json = nova("dry-run", project / "main.ts", "--json")

    assert failed.code == 0 and [m.group(1) for m in THROWN.finditer(failed.out)] == ["1", "2"], (
        failed.out
    )
    assert "at line" not in failed.out
    assert dry.code == 2 and THROWN.search(dry.out), dry.out  # 2: the engine would refuse the turn
    data = json.loads(dry_json.out)
    assert THROWN.fullmatch(data["reason"]) and data["code"] == "script-error"
    assert [(f["file"], f["line"], f["function"]) for f in data["stack"]] == [
        (*THROWN_AT, "pick"),
        (*CALLED_AT, "act"),
    ]


async def test_mcp_get_events_and_dry_run_turn_name_the_imported_file_and_line(tmp_path):
    async with Client(build_server(tmp_path)) as client:
        await client.call_tool("create_game", {"name": "g", "seed": 3})
        uploaded = await client.call_tool(
            "upload_script", {"game": "g", "player": "p", "files": THROWER_FILES}
        )
        await client.call_tool(
            "launch_android",
            {"game": "g", "player": "p", "script_id": uploaded.structured_content["scriptId"]},
        )
        await client.call_tool("run_rounds", {"game": "g", "rounds": 2})
        events = await client.call_tool(
            "get_events", {"game": "g", "player": "p", "failed_only": True, "compact": False}
        )
        dry = await client.call_tool("dry_run_turn", {"files": THROWER_FILES})

    assert not events.is_error and not dry.is_error
    text = "\n".join(block.text for block in events.content)
    assert len(THROWN.findall(text)) == 2, text
    reasons = [e["reason"] for e in events.structured_content["events"]]
    assert len(reasons) == 2 and all(THROWN.fullmatch(r) for r in reasons), reasons
    assert THROWN.fullmatch(dry.structured_content["reason"]), dry.structured_content


def test_an_imported_file_that_throws_while_loading_is_named_with_its_line(tmp_path):
    files = {
        "main.ts": "import { x } from './lib/bad';\nconst t: AndroidTurn = () => ({ type: 'android.wait', recording: String(x) });\nexport default t;\n",
        "lib/bad.ts": "// loads, then breaks\nexport const x = 1;\nthrow new Error('broken at load');\n",
    }
    project = write_files(tmp_path / "bot", files)

    dry = nova("dry-run", project / "main.ts", "--json")

    data = json.loads(dry.out)
    assert dry.code == 2 and data["code"] == "script-error", dry.out + dry.err
    assert data["reason"] == "threw Error: broken at load at lib/bad.ts:3:1"
    assert [(f["file"], f["line"]) for f in data["stack"]][:1] == [("lib/bad.ts", 3)]
