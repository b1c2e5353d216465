"""Test tiers, by how much of the real thing a test starts (registered in pyproject.toml):

* ``unit``: logic in this process, no child process and no sandbox (the engine, the rules, the
  editor features as functions);
* ``inprocess``: our code in this process with its real parts (the sandbox, the tsc and esbuild
  children, the MCP server through the SDK's client);
* ``subprocess``: the real ``nova`` command, language server or peer match as separate processes,
  as a user runs them;
* ``realpart``: slow real parts (an editor, a browser, a cluster).

A file's tier is its folder's, or its own where it differs (the tables below); a test marked
``realpart`` itself keeps that. ``make test`` runs every tier; ``pytest -m unit`` is the quick
check, ``-m 'not realpart'`` everything but the slow parts. A new test folder or file that fits
no tier stops the run until it is given one here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

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
    "editors": "realpart",
}

FILES = {
    "engine/test_determinism_and_fairness.py": "subprocess",  # the same game in two processes
    "engine/test_reason_codes.py": "unit",
    "lsp/test_features_unit.py": "unit",
    "lsp/test_diagnostics_hub.py": "unit",
    "lsp/test_server_e2e.py": "subprocess",  # the real server over stdio (pytest-lsp)
    "lsp/test_forwarded_e2e.py": "subprocess",
    "lsp/test_forward_off.py": "subprocess",
    "arena/test_arena_plan_and_stats.py": "unit",
    "mcp/test_subprocess.py": "subprocess",
    "match/test_protocol.py": "inprocess",
    "play/test_one_game_loop.py": "subprocess",  # nova demo, and a second process for determinism
    "api/test_reads.py": "subprocess",  # compares with the CLI's --json
    "test_layers.py": "subprocess",  # lint-imports
    "test_doctests.py": "unit",
}


def tier_of(path: Path) -> str | None:
    relative = path.resolve().relative_to(HERE).as_posix()
    return FILES.get(relative) or FOLDERS.get(relative.split("/", 1)[0])


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    untiered = set()
    for item in items:
        if item.get_closest_marker("realpart") is not None:
            continue
        tier = tier_of(item.path)
        if tier is None:
            untiered.add(str(item.path.relative_to(HERE)))
            continue
        item.add_marker(getattr(pytest.mark, tier))
    if untiered:
        raise pytest.UsageError(f"give these test files a tier in tests/conftest.py (one of {', '.join(TIERS)}): {', '.join(sorted(untiered))}")
