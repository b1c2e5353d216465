"""What a player waits for: the real commands' wall time, and loading a real recorded game.

    .venv/bin/python -m bench user [--repeats N] [--rounds N]

The other benchmarks time the engine's or the sandbox's share of the work; this one times what
a user starts and waits for, with a baseline measured in the same run:

* **load a recorded game** — ``store.load`` (read the file, parse it, replay the log: every turn
  judged again, notes rebuilt) of a real starter-vs-starter game recorded at the start of the
  run with ``nova``'s own API, in events per second. Beside it, the engine-only replay of the
  same already-parsed log (what engine_bench measures on its synthetic bot) and ``json.loads`` of
  the file, so the table shows where a user's load time goes. DESIGN target: 100k events/s.
* **commands** — the wall time (and CPU time) of ``nova --help``, ``nova status`` on that
  100-round game (after ``nova run``, and on a first read), ``nova upload`` of the starter and
  ``nova run --rounds R``, each a fresh process as a user runs it (its ``__pycache__`` written,
  the status cache in a folder of the run's own), against ``python -c pass`` (the interpreter's own
  start) in the same run. DESIGN targets: upload under 0.5 s; ``--help`` and ``status`` under
  150 ms.
* **first read, by phase** — where the CPU of a ``nova status`` that has to read the game in
  full goes (interpreter start, pydantic's import, the rules and action models, the other
  imports, the replay), each phase timed in one fresh process (``PHASES_SCRIPT``).

Medians of ``--repeats`` runs; run again when the machine is quieter (``uptime``), and compare
the ratios rather than the milliseconds.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repo importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nova_tools import api, engine, starter, store, strictjson

REPLAY_TARGET = 100_000  # events/s, DESIGN section 7
UPLOAD_TARGET_S = 0.5
QUICK_COMMAND_TARGET_S = 0.15  # `nova --help`, `nova status` (DESIGN section 7, wave 2)
NOVA = [sys.executable, "-m", "nova_tools.cli"]


def record_starter_game(folder: Path, rounds: int, seed: int = 3) -> Path:
    """A real game: two players, each running the starter android (which launches a sibling,
    builds and keeps notes), played for ``rounds`` rounds."""
    path = folder / "recorded.json"
    api.create_game(path, seed=seed)
    for player in ("alice", "bob"):
        uploaded = api.upload_script(path, player, files=starter.files(), entry_name=starter.ENTRY)
        api.launch_android(path, player, uploaded.script_id)
    api.run_rounds(path, rounds)
    return path


def _median_seconds(fn, repeats: int, clock=time.perf_counter) -> float:
    times = []
    for _ in range(repeats):
        gc.collect()
        start = clock()
        fn()
        times.append(clock() - start)
    return statistics.median(times)


def measure_load(path: Path, repeats: int) -> dict:
    raw = path.read_bytes()
    game = store.load(path)
    events = len(game.events)
    parsed = json.loads(raw)

    def engine_replay() -> None:
        state = engine.from_json(parsed["initial"], game.rules)
        engine.replay(state, engine.log_from_json(parsed["events"]))

    load_s = _median_seconds(lambda: store.load(path), repeats)
    return {
        "events": events,
        "file_bytes": len(raw),
        "rounds": game.state.round,
        "load_s": load_s,
        "load_events_per_s": events / load_s,
        "parse_s": _median_seconds(lambda: json.loads(raw), repeats),
        "engine_replay_s": _median_seconds(engine_replay, repeats),
        # CPU time of this process: what the load of other jobs inflates least
        "load_cpu_s": _median_seconds(lambda: store.load(path), repeats, time.process_time),
        "engine_replay_cpu_s": _median_seconds(engine_replay, repeats, time.process_time),
        "parse_cpu_s": _median_seconds(lambda: json.loads(raw), repeats, time.process_time),
        "checked_parse_cpu_s": _median_seconds(
            lambda: checked_parse(raw), repeats, time.process_time
        ),
    }


def checked_parse(raw: bytes) -> object:
    """What store.load does before replaying: decode, parse, and check the depth and for lone
    surrogate escapes (what keeps a damaged file to one sentence)."""
    text = raw.decode("utf-8")
    data = strictjson.loads(text, store.MAX_DEPTH)
    if strictjson.may_hold_surrogates(text):
        strictjson.first_lone_surrogate(data)
    return data


def command_env(folder: Path) -> dict[str, str]:
    """The environment the timed commands run in: a user's. Python writes and reuses its
    ``__pycache__`` (a development shell's PYTHONDONTWRITEBYTECODE would charge every run for
    compiling the package), and the status cache lives under ``folder`` (not the caller's)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["NOVA_STATUS_CACHE"] = str(folder / "status-cache")
    return env


def _wall(args: list[str], prepare=None, env: dict | None = None) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one run of ``args``."""
    if prepare is not None:
        prepare()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed: {done.stderr.strip()}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure_commands(
    recorded: Path, folder: Path, repeats: int, rounds: int
) -> dict[str, dict[str, float]]:
    """Median wall and CPU seconds of each command, interleaved with the baseline so that all of
    them see the same machine load.

    ``nova status`` twice: as a player meets it after ``nova run`` (which leaves the standings of
    the file it wrote in nova's status cache, api/statuscache.py) and on a first read of a file
    nothing has scored yet (the cache emptied before each run: the file is read and replayed)."""
    env = command_env(folder)
    entry = Path(starter.scaffold(folder / "bot")[0]).parent / starter.ENTRY
    fresh = folder / "fresh.json"
    api.create_game(fresh, seed=3)
    for player in ("alice", "bob"):
        api.launch_android(
            fresh,
            player,
            api.upload_script(
                fresh, player, files=starter.files(), entry_name=starter.ENTRY
            ).script_id,
        )
    scratch = folder / "scratch.json"
    played = store.load(recorded).state.round

    def fresh_copy() -> None:
        shutil.copy(fresh, scratch)

    def forget_statuses() -> None:
        shutil.rmtree(folder / "status-cache", ignore_errors=True)

    status = [*NOVA, "status", "--file", str(recorded)]
    commands = {
        "python -c pass": ([sys.executable, "-c", "pass"], None),
        "nova --help": ([*NOVA, "--help"], None),
        f"nova status, {played} rounds, after nova run": (status, None),
        f"nova status, {played} rounds, first read": (status, forget_statuses),
        "nova upload (the starter)": (
            [*NOVA, "upload", "--file", str(scratch), "--player", "carol", str(entry)],
            fresh_copy,
        ),
        f"nova run --rounds {rounds} (two starters each)": (
            [*NOVA, "run", "--file", str(scratch), "--rounds", str(rounds)],
            fresh_copy,
        ),
    }
    for args, prepare in commands.values():  # warm: file cache, compiled sandbox, __pycache__
        _wall(args, prepare, env)
    _wall(status, None, env)  # what `nova run` leaves: this file's standings remembered
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(repeats):
        for name, (args, prepare) in commands.items():
            samples[name].append(_wall(args, prepare, env))
            if prepare is forget_statuses:
                _wall(status, None, env)  # remembered again for the next "after nova run"
    return {
        name: {
            "wall_s": statistics.median(t[0] for t in times),
            "cpu_s": statistics.median(t[1] for t in times),
        }
        for name, times in samples.items()
    }


# The first read of `nova status`, phase by phase in one fresh process, in the order the command
# meets them: where its time goes when nothing is remembered (CPU, so other jobs matter less).
PHASES_SCRIPT = """
import json, os, resource, sys, time
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")  # as `nova` itself does
T = time.process_time
usage = resource.getrusage(resource.RUSAGE_SELF)
marks = [("interpreter start", usage.ru_utime + usage.ru_stime)]
start = T()
def mark(name):
    global start
    now = T(); marks.append((name, now - start)); start = now
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator
import pydantic.plugin._loader
mark("pydantic import")
from nova_tools.rules import loading
loading.resolve({})
mark("rules models built, defaults validated")
import nova_tools.engine.wire
mark("action models built")
from nova_tools import store
from nova_tools.api.reports import status
mark("engine, store and api imports")
game = store.read(sys.argv[1])
mark("read, parse and replay")
status(game).to_json()
mark("standings")
print(json.dumps(marks))
"""


def measure_first_read_phases(recorded: Path, repeats: int) -> dict[str, float]:
    """Median CPU seconds of each phase of a first read (PHASES_SCRIPT), each run a fresh process."""
    runs = []
    for _ in range(repeats):
        done = subprocess.run(
            [sys.executable, "-c", PHASES_SCRIPT, str(recorded)],
            capture_output=True,
            text=True,
            check=True,
        )
        runs.append(dict(json.loads(done.stdout)))
    return {name: statistics.median(run[name] for run in runs) for name in runs[0]}


def report(
    load: dict, commands: dict[str, float], repeats: int, phases: dict[str, float] | None = None
) -> str:
    python = commands["python -c pass"]
    lines = [
        f"user-facing figures (wall time, medians of {repeats})",
        "",
        f"  load a recorded starter game (store.load: read + parse + replay), {load['rounds']} rounds, "
        f"{load['events']:,} events, {load['file_bytes'] / 1024:,.0f} KB:",
        f"    store.load                      {load['load_s'] * 1000:8.1f} ms  {load['load_events_per_s']:>10,.0f} events/s   "
        f"(cpu {load['load_cpu_s'] * 1000:.1f} ms: {load['events'] / load['load_cpu_s']:,.0f} events/s)   "
        f"target >= {REPLAY_TARGET:,}  {'OK' if load['load_events_per_s'] >= REPLAY_TARGET else 'BELOW TARGET'}",
        f"    of which engine replay alone    {load['engine_replay_s'] * 1000:8.1f} ms  {load['events'] / load['engine_replay_s']:>10,.0f} events/s   "
        f"(cpu {load['engine_replay_cpu_s'] * 1000:.1f} ms: {load['events'] / load['engine_replay_cpu_s']:,.0f} events/s)",
        f"    baseline: json.loads of the file {load['parse_s'] * 1000:7.1f} ms  {load['events'] / load['parse_s']:>10,.0f} events/s   "
        f"(cpu {load['parse_cpu_s'] * 1000:.1f} ms; with store's depth and surrogate checks {load['checked_parse_cpu_s'] * 1000:.1f} ms)",
        "",
        "  commands, each a fresh process:",
    ]
    for name, figures in commands.items():
        seconds, cpu = figures["wall_s"], figures["cpu_s"]
        target = (
            UPLOAD_TARGET_S
            if "upload" in name
            else QUICK_COMMAND_TARGET_S
            if ("--help" in name or "status" in name)
            else None
        )
        verdict = (
            f"   target < {target * 1000:.0f} ms: wall {'OK' if seconds < target else 'OVER'}, cpu {'OK' if cpu < target else 'OVER'}"
            if target
            else ""
        )
        ratio = (
            ""
            if name == "python -c pass"
            else f"  {seconds / python['wall_s']:5.1f}x python -c pass"
        )
        lines.append(
            f"    {name:44s} {seconds * 1000:8.1f} ms (cpu {cpu * 1000:6.1f} ms){ratio}{verdict}"
        )
    if phases:
        total = sum(phases.values())
        lines += [
            "",
            f"  first read of nova status, CPU by phase in one fresh process (medians, {total * 1000:.0f} ms in all):",
        ]
        lines += [
            f"    {name:44s} {cpu * 1000:8.1f} ms  {cpu / total:4.0%}"
            for name, cpu in phases.items()
        ]
    return "\n".join(lines)


def measure(
    repeats: int = 7, rounds: int = 100, run_rounds: int = 10
) -> tuple[dict, dict[str, float], dict[str, float]]:
    with tempfile.TemporaryDirectory(prefix="nova-user-bench-") as tmp:
        folder = Path(tmp)
        recorded = record_starter_game(folder, rounds)
        load = measure_load(recorded, repeats)
        commands = measure_commands(recorded, folder, repeats, run_rounds)
        phases = measure_first_read_phases(recorded, repeats)
    return load, commands, phases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument(
        "--rounds", type=int, default=100, help="rounds of the recorded game that is loaded"
    )
    parser.add_argument("--run-rounds", type=int, default=10, help="rounds of the timed `nova run`")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv if argv is not None else [])
    load, commands, phases = measure(args.repeats, args.rounds, args.run_rounds)
    print(
        json.dumps({"load": load, "commands": commands, "firstReadPhases": phases}, indent=2)
        if args.json
        else report(load, commands, args.repeats, phases)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
