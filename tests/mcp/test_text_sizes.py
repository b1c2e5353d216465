"""An agent's dry run measures a script's text as the script does (UTF-16 code units, what
`.length` says and the engine's limits count): a memory of 3 emoji is 6, not 3."""

from __future__ import annotations

import anyio
from nova_mcp_testing import connect, ok

SCRIPT = (
    "const t: AndroidTurn = () => ({ type: 'android.wait', memory: '\\u{1F916}\\u{1F680}\\u{1F30D}',"
    " recording: 'caf\\u00e9 \\u2713' });\nexport default t;\n"
)


async def test_dry_run_turn_reports_a_memory_of_three_emoji_as_six(tmp_path):
    with anyio.fail_after(240):
        async with connect(tmp_path) as client:
            reply = await ok(client, "dry_run_turn", source=SCRIPT)
    assert reply.data["action"]["memory"] == "\U0001f916\U0001f680\U0001f30d"
    assert reply.data["memorySize"] == 6, reply.data
    assert reply.data["recordingSize"] == 6
