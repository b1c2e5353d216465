"""The three budgets of rulebook 7.1 and the fixed call stack: pinned, exact, and the same on every
run and in every process, which is what lets two peers replay a match and agree."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from fuel_figures import CASES, FUEL, LOOP, PINNED_FOR, REPIN
from sandbox_cases import NORMAL_BOT, RULES, body

from nova_tools.sandbox import Budgets, TurnKind
from nova_tools.sandbox.build import SANDBOX_BUILD
from nova_tools.sandbox.bytecode import CACHE

# LOOP, a million empty iterations: two poll points each, one tick per 10,000 poll points.
LOOP_TICKS = 200
LOOP_FUEL = FUEL["1e6 empty iterations"][1]
# The recursion depth at which the 128 KiB JS stack overflows, for this function.
RECURSION = body(
    "let depth = 0;\nconst f = () => { depth++; f(); };\n"
    "try { f(); } catch (e) { return [depth, e.name, e.message]; }"
)
RECURSION_DEPTH = 509  # sandbox build 6 (543 under quickjs-wasi 3.7.0: its C frames were smaller)


def test_a_simple_turn_spends_zero_ticks(run):
    assert run(NORMAL_BOT).ticks == 0
    assert run(body("return { type: 'android.wait' };")).ticks == 0


def test_a_fixed_loop_spends_the_pinned_ticks_on_every_run(run):
    results = [run(LOOP, budgets=Budgets(fuel=1000)) for _ in range(5)]

    assert {(r.value, r.ticks, r.wasm_fuel) for r in results} == {
        ("done", LOOP_TICKS, LOOP_FUEL)
    }, REPIN


def test_a_fixed_loop_spends_the_pinned_ticks_in_other_processes():
    child = (
        "import json, sys\n"
        "from nova_tools.sandbox import Budgets, Sandbox\n"
        "r = Sandbox().run_turn(sys.argv[1], sys.argv[2], Budgets(fuel=1000), 7)\n"
        "print(json.dumps([r.value, r.ticks, r.wasm_fuel]))\n"
    )
    from sandbox_cases import globals_json

    runs = [
        json.loads(
            subprocess.run(
                [sys.executable, "-c", child, LOOP, globals_json()],
                capture_output=True,
                text=True,
                check=True,
                timeout=120,
            ).stdout
        )
        for _ in range(2)
    ]

    assert runs == [["done", LOOP_TICKS, LOOP_FUEL]] * 2, REPIN


def test_the_fuel_figures_are_pinned_for_this_sandbox_build():
    assert SANDBOX_BUILD == PINNED_FOR, (
        f"the sandbox build is now {SANDBOX_BUILD}, but the wasm-fuel figures in tests/sandbox/fuel_figures.py "
        f"were pinned for {PINNED_FOR}: a build bump must re-pin them; {REPIN}"
    )


@pytest.mark.parametrize("name", list(CASES))
def test_a_turn_spends_exactly_the_pinned_wasm_fuel_whether_compiled_for_it_or_not(run, name):
    source, ticks = CASES[name]
    CACHE.clear()
    cold = run(source, budgets=Budgets(fuel=ticks))
    warm = run(source, budgets=Budgets(fuel=ticks))
    CACHE.clear()

    assert cold.ok and warm.ok
    assert (cold.wasm_fuel, warm.wasm_fuel) == (FUEL[name][1],) * 2, (
        f"{name!r} spent {cold.wasm_fuel:,} (cold) / {warm.wasm_fuel:,} (warm) wasm fuel, pinned {FUEL[name][1]:,} "
        f"for sandbox build {PINNED_FOR}; if that change is deliberate, bump SANDBOX_REVISION and {REPIN}"
    )


def test_the_tick_budget_is_exact_a_script_may_spend_all_of_it_but_not_one_more(run):
    assert run(LOOP, budgets=Budgets(fuel=LOOP_TICKS)).value == "done"

    over = run(LOOP, budgets=Budgets(fuel=LOOP_TICKS - 1))

    assert over.kind is TurnKind.FUEL
    assert over.error == f"ran out of fuel ({LOOP_TICKS - 1} ticks)"
    assert over.ticks == LOOP_TICKS


@pytest.mark.parametrize("fuel", [0, 1, 50])
def test_an_endless_loop_is_cut_off_on_the_tick_after_the_budget(run, fuel):
    result = run(body("while (true) {}"), budgets=Budgets(fuel=fuel))

    assert (result.kind, result.ticks, result.error) == (
        TurnKind.FUEL,
        fuel + 1,
        f"ran out of fuel ({fuel} ticks)",
    )


def test_built_in_work_is_bounded_by_wasm_fuel_deterministically(run):
    joins = body("const a = Array(1e5).fill(1); let n = 0;\nfor (;;) n += a.join(',').length;")
    first, second = run(joins, budgets=Budgets(fuel=5)), run(joins, budgets=Budgets(fuel=5))

    assert first.kind is TurnKind.FUEL and first.ticks == 0
    assert (
        first.error
        == "ran out of fuel (5 ticks): built-in calls (join, sort, JSON, Date...) did too much work"
    )
    assert first == second


def test_the_memory_budget_is_the_js_heap(run):
    allocate = body("return new ArrayBuffer(8 * 1024 * 1024).byteLength;")

    assert run(allocate, budgets=Budgets(memory=16 * 1024 * 1024)).value == 8 * 1024 * 1024
    small = run(allocate, budgets=Budgets(memory=4 * 1024 * 1024))
    assert (small.kind, small.error) == (TurnKind.MEMORY, "ran out of memory (4 MiB)")


def test_running_out_of_memory_cannot_be_caught(run):
    result = run(
        body("try { new ArrayBuffer(8 * 1024 * 1024); } catch (e) { return 'caught'; }"),
        budgets=Budgets(memory=4 * 1024 * 1024),
    )

    assert result.kind is TurnKind.MEMORY


def test_the_memory_cut_off_is_the_same_every_run(run):
    grow = body("const keep = [];\ntry { for (;;) keep.push({ n: keep.length }); } finally { }")
    results = [run(grow, budgets=Budgets(memory=2 * 1024 * 1024)) for _ in range(3)]

    assert all(r.kind is TurnKind.MEMORY for r in results)
    assert len({(r.ticks, r.wasm_fuel, r.line, r.column) for r in results}) == 1


# quickjs-wasi 3.7.0 (sandbox builds up to 5) failed some allocations at the heap limit without its
# "out of memory" error: adding property after property to one object under a 2 MiB heap, the
# script was handed a thrown value that is no value at all, which it could even catch.
AN_OBJECT = "const o = {}; let n = 0;\n"
FILL_IT = "for (let i = 0; ; i++) { o['k' + i] = i; n = i; }"
SMALL_HEAP = Budgets(memory=2 * 1024 * 1024, fuel=10**6, timeout_ms=60_000)


def test_an_allocation_that_fails_without_its_out_of_memory_error_still_ran_out_of_memory(run):
    result = run(body(f"console.log('filling'); {AN_OBJECT}{FILL_IT}"), budgets=SMALL_HEAP)

    assert (result.kind, result.error, result.logs) == (
        TurnKind.MEMORY,
        "ran out of memory (2 MiB)",
        ("filling",),
    )


def test_a_script_cannot_catch_a_failed_allocation_whatever_it_would_do_then(run):
    # quickjs-wasi 3.7.0 failed some allocations at the heap limit without its "out of memory"
    # error and handed the script a catchable non-value; since sandbox build 6 the error is always
    # built (in 64 KiB QuickJS may use past the limit) and never caught.
    own_error = run(
        body(f"{AN_OBJECT}try {{ {FILL_IT} }} catch (e) {{ throw new Error('full at ' + n); }}"),
        budgets=SMALL_HEAP,
    )
    null = run(
        body(f"{AN_OBJECT}try {{ {FILL_IT} }} catch (e) {{ throw null; }}"), budgets=SMALL_HEAP
    )
    quiet = run(
        body(
            f"{AN_OBJECT}try {{ {FILL_IT} }} catch (e) {{ return 'caught'; }} finally {{ n = -1; }}"
        ),
        budgets=SMALL_HEAP,
    )

    assert [(r.kind, r.error) for r in (own_error, null, quiet)] == [
        (TurnKind.MEMORY, "ran out of memory (2 MiB)")
    ] * 3


# A 150 KB script (a normal turn and 2,000 functions it never calls) under a 2 MiB heap, in games
# whose rules hold more and more text: the rules are in the heap before the script is read.
BIG_SCRIPT = body("return { type: 'android.wait' };") + "\n".join(
    f"function unused{i}(a, b) {{ return [a + b, `${{a}}-${{b}}`, {{ k: a * {i} }}]; }}"
    for i in range(2000)
)
TWO_MIB = Budgets(memory=2 * 1024 * 1024, timeout_ms=60_000)


@pytest.mark.parametrize(
    ("rules_text", "started"),
    [(600_000, True), (1_000_000, False)],
    ids=["no room to read the script", "no room for the world"],
)
def test_rules_that_leave_no_room_for_the_script_run_out_of_memory_every_turn(
    run, rules_text, started
):
    rules = {**RULES, "notes": "x" * rules_text}
    fits = run(BIG_SCRIPT, budgets=TWO_MIB, rules={**RULES, "notes": "x" * 200_000})
    turns = [run(BIG_SCRIPT, budgets=TWO_MIB, rules=rules) for _ in range(2)]

    assert fits.value == {"type": "android.wait"}, fits.error
    assert [(t.kind, t.error, t.ticks) for t in turns] == [
        (TurnKind.MEMORY, "ran out of memory (2 MiB)", 0)
    ] * 2
    # A script that never started (its world could not be installed) is charged nothing; one
    # whose bytecode could not be read is charged its compile and the attempt.
    assert (turns[0].wasm_fuel > 0) is started and turns[0].wasm_fuel == turns[1].wasm_fuel


def test_the_call_stack_overflows_at_the_same_catchable_depth_every_run(run):
    results = [run(RECURSION) for _ in range(3)]

    assert {json.dumps(r.value) for r in results} == {
        json.dumps([RECURSION_DEPTH, "RangeError", "Maximum call stack size exceeded"])
    }


def test_budgets_reject_nonsense():
    with pytest.raises(ValueError):
        Budgets(fuel=-1)
    with pytest.raises(ValueError):
        Budgets(memory=2**40)
    assert Budgets() == Budgets(fuel=200, memory=16 * 1024 * 1024, timeout_ms=10_000)


def test_a_script_that_spends_exactly_its_ticks_and_then_throws_fails_for_the_throw(run):
    spent_then_thrown = LOOP.replace("return 'done';", "throw new Error('spent it all');")

    result = run(spent_then_thrown, budgets=Budgets(fuel=LOOP_TICKS, timeout_ms=60_000))

    assert (result.kind, result.error, result.ticks) == (
        TurnKind.ERROR,
        "threw Error: spent it all at line 3",
        LOOP_TICKS,
    )
