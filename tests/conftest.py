"""Suite-wide rules.

1. In CI (``CI=true``) a skipped test is a failed one.

A test skips locally when something it needs is missing (a command, /proc, an editor), so a quick
run on a bare machine still says something. CI runs everything: there, a skip would hide a tool
that `make test` failed to install, so it is reported as a failure that names what was missing.
Kept self-contained (no imports from the test helpers): tests/test_suite_rules.py runs it on its own
(where the tiers below do not apply).

2. Test tiers, by how much of the real thing a test starts (registered in pyproject.toml):

* ``unit``: logic in this process, no child process and no sandbox (the engine, the rules, the
  editor features as functions);
* ``inprocess``: our code in this process with its real parts (the sandbox, the tsc and esbuild
  children, the MCP server through the SDK's client);
* ``subprocess``: the real ``nova`` command, language server or peer match as separate processes,
  as a user runs them;
* ``realpart``: slow real parts (an editor, a browser, a cluster).

A file's tier is its folder's, or its own where it differs (the tables below); a test marked
``realpart`` itself keeps that. ``make test`` runs every tier; ``pytest -m unit`` is the quick
check, ``-m 'not realpart'`` everything but the slow parts. A new test folder or file that no table
places counts as ``subprocess`` and makes tests/test_tiers.py fail until it is given its tier here.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

_CI_VALUES = {"1", "true", "yes"}


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in _CI_VALUES


def _reason(longrepr: object) -> str:
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def _fail_in_ci(report: pytest.TestReport | pytest.CollectReport) -> None:
    if not (in_ci() and report.skipped) or hasattr(report, "wasxfail"):
        return
    report.outcome = "failed"
    report.longrepr = (
        f"skipped in CI: {_reason(report.longrepr)}\n"
        "CI (CI=true) runs every test: whatever this test needs must be installed by `make test`."
    )


def pytest_configure(config: pytest.Config) -> None:
    # A suite started in the background by a shell without job control (`make test &`, nohup in a
    # script) inherits SIGINT ignored, and so would every `nova` child the tests start: the tests
    # that press Ctrl-C (peer matches, nova compare) would then wait for nothing. A terminal's
    # Ctrl-C always reaches nova, so the suite restores the default before starting children.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> pytest.TestReport:
    report = yield
    _fail_in_ci(report)
    return report


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> pytest.CollectReport:
    report = yield
    _fail_in_ci(report)
    return report


# --- tiers ----------------------------------------------------------------------------------------

TIERS = ("unit", "inprocess", "subprocess", "realpart")
HERE = Path(__file__).resolve().parent

FOLDERS = {
    "engine": "unit",
    "rules": "unit",
    "store": "unit",
    "api": "inprocess",
    "lsp": "inprocess",
    "mcp": "inprocess",
    "play": "inprocess",
    "sandbox": "inprocess",
    "toolchain": "inprocess",
    "match": "subprocess",
    "cli": "subprocess",
    "arena": "subprocess",
    "starter": "inprocess",
    "editors": "realpart",
    "lab": "subprocess",  # the real `nova lab` process (its browser tests are marked realpart)
    "golden": "inprocess",  # the golden record: recorded games replayed in this process
}

FILES = {
    "engine/test_determinism_and_fairness.py": "subprocess",  # the same game in two processes
    "engine/test_reason_codes.py": "unit",
    "lsp/test_features_unit.py": "unit",
    "lsp/test_diagnostics_hub.py": "unit",
    "lsp/test_server_e2e.py": "subprocess",  # the real server over stdio (pytest-lsp)
    "lsp/test_forwarded_e2e.py": "subprocess",
    "lsp/test_forward_off.py": "subprocess",
    "lsp/test_dry_run_imports.py": "subprocess",  # nova lsp over stdio, and nova dry-run
    "lsp/test_start_registration.py": "subprocess",  # nova lsp over stdio
    "lsp/test_big_rules.py": "subprocess",  # nova lsp over stdio
    "arena/test_arena_plan_and_stats.py": "unit",
    "starter/test_starter_compare.py": "subprocess",  # nova compare
    "mcp/test_subprocess.py": "subprocess",
    "mcp/test_agent_loop.py": "subprocess",  # nova mcp over real stdio, metered
    "mcp/test_world_text.py": "unit",
    "mcp/test_hostile_requests.py": "subprocess",  # the real nova mcp over stdio
    "mcp/test_hostile_clients.py": "subprocess",  # two clients of one nova mcp --http
    "mcp/test_bounds.py": "subprocess",  # nova mcp --http under many calls: memory, workers
    "match/test_protocol.py": "inprocess",
    "play/test_one_game_loop.py": "subprocess",  # nova demo, and a second process for determinism
    "play/test_error_places.py": "subprocess",  # nova events and nova dry-run, as a user runs them
    "api/test_reads.py": "subprocess",  # compares with the CLI's --json
    "api/test_timeline.py": "subprocess",  # compares with `nova status --round` and `nova android`
    "test_layers.py": "subprocess",  # lint-imports
    "test_doctests.py": "unit",
    "test_suite_rules.py": "subprocess",  # runs pytest on a suite of its own
    "test_tiers.py": "unit",
    "test_planted_bugs_apply.py": "unit",
    "test_one_home.py": "unit",
    "test_lint.py": "subprocess",  # make lint, in copies
}


def tier_of(path: Path) -> str | None:
    relative = path.resolve().relative_to(HERE).as_posix()
    return FILES.get(relative) or FOLDERS.get(relative.split("/", 1)[0])


def untiered_files() -> list[str]:
    """Test files of the suite that no table above gives a tier (tests/test_tiers.py lists them)."""
    return sorted(
        p.relative_to(HERE).as_posix() for p in HERE.rglob("test_*.py") if tier_of(p) is None
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not (HERE / "nova_testing.py").is_file():
        return  # a copy of this file outside the suite (tests/test_suite_rules.py): no tiers there
    for item in items:
        if item.get_closest_marker("realpart") is not None:
            continue
        # a file not in the tables yet counts as the slow kind until it is placed (test_tiers.py fails)
        item.add_marker(getattr(pytest.mark, tier_of(item.path) or "subprocess"))
