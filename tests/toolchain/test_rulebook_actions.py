"""Every action example of rulebook section 8 type-checks against the typings; wrong ones fail
with the message a player needs."""

from __future__ import annotations

from pathlib import Path

import pytest

from nova_tools.toolchain.typecheck import typecheck_files

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="module")
def diagnostics():
    # one tsc run for both files (every file is its own module, so their names do not clash)
    return typecheck_files(
        ["rulebook_actions.ts", "wrong_actions.ts"], cwd=FIXTURES, skip_lib_check=False
    )


def test_rulebook_examples_type_check(diagnostics):
    assert [d.format() for d in diagnostics if d.file.endswith("rulebook_actions.ts")] == []


WRONG = {
    # line: (code, part of the message)
    2: ("TS2322", "Type '\"up\"' is not assignable to type 'Direction'."),
    3: (
        "TS2551",
        "Property 'cargoCapacty' does not exist on type 'AndroidRules'. Did you mean 'cargoCapacity'?",
    ),
    4: ("TS2322", "Type 'string' is not assignable to type 'number'."),
    5: (
        "TS2322",
        'Type \'"android.fly"\' is not assignable to type \'"android.broadcast" | "android.charge"',
    ),
    6: ("TS2322", "Type '\"factory\"' is not assignable to type 'BuildingType'."),
    7: ("TS2353", "'gold' does not exist in type 'MaterialAmounts'"),
    8: (
        "TS2322",
        "Property 'content' is missing in type '{ type: \"android.broadcast\"; }' but required in type 'BroadcastAction'.",
    ),
    9: ("TS2584", "Cannot find name 'document'."),
    10: ("TS2591", "Cannot find name 'process'."),
}


def test_wrong_actions_fail_with_the_right_message(diagnostics):
    wrong = [d for d in diagnostics if d.file.endswith("wrong_actions.ts")]
    by_line = {d.line: d for d in wrong}
    assert sorted(by_line) == sorted(WRONG), "\n".join(d.format() for d in wrong)
    for line, (code, message) in WRONG.items():
        d = by_line[line]
        assert d.code == code and message in d.message, d.format()
        assert d.severity == "error" and d.source == "tsc"


def test_diagnostics_format_as_file_line_col(diagnostics):
    first = next(d for d in diagnostics if d.line == 2)
    assert first.format().endswith(
        "wrong_actions.ts:2:54 Type '\"up\"' is not assignable to type 'Direction'."
    )
