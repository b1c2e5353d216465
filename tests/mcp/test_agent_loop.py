"""Issue 22's must-show: an agent's whole loop through the SDK's client over real stdio, `nova
mcp` in its own process behind a relay that counts what crosses the wire both ways (every
JSON-RPC line, as sent). The loop: list the tools, read the guide and 2 starter files, fork the
starter with 2 changed files, compare 40 games with detail, open the game of the seed that differs
most and read one android's events, fork again by an edit, compare again.

Today's figures (the loop before this): 61 requests, 282,000 characters read, 315,000 sent."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

REPO = Path(__file__).resolve().parents[2]
METER = Path(__file__).resolve().parent / "stdio_meter.py"
MAX_REQUESTS, MAX_READ, MAX_SENT = 35, 80_000, 25_000
SEEDS, ROUNDS = "1-20", 60  # 40 games


async def test_an_agent_proves_a_fork_for_a_fifth_of_the_context(tmp_path):
    counts_file = tmp_path / "counts.json"
    root = tmp_path / "games"
    root.mkdir()
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            str(METER),
            str(counts_file),
            "--",
            sys.executable,
            "-m",
            "nova_tools.cli",
            "mcp",
            "--root",
            str(root),
        ],
        cwd=str(REPO),
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    with anyio.fail_after(900):
        async with Client(params) as client:

            async def call(tool: str, **arguments):
                result = await client.call_tool(tool, arguments)
                text = "\n".join(c.text for c in result.content if c.type == "text")
                assert not result.is_error, f"{tool}: {text}"
                return result.structured_content or {}, text

            async def read(uri: str) -> str:
                return (await client.read_resource(uri)).contents[0].text

            names = {t.name for t in (await client.list_tools()).tools}
            assert {"add_script", "compare_scripts", "get_events", "play_game"} <= names
            guide = await read("nova://guide")
            # the guide says which starter file decides what: the agent reads the two it changes
            assert re.search(r"`plan\.ts`", guide) and re.search(r"`main\.ts`", guide)
            plan = await read("nova://starter/plan.ts")
            main = await read("nova://starter/main.ts")

            order = re.search(r"BUILD_ORDER: BuildingType\[\] = \[[^\]]*\]", plan).group(0)
            faster = (
                "BUILD_ORDER: BuildingType[] = ['extractor', 'extractor', 'depot', 'extractor']"
            )
            first, _ = await call(
                "add_script",
                player="me",
                base="starter",
                name="fork",
                files={
                    "plan.ts": plan.replace(order, faster),
                    "main.ts": main + "\nexport const version = 2;\n",
                },
            )
            compared, _ = await call(
                "compare_scripts",
                a=first["id"],
                b="starter",
                player="me",
                seeds=SEEDS,
                rounds=ROUNDS,
                detail=True,
            )
            assert compared["played"] == 40 and len(compared["games"]) == 40
            worst = compared["mostDifferent"][0]["seed"]
            [game] = [
                g for g in compared["games"] if g["seed"] == worst and g["seats"][0] == "fork"
            ]
            events, text = await call(
                "get_events", game=game["game"], player="fork", android_id="android-1", limit=15
            )
            assert events["lines"] and "android-1" in text

            second, _ = await call(
                "add_script",
                player="me",
                base=first["id"],
                name="fork2",
                edits=[{"file": "plan.ts", "old": faster, "new": order}],
            )
            assert second["id"] != first["id"]
            again, _ = await call(
                "compare_scripts",
                a=second["id"],
                b="starter",
                player="me",
                seeds=SEEDS,
                rounds=ROUNDS,
            )
            assert again["played"] == 40 and "games" not in again

    counts = json.loads(counts_file.read_text(encoding="utf-8"))
    print(
        f"\nagent loop: {counts['requests']} requests, {counts['read']:,} characters read, "
        f"{counts['sent']:,} sent ({counts['methods']})"
    )
    assert counts["requests"] <= MAX_REQUESTS, counts
    assert counts["read"] <= MAX_READ, counts
    assert counts["sent"] <= MAX_SENT, counts
