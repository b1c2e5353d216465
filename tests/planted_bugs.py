"""Plant known one-line bugs, each alone, in a scratch copy of the repository, and check that the
suite catches every one (issue 17: tests that catch what they claim).

    .venv/bin/python tests/planted_bugs.py [NAME ...] [--all-failures] [--control]

For each bug: copy the working tree to a temporary folder (node_modules linked, not copied),
apply the edit there, run the named tests with that copy first on the import path, and report
which test failed first (``--all-failures``: every test that failed). A bug the tests do not
catch, or an edit that no longer applies because the code moved, makes the exit status non-zero.
This is slow (minutes per bug), so `make test` does not run it; `make planted-bugs` does.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Bug:
    name: str
    what: str  # the bug, as a user would meet it
    file: str
    old: str  # must occur exactly once in ``file``
    new: str
    tests: tuple[str, ...]  # what to run: the suites that ought to notice


BUGS = (
    Bug(
        "scoring-second-building",
        "a second building of a type adds no points",
        "nova_tools/engine/scoring.py",
        'building_points.get(building.type, 0) + scoring["buildings"][building.type]',
        'scoring["buildings"][building.type]',
        ("tests/engine", "tests/cli/test_reports.py"),
    ),
    Bug(
        "save-in-place",
        "the game file is written in place, not atomically",
        "nova_tools/store.py",
        "    path = real_path(Path(path))\n",  # the first line of write_atomic
        "    path = real_path(Path(path))\n"
        '    with open(path, "wb") as handle:\n'
        "        handle.write(data)\n"
        "    return\n",
        ("tests/api/test_saving.py", "tests/cli/test_refusals.py"),
    ),
    Bug(
        "compile-not-charged",
        "a turn is not charged the wasm fuel of compiling its bundle",
        "nova_tools/sandbox/runner.py",
        "        charged = compiled.fuel\n",
        "        charged = 0\n",
        ("tests/sandbox",),
    ),
    Bug(
        "top-level-not-charged",
        "a turn starting from an image with its module's top level evaluated is not charged it",
        "nova_tools/sandbox/runner.py",
        "charged += loaded.load_fuel + loaded.top_fuel",
        "charged += loaded.load_fuel",
        ("tests/sandbox",),
    ),
    Bug(
        "view-shows-notes",
        "the world a script is given shows other players' memory and recording",
        "nova_tools/engine/view.py",
        '"memory": android.memory if private else REDACTED,\n        "recording": android.recording if private else REDACTED,',
        '"memory": android.memory,\n        "recording": android.recording,',
        ("tests/mcp",),  # the MCP suite alone: the engine's own tests catch it too
    ),
    Bug(
        "http-all-interfaces",
        "`nova mcp --http` listens on every interface, not only on 127.0.0.1",
        "nova_tools/mcp/__init__.py",
        'LOCALHOST = "127.0.0.1"',
        'LOCALHOST = "0.0.0.0"',
        ("tests/mcp/test_subprocess.py",),
    ),
    # issue 26: one plant in each place where the suite was weak, each caught by the tests
    # written for that place (not by the ones that happened to exist)
    Bug(
        "second-script-never-wins",
        "a comparison counts every decided game as the first script's win",
        "nova_tools/arena/summary.py",
        "elif winner == index:",
        "elif index == 0:",
        ("tests/arena/test_second_script_wins.py",),
    ),
    Bug(
        "status-cache-by-prefix",
        "the status cache keys a file by its first 16 KiB, so a longer game keeps a stale standing",
        "nova_tools/api/statuscache.py",
        'code_identity().encode() + b"\\0" + raw)',
        'code_identity().encode() + b"\\0" + raw[:16384])',
        ("tests/api/test_status_cache.py",),
    ),
    Bug(
        "lengths-in-code-points",
        "memory, recording and broadcast limits count code points, not UTF-16 units",
        "nova_tools/limits.py",
        'return len(text.encode("utf-16-le", "surrogatepass")) // 2',
        "return len(text)",
        ("tests/engine/test_text_lengths.py",),
    ),
    Bug(
        "site-gives-sight",
        "a scanner or radar still under construction already extends its owner's sight",
        "nova_tools/engine/visibility.py",
        "if building.complete and building.owner in parts:",
        "if building.owner in parts:",
        ("tests/engine/test_sites_are_not_buildings.py",),
    ),
    Bug(
        "site-gives-capacity",
        "a charger still under construction already raises the android cap",
        "nova_tools/engine/players.py",
        "        if b.owner == player and b.complete\n    )",
        "        if b.owner == player\n    )",
        ("tests/engine/test_sites_are_not_buildings.py",),
    ),
    Bug(
        "random-seed-fixed",
        "Math.random gives the same values every round",
        "nova_tools/engine/rounds.py",
        'derive(state.seed, "turn", android_id, state.round)',
        'derive(state.seed, "turn", android_id, 0)',
        ("tests/play/test_random_seeds.py",),
    ),
    Bug(
        "turn-order-stuck",
        "from round 25 on, the same player leads every round (a game shifts from one round on)",
        "nova_tools/engine/rounds.py",
        "    lead = (state.round - 1) % len(queues)\n",
        "    lead = (state.round - 1) % len(queues) if state.round < 25 else 0\n",
        ("tests/golden",),
    ),
    Bug(
        "turns-unbounded",
        "the MCP server runs every turn at once, however many (no --max-turns bound)",
        "nova_tools/play/runner.py",
        "while self.busy() >= self.limit:",
        "while False:",
        ("tests/play/test_turn_limit.py", "tests/mcp/test_bounds.py"),
    ),
    Bug(
        "heap-kept",
        "a sandbox keeps a turn's 900 MiB heap after the turn",
        "nova_tools/play/runner.py",
        "        sandbox.release_memory(above=KEEP_MEMORY_BYTES)  # a large heap goes back at once\n",
        "",
        ("tests/mcp/test_bounds.py",),
    ),
    Bug(
        "compare-ignores-cancel",
        "a cancelled compare_scripts call plays on",
        "nova_tools/mcp/tools/compare_scripts.py",
        "        finally:\n            stop.set()\n",
        "        finally:\n            pass\n",
        ("tests/mcp/test_bounds.py",),
    ),
    Bug(
        "lock-by-path",
        "a game's lock is kept beside the path given, so a writer through a link does not wait",
        "nova_tools/store.py",
        "    real = real_path(path)\n    return real.with_name(",
        "    real = path\n    return real.with_name(",
        ("tests/cli/test_two_writers.py",),
    ),
    Bug(
        "lab-view-for-anyone",
        "the lab serves the timeline it read for one player to every player",
        "nova_tools/lab/reads.py",
        'self._kept(("timeline", name, player, round), path, compute)',
        'self._kept(("timeline", name, round), path, compute)',
        ("tests/lab/test_player_views.py",),
    ),
    Bug(
        "editor-columns-in-code-points",
        "the language server's columns count code points, so a range after an emoji is off by one",
        "nova_tools/lsp/textpos.py",
        "line=line, character=utf16_length(self.text[self.starts[line] : offset])",
        "line=line, character=len(self.text[self.starts[line] : offset])",
        ("tests/lsp/test_positions_whole.py",),
    ),
    Bug(
        "lab-trusts-length",
        "the lab reads a body whatever its Content-Length says",
        "nova_tools/lab/guard.py",
        "if int(length) > MAX_BODY:",
        "if False:",
        ("tests/lab/test_body_limit.py",),
    ),
)


def scratch_copy(into: Path) -> Path:
    copy = into / "repo"
    ignore = shutil.ignore_patterns(
        ".git", ".venv", "node_modules", "__pycache__", ".pytest_cache", "mutants", "*.egg-info"
    )
    shutil.copytree(REPO, copy, ignore=ignore, symlinks=True)
    if (REPO / "node_modules").is_dir():
        (copy / "node_modules").symlink_to(REPO / "node_modules")
    return copy


def plant(bug: Bug, copy: Path, *, dry_run: bool = False) -> None:
    path = copy / bug.file
    text = path.read_text(encoding="utf-8")
    found = text.count(bug.old)
    if found != 1:
        raise LookupError(
            f"{bug.file} holds the code to break {found} times, not once: update BUGS in {Path(__file__).name}"
        )
    if not dry_run:
        path.write_text(text.replace(bug.old, bug.new), encoding="utf-8")


def run_tests(bug: Bug, copy: Path, all_failures: bool) -> tuple[int, list[str], float]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(copy), str(copy / "tests")]),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    args = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-rf",
        "--no-header",
        *bug.tests,
    ]
    if not all_failures:
        args.insert(4, "-x")
    started = time.monotonic()
    done = subprocess.run(args, cwd=copy, env=env, capture_output=True, text=True)
    failed = [
        line.split(" ", 1)[1].split(" - ")[0]
        for line in done.stdout.splitlines()
        if line.startswith("FAILED ")
    ]
    return done.returncode, failed, time.monotonic() - started


def check(bug: Bug, all_failures: bool, control: bool) -> bool:
    with tempfile.TemporaryDirectory(prefix=f"nova-planted-{bug.name}-") as folder:
        copy = scratch_copy(Path(folder))
        try:  # before the control run, so a bug that no longer applies is said at once
            plant(bug, copy, dry_run=True)
        except LookupError as error:
            print(f"[{bug.name}] cannot plant: {error}")
            return False
        if control:  # the same tests on the unbroken copy must pass, or a "catch" proves nothing
            code, failed, seconds = run_tests(bug, copy, all_failures)
            print(
                f"[{bug.name}] control, nothing planted: {'passed' if code == 0 else 'FAILED'} in {seconds:.0f} s"
            )
            for test in failed:
                print(f"    failed: {test}")
            if code != 0:
                return False
        try:
            plant(bug, copy)
        except LookupError as error:
            print(f"[{bug.name}] cannot plant: {error}")
            return False
        code, failed, seconds = run_tests(bug, copy, all_failures)
    caught = code == 1 and bool(failed)
    print(
        f"[{bug.name}] {bug.what} ({bug.file}): {'CAUGHT' if caught else 'NOT CAUGHT'} by "
        f"{' '.join(bug.tests)} in {seconds:.0f} s (pytest exit {code})"
    )
    for test in failed:
        print(f"    failed: {test}")
    return caught


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "names",
        nargs="*",
        help=f"bugs to plant (default: all of {', '.join(b.name for b in BUGS)})",
    )
    parser.add_argument(
        "--all-failures",
        action="store_true",
        help="run the whole of each bug's tests, not up to the first failure",
    )
    parser.add_argument(
        "--control",
        action="store_true",
        help="first run each bug's tests on the unbroken copy (they must pass)",
    )
    args = parser.parse_args(argv)
    unknown = set(args.names) - {b.name for b in BUGS}
    if unknown:
        parser.error(f"no planted bug called {', '.join(sorted(unknown))}")
    chosen = [b for b in BUGS if not args.names or b.name in args.names]
    results = [check(bug, args.all_failures, args.control) for bug in chosen]
    return 0 if all(results) else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
