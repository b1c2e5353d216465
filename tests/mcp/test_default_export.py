"""upload_script refuses a default export that is not an AndroidTurn, at the agent's own line
(the same check as `nova upload`: tests/toolchain/test_default_export_check.py)."""

from __future__ import annotations

from pathlib import Path

from nova_mcp_testing import call, connect, ok

UNTYPED = (
    "// alice's first android\nexport default () => ({ type: 'android.move', direction: 'up' });\n"
)
TYPED = "const turn: AndroidTurn = () => ({ type: 'android.move', direction: 'east' });\nexport default turn;\n"


async def test_mcp_upload_script_refuses_it_with_its_line(tmp_path: Path):
    root = tmp_path / "games"
    root.mkdir()
    async with connect(root) as client:
        await ok(client, "create_game", name="duel")
        reply = await call(client, "upload_script", game="duel", player="alice", source=UNTYPED)
        assert reply.error
        assert ":2:1 the default export is not an AndroidTurn" in reply.text, reply.text
        accepted = await ok(client, "upload_script", game="duel", player="alice", source=TYPED)
        assert accepted.data["scriptId"]
