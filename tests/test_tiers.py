"""Every test file of the suite has a tier (tests/conftest.py), and the tiers cover the suite."""

from __future__ import annotations

import importlib.util
from pathlib import Path

# this folder's conftest.py by its path: `import conftest` could find another folder's
_SPEC = importlib.util.spec_from_file_location("nova_suite_conftest", Path(__file__).with_name("conftest.py"))
suite = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(suite)


def test_every_test_file_has_a_tier() -> None:
    untiered = suite.untiered_files()
    assert not untiered, f"give these test files a tier in tests/conftest.py (FOLDERS or FILES): {', '.join(untiered)}"


def test_the_tables_name_files_that_exist() -> None:
    missing = [name for name in suite.FILES if not (suite.HERE / name).is_file()]
    assert not missing, f"tests/conftest.py gives a tier to files that are gone: {', '.join(missing)}"
