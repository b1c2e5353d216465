"""The whole game loop through the MCP tools, in-process with the SDK's client: create, upload,
launch, run with progress, read back; and two clients on one game at once."""

from __future__ import annotations

import json

import anyio
from nova_mcp_testing import call, connect, ok, secret_keeper, wall_walker

from nova_tools import starter


async def test_an_agent_plays_the_whole_loop_with_the_starter_android(tmp_path):
    async with connect(tmp_path) as client:
        created = await ok(client, "create_game", name="duel", seed=3)
        assert created.data == {
            "game": "duel",
            "seed": 3,
            "width": 12,
            "height": 12,
            "finalTurn": None,
        }
        assert (tmp_path / "duel.json").is_file()

        scripts = {}
        for player in ("alice", "bob"):
            uploaded = await ok(
                client,
                "upload_script",
                game="duel",
                player=player,
                files=starter.files(),
                entry="main.ts",
            )
            assert uploaded.data["joined"] is True and uploaded.data["player"] == player
            scripts[player] = uploaded.data["scriptId"]
            assert scripts[player] in uploaded.text
        assert scripts == {"alice": "script-1", "bob": "script-2"}

        androids = {}
        for player in ("alice", "bob"):
            launched = await ok(
                client, "launch_android", game="duel", player=player, script_id=scripts[player]
            )
            assert launched.data["activeAndroids"] == 1 and launched.data["capacity"] == 2
            androids[player] = launched.data["androidId"]

        ran = await ok(client, "run_rounds", game="duel", rounds=50)
        assert (
            ran.data["firstRound"] == 1 and ran.data["lastRound"] == 50 and ran.data["rounds"] == 50
        )
        assert ran.data["turns"] >= 100
        assert [s["player"] for s in ran.data["scores"]] == ["alice", "bob"]
        assert "Played rounds 1-50" in ran.text

        status = await ok(client, "get_status", game="duel")
        assert status.data["round"] == 50
        for player in status.data["players"]:
            assert player["score"] == sum(line["points"] for line in player["breakdown"])
            assert "buildings.charger" in [line["source"] for line in player["breakdown"]]
            assert f"{player['id']}: " in status.text

        events = await ok(
            client, "get_events", game="duel", player="alice", round=50, compact=False
        )
        kinds = [e["type"] for e in events.data["events"]]
        assert kinds[0] == "round.started" and kinds[-1] == "round.ended" and "turn" in kinds
        assert all(e["round"] == 50 for e in events.data["events"])
        # each event says what happened, in the words nova events prints (api.wording)
        assert all(f"#{e['index']} {e['text']}" in events.text for e in events.data["events"])
        assert events.data["events"][-1]["text"].startswith("r50 round ended")

        world = await ok(client, "get_world", game="duel", player="alice")
        assert world.data["round"] == 50 and world.data["visibleTiles"] > 0
        mine = world.data["yours"]
        assert androids["alice"] in [a["id"] for a in mine["androids"]]
        assert any(b["initial"] and b["type"] == "charger" for b in mine["buildings"])
        assert mine["scripts"] == [{"id": "script-1", "name": "main"}]

        android = await ok(
            client, "get_android", game="duel", player="alice", android_id=androids["alice"]
        )
        assert android.data["ownerId"] == "alice"
        assert (
            android.data["recordingLength"] == len(android.data["recording"]) > 0
        )  # short enough to show whole
        assert android.data["recordingOffset"] == 0
        # the text carries the window too, for a client that shows an agent only the text
        window = android.data["recording"]
        assert f"recording 0-{len(window)}: {window}" in android.text
        assert (
            len(android.data["recentTurns"]) == 5 and android.data["recentTurns"][-1]["round"] == 50
        )

        listed = await ok(client, "list_games")
        [entry] = listed.data["games"]
        assert (entry["name"], entry["summary"]["round"], entry["summary"]["players"]) == (
            "duel",
            50,
            ["alice", "bob"],
        )


async def test_run_rounds_reports_progress_and_ends_on_the_last_round(tmp_path):
    seen: list[tuple[float, float | None, str | None]] = []

    async def progress(done: float, total: float | None, message: str | None) -> None:
        seen.append((done, total, message))

    async with connect(tmp_path) as client:
        await ok(client, "create_game", name="g")
        script = (
            await ok(client, "upload_script", game="g", player="alice", source=wall_walker())
        ).data["scriptId"]
        await ok(client, "launch_android", game="g", player="alice", script_id=script)
        result = await client.call_tool(
            "run_rounds", {"game": "g", "rounds": 40}, progress_callback=progress
        )
    assert not result.is_error
    assert seen, "no progress notifications"
    assert [done for done, _, _ in seen] == sorted(done for done, _, _ in seen)
    assert seen[-1][:2] == (40, 40) and seen[-1][2] == "round 40 of 40"
    assert len(seen) <= 21  # throttled: about every 5% of the run


async def test_failed_turns_are_easy_to_find(tmp_path):
    async with connect(tmp_path) as client:
        await ok(client, "create_game", name="g", seed=1)
        script = (
            await ok(client, "upload_script", game="g", player="alice", source=wall_walker())
        ).data["scriptId"]
        android = (
            await ok(client, "launch_android", game="g", player="alice", script_id=script)
        ).data["androidId"]
        ran = await ok(client, "run_rounds", game="g", rounds=15)
        assert ran.data["failedTurns"] > 0 and "failed_only" in ran.text
        failed = await ok(
            client,
            "get_events",
            game="g",
            player="alice",
            failed_only=True,
            mine_only=True,
            compact=False,
        )
        assert failed.data["total"] == ran.data["failedTurns"]
        for event in failed.data["events"]:
            assert (
                event["android"] == android
                and event["outcome"] == "refused"
                and event["code"] == "off-map"
            )
        assert "[off-map]" in failed.text
        none = await ok(
            client,
            "get_events",
            game="g",
            player="alice",
            failed_only=True,
            round=1,
            android_id="android-9",
        )
        assert (
            none.data["lines"] == []
            and "No failed turns in round 1 of android-9 (the log holds" in none.text
        )
        first = await ok(
            client, "get_events", game="g", player="alice", failed_only=True, offset=0, limit=1
        )
        assert first.data["offset"] == 0 and len(first.data["lines"]) == 1
        android_view = await ok(client, "get_android", game="g", player="alice", android_id=android)
        assert android_view.data["recentTurns"][-1]["code"] == "off-map"


async def test_a_dry_run_judges_one_turn_without_changing_the_game(tmp_path):
    async with connect(tmp_path) as client:
        await ok(client, "create_game", name="g")
        script = (
            await ok(client, "upload_script", game="g", player="alice", source=wall_walker())
        ).data["scriptId"]
        await ok(client, "launch_android", game="g", player="alice", script_id=script)
        before = (tmp_path / "g.json").read_bytes()

        fresh = await ok(
            client,
            "dry_run_turn",
            source="export default (() => ({ type: 'android.wait' })) as AndroidTurn;",
        )
        assert fresh.data["accepted"] is True and fresh.data["world"] == "fresh"
        assert fresh.data["action"] == {"type": "android.wait"}

        itself = "export default (() => ({ type: 'android.dismantle', targetAndroidId: androidId })) as AndroidTurn;"
        refused = await ok(client, "dry_run_turn", source=itself, game="g", player="alice")
        assert refused.data["accepted"] is False and refused.data["code"] == "self-target"
        assert "REFUSE" in refused.text and refused.data["penalty"] == 10
        assert refused.data["world"] == "game"

        multi = await ok(
            client,
            "dry_run_turn",
            files={
                "main.ts": "import { act } from './lib/act';\nexport default act;",
                "lib/act.ts": "export const act: AndroidTurn = () => ({ type: 'android.wait' });",
            },
            game="g",
            player="alice",
        )
        assert multi.data["accepted"] is True
        assert (tmp_path / "g.json").read_bytes() == before


async def test_the_starter_can_be_uploaded_without_sending_its_files(tmp_path):
    async with connect(tmp_path) as client:
        await ok(client, "create_game", name="g")
        uploaded = await ok(client, "upload_script", game="g", player="bot", starter=True)
        sent = await ok(client, "upload_script", game="g", player="bot", files=starter.files())
        assert uploaded.data["sha256"] == sent.data["sha256"]


async def test_two_clients_running_rounds_on_one_game_take_turns(tmp_path):
    async with connect(tmp_path) as first:
        await ok(first, "create_game", name="shared", seed=2)
        for player in ("alice", "bob"):
            script = (
                await ok(
                    first,
                    "upload_script",
                    game="shared",
                    player=player,
                    source=secret_keeper("", ""),
                )
            ).data["scriptId"]
            await ok(first, "launch_android", game="shared", player=player, script_id=script)

    results = {}

    async def run(tag: str) -> None:
        async with connect(tmp_path) as client:
            results[tag] = await call(client, "run_rounds", game="shared", rounds=15)

    async with anyio.create_task_group() as group:
        group.start_soon(run, "a")
        group.start_soon(run, "b")

    spans = sorted((r.data["firstRound"], r.data["lastRound"]) for r in results.values())
    assert not any(r.error for r in results.values())
    assert spans == [(1, 15), (16, 30)]  # one waited for the other; neither lost rounds
    async with connect(tmp_path) as client:
        status = await ok(client, "get_status", game="shared")
        assert status.data["round"] == 30
        everything = await ok(
            client, "get_events", game="shared", player="alice", offset=0, limit=100
        )
        assert (
            everything.data["total"] == 2 * 2 + 2 + 30 * 4
        )  # joins, uploads, launches; 4 events a round


async def test_two_clients_uploading_at_once_get_distinct_script_ids(tmp_path):
    async with connect(tmp_path) as client:
        await ok(client, "create_game", name="shared")
    ids: list[str] = []

    async def upload(player: str) -> None:
        async with connect(tmp_path) as client:
            ids.append(
                (
                    await ok(
                        client, "upload_script", game="shared", player=player, source=wall_walker()
                    )
                ).data["scriptId"]
            )

    async with anyio.create_task_group() as group:
        for player in ("alice", "alice", "bob", "bob"):
            group.start_soon(upload, player)
    assert sorted(ids) == ["script-1", "script-2", "script-3", "script-4"]
    async with connect(tmp_path) as client:
        world = await ok(client, "get_world", game="shared", player="bob")
        assert len(world.data["yours"]["scripts"]) == 2
    json.loads((tmp_path / "shared.json").read_text())  # still one whole, readable file
