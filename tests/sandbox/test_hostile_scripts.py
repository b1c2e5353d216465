"""Hostile or broken scripts: each is one failed turn with a sentence the player can act on, the
test process survives, and the next turn in the same Sandbox runs exactly as if nothing happened."""

from __future__ import annotations

import threading
import time

import pytest
from fuel_figures import LOOP
from sandbox_cases import NORMAL_BOT, body, globals_json

from nova_tools.sandbox import Budgets, Sandbox, TurnKind
from nova_tools.sandbox.bytecode import CACHE

LOOP_TICKS = 200  # fuel_figures.LOOP spends exactly 200 ticks

# (name, module source, kind, words the error must contain)
HOSTILE = [
    ("infinite loop", body("while (true) {}"), TurnKind.FUEL, "ran out of fuel (200 ticks)"),
    (
        "infinite loop caught",
        body("try { while (true) {} } catch (e) { return { type: 'android.wait' }; }"),
        TurnKind.FUEL,
        "ran out of fuel (200 ticks)",
    ),
    (
        "loop in finally",
        body("try { while (true) {} } finally { while (true) {} }"),
        TurnKind.FUEL,
        "ran out of fuel",
    ),
    (
        "built-in work for zero ticks",
        body("const a = Array(1e6).fill(1); for (;;) a.join(',');"),
        TurnKind.FUEL,
        "built-in calls (join, sort, JSON, Date...) did too much work",
    ),
    ("clock loop (host calls)", body("for (;;) Date.now();"), TurnKind.FUEL, "did too much work"),
    (
        "memory bomb",
        body("const keep = []; for (;;) keep.push(new Array(10000).fill(keep.length));"),
        TurnKind.MEMORY,
        "ran out of memory (16 MiB)",
    ),
    (
        "one huge allocation",
        body("return new ArrayBuffer(1e9).byteLength;"),
        TurnKind.MEMORY,
        "ran out of memory (16 MiB)",
    ),
    ("huge string", body("return 'x'.repeat(1e9).length;"), TurnKind.MEMORY, "ran out of memory"),
    (
        "unbounded recursion",
        "const f = (n) => f(n + 1) + 1;\nexport default () => f(0);",
        TurnKind.STACK,
        "exceeded the call stack (128 KiB)",
    ),
    (
        "recursion that catches its overflow",
        "const f = () => { try { return f(); } catch (e) { return f(); } };\n"
        "export default () => f();",
        TurnKind.FUEL,
        "ran out of fuel",
    ),
    (
        "JSON.stringify of a very deep object",
        body(
            "let o = {}; const root = o; for (let i = 0; i < 1e5; i++) o = o.next = {}; return JSON.stringify(root);"
        ),
        TurnKind.STACK,
        "exceeded the call stack",
    ),
    (
        "JSON.parse of a very deep array",
        body("return JSON.parse('['.repeat(1e5) + ']'.repeat(1e5));"),
        TurnKind.STACK,
        "exceeded the call stack",
    ),
    (
        "catastrophic regex",
        body("return /(a+)+b/.test('a'.repeat(40));"),
        TurnKind.FUEL,
        "ran out of fuel (200 ticks)",
    ),
    (
        "throw",
        "export default () => {\n  const x = 1;\n  throw new Error('boom');\n};",
        TurnKind.ERROR,
        "threw Error: boom at line 3",
    ),
    (
        "type error",
        "export default () => {\n  const x = undefined;\n  return x.y;\n};",
        TurnKind.ERROR,
        "threw TypeError: cannot read property 'y' of undefined at line 3",
    ),
    ("throw a string", body("throw 'nope';"), TurnKind.ERROR, 'threw "nope"'),
    (
        "throw at top level",
        "throw new RangeError('bad start');\nexport default () => 1;",
        TurnKind.ERROR,
        "threw RangeError: bad start at line 1",
    ),
    (
        "syntax error",
        "export default () => {\n  return {type: 'android.wait'\n};",
        TurnKind.SYNTAX,
        "has a syntax error",
    ),
    (
        "returns undefined",
        body("return undefined;"),
        TurnKind.NO_ACTION,
        "returned undefined instead of an action",
    ),
    (
        "returns nothing",
        body("const a = 1;"),
        TurnKind.NO_ACTION,
        "returned undefined instead of an action",
    ),
    (
        "returns a function",
        body("return () => 1;"),
        TurnKind.NO_ACTION,
        "returned a function instead of an action",
    ),
    (
        "async turn",
        "export default async () => ({ type: 'android.wait' });",
        TurnKind.NO_ACTION,
        "returned a Promise",
    ),
    (
        "circular value",
        body("const o = {}; o.self = o; return o;"),
        TurnKind.NO_ACTION,
        "cannot be sent as JSON",
    ),
    ("BigInt value", body("return { n: 10n };"), TurnKind.NO_ACTION, "cannot be sent as JSON"),
    (
        "no default export",
        "export const turn = () => 1;",
        TurnKind.NO_ACTION,
        "has no default export",
    ),
    (
        "default export not a function",
        "export default 42;",
        TurnKind.NO_ACTION,
        "exports a number as default",
    ),
    (
        "default export an object",
        "export default { type: 'android.wait' };",
        TurnKind.NO_ACTION,
        "exports an object as default",
    ),
    (
        "too big to return",
        body("return 'x'.repeat(3 * 1024 * 1024);"),
        TurnKind.NO_ACTION,
        "at most 2,097,152",
    ),
    (
        "require",
        body("return require('fs').readFileSync('/etc/passwd', 'utf8');"),
        TurnKind.ERROR,
        "threw ReferenceError: require is not defined",
    ),
    (
        "top-level dynamic import of os",
        "const os = await import('os');\nexport default () => os.getcwd();",
        TurnKind.ERROR,
        "could not load module 'os'",
    ),
    (
        "static import of std",
        "import * as std from 'std';\nexport default () => std.loadFile('/etc/passwd');",
        TurnKind.ERROR,
        "could not be loaded",
    ),
    (
        "std global",
        body("return std.loadFile('/etc/passwd');"),
        TurnKind.ERROR,
        "std is not defined",
    ),
    ("os global", body("return os.open('/etc/passwd');"), TurnKind.ERROR, "os is not defined"),
    ("fetch", body("return fetch('file:///etc/passwd');"), TurnKind.ERROR, "fetch is not defined"),
    ("process", body("return process.env;"), TurnKind.ERROR, "process is not defined"),
    (
        "top-level await that never settles",
        "await new Promise(() => {});\nexport default () => 1;",
        TurnKind.ERROR,
        "never finished its top-level code",
    ),
    (
        "microtask flood",
        "queueMicrotask(function again() { queueMicrotask(again); });\nexport default () => 1;",
        TurnKind.ERROR,
        "promise jobs",
    ),
    # Describing the thrown error reads its name, which never returns: the turn is still one
    # failed turn that says it threw, not a sandbox crash, and the next turn is untouched.
    (
        "thrown error whose name never returns",
        body(
            "const e = new Error('lost'); Object.defineProperty(e, 'name', { get() { for (;;) {} } }); throw e;"
        ),
        TurnKind.ERROR,
        "threw a value that could not be described",
    ),
]


@pytest.fixture(scope="module")
def normal(run):
    return run(NORMAL_BOT)


def test_the_normal_bot_moves_for_zero_ticks(normal):
    assert normal.ok and normal.kind is TurnKind.OK
    assert normal.value == {"type": "android.move", "direction": "south", "memory": "turn 3"}
    assert normal.ticks == 0


# Every case above must be ended by a deterministic limit (ticks, the wasm-fuel ceiling, memory,
# the stack), never by the wall clock: the ceiling's ~5G fuel takes 0.4-0.7 s on an idle core but
# several seconds on a loaded one, which the default 2 s timeout would cut short. So the watchdog
# gets a minute here; the timeout itself is tested below.
DETERMINISTIC = Budgets(timeout_ms=60_000)


@pytest.mark.parametrize(
    ("source", "kind", "words"), [case[1:] for case in HOSTILE], ids=[case[0] for case in HOSTILE]
)
def test_a_hostile_script_fails_its_turn_and_the_next_turn_is_untouched(
    run, normal, source, kind, words
):
    result = run(source, budgets=DETERMINISTIC)

    assert result.value is None
    assert result.kind is kind, result.error
    assert words in result.error
    # The sentence is one line a player can read, not a traceback.
    assert "\n" not in result.error and "Traceback" not in result.error
    after = run(NORMAL_BOT)
    assert (after.value, after.error, after.ticks, after.wasm_fuel) == (
        normal.value,
        None,
        0,
        normal.wasm_fuel,
    )


PROBE_HOST = r"""
const found = [];
const attempt = async (name, f) => {
  try { const v = await f(); found.push(name + ': ' + String(v).slice(0, 60)); }
  catch (e) { found.push(name + ' refused: ' + e); }
};
await attempt('require', () => require('fs').readFileSync('/etc/passwd', 'utf8'));
await attempt('import path', () => import('/etc/passwd'));
await attempt('import file url', () => import('file:///etc/passwd'));
await attempt('import relative', () => import('../../../../../../etc/passwd'));
await attempt('import os', () => import('os').then((os) => os.open('/etc/passwd')));
await attempt('import std', () => import('std').then((std) => std.loadFile('/etc/passwd')));
await attempt('std', () => std.loadFile('/etc/passwd'));
await attempt('scriptArgs', () => scriptArgs);
await attempt('fetch', () => fetch('file:///etc/passwd'));
await attempt('XMLHttpRequest', () => new XMLHttpRequest());
await attempt('process', () => process.binding('fs'));
await attempt('Deno', () => Deno.readTextFileSync('/etc/passwd'));
await attempt('Function global', () => Function('return this')().std.loadFile('/etc/passwd'));
await attempt('eval global', () => eval('globalThis').os.open('/etc/passwd'));
await attempt('WebAssembly', () => WebAssembly.Module);
await attempt('print', () => print('hello host'));
export default () => ({ type: 'android.wait', recording: found.join('\n') });
"""


def test_no_way_of_reaching_for_a_host_file_gets_anything(run):
    result = run(PROBE_HOST)

    assert result.ok, result.error
    lines = result.value["recording"].split("\n")
    assert len(lines) == 16
    assert all(" refused: " in line for line in lines), lines
    assert "root:" not in result.value["recording"]


def test_globals_and_built_ins_changed_by_one_turn_are_back_in_the_next(run):
    tamper = body(
        "globalThis.leak = 1; Math.random = () => 0.5; Date.now = () => 1; JSON.stringify = () => 'x';"
        "Object.prototype.polluted = true; Array.prototype.toJSON = () => 'hacked';"
        "return { type: 'android.wait' };"
    )
    check = body(
        "return [typeof leak, Math.random() === 0.5, Date.now(), JSON.stringify([1]), ({}).polluted];"
    )

    tampered = run(tamper)
    checked = run(check)

    assert tampered.value == {
        "type": "android.wait"
    }  # the sandbox's own JSON did not use the patched one
    assert checked.value == ["undefined", False, 4102444800000, "[1]", None]


def test_a_returned_1_mib_string_comes_back_whole(run):
    result = run(body("return { type: 'android.wait', recording: 'r'.repeat(1024 * 1024) };"))

    assert result.ok
    assert result.value["recording"] == "r" * (1024 * 1024)


def test_a_wall_clock_timeout_fails_the_turn_when_the_fuel_would_allow_more(run):
    result = run(body("while (true) {}"), budgets=Budgets(fuel=10**8, timeout_ms=50))

    assert result.kind is TurnKind.TIMEOUT
    assert result.error == "took longer than 50 ms"
    after = run(NORMAL_BOT)
    assert after.ok and after.ticks == 0


def test_built_in_work_that_reaches_no_tick_is_still_held_to_the_timeout(run):
    # A join of 300,000 items polls no interrupt (0 ticks, ~280M wasm fuel, tens of ms): the
    # watchdog, which looks at the clock at each tick, finds the deadline passed when it ends.
    join = body("const s = Array(300000).fill(1).join(','); return { type: 'android.wait' };")
    generous = run(join, budgets=Budgets(memory=64 * 1024 * 1024, timeout_ms=60_000))
    cut = run(join, budgets=Budgets(memory=64 * 1024 * 1024, timeout_ms=2))

    assert (generous.kind, generous.ticks) == (TurnKind.OK, 0)
    assert (cut.kind, cut.error, cut.ticks) == (TurnKind.TIMEOUT, "took longer than 2 ms", 0)
    assert run(NORMAL_BOT).ok


def test_a_turn_timing_out_on_one_thread_leaves_another_threads_turn_alone():
    # Each thread's sandbox has its own deadline, read on its own thread's CPU clock, and a
    # timeout is wasmtime's own trap, never a Python exception another thread could pick up.
    loop = body("while (true) {}")
    results: dict[str, object] = {}

    def play(name: str, source: str, budgets: Budgets, turns: int) -> None:
        sandbox = Sandbox()
        results[name] = [
            sandbox.run_turn(source, globals_json(), budgets, 1).kind for _ in range(turns)
        ]

    threads = [
        threading.Thread(target=play, args=("loop", loop, Budgets(fuel=10**8, timeout_ms=20), 8)),
        threading.Thread(target=play, args=("bot", NORMAL_BOT, Budgets(timeout_ms=60_000), 200)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert results["loop"] == [TurnKind.TIMEOUT] * 8
    assert results["bot"] == [TurnKind.OK] * 200


def test_a_turn_reports_the_ticks_the_script_spent_not_what_describing_its_error_cost(run):
    # 50 ticks of looping, then a throw whose `name` getter loops until the ticks run out.
    result = run(
        body(
            "for (let i = 0; i < 250000; i++) {}\nconst e = new Error('lost');\n"
            "Object.defineProperty(e, 'name', { get() { for (;;) {} } }); throw e;"
        ),
        budgets=DETERMINISTIC,
    )

    assert (result.kind, result.error, result.ticks) == (
        TurnKind.ERROR,
        "threw a value that could not be described",
        50,
    )


def test_a_cold_turns_timeout_loses_only_its_own_compile_not_what_the_thread_ran_before(run):
    # The compile of a bundle not yet cached counts towards its turn's CPU-time timeout; what the
    # thread spent on earlier work must not. Spend 0.4 s of this thread's CPU first, then a turn
    # of a million iterations (~0.1 s of CPU) under a 600 ms timeout.
    while time.thread_time() < 0.4:
        pass
    CACHE.clear()
    result = run(LOOP, budgets=Budgets(fuel=LOOP_TICKS, timeout_ms=600))

    assert (result.kind, result.value, result.ticks) == (TurnKind.OK, "done", LOOP_TICKS), (
        result.error
    )


# The whole sentence a player reads, for the failures whose words carry a detail from the script.
EXACT = [
    (
        body("const o = {}; o.self = o; return o;"),
        "returned a value that cannot be sent as JSON (TypeError: circular reference)",
    ),
    (
        body("return { n: 10n };"),
        "returned a value that cannot be sent as JSON (TypeError: BigInt are forbidden in JSON.stringify)",
    ),
    (
        body("return { type: 'android.wait', r: 'y'.repeat(2500000) };"),
        "returned 2,500,030 characters of JSON; a turn may return at most 2,097,152",
    ),
    (
        "export default () => {\n  return 1 +;\n};\n",
        "has a syntax error: unexpected token in expression: ';' at line 2",
    ),
    (
        "export default () => {\n  const = 5;\n};\n",
        "has a syntax error: variable name expected at line 2",
    ),
    (body("return () => 1;"), "returned a function instead of an action"),
    (
        body("let v = 1; for (let i = 0; i < 40; i++) v = [v]; return v;"),
        "returned a value nested more than 32 levels deep; an action is an object at most two levels deep",
    ),
    (body("throw null;"), "threw null"),  # not out of memory: the heap is nowhere near full
    # JSON.stringify threw an error with neither name nor message: the refusal still says why.
    (
        body("return { toJSON() { const e = new Error(''); e.name = ''; throw e; } };"),
        "returned a value that cannot be sent as JSON (?)",
    ),
]


@pytest.mark.parametrize(("source", "sentence"), EXACT, ids=[s for _, s in EXACT])
def test_a_failed_turn_says_exactly_what_the_script_did(run, source, sentence):
    assert run(source, budgets=DETERMINISTIC).error == sentence
