"""`nova mcp --http` under many calls at once stays within bounds a machine can hold: at most
``--max-turns`` turns run at once (the others wait, bounded, or are refused in one sentence), a
turn's large heap is given back when it ends, and a cancelled ``compare_scripts`` stops its games
within a second. Measured on the real server process: its resident memory from /proc, its worker
processes' CPU time."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client
from nova_mcp_testing import Reply

from nova_tools.rules.budgets import MAX_HEAP_BYTES, min_timeout_ms

REPO = Path(__file__).resolve().parents[2]
NOVA = [sys.executable, "-m", "nova_tools.cli", "mcp"]
ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}
MiB = 1024 * 1024

MAX_TURNS = 2
CALLS = 8
# Nine 100 MiB typed arrays, each filled (touched): a 900 MiB heap.
BIG_HEAP = """
const big: AndroidTurn = () => {
  const kept: Uint8Array[] = [];
  for (let i = 0; i < 9; i++) { const block = new Uint8Array(100 * 1024 * 1024); block.fill(i + 1); kept.push(block); }
  return { type: 'android.wait', recording: 'held ' + kept.length * 100 + ' MiB' };
};
export default big;
"""
BIG_RULES = {"script": {"memory": MAX_HEAP_BYTES, "timeoutMs": min_timeout_ms(200, MAX_HEAP_BYTES)}}
# What the server may hold at the peak: its idle size, MAX_TURNS turns at the largest heap the
# rules allow, and 300 MiB for compiling, the bundles and allocator slack.
PEAK_BOUND = MAX_TURNS * (MAX_HEAP_BYTES + 64 * MiB) + 300 * MiB
# "Near its idle size" afterwards.
AFTER_BOUND = 120 * MiB


def rss(pid: int, field: str = "VmRSS") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no {field} in /proc/{pid}/status")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    def __init__(self, root: Path, *extra: str) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            [*NOVA, "--root", str(root), "--http", "--port", str(self.port), *extra],
            cwd=REPO,
            env=ENV,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 120
        while True:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    break
            assert self.process.poll() is None, self.process.stderr.read().decode()
            assert time.monotonic() < deadline, "the HTTP server did not start"
            time.sleep(0.1)
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.peak = 0
        self._watching = False

    def watch(self) -> None:
        """Sample the server's resident memory every 20 ms until ``stop_watching``."""
        self._watching = True

        def sample() -> None:
            while self._watching:
                try:
                    self.peak = max(self.peak, rss(self.process.pid))
                except (FileNotFoundError, ProcessLookupError):
                    return
                time.sleep(0.02)

        self._watcher = threading.Thread(target=sample, daemon=True)
        self._watcher.start()

    def stop_watching(self) -> int:
        self._watching = False
        self._watcher.join()
        return self.peak

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


@pytest.fixture
def server(tmp_path: Path):
    running = Server(tmp_path, "--max-turns", str(MAX_TURNS))
    try:
        yield running
    finally:
        running.stop()


async def tool(client: Client, tool_name: str, /, **arguments) -> Reply:
    return Reply(await client.call_tool(tool_name, arguments))


async def test_eight_dry_runs_of_a_900_mib_heap_stay_under_the_bound_and_the_memory_comes_back(
    server: Server,
) -> None:
    with anyio.fail_after(600):
        async with Client(server.url) as client:
            made = await tool(client, "create_game", name="heavy", rules=BIG_RULES)
            assert not made.error, made.text
            up = await tool(client, "upload_script", game="heavy", player="ann", starter=True)
            assert not up.error, up.text
            launched = await tool(
                client, "launch_android", game="heavy", player="ann", script_id=up.data["scriptId"]
            )
            assert not launched.error, launched.text
            warm = await tool(
                client,
                "dry_run_turn",
                source=BIG_HEAP.replace("i < 9", "i < 0"),
                game="heavy",
                player="ann",
            )
            assert not warm.error and warm.data["accepted"], warm.text
        idle = rss(server.process.pid)
        server.watch()
        results: list[Reply] = []

        async def one() -> None:
            async with Client(server.url) as own:
                results.append(
                    await tool(own, "dry_run_turn", source=BIG_HEAP, game="heavy", player="ann")
                )

        async with anyio.create_task_group() as group:
            for _ in range(CALLS):
                group.start_soon(one)
        peak = server.stop_watching()
        after = rss(server.process.pid)
    print(f"idle {idle // MiB} MiB, peak {peak // MiB} MiB, after {after // MiB} MiB")
    assert len(results) == CALLS
    for reply in results:
        assert not reply.error, reply.text
        assert reply.data["accepted"], reply.text
        assert "held 900 MiB" in json.dumps(reply.data), reply.text
    assert peak - idle < PEAK_BOUND, f"the server grew from {idle // MiB} to {peak // MiB} MiB"
    assert peak - idle > MAX_HEAP_BYTES * 0.8, (
        "the turns did not hold their heap: a test that cannot fail"
    )
    assert after - idle < AFTER_BOUND, (
        f"the server stayed at {after // MiB} MiB after the calls (idle: {idle // MiB} MiB)"
    )


def children_cpu(pid: int) -> dict[int, float]:
    """CPU seconds (user + system) of each live child process of ``pid``."""
    ticks = os.sysconf("SC_CLK_TCK")
    found: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found[int(entry.name)] = (int(fields[11]) + int(fields[12])) / ticks
    return found


def cpu_over(pid: int, seconds: float) -> float:
    """CPU seconds the children of ``pid`` spent over the next ``seconds`` (a child that ended
    counts what it had spent)."""
    before = children_cpu(pid)
    time.sleep(seconds)
    after = children_cpu(pid)
    return sum(after.get(child, spent) - spent for child, spent in before.items()) + sum(
        spent for child, spent in after.items() if child not in before
    )


async def test_cancelled_comparisons_leave_no_worker_busy_a_second_later(server: Server) -> None:
    long_call = {"a": {"starter": True}, "b": {"starter": True}, "seeds": "1-20", "rounds": 300}
    with anyio.fail_after(300):
        async with Client(server.url) as first, Client(server.url) as second:
            cancelled_after: list[float] = []
            busy: list[float] = []
            playing = anyio.Event()

            async def abandon(client: Client) -> None:
                # cancelled once the workers are seen playing (on a loaded machine their start
                # and the starter's compile can take a while)
                with anyio.CancelScope() as scope:
                    async with anyio.create_task_group() as inner:

                        async def cancel_when_playing() -> None:
                            await playing.wait()
                            scope.cancel()

                        inner.start_soon(cancel_when_playing)
                        await client.call_tool("compare_scripts", long_call)
                        raise AssertionError("a 40-game comparison of 300 rounds ended at once")
                cancelled_after.append(time.monotonic())

            async def measure_while_playing() -> None:
                # the workers play until the cancel: wait (up to a minute) until they spend CPU
                for _ in range(60):
                    spent = await anyio.to_thread.run_sync(cpu_over, server.process.pid, 1.0)
                    if spent > 0.05:
                        busy.append(spent)
                        break
                playing.set()

            async with anyio.create_task_group() as group:
                group.start_soon(abandon, first)
                group.start_soon(abandon, second)
                group.start_soon(measure_while_playing)
            await anyio.sleep(max(0.0, cancelled_after[-1] + 1.0 - time.monotonic()))
            idle = await anyio.to_thread.run_sync(cpu_over, server.process.pid, 1.0)
            # and the server still compares afterwards, on fresh workers
            quick = await first.call_tool(
                "compare_scripts",
                {"a": {"starter": True}, "b": {"starter": True}, "seeds": "1", "rounds": 5},
            )
    print(f"workers' CPU: {busy} s in 1 s while playing, {idle:.2f} s a second after the cancel")
    assert busy, "the workers were never seen playing within a minute: a test that cannot fail"
    assert idle < 0.1, (
        f"the workers spent {idle:.2f} s of CPU in the second after the calls were cancelled"
    )
    assert not quick.is_error and quick.structured_content["played"] == 2
