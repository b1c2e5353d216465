"""Every test file of the suite has a tier (tests/conftest.py), and the tiers cover the suite."""

from __future__ import annotations

import importlib.util
from pathlib import Path

# Load tests/conftest.py by path: `import conftest` picks whichever sub-folder conftest
# pytest registered first under that name (tests/mcp/conftest.py in CI's order).
_SPEC = importlib.util.spec_from_file_location(
    "nova_tests_root_conftest", Path(__file__).with_name("conftest.py")
)
assert _SPEC is not None and _SPEC.loader is not None
conftest = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(conftest)


def test_every_test_file_has_a_tier() -> None:
    untiered = conftest.untiered_files()
    assert not untiered, (
        f"give these test files a tier in tests/conftest.py (FOLDERS or FILES): {', '.join(untiered)}"
    )


def test_the_tables_name_files_that_exist() -> None:
    missing = [name for name in conftest.FILES if not (conftest.HERE / name).is_file()]
    assert not missing, (
        f"tests/conftest.py gives a tier to files that are gone: {', '.join(missing)}"
    )
