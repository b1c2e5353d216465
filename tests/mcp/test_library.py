"""The script library: an agent sends an android's code once, then plays it by its id in any game
and in compare_scripts; every game holds the very bundle (and source map) the library keeps."""

from __future__ import annotations

import json
from typing import Any

import anyio
from mcp import Client
from nova_mcp_testing import call, connect, ok, thrower
from nova_testing import THROWER_FILES


class Recorder:
    """Every call's arguments as sent, to see where the code went."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.sent: list[tuple[str, str]] = []

    async def ok(self, tool: str, /, **arguments: Any):
        self.sent.append((tool, json.dumps(arguments)))
        return await ok(self.client, tool, **arguments)


async def test_a_script_added_once_plays_in_three_games_and_a_comparison_with_the_same_bytes(
    tmp_path,
):
    async with connect(tmp_path) as client:
        agent = Recorder(client)
        added = await agent.ok("add_script", player="alice", files=THROWER_FILES)
        script = added.data["id"]
        for game in ("one", "two", "three"):
            await agent.ok("create_game", name=game, seed=len(game))
            uploaded = await agent.ok("upload_script", game=game, player="alice", library_id=script)
            assert (
                uploaded.data["libraryId"] == script
                and uploaded.data["sha256"] == added.data["sha256"]
            )
            await agent.ok(
                "launch_android", game=game, player="alice", script_id=uploaded.data["scriptId"]
            )
        await agent.ok("run_rounds", game="one", rounds=2)
        events = await agent.ok(
            "get_events", game="one", player="alice", failed_only=True, compact=False
        )
        compared = await agent.ok(
            "compare_scripts",
            a={"library_id": script, "player": "alice"},
            b={"starter": True},
            seeds="1",
            rounds=5,
        )

    # the code was sent once, in add_script
    marker = "no way north in round"
    assert [tool for tool, arguments in agent.sent if marker in arguments] == ["add_script"]
    assert (
        script.startswith("lib-") and len(script) == 20 and script[4:] == added.data["sha256"][:16]
    )
    assert added.data["files"] == ["main.ts", "lib/nav.ts"] and added.data["added"]
    # the games hold the library's bundle and map byte for byte
    kept = json.loads((tmp_path / "library" / f"{script}.json").read_text(encoding="utf-8"))
    for game in ("one", "two", "three"):
        [stored] = json.loads((tmp_path / f"{game}.json").read_text(encoding="utf-8"))[
            "scripts"
        ].values()
        assert (
            stored["bundle"] == kept["bundle"]
            and stored["sha256"] == kept["sha256"] == added.data["sha256"]
        )
        assert stored["sourceMap"] == kept["sourceMap"]
    # ...so its failures still name the player's own file and line
    assert (
        all(" at lib/nav.ts:4:" in e["reason"] for e in events.data["events"])
        and events.data["total"] == 2
    )
    # and in the comparison it played (and failed every turn) under its library name
    mine = compared.data["scripts"][0]
    assert mine["name"] == added.data["name"] and mine["failedTurnsByReason"] == {
        "script-error": 10
    }


async def test_the_same_code_gets_the_same_id_and_uploading_it_keeps_it_in_the_library(tmp_path):
    async with connect(tmp_path) as client:
        await ok(client, "create_game", name="g")
        uploaded = await ok(
            client, "upload_script", game="g", player="alice", source=thrower("again")
        )
        again = await ok(client, "add_script", player="alice", source=thrower("again"))
        other = await ok(
            client, "add_script", player="alice", source=thrower("different"), name="other"
        )
        listed = await ok(client, "list_scripts", player="alice")
        nothing = await ok(client, "list_scripts", player="bob")

    assert again.data["id"] == uploaded.data["libraryId"] and not again.data["added"]
    assert "Already in the library" in again.text
    assert other.data["id"] != again.data["id"] and other.data["name"] == "other"
    assert sorted(s["id"] for s in listed.data["scripts"]) == sorted(
        [again.data["id"], other.data["id"]]
    )
    assert nothing.data["scripts"] == [] and "empty" in nothing.text
    assert len(list((tmp_path / "library").glob("*.json"))) == 2


async def test_a_library_script_is_its_players_only_and_bad_ids_are_one_sentence(tmp_path):
    async with connect(tmp_path) as client:
        await ok(client, "create_game", name="g")
        script = (await ok(client, "add_script", player="alice", source=thrower("hers"))).data["id"]
        bobs = await call(client, "upload_script", game="g", player="bob", library_id=script)
        bob_compares = await call(
            client,
            "compare_scripts",
            a={"library_id": script, "player": "bob"},
            b={"starter": True},
            seeds="1",
            rounds=5,
        )
        unknown = await call(
            client, "upload_script", game="g", player="alice", library_id="lib-0000000000000000"
        )
        malformed = await call(client, "upload_script", game="g", player="alice", library_id="../g")
        both = await call(
            client,
            "upload_script",
            game="g",
            player="alice",
            library_id=script,
            source=thrower("x"),
        )
        mixed = await call(
            client,
            "compare_scripts",
            a={"library_id": script, "player": "alice", "starter": True},
            b={"starter": True},
            seeds="1",
        )
        # a library file changed by hand is refused, not played
        path = tmp_path / "library" / f"{script}.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        path.write_text(
            json.dumps({**data, "bundle": data["bundle"].replace("hers", "HERS")}), encoding="utf-8"
        )
        damaged = await call(client, "upload_script", game="g", player="alice", library_id=script)
        game = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
        repaired = await ok(client, "add_script", player="alice", source=thrower("hers"))
        after = await ok(client, "upload_script", game="g", player="alice", library_id=script)

    assert bobs.error and f"{script!r} is not in bob's script library" in bobs.text
    assert bob_compares.error and "is not in bob's script library" in bob_compares.text
    assert unknown.error and "is not in alice's script library" in unknown.text
    assert (
        malformed.error
        and "is not a library id" in malformed.text
        and not (tmp_path / "g").exists()
    )
    assert both.error and "not both" in both.text
    assert mixed.error and "library_id and player together, and nothing else" in mixed.text
    assert damaged.error and "is damaged" in damaged.text
    assert game["scripts"] == {} and "Traceback" not in bobs.text + damaged.text
    # adding it again, as the refusal says, repairs it
    assert repaired.data["id"] == script and after.data["sha256"] == repaired.data["sha256"]


async def test_two_players_adding_the_same_code_at_once_share_one_entry(tmp_path):
    async with connect(tmp_path) as client:
        added: dict[str, dict] = {}

        async def add(player: str) -> None:
            added[player] = (
                await ok(
                    client,
                    "add_script",
                    player=player,
                    source=thrower("same"),
                    name=f"{player}-bot",
                )
            ).data

        async with anyio.create_task_group() as tasks:
            for player in ("alice", "bob", "carol"):
                tasks.start_soon(add, player)
        listed = {p: (await ok(client, "list_scripts", player=p)).data["scripts"] for p in added}

    [script] = {a["id"] for a in added.values()}
    kept = json.loads((tmp_path / "library" / f"{script}.json").read_text(encoding="utf-8"))
    assert sorted(kept["players"]) == ["alice", "bob", "carol"]
    assert [a["added"] for a in added.values()].count(True) == 1
    assert all([s["id"] for s in found] == [script] for found in listed.values())
    # each sees the name they gave it, never another's
    assert {p: [s["name"] for s in found] for p, found in listed.items()} == {
        p: [f"{p}-bot"] for p in added
    }
    assert {p: a["name"] for p, a in added.items()} == {p: f"{p}-bot" for p in added}


async def test_a_link_planted_in_the_library_is_never_followed(tmp_path):
    games, outside = tmp_path / "games", tmp_path / "outside"
    games.mkdir()
    outside.mkdir()
    async with connect(games) as client:
        script = (await ok(client, "add_script", player="alice", source=thrower("mine"))).data["id"]
        kept = games / "library" / f"{script}.json"
        target = outside / "target.json"
        target.write_bytes(kept.read_bytes())
        kept.unlink()
        kept.symlink_to(target)
        await ok(client, "create_game", name="g")
        used = await call(client, "upload_script", game="g", player="alice", library_id=script)
        again = await call(client, "add_script", player="bob", source=thrower("mine"))
        listed = await ok(client, "list_scripts", player="alice")

    assert used.error and "is a symbolic link" in used.text
    assert again.error and "is a symbolic link" in again.text
    assert listed.data["scripts"] == [] and json.loads(target.read_text())["players"] == ["alice"]
