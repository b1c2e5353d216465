"""Reason codes live in one place (engine/reasons.py): the engine can only raise codes listed
there, the sandbox's failure kinds map onto them, and the docs table is generated from them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from nova_tools import api
from nova_tools.api import reference
from nova_tools.engine import REFUSAL_CODES, Reason, Refusal
from nova_tools.play import FAILURE_CODES
from nova_tools.sandbox import TurnKind

ENGINE = Path(api.__file__).resolve().parents[1] / "engine"


def test_the_reason_code_docs_are_the_generated_ones() -> None:
    stale = reference.stale_docs()
    assert not stale, (
        f"{', '.join(map(str, stale))} differs from the reason codes in engine/reasons.py: run `nova generate`"
    )


def test_the_docs_list_every_code_once() -> None:
    text = reference.GAME_DETAILS.read_text(encoding="utf-8")
    for reason in Reason:
        assert text.count(f"| `{reason.value}` |") == 1, reason


def test_a_changed_code_makes_the_docs_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    # the drift check is live: a new meaning for one code gives a different generated table
    before = reference.reason_codes_markdown()
    monkeypatch.setattr(Reason.NO_ACID, "meaning", "a different sentence")
    assert reference.reason_codes_markdown() != before
    assert reference.stale_docs()


def test_a_refusal_with_an_unlisted_code_is_a_bug_found_at_once() -> None:
    with pytest.raises(ValueError, match="not-a-code"):
        Refusal("not-a-code", "whatever")
    assert Refusal("off-map", "x").code is Reason.OFF_MAP


def test_every_code_the_engine_raises_is_listed() -> None:
    raised = set()
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "Refusal"
                and node.args
            ):
                first = node.args[0]
                if isinstance(first, ast.Constant):
                    raised.add(first.value)
    assert raised, "the scan found the engine's refusals"
    assert raised <= {r.value for r in Reason}
    assert set(REFUSAL_CODES) == {r.value for r in Reason if r.group == "action"}


def test_every_sandbox_failure_kind_has_a_script_code() -> None:
    failures = {kind for kind in TurnKind if kind is not TurnKind.OK}
    assert {str(k) for k in failures} == set(FAILURE_CODES)
    assert {FAILURE_CODES[str(k)].group for k in failures} == {"script"}
