"""`make planted-bugs` stays runnable: each planted bug's edit still applies to the code as it is
now (its text occurs exactly once), and the tests it names exist. Otherwise a refactor that moves
the code quietly turns the check into "cannot plant" the next time someone runs it."""

from __future__ import annotations

import planted_bugs
import pytest
from nova_testing import REPO


@pytest.mark.parametrize("bug", planted_bugs.BUGS, ids=[bug.name for bug in planted_bugs.BUGS])
def test_the_planted_bug_still_applies_to_the_code(bug: planted_bugs.Bug) -> None:
    planted_bugs.plant(
        bug, REPO, dry_run=True
    )  # raises LookupError, naming the file, if the code moved
    missing = [test for test in bug.tests if not (REPO / test.split("::")[0]).exists()]
    assert not missing, f"planted bug {bug.name} names tests that are gone: {missing}"


def test_a_bug_whose_code_moved_is_named() -> None:
    moved = planted_bugs.Bug(
        "moved", "code that is not there", "nova_tools/store.py", "no such line\n", "", ()
    )
    with pytest.raises(LookupError, match="nova_tools/store.py holds the code to break 0 times"):
        planted_bugs.plant(moved, REPO, dry_run=True)
