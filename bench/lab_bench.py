"""The lab's viewer in a real browser: opening a long game, and moving the scrubber.

    .venv/bin/python -m bench lab [--rounds 500] [--players 4] [--repeats 5] [--scrubs 60] [--json]

A game of ``--players`` starter androids is played for ``--rounds`` rounds (500 and 4 by
default: the issue's figure), a real ``nova lab`` serves it, and Debian's Chromium, driven by
Playwright, opens it in the viewer:

* **open** — from the start of navigation to the board drawn with the whole timeline loaded
  (the page's own ``performance`` mark), cold (a freshly started lab, which replays the game to
  build its timeline: it starts on its own as the lab starts, prepare_recent, and the page,
  navigated at once, waits for it) and warm (the lab has it already). Beside it, in the same run, what the
  server's part costs alone: ``api.replay_timeline`` of the game in this process, and the
  timeline's JSON fetched over HTTP from the warm lab. Target: under 1 s.
* **scrub** — the scrubber moved to ``--scrubs`` rounds picked at random (seeded): the time in
  the page from the input event to the next animation frame (the board redrawn and about to be
  painted). Baseline in the same page: an animation frame with nothing to draw. Target: under
  50 ms for any round (the 95th percentile and the maximum are reported beside the median;
  the draw alone, from the input event to the board drawn, too).

The machine is shared: read the ratios, and run again when ``uptime`` shows a lower load.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repo importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nova_tools import api

OPEN_TARGET_S = 1.0
SCRUB_TARGET_MS = 50.0
PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def record_game(folder: Path, rounds: int, players: int, seed: int = 7) -> Path:
    path = folder / "long.json"
    api.play_run(
        path, [(p, api.starter_entry()) for p in PLAYERS[:players]], rounds=rounds, seed=seed
    )
    return path


class LabServer:
    """A real `nova lab` process over ``root``."""

    def __init__(self, root: Path) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "nova_tools.cli",
                "lab",
                "--root",
                str(root),
                "--port",
                "0",
                "--no-browser",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        ready, _, _ = select.select([self.process.stdout], [], [], 60)
        if not ready:
            self.stop()
            raise RuntimeError("nova lab did not print its URL within 60 s")
        self.url = self.process.stdout.readline().strip()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout:
            self.process.stdout.close()


def open_once(browser, url: str) -> float:
    """Seconds from navigation to the viewer loaded, as the browser timed it."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(url + "#/replay/long")
    page.wait_for_selector(".replay-page[data-loaded=yes]")
    loaded = page.evaluate("performance.getEntriesByName('nova-replay-loaded')[0].startTime")
    context.close()
    return loaded / 1000


SCRUB_SCRIPT = """
async ([targets]) => {
  const range = document.querySelector('.scrubber-range');
  const canvas = document.querySelector('canvas.board');
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const idle = [];
  for (let i = 0; i < 20; i++) {
    await frame();
    const start = performance.now();
    await frame();
    idle.push(performance.now() - start);
  }
  const moves = [];
  for (const target of targets) {
    await frame();
    const start = performance.now();
    range.value = String(target);
    range.dispatchEvent(new Event('input'));
    const drawn = performance.now();
    await frame();
    moves.push({ target, drawMs: drawn - start, frameMs: performance.now() - start, round: Number(canvas.dataset.round) });
  }
  return { idle, moves, frames: Number(range.max) + 1 };
}
"""


def scrub(browser, url: str, count: int, seed: int = 1) -> dict:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(url + "#/replay/long?round=0")
    page.wait_for_selector(".replay-page[data-loaded=yes]")
    frames = int(page.locator(".scrubber-range").get_attribute("max")) + 1
    picker = random.Random(seed)
    targets = [picker.randrange(frames) for _ in range(count)] + [frames - 1, 0]
    result = page.evaluate(SCRUB_SCRIPT, [targets])
    context.close()
    return result


def measure(rounds: int, players: int, repeats: int, scrubs: int, browser=None) -> dict:
    """The figures; ``browser``: a Playwright browser already running (else Chromium is started)."""
    if browser is None:
        from playwright.sync_api import sync_playwright

        executable = os.environ.get("NOVA_CHROMIUM") or shutil.which("chromium")
        if not executable:
            raise SystemExit(
                "bench lab: no chromium (apt-get install -y chromium; `make bench` installs it)"
            )
        with sync_playwright() as playwright:
            launched = playwright.chromium.launch(executable_path=executable, args=FLAGS)
            try:
                return measure(rounds, players, repeats, scrubs, launched)
            finally:
                launched.close()
    with tempfile.TemporaryDirectory(prefix="nova-lab-bench-") as scratch:
        root = Path(scratch)
        start = time.perf_counter()
        game = record_game(root, rounds, players)
        played_s = time.perf_counter() - start
        loaded = api.open_game(game)
        timeline_s = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            api.replay_timeline(loaded).to_json()
            timeline_s.append(time.perf_counter() - t0)
        cold, warm, fetch_s = [], [], []
        size = 0
        scrubbed: dict | None = None
        for _ in range(repeats):
            server = LabServer(root)
            try:
                cold.append(open_once(browser, server.url))
                warm.append(open_once(browser, server.url))
                t0 = time.perf_counter()
                with urllib.request.urlopen(
                    server.url + "api/games/long/timeline", timeout=120
                ) as response:
                    size = len(response.read())
                fetch_s.append(time.perf_counter() - t0)
                if scrubbed is None:  # one page of scrubs is enough
                    scrubbed = scrub(browser, server.url, scrubs)
            finally:
                server.stop()
    moves = scrubbed["moves"]
    # a run's frames are setup (round 0), then one per round: a frame's index is its round
    wrong = [m for m in moves if m["round"] != m["target"]]
    return {
        "rounds": rounds,
        "players": players,
        "events": len(loaded.events),
        "played_s": round(played_s, 2),
        "timeline_bytes": size,
        "api_timeline_s": statistics.median(timeline_s),
        "fetch_warm_s": statistics.median(fetch_s),
        "open_cold_s": statistics.median(cold),
        "open_cold_max_s": max(cold),
        "open_warm_s": statistics.median(warm),
        "scrub_draw_ms": statistics.median(m["drawMs"] for m in moves),
        "scrub_draw_max_ms": max(m["drawMs"] for m in moves),
        "scrub_frame_p95_ms": statistics.quantiles([m["frameMs"] for m in moves], n=20)[-1],
        "scrub_frame_ms": statistics.median(m["frameMs"] for m in moves),
        "scrub_frame_max_ms": max(m["frameMs"] for m in moves),
        "idle_frame_ms": statistics.median(scrubbed["idle"]),
        "scrubs": len(moves),
        "scrubs_off_round": len(wrong),
        "repeats": repeats,
        "load": os.getloadavg()[0],
    }


def report(r: dict) -> str:
    ok = lambda good: "ok" if good else "OVER TARGET"  # noqa: E731
    return "\n".join(
        [
            f"a {r['rounds']}-round, {r['players']}-player game ({r['events']} events, played in {r['played_s']} s); "
            f"its timeline is {r['timeline_bytes'] / 1024:.0f} KiB of JSON; load average {r['load']:.1f}",
            f"open in the viewer, cold lab      {r['open_cold_s'] * 1000:7.0f} ms median (max {r['open_cold_max_s'] * 1000:.0f})"
            f"   target < {OPEN_TARGET_S * 1000:.0f} ms: {ok(r['open_cold_max_s'] < OPEN_TARGET_S)}",
            f"open in the viewer, warm lab      {r['open_warm_s'] * 1000:7.0f} ms median",
            f"  baseline: api.replay_timeline   {r['api_timeline_s'] * 1000:7.0f} ms in process (cold open = {r['open_cold_s'] / r['api_timeline_s']:.1f}x)",
            f"  baseline: timeline over HTTP    {r['fetch_warm_s'] * 1000:7.0f} ms from the warm lab (warm open = {r['open_warm_s'] / r['fetch_warm_s']:.1f}x)",
            f"scrub to a random round, redrawn  {r['scrub_draw_ms']:7.1f} ms median, max {r['scrub_draw_max_ms']:.1f} (draw only)",
            f"  to the next animation frame     {r['scrub_frame_ms']:7.1f} ms median, 95th percentile {r['scrub_frame_p95_ms']:.1f}, max {r['scrub_frame_max_ms']:.1f}"
            f"   target < {SCRUB_TARGET_MS:.0f} ms: {ok(r['scrub_frame_max_ms'] < SCRUB_TARGET_MS)}",
            f"  baseline: an idle frame         {r['idle_frame_ms']:7.1f} ms (scrub = {r['scrub_frame_ms'] / r['idle_frame_ms']:.2f}x)",
            f"({r['scrubs']} scrubs, {r['scrubs_off_round']} landed off their round; {r['repeats']} cold and warm opens)",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--scrubs", type=int, default=60)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv if argv is not None else [])
    figures = measure(args.rounds, args.players, args.repeats, args.scrubs)
    print(json.dumps(figures, indent=2) if args.json else report(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
