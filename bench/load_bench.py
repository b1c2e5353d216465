"""What one `nova mcp --http` server holds: N agents at once, each an MCP SDK client over loopback,
creating games, running rounds, dry-running and comparing, for a fixed time.

    .venv/bin/python -m bench load                       # 8 agents for 120 s
    NOVA_LOAD_AGENTS=16 NOVA_LOAD_SECONDS=180 .venv/bin/python -m bench load

Reports errors (error results and failed calls), the answer latency of each tool (median, 95th
percentile, max), the server's peak resident memory and its CPU time (its workers included), and
the load average. Bounded: at most 64 agents, at most 600 s, every call under a 300 s timeout;
the server is started here and stopped at the end.
"""

from __future__ import annotations

import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import anyio
from mcp import Client

REPO = Path(__file__).resolve().parents[1]
AGENTS = min(int(os.environ.get("NOVA_LOAD_AGENTS", "8")), 64)
SECONDS = min(float(os.environ.get("NOVA_LOAD_SECONDS", "120")), 600.0)
CALL_TIMEOUT_S = 300
MiB = 1024 * 1024

WANDERER = """
const walk: AndroidTurn = () => {
  const ways: Direction[] = ['north', 'east', 'south', 'west'];
  return { type: 'android.move', direction: ways[Math.floor(Math.random() * 4)], recording: 'turn ' + turn };
};
export default walk;
"""


def status_field(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    return 0


def family_rss(pid: int) -> int:
    """Resident memory of the server and its live children (the comparison workers)."""
    total = status_field(pid, "VmRSS")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                total += status_field(int(entry.name), "VmRSS")
        except (OSError, ValueError):
            continue
    return total


def cpu_seconds(pid: int) -> float:
    """The server's CPU time with its children's that ended (workers killed or exited) and live ones."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == pid:
            total += sum(int(f) for f in fields[11:15]) / ticks  # utime stime cutime cstime
        elif int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Tally:
    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = {}
        self.errors: dict[str, int] = {}
        self.samples: list[str] = []

    def record(self, tool: str, seconds: float, error: str | None) -> None:
        self.latency.setdefault(tool, []).append(seconds)
        if error is not None:
            self.errors[tool] = self.errors.get(tool, 0) + 1
            if len(self.samples) < 5:
                self.samples.append(f"{tool}: {error[:160]}")


async def agent(url: str, number: int, until: float, tally: Tally) -> None:
    rng = random.Random(number)
    async with Client(url) as client:

        async def call(tool: str, **arguments: object) -> dict:
            started = time.monotonic()
            error: str | None = None
            data: dict = {}
            try:
                with anyio.fail_after(CALL_TIMEOUT_S):
                    result = await client.call_tool(tool, arguments)
                data = result.structured_content or {}
                if result.is_error:
                    error = " ".join(b.text for b in result.content if b.type == "text")
            except Exception as failure:  # a failed call is counted, the agent goes on
                error = f"{type(failure).__name__}: {failure}"
            tally.record(tool, time.monotonic() - started, error)
            return data

        games = 0
        while time.monotonic() < until:
            games += 1
            game = f"agent{number}-{games}"
            await call("create_game", name=game, seed=rng.randrange(1, 1000))
            mine = await call("upload_script", game=game, player="me", starter=True)
            theirs = await call("upload_script", game=game, player="rival", source=WANDERER)
            for player, uploaded in (("me", mine), ("rival", theirs)):
                if "scriptId" in uploaded:
                    await call(
                        "launch_android", game=game, player=player, script_id=uploaded["scriptId"]
                    )
            for _ in range(3):
                if time.monotonic() >= until:
                    break
                await call("run_rounds", game=game, rounds=10)
                await call("get_status", game=game)
                await call("dry_run_turn", source=WANDERER, game=game, player="me")
            if rng.random() < 0.3 and time.monotonic() < until:
                await call(
                    "compare_scripts",
                    a={"starter": True},
                    b={"source": WANDERER},
                    seeds=f"{rng.randrange(1, 50)}",
                    rounds=30,
                )


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="nova-load-") as root:
        port = free_port()
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "nova_tools.cli",
                "mcp",
                "--root",
                root,
                "--http",
                "--port",
                str(port),
            ],
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 120
            while True:
                with socket.socket() as probe:
                    if probe.connect_ex(("127.0.0.1", port)) == 0:
                        break
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("bench load: the server did not start")
                time.sleep(0.1)
            url = f"http://127.0.0.1:{port}/mcp"
            idle = status_field(server.pid, "VmRSS")
            peak = [idle, idle]
            watching = True

            def watch() -> None:
                while watching:
                    try:
                        peak[0] = max(peak[0], status_field(server.pid, "VmRSS"))
                        peak[1] = max(peak[1], family_rss(server.pid))
                    except OSError:
                        return
                    time.sleep(0.05)

            watcher = threading.Thread(target=watch, daemon=True)
            watcher.start()
            tally = Tally()
            cpu_before = cpu_seconds(server.pid)
            load_before = os.getloadavg()[0]
            started = time.monotonic()

            async def run_all() -> None:
                until = time.monotonic() + SECONDS
                with anyio.fail_after(SECONDS + CALL_TIMEOUT_S + 60):
                    async with anyio.create_task_group() as group:
                        for number in range(AGENTS):
                            group.start_soon(agent, url, number, until, tally)

            anyio.run(run_all)
            wall = time.monotonic() - started
            cpu = cpu_seconds(server.pid) - cpu_before
            time.sleep(3)
            after = status_field(server.pid, "VmRSS")
            watching = False
            watcher.join()
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
    calls = sum(len(v) for v in tally.latency.values())
    errors = sum(tally.errors.values())
    print(
        f"{AGENTS} agents for {wall:.0f} s (load average {load_before:.1f} at the start, "
        f"{os.getloadavg()[0]:.1f} at the end): {calls} calls, {errors} errors "
        f"({100 * errors / max(calls, 1):.1f}%); server CPU {cpu:.0f} s ({cpu / wall:.2f} cores)"
    )
    print(
        f"server memory: idle {idle / MiB:.0f} MiB, peak {peak[0] / MiB:.0f} MiB, "
        f"3 s after {after / MiB:.0f} MiB; with its comparison workers: peak {peak[1] / MiB:.0f} MiB"
    )
    print("tool                 calls  errors  median    p95     max   (answer latency, s)")
    for tool, values in sorted(tally.latency.items()):
        print(
            f"{tool:<20} {len(values):>5}  {tally.errors.get(tool, 0):>6}  "
            f"{statistics.median(values):6.2f}  {percentile(values, 0.95):6.2f}  {max(values):6.2f}"
        )
    for sample in tally.samples:
        print(f"  error: {sample}")
