"""Managing the games of a folder: list_games pages past its first 50, delete_game removes one
(after a run in progress has finished) and leaves the others and the script library alone."""

from __future__ import annotations

import json
import threading

from nova_mcp_testing import call, connect, ok, thrower

from nova_tools import api
from nova_tools.store import locked as store_lock


async def test_list_games_pages_through_every_game_by_name(tmp_path):
    names = [f"g{i:03d}" for i in range(57)]
    for name in names:  # cheaper than 57 create_game calls, and the same file
        (tmp_path / f"{name}.json").write_bytes(b"")
    async with connect(tmp_path) as client:
        first = await ok(client, "list_games")
        second = await ok(client, "list_games", offset=50)
        small = await ok(client, "list_games", offset=10, limit=5)
        past = await ok(client, "list_games", offset=80)
        bad = await call(client, "list_games", limit=0)

    assert (
        [g["name"] for g in first.data["games"]] == names[:50]
        and first.data["more"] == 7
        and first.data["total"] == 57
    )
    assert "7 more: list_games(offset=50)" in first.text
    assert (
        [g["name"] for g in second.data["games"]] == names[50:]
        and second.data["more"] == 0
        and second.data["offset"] == 50
    )
    assert [g["name"] for g in small.data["games"]] == names[10:15] and small.data["more"] == 42
    assert past.data["games"] == [] and "No games from offset 80: there are 57" in past.text
    assert bad.error and "limit must be from 1 to 50" in bad.text
    # an empty file is listed with what is wrong with it, not skipped
    assert all(g.get("problem") for g in first.data["games"])


async def test_delete_game_removes_one_game_and_nothing_else(tmp_path):
    async with connect(tmp_path) as client:
        for name in ("keep", "drop"):
            await ok(client, "create_game", name=name)
        uploaded = await ok(
            client, "upload_script", game="drop", player="alice", source=thrower("x")
        )
        await ok(
            client,
            "launch_android",
            game="drop",
            player="alice",
            script_id=uploaded.data["scriptId"],
        )
        await ok(client, "run_rounds", game="drop", rounds=2)
        deleted = await ok(client, "delete_game", game="drop")
        listed = await ok(client, "list_games")
        gone = await call(client, "get_status", game="drop")
        again = await call(client, "delete_game", game="drop")
        outside = await call(client, "delete_game", game="../keep")
        tools = {t.name: t for t in (await client.list_tools()).tools}
        # the library kept the script: a new game can use it without the source
        await ok(client, "create_game", name="drop")
        reused = await ok(
            client,
            "upload_script",
            game="drop",
            player="alice",
            library_id=uploaded.data["libraryId"],
        )

    assert (
        deleted.data["name"] == "drop"
        and (deleted.data["summary"]["round"], deleted.data["summary"]["players"]) == (2, ["alice"])
        and "Deleted drop (round 2" in deleted.text
    )
    assert [g["name"] for g in listed.data["games"]] == ["keep"]
    assert gone.error and "there is no game 'drop'" in gone.text
    assert again.error and "there is no game 'drop' (games: keep)" in again.text
    assert (
        outside.error
        and "not a valid game name" in outside.text
        and (tmp_path / "keep.json").is_file()
    )
    hints = tools["delete_game"].annotations
    assert hints.destructive_hint and not hints.read_only_hint
    assert not tools["list_games"].annotations.destructive_hint
    assert reused.data["sha256"] == uploaded.data["sha256"]
    assert (
        json.loads((tmp_path / "drop.json").read_text())["events"][-1]["type"] == "script.uploaded"
    )


def test_delete_waits_for_whoever_holds_the_game_and_they_finish_first(tmp_path):
    """A run (or upload) holds the game's lock while it writes; a delete in the meantime waits for
    it, so it never removes a file half-way through a write, and the writer's work is whole."""
    folder = api.GameFolder.at(tmp_path)
    api.create_game(folder.path("busy"))
    holding, release = threading.Event(), threading.Event()

    def writer() -> None:
        with store_lock(folder.path("busy")):
            holding.set()
            release.wait(30)

    thread = threading.Thread(target=writer)
    thread.start()
    holding.wait(30)
    result: list = []
    deleter = threading.Thread(target=lambda: result.append(folder.delete("busy")))
    deleter.start()
    deleter.join(0.5)
    still_there = (tmp_path / "busy.json").is_file() and deleter.is_alive()
    release.set()
    thread.join(30)
    deleter.join(30)

    assert still_there, "the delete did not wait for the lock"
    assert result and result[0].round == 0 and not (tmp_path / "busy.json").exists()
