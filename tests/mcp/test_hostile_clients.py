"""Issue 9 with two MCP clients on one real `nova mcp --http` server: a hostile script cannot stop
another client's games. Mallory's game runs a script that spends every turn's whole fuel ceiling
(a second or so each) and hands back what breaks serializers (lone surrogates, nesting thousands
deep, a thrown error with getters that throw); she asks for 500 rounds of it. Alice, on her own
connection, meanwhile plays a whole game and dry-runs a turn in normal time. Mallory then
cancels: her run stops within one round, keeps the rounds it played, and her next call on the
same game gets the game back at once, while Alice's game plays on."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import anyio
from mcp import Client
from nova_mcp_testing import Reply, secret_keeper

REPO = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}

# android-1 burns: 'ab'.repeat(4e6) in a loop runs into the wasm-fuel ceiling every turn (the
# calibration's slowest built-in, ~1 s of CPU at the default rules). android-2 is hostile in
# what it hands back, a different way each turn.
HOSTILE = r"""
let s = '';
const deep = (n: number): unknown => { let v: unknown = { type: 'android.wait' }; for (let i = 0; i < n; i++) v = [v]; return v; };
const t: AndroidTurn = () => {
  if (androidId === 'android-1') { for (;;) s = 'ab'.repeat(4e6); }
  console.log('\uD800 half', { note: '\uDFFF' });
  const kind = turn % 3;
  if (kind === 0) return deep(3000) as Action;
  if (kind === 1) return { type: 'android.broadcast', content: 'x\uD83D' };
  const e = new Error('m'.repeat(1 << 20));
  Object.defineProperty(e, 'name', { get() { throw e; } });
  throw e;
};
export default t;
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def _serve(root: Path) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "nova_tools.cli",
            "mcp",
            "--root",
            str(root),
            "--http",
            "--port",
            str(port),
        ],
        cwd=REPO,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120  # a loaded machine starts a Python process slowly
    while True:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return server, f"http://127.0.0.1:{port}/mcp"
        assert server.poll() is None, server.stderr.read().decode() if server.stderr else ""
        assert time.monotonic() < deadline, "the HTTP server did not start"
        await anyio.sleep(0.1)


async def _call(client: Client, tool: str, **arguments) -> Reply:
    return Reply(await client.call_tool(tool, arguments))


async def _ok(client: Client, tool: str, **arguments) -> Reply:
    reply = await _call(client, tool, **arguments)
    assert not reply.error, f"{tool}: {reply.text}"
    return reply


async def _game(client: Client, name: str, source: str, androids: int) -> None:
    await _ok(client, "create_game", name=name)
    script = (await _ok(client, "upload_script", game=name, player=name, source=source)).data[
        "scriptId"
    ]
    for _ in range(androids):
        await _ok(client, "launch_android", game=name, player=name, script_id=script)


async def test_a_hostile_script_stops_no_other_clients_game_and_its_run_cancels_within_a_round(
    tmp_path,
):
    server, url = await _serve(tmp_path)
    rounds_seen: list[float] = []
    under_way = anyio.Event()
    long_run_over = anyio.Event()

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        rounds_seen.append(done)
        if done >= 2:
            under_way.set()

    try:
        with anyio.fail_after(420):
            async with Client(url) as mallory, Client(url) as alice:
                await _game(mallory, "trap", HOSTILE, androids=2)

                async def long_run() -> None:
                    try:
                        await mallory.call_tool(
                            "run_rounds",
                            {"game": "trap", "rounds": 500},
                            progress_callback=on_progress,
                        )
                    finally:
                        long_run_over.set()

                async with anyio.create_task_group() as group:
                    group.start_soon(long_run)
                    await under_way.wait()  # two hostile rounds played, the run goes on

                    started = time.monotonic()
                    await _game(alice, "mine", secret_keeper("m", "r"), androids=1)
                    played = await _ok(alice, "run_rounds", game="mine", rounds=5)
                    dry = await _ok(
                        alice,
                        "dry_run_turn",
                        source=secret_keeper("x", "y"),
                        game="mine",
                        player="mine",
                    )
                    alice_took = time.monotonic() - started
                    assert not long_run_over.is_set()  # all of it while mallory's run went on
                    assert played.data["lastRound"] == 5 and played.data["failedTurns"] == 0, (
                        played.text
                    )
                    assert dry.data["accepted"] is True, dry.text
                    # normal time: a few quick turns and calls, not a queue behind 500 slow rounds
                    assert alice_took < 90, alice_took

                    seen = max(rounds_seen)
                    cancelled_at = time.monotonic()
                    group.cancel_scope.cancel()  # the SDK sends notifications/cancelled

                # Mallory's next call on the same game waits at most for the round in progress,
                # then plays from where the cancelled run stopped: the rounds it played were kept.
                again = await _ok(mallory, "run_rounds", game="trap", rounds=1)
                waited = time.monotonic() - cancelled_at
                stopped_after = again.data["firstRound"] - 1
                assert seen <= stopped_after <= seen + 2, (
                    seen,
                    stopped_after,
                )  # +2: a report may be in flight
                assert again.data["lastRound"] == stopped_after + 1
                round_time = again.data["seconds"]
                assert waited < 3 * round_time + 30, (waited, round_time)

                # the hostile game's file is whole, well-formed JSON; every hostile turn was judged
                trap = json.loads((tmp_path / "trap.json").read_text(encoding="utf-8"))
                turns = [e for e in trap["events"] if e["type"] == "turn"]
                codes = {e.get("code") for e in turns}
                assert {"out-of-fuel", "not-an-action", "script-error"} <= codes, codes
                assert len(turns) == 2 * again.data["lastRound"]

                # and Alice's game plays on, untouched
                more = await _ok(alice, "run_rounds", game="mine", rounds=2)
                assert more.data["firstRound"] == 6 and more.data["failedTurns"] == 0, more.text
                status = await _ok(alice, "get_status", game="mine")
                assert status.data["round"] == 7
    finally:
        server.terminate()
        server.wait(timeout=30)
        err = server.stderr.read().decode(errors="replace") if server.stderr else ""
        server.stderr and server.stderr.close()
    assert "Traceback" not in err, err
