"""The real `nova mcp` command, in its own process: over stdio with the SDK's client, stdout
carrying nothing but protocol messages, and over streamable HTTP on 127.0.0.1."""

from __future__ import annotations

import ipaddress
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters
from nova_mcp_testing import Reply, secret_keeper
from nova_testing import listening_addresses

REPO = Path(__file__).resolve().parents[2]
NOVA = [sys.executable, "-m", "nova_tools.cli", "mcp"]
ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}


async def test_the_nova_mcp_command_plays_a_game_over_stdio(tmp_path):
    params = StdioServerParameters(
        command=NOVA[0], args=[*NOVA[1:], "--root", str(tmp_path)], cwd=str(REPO), env=ENV
    )
    with anyio.fail_after(120):
        async with Client(params) as client:
            assert client.server_info.name == "nova"
            names = {tool.name for tool in (await client.list_tools()).tools}
            assert {
                "create_game",
                "upload_script",
                "launch_android",
                "run_rounds",
                "get_status",
            } <= names
            assert not (await client.call_tool("create_game", {"name": "duel", "seed": 4})).is_error
            uploaded = Reply(
                await client.call_tool(
                    "upload_script", {"game": "duel", "player": "alice", "starter": True}
                )
            )
            assert not uploaded.error, uploaded.text
            launched = Reply(
                await client.call_tool(
                    "launch_android",
                    {"game": "duel", "player": "alice", "script_id": uploaded.data["scriptId"]},
                )
            )
            assert not launched.error, launched.text
            progress: list[float] = []

            async def on_progress(done: float, total: float | None, message: str | None) -> None:
                progress.append(done)

            ran = Reply(
                await client.call_tool(
                    "run_rounds", {"game": "duel", "rounds": 20}, progress_callback=on_progress
                )
            )
            assert not ran.error and ran.data["lastRound"] == 20
            assert progress and progress[-1] == 20
            refused = Reply(await client.call_tool("get_status", {"game": "../../etc/passwd"}))
            assert refused.error and "is not a valid game name" in refused.text
            guide = await client.read_resource("nova://guide")
            assert "Nova for agents" in guide.contents[0].text
    assert (tmp_path / "duel.json").is_file()


def _frame(message: dict) -> bytes:
    return (json.dumps(message) + "\n").encode()


def test_stdout_carries_only_protocol_messages_even_while_scripts_run(tmp_path):
    """Every line the server writes to stdout is a JSON-RPC message, through a run whose scripts
    log to the console and throw; the rest (if anything) goes to stderr."""
    noisy = (
        "declare const console: { log(...items: unknown[]): void };\n"
        "const noisy: AndroidTurn = () => { console.log('hello from a script'); "
        "if (turn % 2) throw new Error('oops'); return { type: 'android.wait' }; };\nexport default noisy;\n"
    )
    requests = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "create_game", "arguments": {"name": "g"}},
        },
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {
                "name": "upload_script",
                "arguments": {"game": "g", "player": "p", "source": noisy},
            },
        },
        {
            "jsonrpc": "2.0",
            "id": 4,
            "method": "tools/call",
            "params": {
                "name": "upload_script",
                "arguments": {"game": "g", "player": "q", "source": secret_keeper("m", "r")},
            },
        },
        {
            "jsonrpc": "2.0",
            "id": 5,
            "method": "tools/call",
            "params": {
                "name": "launch_android",
                "arguments": {"game": "g", "player": "p", "script_id": "script-1"},
            },
        },
        {
            "jsonrpc": "2.0",
            "id": 6,
            "method": "tools/call",
            "params": {
                "name": "run_rounds",
                "arguments": {"game": "g", "rounds": 6},
                "_meta": {"progressToken": "t"},
            },
        },
        {
            "jsonrpc": "2.0",
            "id": 7,
            "method": "tools/call",
            "params": {"name": "get_status", "arguments": {"game": "nope"}},
        },
        {
            "jsonrpc": "2.0",
            "id": 8,
            "method": "tools/call",
            "params": {"name": "run_rounds", "arguments": {"game": "g", "rounds": "x"}},
        },
    ]
    server = subprocess.Popen(
        [*NOVA, "--root", str(tmp_path)],
        cwd=REPO,
        env=ENV,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        answered: dict[int, dict] = {}
        notifications = []
        assert server.stdin and server.stdout
        for request in requests:
            server.stdin.write(_frame(request))
            server.stdin.flush()
            if "id" not in request:
                continue
            while request["id"] not in answered:
                line = server.stdout.readline()
                assert line, (
                    f"the server closed stdout; stderr: {server.stderr.read().decode() if server.stderr else ''}"
                )
                message = json.loads(line)  # a stray print would fail here
                assert message.get("jsonrpc") == "2.0", line
                if "id" in message:
                    answered[message["id"]] = message
                else:
                    notifications.append(message)
    finally:
        server.stdin.close() if server.stdin else None
        server.wait(timeout=30)
    assert all("result" in answered[i] for i in range(1, 9)), answered
    assert not any(answered[i]["result"].get("isError") for i in range(2, 7)), answered
    assert answered[7]["result"]["isError"] is True and answered[8]["result"]["isError"] is True
    assert answered[6]["result"]["structuredContent"]["failedTurns"] == 3
    assert any(n["method"] == "notifications/progress" for n in notifications)
    assert server.returncode == 0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_http_serves_on_localhost_only(tmp_path):
    port = _free_port()
    server = subprocess.Popen(
        [*NOVA, "--root", str(tmp_path), "--http", "--port", str(port)],
        cwd=REPO,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 120  # a loaded machine starts a Python process slowly
        while True:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert server.poll() is None, server.stderr.read().decode() if server.stderr else ""
            assert time.monotonic() < deadline, "the HTTP server did not start"
            await anyio.sleep(0.1)
        listening = listening_addresses(port)
        if listening is None:
            pytest.skip("no /proc/net/tcp to read the listening address from")
        assert listening and all(ipaddress.ip_address(a).is_loopback for a in listening), listening
        with anyio.fail_after(60):
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                created = Reply(await client.call_tool("create_game", {"name": "web"}))
                assert not created.error and created.data["game"] == "web"
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert (tmp_path / "web.json").is_file()
