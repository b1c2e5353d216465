"""Hostile or broken scripts through the whole path (TypeScript -> bundle -> sandbox -> engine):
each is one failed turn with a reason a player can act on, judged by `api.dry_run`."""

from __future__ import annotations

import pytest

from nova_tools import api
from nova_tools.rules import resolve

CASES = [
    ("while (true) {}", "out-of-fuel", "ran out of fuel (200 ticks)"),
    (
        "const a: number[][] = []; for (;;) a.push(new Array(100000).fill(1)); return { type: 'android.wait' };",
        "out-of-memory",
        "ran out of memory",
    ),
    (
        "const f = (n: number): number => f(n + 1) + 1; f(0); return { type: 'android.wait' };",
        "stack-overflow",
        "call stack",
    ),
    ("throw new Error('boom');", "script-error", "threw Error: boom"),
    ("return undefined as unknown as Action;", "not-an-action", "undefined"),
    (
        "return 'android.wait' as unknown as Action;",
        "not-an-action",
        "str 'android.wait' instead of an action object",
    ),
    (
        "return { type: 'android.fly' } as unknown as Action;",
        "not-an-action",
        "unknown action type 'android.fly'",
    ),
    (
        "return { type: 'android.wait', recording: 'x'.repeat(1 << 20) };",
        "recording-too-long",
        "recording holds at most 16384 characters",
    ),
    (
        "return { type: 'android.wait', memory: 'm'.repeat(5000) };",
        "memory-too-long",
        "memory holds at most 4096 characters",
    ),
    (
        "return { type: 'android.move', direction: 'up' as Direction };",
        "not-an-action",
        "direction",
    ),
    (
        "const g = globalThis as any; return { type: 'android.broadcast', content: String(typeof g.require) + typeof g.process + typeof g.std + typeof g.fetch };",
        None,
        None,
    ),
]


# Only the deterministic limits (ticks, wasm fuel, memory, stack) may end these turns: on a loaded
# machine the default 2 s watchdog could cut a memory bomb short first (a timeout, not the
# out-of-memory the case is about). The timeout itself is tested in tests/sandbox.
DETERMINISTIC = resolve({"script": {"timeoutMs": 60_000}})


@pytest.mark.parametrize(
    "body, code, reason", CASES, ids=[c[1] or "no-host-globals" for c in CASES]
)
def test_a_hostile_turn_is_one_failed_turn_with_a_reason(body, code, reason):
    source = f"const t: AndroidTurn = () => {{ {body} }};\nexport default t;\n"
    result = api.dry_run(files={"main.ts": source}, entry_name="main.ts", rules=DETERMINISTIC)
    if code is None:
        assert result.accepted
        assert result.action["content"] == "undefinedundefinedundefinedundefined"
        return
    assert not result.accepted
    assert result.code == code
    assert reason in result.reason
    assert result.penalty == 10


def test_the_next_turn_after_a_hostile_one_is_unaffected():
    bad = api.dry_run(
        files={"main.ts": "const t: AndroidTurn = () => { while (true) {} };\nexport default t;\n"},
        entry_name="main.ts",
    )
    good = api.dry_run(
        files={
            "main.ts": "const t: AndroidTurn = () => ({ type: 'android.wait' });\nexport default t;\n"
        },
        entry_name="main.ts",
    )
    assert (bad.accepted, good.accepted, good.ticks) == (False, True, 0)


def test_a_dry_run_shows_what_the_script_printed_even_when_the_turn_fails():
    source = (
        "const t: AndroidTurn = () => {\n"
        "  console.log('looking at', world.tiles.length, 'tiles on turn', turn);\n"
        "  console.warn({ battery: 100 });\n"
        "  throw new Error('gave up');\n"
        "};\nexport default t;\n"
    )
    result = api.dry_run(files={"main.ts": source}, entry_name="main.ts")
    assert result.code == "script-error"
    assert result.logs[0].startswith("looking at ") and result.logs[0].endswith(" tiles on turn 1")
    assert "battery" in result.logs[1]
    assert result.to_json()["logs"] == list(result.logs)
