"""Issue 9 through the real `nova mcp` process over stdio, with the SDK's client: nothing a script
or a request can do stops the server. Every hostile call gets a reply the client can decode, and
the server still answers the next call; a long run on one game blocks no other game, and
cancelling it stops it between rounds, keeping the rounds it played."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters
from nova_mcp_testing import Reply, secret_keeper

REPO = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}


def _server(root: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "nova_tools.cli", "mcp", "--root", str(root)],
        cwd=str(REPO),
        env=ENV,
    )


async def _call(client: Client, tool: str, **arguments) -> Reply:
    return Reply(await client.call_tool(tool, arguments))


async def _still_answers(client: Client) -> None:
    listed = await _call(client, "list_games")
    assert not listed.error, listed.text


def _well_formed(reply: Reply) -> dict:
    everything = reply.text + json.dumps(reply.data, ensure_ascii=False)
    everything.encode("utf-8")  # strict: a lone surrogate would raise here
    return reply.data


HALVES = (
    "const t: AndroidTurn = () => {\n"
    "  console.log('half \\uD800 of a pair', '\\uDC00');\n"
    "  if (turn > 0) throw new Error('thrown \\uDBFF half');\n"
    "  return { type: 'android.wait' };\n"
    "};\nexport default t;\n"
)
DEEP = "const t: AndroidTurn = () => { let v: any = { type: 'android.wait' }; for (let i = 0; i < 3000; i++) v = [v]; return v; };\nexport default t;\n"
SURROGATE_NOTES = "const t: AndroidTurn = () => ({ type: 'android.wait', memory: 'm \\uD83D', recording: 'r \\uDE00' });\nexport default t;\n"


async def test_hostile_scripts_get_well_formed_replies_and_the_server_answers_on(tmp_path):
    with anyio.fail_after(240):
        async with Client(_server(tmp_path)) as client:
            dry = await _call(client, "dry_run_turn", source=HALVES)
            shown = _well_formed(dry)
            assert not dry.error, dry.text
            assert shown["code"] == "script-error" and "\ufffd" in shown["reason"]
            assert shown["logs"][0] == "half \ufffd of a pair \ufffd"
            await _still_answers(client)

            deep = await _call(client, "dry_run_turn", source=DEEP)
            assert not deep.error, deep.text
            assert (
                deep.data["code"] == "not-an-action"
                and "nested more than 32 levels deep" in deep.data["reason"]
            )
            await _still_answers(client)

            assert not (await _call(client, "create_game", name="g")).error
            uploaded = await _call(
                client, "upload_script", game="g", player="p", source=SURROGATE_NOTES
            )
            assert not uploaded.error, uploaded.text
            assert not (
                await _call(
                    client,
                    "launch_android",
                    game="g",
                    player="p",
                    script_id=uploaded.data["scriptId"],
                )
            ).error
            ran = await _call(client, "run_rounds", game="g", rounds=3)
            assert not ran.error, ran.text
            android = await _call(
                client, "get_android", game="g", player="p", android_id="android-1"
            )
            assert _well_formed(android)["memory"] == "m \ufffd"
            events = await _call(client, "get_events", game="g")
            _well_formed(events)
    assert json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))["format"] == "nova-game"


async def test_upload_with_absurd_file_names_is_an_error_result_not_a_bug(tmp_path):
    wait = secret_keeper("m", "r")
    with anyio.fail_after(240):
        async with Client(_server(tmp_path)) as client:
            assert not (await _call(client, "create_game", name="g")).error
            long_name = await _call(
                client,
                "upload_script",
                game="g",
                player="p",
                files={"a" * 5000 + ".ts": wait},
                entry="a" * 5000 + ".ts",
            )
            assert (
                long_name.error and "bug" not in long_name.text and "at most 1024" in long_name.text
            ), long_name.text
            deep_name = "a/" * 2000 + "main.ts"
            deep_path = await _call(
                client,
                "upload_script",
                game="g",
                player="p",
                files={deep_name: wait},
                entry=deep_name,
            )
            assert deep_path.error and "bug" not in deep_path.text, deep_path.text
            part = "b" * 300 + ".ts"
            long_part = await _call(
                client, "upload_script", game="g", player="p", files={part: wait}, entry=part
            )
            assert (
                long_part.error
                and "bug" not in long_part.text
                and "at most 100 characters" in long_part.text
            ), long_part.text
            await _still_answers(client)


async def test_links_planted_in_the_root_never_reach_outside_it(tmp_path):
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "trap.json.lock").symlink_to(outside / "created-through-the-lock")
    (root / "away.json").symlink_to(outside / "away.json")
    with anyio.fail_after(120):
        async with Client(_server(root)) as client:
            for name in ("trap", "away"):
                created = await _call(client, "create_game", name=name)
                assert created.error and "link" in created.text, created.text
            assert "away" not in json.dumps((await _call(client, "list_games")).data)
            await _still_answers(client)
    assert list(outside.iterdir()) == []


# One android of the slow game spends ~1G wasm fuel a turn (0.2 s of CPU here) and is accepted:
# the game never ends by itself. The quick game's android just waits.
SLOW = "let s = '';\nconst t: AndroidTurn = () => { for (let i = 0; i < 10; i++) s = 'ab'.repeat(1e6); return { type: 'android.wait' }; };\nexport default t;\n"


async def test_a_long_run_blocks_no_other_game_and_cancelling_it_keeps_its_rounds(tmp_path):
    progress: list[float] = []
    under_way = anyio.Event()
    long_run_over = anyio.Event()

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append(done)
        under_way.set()

    with anyio.fail_after(300):
        async with Client(_server(tmp_path)) as client:
            for game, source in (("slow", SLOW), ("quick", secret_keeper("m", "r"))):
                assert not (await _call(client, "create_game", name=game)).error
                script = (
                    await _call(client, "upload_script", game=game, player="p", source=source)
                ).data["scriptId"]
                assert not (
                    await _call(client, "launch_android", game=game, player="p", script_id=script)
                ).error

            async def long_run() -> None:
                try:
                    await client.call_tool(
                        "run_rounds", {"game": "slow", "rounds": 500}, progress_callback=on_progress
                    )
                finally:
                    long_run_over.set()

            async with anyio.create_task_group() as group:
                group.start_soon(long_run)
                await under_way.wait()  # at least one slow round played
                dry = await _call(
                    client, "dry_run_turn", source=secret_keeper("x", "y"), game="quick", player="p"
                )
                quick = await _call(client, "run_rounds", game="quick", rounds=5)
                status = await _call(client, "get_status", game="quick")
                # all three answered while the long run was still going (before the fix, they
                # waited behind its sandbox lock until all 500 rounds were played)
                assert not long_run_over.is_set()
                assert not dry.error and dry.data["accepted"] is True, dry.text
                assert not quick.error and quick.data["lastRound"] == 5, quick.text
                assert status.data["round"] == 5
                seen = max(progress)
                group.cancel_scope.cancel()  # the SDK sends notifications/cancelled

            # the run stops between rounds and saves what it played: the file's round settles at
            # the last round reported, or the one in progress when the cancel arrived
            with anyio.fail_after(60):
                while (
                    played := (await _call(client, "get_status", game="slow")).data["round"]
                ) < seen:
                    await anyio.sleep(0.2)
            await anyio.sleep(3)  # ample time for several more slow rounds, had it gone on
            settled = (await _call(client, "get_status", game="slow")).data["round"]
            assert seen <= played == settled <= seen + 2, (seen, played, settled)
            await _still_answers(client)


UNPLAYABLE_RULES = [  # (rules as JSON text, the path the refusal names, words it says)
    ('{"script": {"memory": 2147483648}}', "script.memory", "less than or equal to"),
    # the SDK parses a JSON text argument itself (Python's json reads 1e400 as inf): the rules
    # refuse the infinite number at its path
    ('{"android": {"decayPerRound": 1e400}}', "android.decayPerRound", "expected a finite number"),
    ('{"script": {"fuel": 5000}}', "script.fuel", "the clock never to decide a turn"),
    ('{"script": {"timeoutMs": 86400000}}', "script.timeoutMs", "less than or equal to 600000"),
    ('{"a":' * 3000 + "1" + "}" * 3000, "", "nested more than 64 levels deep"),
    ('{"android": {"memoryLimit": "\\ud800"}}', "android.memoryLimit", "expected a valid integer"),
    (
        '{"android": {"sight": {"shape": "\\udfff", "range": 3}}}',
        "android.sight.shape",
        "expected a valid string",
    ),
]


async def test_rules_that_cannot_be_played_are_refused_with_their_path_and_no_game_is_made(
    tmp_path,
):
    with anyio.fail_after(240):
        async with Client(_server(tmp_path)) as client:
            for text, path, says in UNPLAYABLE_RULES:
                checked = await _call(client, "validate_rules", rules=text)
                _well_formed(checked)
                assert not checked.error and checked.data["valid"] is False, checked.text
                assert "bug" not in checked.text and says in checked.text, checked.text
                if path:
                    assert path in [p["path"] for p in checked.data["problems"]], checked.data
                created = await _call(client, "create_game", name="unplayable", rules=text)
                assert created.error and says in created.text and "bug" not in created.text, (
                    created.text
                )
                assert not (tmp_path / "unplayable.json").exists()
            # (the same nesting as an object in the request itself: the SDK's client cannot send
            # it, a raw client can: test_requests_the_sdk_cannot_read_still_get_an_answer_with_their_id)
            await _still_answers(client)


async def test_a_game_file_from_before_rules_were_data_opens_under_the_defaults(tmp_path):
    with anyio.fail_after(240):
        async with Client(_server(tmp_path)) as client:
            assert not (await _call(client, "create_game", name="g", seed=4)).error
            uploaded = await _call(
                client, "upload_script", game="g", player="p", source=secret_keeper("m", "r")
            )
            assert not (
                await _call(
                    client,
                    "launch_android",
                    game="g",
                    player="p",
                    script_id=uploaded.data["scriptId"],
                )
            ).error
            assert not (await _call(client, "run_rounds", game="g", rounds=2)).error
            before = (await _call(client, "get_status", game="g")).data
            data = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
            del data["rules"]
            (tmp_path / "old.json").write_text(json.dumps(data), encoding="utf-8")
            status = await _call(client, "get_status", game="old")
            assert not status.error and status.data == before, status.text
            ran = await _call(client, "run_rounds", game="old", rounds=1)
            assert not ran.error and ran.data["lastRound"] == 3, ran.text


# A script whose source ends in a string literal: the request adds a lone surrogate to it.
HALF_EMOJI = (
    "const t: AndroidTurn = () => ({ type: 'android.wait', memory: half });\nconst half = 'half "
)


def test_requests_the_sdk_cannot_read_still_get_an_answer_with_their_id(tmp_path):
    """Raw JSON-RPC lines over stdio, as a JavaScript client or an attacker writes them: lone
    surrogate escapes and nesting past the SDK's parser (200 levels). Each was dropped without a
    reply, so the client waited for ever; now each is answered, and the server goes on."""
    deep_rules = '{"a":' * 3000 + "1" + "}" * 3000
    junk = "[" * 200_000 + "]" * 200_000
    lines = {
        2: '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"validate_rules","arguments":{"rules":'
        + deep_rules
        + "}}}",
        3: '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_games","arguments":{},"junk":'
        + junk
        + "}}",
        4: '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"\\ud800","arguments":{}}}',
        5: '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"create_game","arguments":{"name":"g\\udfff"}}}',
        6: '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"dry_run_turn","arguments":{"source":'
        + json.dumps(HALF_EMOJI)[:-1]
        + "\\ud83d';\\nexport default t;\\n\"}}}",
        7: '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_games","arguments":{}}}',
    }
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"},
        },
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "nova_tools.cli", "mcp", "--root", str(tmp_path)],
        cwd=REPO,
        env=ENV,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    answered: dict[int, dict] = {}
    give_up = threading.Timer(
        180, server.kill
    )  # a request left unanswered fails the test, not hangs it
    give_up.start()
    try:
        assert server.stdin and server.stdout
        server.stdin.write(
            (
                json.dumps(initialize)
                + "\n"
                + '{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
            ).encode()
        )
        for line in lines.values():
            server.stdin.write(line.encode() + b"\n")
        server.stdin.flush()
        while len(answered) < 1 + len(lines):
            reply = server.stdout.readline()
            assert reply, f"the server stopped answering; answered: {sorted(answered)}"
            message = json.loads(reply.decode("utf-8"))  # strict UTF-8: the reply is well-formed
            if "id" in message:
                answered[message["id"]] = message
    finally:
        give_up.cancel()
        server.stdin.close() if server.stdin else None
        server.wait(timeout=60)
    text = {i: json.dumps(answered[i]["result"], ensure_ascii=False) for i in lines}
    assert "bug" not in " ".join(text.values())
    assert answered[2]["result"]["structuredContent"]["valid"] is False
    assert answered[3]["result"]["structuredContent"] == {
        "games": [],
        "more": 0,
        "offset": 0,
        "total": 0,
    }
    assert answered[4]["result"]["isError"] and "Unknown tool: \ufffd" in text[4]
    assert answered[5]["result"]["isError"] and "not a valid game name" in text[5]
    assert answered[6]["result"]["structuredContent"]["accepted"] is True, text[6]
    assert answered[6]["result"]["structuredContent"]["action"]["memory"] == "half \ufffd"
    assert answered[7]["result"]["isError"] is False
    assert not (tmp_path / "g\ufffd.json").exists()
