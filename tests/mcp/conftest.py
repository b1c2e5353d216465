"""Shared games for the MCP tests, each built once through the server's own tools."""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # nova_mcp_testing, beside this file

from nova_mcp_testing import (
    ALICE_LOG,
    ALICE_MEMORY,
    BOB_LOG,
    BOB_MEMORY,
    BOB_SOURCE,
    BOB_THROWN,
    connect,
    ok,
    secret_keeper,
    thrower,
)

from nova_tools import starter

SMALL_BOARD = {"world": {"width": 5, "height": 5}}


@dataclass
class Played:
    root: Path
    game: str
    androids: dict[str, list[str]] = field(default_factory=dict)  # player -> android ids
    scripts: dict[str, list[str]] = field(default_factory=dict)  # player -> script ids


@pytest.fixture(scope="session")
def starter_game(tmp_path_factory) -> Played:
    """A default game at round 100: alice and bob each run the starter android (which launches
    a sibling and builds), set up entirely through the MCP tools."""
    root = tmp_path_factory.mktemp("starter")

    async def build() -> Played:
        played = Played(root, "duel")
        async with connect(root) as client:
            await ok(client, "create_game", name="duel", seed=7)
            for player in ("alice", "bob"):
                script = (
                    await ok(
                        client, "upload_script", game="duel", player=player, files=starter.files()
                    )
                ).data["scriptId"]
                android = (
                    await ok(client, "launch_android", game="duel", player=player, script_id=script)
                ).data["androidId"]
                played.scripts[player] = [script]
                played.androids[player] = [android]
            await ok(client, "run_rounds", game="duel", rounds=100)
        return played

    return asyncio.run(build())


@pytest.fixture(scope="session")
def secrets_game(tmp_path_factory) -> Played:
    """A game where every android writes a known secret: alice one android, bob two (one of
    them throws its secret as an error every turn). On a 5x5 board the keepers of both players
    pace about the middle, well within each other's sight, for 12 rounds."""
    root = tmp_path_factory.mktemp("secrets")

    async def build() -> Played:
        played = Played(root, "secrets")
        async with connect(root) as client:
            await ok(client, "create_game", name="secrets", seed=5, rules=SMALL_BOARD)
            alice_keeper = secret_keeper(
                ALICE_MEMORY, ALICE_LOG, watch_for=(BOB_MEMORY, BOB_LOG, BOB_SOURCE, BOB_THROWN)
            )
            bob_keeper = secret_keeper(
                BOB_MEMORY, BOB_LOG, BOB_SOURCE, watch_for=(ALICE_MEMORY, ALICE_LOG)
            )
            alice = (
                await ok(
                    client, "upload_script", game="secrets", player="alice", source=alice_keeper
                )
            ).data
            bob = (
                await ok(client, "upload_script", game="secrets", player="bob", source=bob_keeper)
            ).data
            bob_thrower = (
                await ok(
                    client,
                    "upload_script",
                    game="secrets",
                    player="bob",
                    source=thrower(BOB_THROWN),
                )
            ).data
            played.scripts = {
                "alice": [alice["scriptId"]],
                "bob": [bob["scriptId"], bob_thrower["scriptId"]],
            }
            played.androids = {"alice": [], "bob": []}
            for player, script in (
                ("alice", alice["scriptId"]),
                ("bob", bob["scriptId"]),
                ("bob", bob_thrower["scriptId"]),
            ):
                launched = await ok(
                    client, "launch_android", game="secrets", player=player, script_id=script
                )
                played.androids[player].append(launched.data["androidId"])
            await ok(client, "run_rounds", game="secrets", rounds=12)
        return played

    return asyncio.run(build())
