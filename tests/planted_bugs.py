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
        "charged = compiled.fuel + (loaded.load_fuel if loaded is not None else 0)",
        "charged = loaded.load_fuel if loaded is not None else 0",
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
