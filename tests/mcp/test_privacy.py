"""A player never reads another player's memory, recording or script source through any tool,
resource or prompt — while their own stay readable to them."""

from __future__ import annotations

import json

from nova_mcp_testing import ALICE_LOG, ALICE_MEMORY, BOB_LOG, BOB_MEMORY, BOB_SOURCE, BOB_THROWN, call, connect, ok

BOBS_SECRETS = (BOB_MEMORY, BOB_LOG, BOB_SOURCE, BOB_THROWN)


def assert_no_secret_of_bob(text: str, where: str) -> None:
    for secret in BOBS_SECRETS:
        assert secret not in text, f"{secret} leaked through {where}"


async def test_alice_reads_her_own_memory_and_recording(secrets_game):
    [android] = secrets_game.androids["alice"]
    async with connect(secrets_game.root) as client:
        mine = await ok(client, "get_android", game="secrets", player="alice", android_id=android)
    assert mine.data["memory"] == ALICE_MEMORY
    assert mine.data["recording"] == ALICE_LOG + " 12"


async def test_no_tool_shows_alice_anything_of_bobs(secrets_game):
    bob_keeper, bob_thrower = secrets_game.androids["bob"]
    seen: list[tuple[str, str]] = []
    async with connect(secrets_game.root) as client:

        async def as_alice(tool: str, **arguments) -> None:
            reply = await call(client, tool, **arguments)
            seen.append((f"{tool}({arguments})", reply.everything()))

        await as_alice("list_games")
        await as_alice("get_status", game="secrets")
        await as_alice("get_world", game="secrets", player="alice", tile_limit=200, messages=50)
        total = (await call(client, "get_events", game="secrets", player="alice")).data["total"]
        for offset in range(0, total, 100):
            await as_alice("get_events", game="secrets", player="alice", offset=offset, limit=100)
        for android in (bob_keeper, bob_thrower):
            await as_alice("get_events", game="secrets", player="alice", android_id=android, limit=100)
            await as_alice("get_android", game="secrets", player="alice", android_id=android)
            await as_alice("dry_run_turn", game="secrets", player="alice", android_id=android, source="export default (() => ({ type: 'android.wait' })) as AndroidTurn;")
        await as_alice("get_events", game="secrets", player="alice", failed_only=True, limit=100)
        for round in (1, 6, 12):
            await as_alice("get_events", game="secrets", player="alice", round=round, limit=100)
        # A script of alice's that looks for bob's secrets in everything it is given.
        snoop = (
            "export default (() => ({ type: 'android.wait', recording: "
            f"[{', '.join(json.dumps(s[:8]) for s in BOBS_SECRETS)}].some((s) => JSON.stringify(world).includes(s)) ? 'LEAK' : 'clean' }})) as AndroidTurn;"
        )
        snooped = await ok(client, "dry_run_turn", game="secrets", player="alice", source=snoop)
        seen.append(("snoop", snooped.everything()))
        for uri in ("nova://games/secrets/rules", "nova://guide"):
            resource = await client.read_resource(uri)
            seen.append((uri, json.dumps(resource.model_dump(mode="json"))))
        prompt = await client.get_prompt("write_android", {"game": "secrets", "player": "alice"})
        seen.append(("prompt", json.dumps(prompt.model_dump(mode="json"))))

    assert snooped.data["action"]["recording"] == "clean"
    for where, text in seen:
        assert_no_secret_of_bob(text, where)
    # ...and bob's androids really did write them, so the checks above could have failed.
    async with connect(secrets_game.root) as client:
        bobs = await ok(client, "get_android", game="secrets", player="bob", android_id=bob_keeper)
        failures = await ok(client, "get_events", game="secrets", player="bob", android_id=bob_thrower, failed_only=True)
    assert bobs.data["memory"] == BOB_MEMORY
    assert BOB_THROWN in failures.everything()


async def test_another_players_android_is_refused_not_redacted(secrets_game):
    bob_keeper, _ = secrets_game.androids["bob"]
    async with connect(secrets_game.root) as client:
        reply = await call(client, "get_android", game="secrets", player="alice", android_id=bob_keeper)
        dry = await call(client, "dry_run_turn", game="secrets", player="alice", android_id=bob_keeper, source="export default (() => ({ type: 'android.wait' })) as AndroidTurn;")
    assert reply.error and "belongs to another player" in reply.text
    assert dry.error and "belongs to another player" in dry.text


async def test_other_players_turns_show_their_actions_but_not_their_words(secrets_game):
    bob_keeper, bob_thrower = secrets_game.androids["bob"]
    async with connect(secrets_game.root) as client:
        # from the start: the first turn logs the notes (later turns repeating them do not)
        kept = await ok(client, "get_events", game="secrets", player="alice", android_id=bob_keeper, offset=0, limit=3)
        thrown = await ok(client, "get_events", game="secrets", player="alice", android_id=bob_thrower, limit=3)
    turns = [e for e in kept.data["events"] if e["type"] == "turn"]
    first = turns[0]
    assert first["action"]["memory"] == first["action"]["recording"] == "[Redacted]"
    for event in turns:
        assert event["action"]["type"] == "android.wait"
        assert event["action"].get("memory", "[Redacted]") == event["action"].get("recording", "[Redacted]") == "[Redacted]"
    for event in thrown.data["events"]:
        assert (event["outcome"], event["code"], event["reason"]) == ("error", "script-error", "[Redacted]")


async def test_a_dry_run_needs_the_player_whose_android_it_acts_as(secrets_game):
    async with connect(secrets_game.root) as client:
        reply = await call(client, "dry_run_turn", game="secrets", source="export default (() => ({ type: 'android.wait' })) as AndroidTurn;")
    assert reply.error and "also give player" in reply.text
