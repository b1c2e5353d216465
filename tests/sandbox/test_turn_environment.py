"""What a script sees during its turn: its globals, a frozen clock, a seeded Math.random, console,
and nothing that would make two runs of the same turn differ."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from sandbox_cases import RULES, WORLD, body, globals_json

from nova_tools.sandbox import Budgets, TurnKind
from nova_tools.sandbox.results import Frame

CLOCK_AND_DICE = body(
    "return { now: Date.now(), iso: new Date().toISOString(), local: new Date().getHours(),"
    " zone: new Date().getTimezoneOffset(), dice: [Math.random(), Math.random(), Math.random()] };"
)


def test_the_globals_of_rulebook_2_are_installed(run):
    result = run(
        body(
            "return { androidId, turn, finalTurn: typeof finalTurn, width: world.width,"
            " tiles: world.tiles.length, fuel: rules.script.fuel };"
        )
    )

    assert result.value == {
        "androidId": "and-1",
        "turn": 3,
        "finalTurn": "undefined",
        "width": 12,
        "tiles": len(WORLD["tiles"]),
        "fuel": RULES["script"]["fuel"],
    }


def test_final_turn_is_the_arrival_round_when_one_is_scheduled(run):
    assert run(body("return finalTurn;"), finalTurn=20).value == 20
    assert run(body("return finalTurn === undefined;"), finalTurn=None).value is True


def test_the_clock_is_frozen_at_2100_in_utc(run):
    value = run(CLOCK_AND_DICE).value

    assert value["now"] == 4102444800000
    assert value["iso"] == "2100-01-01T00:00:00.000Z"
    assert (value["local"], value["zone"]) == (0, 0)


def test_math_random_repeats_for_a_seed_and_differs_between_seeds(run):
    first, again = run(CLOCK_AND_DICE, seed=42).value, run(CLOCK_AND_DICE, seed=42).value
    other = run(CLOCK_AND_DICE, seed=43).value

    assert first == again
    assert first["dice"] != other["dice"]
    assert first["now"] == other["now"]
    assert all(0 <= x < 1 for x in first["dice"] + other["dice"])


def test_math_random_is_the_same_in_another_process(run):
    here = run(CLOCK_AND_DICE, seed=1234).value
    child = (
        "import json, sys\n"
        "from nova_tools.sandbox import Budgets, Sandbox\n"
        "print(json.dumps(Sandbox().run_turn(sys.argv[1], sys.argv[2], Budgets(), 1234).value))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", child, CLOCK_AND_DICE, globals_json()],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout

    assert json.loads(out) == here


def test_math_random_looks_uniform(run):
    stats = run(
        body(
            "let sum = 0, low = 0; for (let i = 0; i < 10000; i++) { const x = Math.random();"
            " sum += x; if (x < 0.1) low++; } return [sum / 10000, low];"
        ),
        seed=9,
    ).value

    assert 0.48 < stats[0] < 0.52
    assert 900 < stats[1] < 1100


def test_timing_and_gc_observing_apis_are_absent(run):
    result = run(
        body(
            "return [typeof WeakRef, typeof FinalizationRegistry, typeof performance,"
            " typeof require, typeof process];"
        )
    )

    assert result.value == ["undefined"] * 5


def test_console_lines_come_back_with_the_result_and_with_a_failure(run):
    ok = run(
        body(
            "console.log('at', { x: 1 }, [2], 3n, undefined); console.warn('careful');"
            " return { type: 'android.wait' };"
        )
    )
    failed = run(body("console.log('before the loop'); while (true) {}"))

    assert ok.logs == ('at {"x":1} [2] 3n undefined', "careful")
    assert failed.kind is TurnKind.FUEL and failed.logs == ("before the loop",)


@pytest.mark.parametrize(
    ("ending", "kind"),
    [
        ("const o = {}; o.self = o; return o;", TurnKind.NO_ACTION),  # not JSON
        ("return 'x'.repeat(3 * 1024 * 1024);", TurnKind.NO_ACTION),  # too big
        ("return undefined;", TurnKind.NO_ACTION),
        (
            "let v = 1; for (let i = 0; i < 40; i++) v = [v]; return v;",
            TurnKind.NO_ACTION,
        ),  # too deep
        ("throw new Error('gave up');", TurnKind.ERROR),
        ("const keep = []; for (;;) keep.push(new Array(10000).fill(1));", TurnKind.MEMORY),
        # The heap stays full of what a global keeps while the failure is described.
        (
            "globalThis.keep = []; for (let i = 0; ; i++) keep.push('s'.repeat(100) + i);",
            TurnKind.MEMORY,
        ),
        ("const f = () => f() + 1; return f();", TurnKind.STACK),
    ],
    ids=[
        "not-json",
        "too-big",
        "no-action",
        "too-deep",
        "thrown",
        "memory",
        "memory kept by a global",
        "stack",
    ],
)
def test_console_lines_come_back_whatever_way_the_turn_fails(run, ending, kind):
    # What a script printed is how its author finds out why its turn failed.
    result = run(
        body(f"console.log('looking', turn); {ending}"), budgets=Budgets(timeout_ms=60_000)
    )

    assert result.kind is kind, result.error
    assert result.logs == ("looking 3",)


def test_console_lines_come_back_when_top_level_code_fails_after_an_await(run):
    # After `await`, top-level code runs as a promise job; running out of fuel or memory there
    # ends the job past its promise, and the turn still says why and keeps what was printed.
    after_await = "console.log('started');\nawait null;\n{}\nexport default () => 1;"
    budgets = Budgets(timeout_ms=60_000)
    loop = run(after_await.format("while (true) {}"), budgets=budgets)
    bomb = run(
        after_await.format("const keep = []; for (;;) keep.push(new Array(10000).fill(1));"),
        budgets=budgets,
    )

    assert (loop.kind, loop.error, loop.logs, loop.ticks) == (
        TurnKind.FUEL,
        "ran out of fuel (200 ticks)",
        ("started",),
        201,
    )
    assert (bomb.kind, bomb.error, bomb.logs) == (
        TurnKind.MEMORY,
        "ran out of memory (16 MiB)",
        ("started",),
    )


def test_console_output_is_bounded(run):
    result = run(body("for (let i = 0; i < 1000; i++) console.log('line ' + i); return 1;"))

    assert result.value == 1
    assert len(result.logs) == 201
    assert result.logs[-1] == "... 800 more console line(s) not kept"


def test_console_output_is_bounded_to_16_kib_of_text_whole_lines_first(run):
    result = run(body("for (let i = 0; i < 20; i++) console.log('x'.repeat(1000)); return 1;"))

    assert [len(line) for line in result.logs[:-1]] == [1000] * 16 + [384 + len("...")]
    assert result.logs[-1] == "... 3 more console line(s) not kept"


def test_a_returned_lone_surrogate_is_replaced_and_the_turn_says_where(run):
    result = run(body("return { type: 'android.wait', memory: 'a\\ud800' };"))

    assert result.value == {"type": "android.wait", "memory": "a\ufffd"}
    assert result.logs == (
        "(nova) memory held a lone UTF-16 surrogate at index 1; it was replaced by U+FFFD",
    )


def test_a_lone_surrogate_in_the_script_itself_runs_like_one_the_script_made(run):
    # A Python str holding a lone surrogate (as a bundle read with surrogateescape may): QuickJS
    # reads it as the JS string it was, and the returned value is made well-formed as above.
    result = run(body("return { type: 'android.wait', memory: '\ud800' + 'x' };"))

    assert result.value == {"type": "android.wait", "memory": "\ufffdx"}
    assert result.logs == (
        "(nova) memory held a lone UTF-16 surrogate at index 0; it was replaced by U+FFFD",
    )


def test_an_error_says_where_it_was_thrown_in_the_bundle(run):
    result = run("const a = 1;\n\nexport default () => {\n  return missing + a;\n};\n")

    assert result.error == "threw ReferenceError: missing is not defined at line 4"
    assert (result.line, result.column) == (4, 10)


def test_an_error_comes_back_with_the_frames_of_its_callers(run):
    result = run("const pick = () => missing;\nexport default () => {\n  return pick();\n};\n")

    assert result.stack == (Frame("pick", 1, 20), Frame("default", 3, 10))


def test_a_syntax_error_says_where(run):
    result = run("export default () => {\n  return 1 +;\n};\n")

    assert result.kind is TurnKind.SYNTAX
    assert result.error.startswith("has a syntax error: ")
    assert result.line == 2
