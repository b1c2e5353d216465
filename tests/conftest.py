"""Suite-wide rule: in CI (``CI=true``) a skipped test is a failed one.

A test skips locally when something it needs is missing (a command, /proc, an editor), so a quick
run on a bare machine still says something. CI runs everything: there, a skip would hide a tool
that `make test` failed to install, so it is reported as a failure that names what was missing.
Kept self-contained (no imports from the test helpers): tests/test_suite_rules.py runs it on its own.
"""

from __future__ import annotations

import os

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
