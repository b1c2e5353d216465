"""A player never reads another player's memory, recording, thrown text or script source through
any tool, resource or prompt — while their own stay readable to them.

The game (conftest.py ``secrets_game``) is one where the players do see each other: on a 5x5
board alice's and bob's keepers pace about the middle, so every check below could fail."""

from __future__ import annotations

import json
import re

from nova_mcp_testing import (
    ALICE_LOG,
    ALICE_MEMORY,
    BOB_LOG,
    BOB_MEMORY,
    BOB_SOURCE,
    BOB_THROWN,
    call,
    connect,
    ok,
    secret_keeper,
    thrower,
)

BOBS_SECRETS = (BOB_MEMORY, BOB_LOG, BOB_SOURCE, BOB_THROWN)
WAIT = "export default (() => ({ type: 'android.wait' })) as AndroidTurn;"
# A script of alice's that looks for bob's secrets in everything it is given, and counts the
# androids of other players it can see.
SNOOP = (
    "const hidden = "
    + json.dumps([s[::-1] for s in BOBS_SECRETS])
    + ".map((s) => s.split('').reverse().join(''));\n"
    "export default (() => ({ type: 'android.wait', recording: "
    "(hidden.some((s) => JSON.stringify([world, rules, androidId, turn]).includes(s)) ? 'LEAK' : 'clean')"
    " + ' ' + world.androids.filter((a) => a.ownerId !== 'alice').length })) as AndroidTurn;"
)


def assert_no_secret_of_bob(text: str, where: str) -> None:
    for secret in BOBS_SECRETS:
        assert secret not in text, f"{secret} leaked through {where}"


def alice_reads(game, total_events: int) -> dict[str, list[dict]]:
    """Every read-only tool, called as alice in as many ways as she could call it."""
    bob_keeper, bob_thrower = game.androids["bob"]
    [alice_keeper] = game.androids["alice"]
    reads: dict[str, list[dict]] = {
        "list_games": [{}],
        "validate_rules": [{"rules": {}}],
        "get_status": [{"game": "secrets"}],
        "get_world": [{"game": "secrets", "player": "alice", "tile_limit": 200, "messages": 50}]
        # the whole map of a round, as her replay keeps it: bob's androids, not his words or code
        + [
            {
                "game": "secrets",
                "player": "alice",
                "tile_limit": 200,
                "messages": 50,
                "whole_map": True,
                "round": r,
            }
            for r in (0, 6, 12)
        ],
        # the library holds bob's uploads too (upload_script keeps them there): not hers to list
        "list_scripts": [{"player": "alice"}],
        "get_android": [
            {"game": "secrets", "player": "alice", "android_id": a}
            for a in (alice_keeper, bob_keeper, bob_thrower)
        ],
        "dry_run_turn": [
            {"game": "secrets", "player": "alice", "source": WAIT},
            {"game": "secrets", "player": "alice", "source": SNOOP},
        ]
        + [
            {"game": "secrets", "player": "alice", "android_id": a, "source": WAIT}
            for a in (bob_keeper, bob_thrower)
        ],
        # The picture's text and structured content; what it draws is only what alice could see
        # (tests/mcp/test_pictures.py: every tile she could not see is fog).
        "get_board_image": [{"game": "secrets", "player": "alice"}]
        + [{"game": "secrets", "player": "alice", "round": r} for r in (0, 6, 12)]
        + [{"game": "secrets", "player": "alice", "round": 12, "whole_map": True}],
        "get_score_history": [{"game": "secrets"}, {"game": "secrets", "every": 1}],
        # her own script against the starter, and bob's scripts named as hers (refused): scores and
        # reason codes only, never code, memory, recordings or a thrown error's text
        "compare_scripts": [
            {
                "a": {"game": "secrets", "player": "alice", "script_id": s},
                "b": {"starter": True},
                "seeds": "1",
                "rounds": 3,
            }
            for s in game.scripts["alice"] + game.scripts["bob"]
        ],
        "get_events": [
            {
                "game": "secrets",
                "player": "alice",
                "offset": o,
                "limit": 100,
                "compact": False,
                "notes": True,
            }
            for o in range(0, total_events, 100)
        ]
        + [
            {
                "game": "secrets",
                "player": "alice",
                "android_id": a,
                "offset": 0,
                "limit": 100,
                **form,
            }
            for a in (bob_keeper, bob_thrower)
            for form in ({}, {"compact": False, "notes": True})
        ]
        + [{"game": "secrets", "player": "alice", "failed_only": True, "offset": 0, "limit": 100}]
        + [{"game": "secrets", "player": "alice", "round": r, "limit": 100} for r in (1, 6, 12)],
        # a league of bob's two scripts that has played: names, ratings and scores, never code,
        # memory, recordings or a thrown error's text
        "league_table": [{"league": "rivals"}],
    }
    return reads


async def bobs_league(client) -> None:
    """A league in the root holding bob's keeper and thrower, with a few games played."""
    keeper = secret_keeper(BOB_MEMORY, BOB_LOG, BOB_SOURCE, watch_for=(ALICE_MEMORY, ALICE_LOG))
    for name, source in (("bob-keeper", keeper), ("bob-thrower", thrower(BOB_THROWN))):
        await ok(client, "league_add", league="rivals", name=name, source=source)
    await ok(client, "league_play", league="rivals", seeds="1", rounds=3)


async def test_alice_reads_her_own_memory_and_recording_and_her_keeper_never_saw_bobs(secrets_game):
    [android] = secrets_game.androids["alice"]
    async with connect(secrets_game.root) as client:
        mine = await ok(client, "get_android", game="secrets", player="alice", android_id=android)
    assert mine.data["memory"] == ALICE_MEMORY
    # Her keeper writes " saw <secret>" into its recording on any turn its globals held one of bob's.
    assert mine.data["recording"] == ALICE_LOG + " 12"


async def test_the_players_do_see_each_other_so_the_privacy_checks_can_fail(secrets_game):
    bob_keeper, bob_thrower = secrets_game.androids["bob"]
    [alice_keeper] = secrets_game.androids["alice"]
    async with connect(secrets_game.root) as client:
        seen_by_alice = await ok(client, "get_world", game="secrets", player="alice")
        seen_by_bob = await ok(client, "get_world", game="secrets", player="bob")
        moves = await ok(
            client,
            "get_events",
            game="secrets",
            player="alice",
            mine_only=False,
            offset=0,
            limit=100,
            compact=False,
        )
    assert {a["id"] for a in seen_by_alice.data["androids"]} >= {bob_keeper}
    assert alice_keeper in {a["id"] for a in seen_by_bob.data["androids"]}
    moved = {
        e["android"]
        for e in moves.data["events"]
        if e["type"] == "turn"
        and e["outcome"] == "accepted"
        and e["action"]["type"] == "android.move"
    }
    assert {alice_keeper, bob_keeper} <= moved


async def test_alices_world_holds_her_own_things_and_only_what_she_sees_of_bobs(secrets_game):
    async with connect(secrets_game.root) as client:
        world = (await ok(client, "get_world", game="secrets", player="alice", tile_limit=200)).data
        bobs = (await ok(client, "get_world", game="secrets", player="bob", tile_limit=200)).data
    for player, seen in (("alice", world), ("bob", bobs)):
        yours = seen["yours"]
        assert [a["id"] for a in yours["androids"]] == secrets_game.androids[player]
        assert [s["id"] for s in yours["scripts"]] == secrets_game.scripts[player]
        assert yours["buildings"] and {b["ownerId"] for b in yours["buildings"]} == {player}
        assert seen["androids"] and {a["ownerId"] for a in seen["androids"]} <= {"alice", "bob"} - {
            player
        }
        assert {b["ownerId"] for b in seen["buildings"]} <= {"alice", "bob"} - {player}
    assert (world["yours"]["activeAndroids"], world["yours"]["capacity"]) == (1, 2)


async def test_no_tool_resource_or_prompt_shows_alice_anything_of_bobs(secrets_game):
    seen: list[tuple[str, str]] = []
    async with connect(secrets_game.root) as client:
        read_only = {
            t.name
            for t in (await client.list_tools()).tools
            if t.annotations and t.annotations.read_only_hint
        }
        await bobs_league(client)
        total = (await call(client, "get_events", game="secrets", player="alice")).data["total"]
        reads = alice_reads(secrets_game, total)
        # compare_scripts only reads, but keeps the games it played when asked for detail
        assert read_only | {"compare_scripts"} == set(reads), (
            f"read-only tools not checked for privacy here: {sorted(read_only - set(reads))} "
            "(add them to alice_reads with every way alice could call them)"
        )
        for tool, calls in reads.items():
            for arguments in calls:
                reply = await call(client, tool, **arguments)
                seen.append((f"{tool}({arguments})", reply.everything()))
                if tool == "dry_run_turn" and arguments["source"] == SNOOP:
                    snooped = reply
        resources = (await client.list_resources()).resources
        templates = (await client.list_resource_templates()).resource_templates
        uris = [str(r.uri) for r in resources] + [fill(t.uri_template) for t in templates]
        for uri in uris:
            resource = await client.read_resource(uri)
            seen.append((uri, json.dumps(resource.model_dump(mode="json"))))
        for prompt in (await client.list_prompts()).prompts:
            arguments = {
                a.name: {"game": "secrets", "player": "alice"}[a.name]
                for a in prompt.arguments or []
            }
            got = await client.get_prompt(prompt.name, arguments)
            seen.append((f"prompt {prompt.name}", json.dumps(got.model_dump(mode="json"))))

    assert any("nova://games/secrets/" in uri for uri in uris)
    assert not snooped.error and snooped.data["action"]["recording"].startswith("clean ")
    assert int(snooped.data["action"]["recording"].split()[1]) >= 1  # alice's android did see bob's
    for where, text in seen:
        assert_no_secret_of_bob(text, where)
    # ...and bob's androids really did write them, so the checks above could have failed.
    bob_keeper, bob_thrower = secrets_game.androids["bob"]
    async with connect(secrets_game.root) as client:
        bobs = await ok(client, "get_android", game="secrets", player="bob", android_id=bob_keeper)
        failures = await ok(
            client,
            "get_events",
            game="secrets",
            player="bob",
            android_id=bob_thrower,
            failed_only=True,
        )
    assert bobs.data["memory"] == BOB_MEMORY and bobs.data["recording"] == BOB_LOG + " 12"
    assert BOB_SOURCE in (secrets_game.root / "secrets.json").read_text()  # his bundle does hold it
    assert BOB_THROWN in failures.everything()


def fill(template: str) -> str:
    """A resource template's URI with alice's game filled in; unknown parameters fail the test."""
    values = {"name": "secrets", "game": "secrets", "player": "alice"}

    def value(match: re.Match) -> str:
        assert match.group(1) in values, (
            f"fill in resource template parameter {match.group(1)!r} in test_privacy.fill"
        )
        return values[match.group(1)]

    return re.sub(r"\{(\w+)\}", value, template)


async def test_another_players_android_is_refused_not_redacted(secrets_game):
    bob_keeper, _ = secrets_game.androids["bob"]
    async with connect(secrets_game.root) as client:
        reply = await call(
            client, "get_android", game="secrets", player="alice", android_id=bob_keeper
        )
        dry = await call(
            client,
            "dry_run_turn",
            game="secrets",
            player="alice",
            android_id=bob_keeper,
            source=WAIT,
        )
    assert reply.error and "belongs to another player" in reply.text
    assert dry.error and "belongs to another player" in dry.text


async def test_other_players_turns_show_their_actions_but_not_their_words(secrets_game):
    bob_keeper, bob_thrower = secrets_game.androids["bob"]
    async with connect(secrets_game.root) as client:
        # from the start: the first turn logs the notes (later turns log only what changed)
        kept = await ok(
            client,
            "get_events",
            game="secrets",
            player="alice",
            android_id=bob_keeper,
            offset=0,
            limit=100,
            compact=False,
            notes=True,
        )
        thrown = await ok(
            client,
            "get_events",
            game="secrets",
            player="alice",
            android_id=bob_thrower,
            limit=3,
            compact=False,
        )
    turns = [e for e in kept.data["events"] if e["type"] == "turn"]
    assert len(turns) == 12
    first = turns[0]
    assert first["action"]["memory"] == first["action"]["recording"] == "[Redacted]"
    for event in turns:
        assert event["action"]["type"] == "android.move" and event["outcome"] == "accepted"
        assert (
            event["action"].get("memory", "[Redacted]")
            == event["action"].get("recording", "[Redacted]")
            == "[Redacted]"
        )
    thrown_turns = [
        e for e in thrown.data["events"] if e["type"] == "turn"
    ]  # (and any round end that hurt it)
    assert thrown_turns
    for event in thrown_turns:
        assert (event["outcome"], event["code"], event["reason"]) == (
            "error",
            "script-error",
            "[Redacted]",
        )


async def test_a_dry_run_needs_the_player_whose_android_it_acts_as(secrets_game):
    async with connect(secrets_game.root) as client:
        reply = await call(client, "dry_run_turn", game="secrets", source=WAIT)
    assert reply.error and "also give player" in reply.text
