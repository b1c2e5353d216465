"""A bundle is compiled once per process and each turn loads its bytecode (bytecode.py). The cache
only saves time: a turn comes out the same, to the tick and the unit of wasm fuel, whether its
bundle was compiled for it (cold) or earlier (warm), and the module's top-level code still runs
every turn, after the globals are installed."""

from __future__ import annotations

import pytest
import wasmtime
from fuel_figures import DEAD_CODE, FUEL, REPIN
from sandbox_cases import NORMAL_BOT, RULES, body, globals_json

from nova_tools.sandbox import Budgets, Sandbox, TurnKind, build
from nova_tools.sandbox.bytecode import CACHE, BytecodeCache, Compiled, cache_key

DICE = body("const dice = []; for (let i = 0; i < 100; i++) dice.push(Math.random()); return dice;")
TICK_LOOP = body("while (true) {}")
JOINS = body("const a = Array(1e5).fill(1); let n = 0;\nfor (;;) n += a.join(',').length;")
GROW = body("const keep = [];\ntry { for (;;) keep.push({ n: keep.length }); } finally { }")
THROWS_AT_LINE_4 = "const a = 1;\n\nexport default () => {\n  return missing + a;\n};\n"
SYNTAX_ERROR = "export default () => {\n  return 1 +;\n};\n"
TOP_LEVEL_THROW = "throw new RangeError('bad start');\nexport default () => 1;"
IMPORT = "import * as std from 'std';\nexport default () => 1;"
# Overflows the wasm stack while parsing (a trap, compiled again on every turn).
TOO_DEEP = "export default () => " + "[" * 100_000 + "]" * 100_000 + ";"
# Top-level code that reads the globals: it must run after they are installed, every turn.
TOP_LEVEL_GLOBALS = """
const cap = rules.android.cargoCapacity;
const seenTurn = turn;
let calls = 0;
console.log('top level ran', cap);
export default () => ({ cap, seenTurn, calls: ++calls, me: androidId });
"""
RULES_WITH_ANDROID = {**RULES, "android": {"cargoCapacity": 6}}

# (name, source, budgets): a spread of outcomes, each run cold and then warm.
CASES = [
    ("normal bot", NORMAL_BOT, Budgets()),
    ("Math.random sequence", DICE, Budgets()),
    ("tick fuel cut-off", TICK_LOOP, Budgets(fuel=50)),
    ("wasm fuel cut-off", JOINS, Budgets(fuel=5)),
    ("memory cut-off", GROW, Budgets(memory=2 * 1024 * 1024)),
    ("thrown at a line", THROWS_AT_LINE_4, Budgets()),
    ("syntax error", SYNTAX_ERROR, Budgets()),
    ("top-level throw", TOP_LEVEL_THROW, Budgets()),
    ("static import", IMPORT, Budgets()),
    ("source nested too deep", TOO_DEEP, Budgets()),
    ("zero-tick budget", NORMAL_BOT, Budgets(fuel=0)),
]


@pytest.fixture
def cold():
    """Empties the process's bytecode cache before and after the test."""
    CACHE.clear()
    yield CACHE
    CACHE.clear()


@pytest.mark.parametrize(
    ("source", "budgets"), [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
def test_a_turn_is_the_same_with_a_cold_and_a_warm_cache(run, cold, source, budgets):
    first = run(source, budgets=budgets, seed=11)
    warm = run(source, budgets=budgets, seed=11)
    cold.clear()
    again_cold = run(source, budgets=budgets, seed=11)

    assert first == warm == again_cold


def test_the_cut_offs_and_random_numbers_are_the_expected_ones(run, cold):
    assert run(TICK_LOOP, budgets=Budgets(fuel=50)).ticks == 51
    assert run(JOINS, budgets=Budgets(fuel=5)).error.endswith("did too much work")
    assert run(GROW, budgets=Budgets(memory=2 * 1024 * 1024)).kind is TurnKind.MEMORY
    dice = run(DICE, seed=11).value
    assert len(set(dice)) == 100 and run(DICE, seed=12).value != dice


def test_errors_keep_their_words_and_lines_when_loaded_from_bytecode(run, cold):
    for _ in range(2):  # cold, then warm
        syntax = run(SYNTAX_ERROR)
        assert syntax.kind is TurnKind.SYNTAX
        assert syntax.error.startswith("has a syntax error: ") and syntax.error.endswith(
            " at line 2"
        )
        # A script that never ran is charged its compile, not one unit more.
        assert (
            syntax.wasm_fuel
            == cold.get(cache_key(SYNTAX_ERROR.encode(), Budgets().memory), 0).fuel
            > 0
        )
        thrown = run(THROWS_AT_LINE_4)
        assert thrown.error == "threw ReferenceError: missing is not defined at line 4"
        assert (thrown.line, thrown.column) == (4, 10)
        assert run(TOP_LEVEL_THROW).error == "threw RangeError: bad start at line 1"
        assert (
            run(IMPORT).error == "could not be loaded: ReferenceError: could not load module 'std'"
        )


def test_a_source_too_deep_to_parse_fails_as_a_stack_overflow_and_is_not_remembered(run, cold):
    compiles = cold.compiles
    results = [run(TOO_DEEP) for _ in range(2)]

    assert results[0] == results[1]
    assert results[0].kind is TurnKind.STACK and results[0].wasm_fuel > 0
    assert cold.compiles == compiles and len(cold) == 0


def test_top_level_code_runs_every_turn_after_the_globals_are_installed(run, cold):
    compiles = cold.compiles
    turns = [
        run(TOP_LEVEL_GLOBALS, rules=RULES_WITH_ANDROID, turn=n, androidId=f"and-{n}")
        for n in (3, 4, 5)
    ]

    assert [t.value for t in turns] == [
        {"cap": 6, "seenTurn": n, "calls": 1, "me": f"and-{n}"} for n in (3, 4, 5)
    ]
    assert all(t.logs == ("top level ran 6",) for t in turns)
    assert cold.compiles == compiles + 1


def test_the_source_stays_in_the_bytecode(run, cold):
    source = "function area(w, h) { return w * h; }\nexport default () => area.toString();"

    assert run(source).value == run(source).value == "function area(w, h) { return w * h; }"


def test_a_bundle_is_compiled_once_per_heap_budget(run, cold):
    compiles = cold.compiles
    for seed in range(5):
        run(NORMAL_BOT, seed=seed)
    run(NORMAL_BOT, budgets=Budgets(fuel=7))  # another tick budget: the same compile serves
    assert cold.compiles == compiles + 1

    run(
        NORMAL_BOT, budgets=Budgets(memory=8 * 1024 * 1024)
    )  # the compile ran under the heap budget
    assert cold.compiles == compiles + 2


def test_a_second_sandbox_uses_the_bytecode_the_first_compiled(run, cold):
    first = run(NORMAL_BOT)
    compiles = cold.compiles

    other = Sandbox().run_turn(NORMAL_BOT, globals_json(), Budgets(), 7)

    assert other == first
    assert cold.compiles == compiles


def test_compiling_spends_no_ticks(sandbox, cold):
    # Parsing polls no interrupt (a regex literal, classes, deep nesting and a long source included),
    # so ticks and their counter's phase in the turn are what they were when each turn parsed.
    source = (
        "const re = /(a+)+b|[\\u0000-\\uffff]{2,}?/giu;\nclass A { #x = 1; get x() { return this.#x; } }\n"
        + "\n".join(
            f"function f{i}(a) {{ return [{'[' * 20}a{']' * 20}, `t${{a}}`, {{ k: a }}]; }}"
            for i in range(500)
        )
        + "\nexport default () => f1(1).length;"
    )
    code = source.encode()
    sandbox._state.ticks = 0

    compiled = sandbox._compiled(code, Budgets(), build.wasm_fuel_ceiling(0, len(code)))

    assert compiled.bytecode is not None and compiled.fuel > 0
    assert sandbox._state.ticks == 0


def _ceiling(monkeypatch, fuel: int) -> None:
    """Make a zero-tick turn's wasm-fuel ceiling exactly ``fuel``."""
    monkeypatch.setattr(build, "WASM_FUEL_BASE", fuel)
    monkeypatch.setattr(build, "WASM_FUEL_PER_SOURCE_BYTE", 0)


def test_the_compile_is_charged_to_the_turn_and_the_cut_off_is_exact(run, cold, monkeypatch):
    zero = Budgets(fuel=0)
    code = NORMAL_BOT.encode()
    enough = run(NORMAL_BOT, budgets=zero)
    compile_fuel = cold.get(cache_key(code, zero.memory), 0).fuel
    assert enough.ok and (compile_fuel, enough.wasm_fuel) == FUEL["normal bot"], REPIN

    def outcomes(ceiling: int) -> list:
        _ceiling(monkeypatch, ceiling)
        cold.clear()
        cold_turn = run(NORMAL_BOT, budgets=zero)
        warm_turn = run(NORMAL_BOT, budgets=zero)
        # Compiled earlier under a larger ceiling, then run under this one.
        _ceiling(monkeypatch, 10**12)
        cold.clear()
        run(NORMAL_BOT, budgets=zero)
        _ceiling(monkeypatch, ceiling)
        from_larger = run(NORMAL_BOT, budgets=zero)
        return [cold_turn, warm_turn, from_larger]

    for ceiling in (
        compile_fuel - 1,
        compile_fuel,
        compile_fuel + 1,
        (compile_fuel + enough.wasm_fuel) // 2,
    ):
        turns = outcomes(ceiling)
        assert turns[0] == turns[1] == turns[2], ceiling
        assert turns[0].kind is TurnKind.FUEL
        assert (
            turns[0].error
            == "ran out of fuel (0 ticks): built-in calls (join, sort, JSON, Date...) did too much work"
        )
        assert (turns[0].ticks, turns[0].wasm_fuel) == (0, ceiling)
    # What the turn spent is enough (wasmtime checks fuel at calls and loop heads, so a little
    # less may be too: the same either way, which is what matters).
    for ceiling in (enough.wasm_fuel - 1, enough.wasm_fuel, enough.wasm_fuel + 1):
        turns = outcomes(ceiling)
        assert turns[0] == turns[1] == turns[2], ceiling
    assert outcomes(enough.wasm_fuel) == [enough] * 3


def test_every_turn_pays_for_compiling_its_bundle_even_when_the_bytecode_is_cached(run, cold):
    """The cache saves time, not fuel: a bundle carrying 30 KB of code it never calls costs its
    compile on every turn, so its turns cost at least that much more than the bare bot's."""
    spent = {}
    for name, source in (
        ("normal bot", NORMAL_BOT),
        ("normal bot + 30 KB of dead code", DEAD_CODE),
    ):
        turns = [run(source) for _ in range(3)]  # cold, then warm twice
        compile_fuel = cold.get(cache_key(source.encode(), Budgets().memory), 0).fuel
        assert all(t.ok for t in turns)
        assert [t.wasm_fuel for t in turns] == [FUEL[name][1]] * 3, (
            f"{name}: {[t.wasm_fuel for t in turns]}; {REPIN}"
        )
        assert compile_fuel == FUEL[name][0], f"{name}: compiling cost {compile_fuel:,}; {REPIN}"
        spent[name] = (compile_fuel, turns[-1].wasm_fuel)
    (small_compile, small_turn), (big_compile, big_turn) = spent.values()
    assert big_turn - small_turn >= big_compile - small_compile > 30_000_000


def test_a_compile_that_ran_out_of_fuel_is_retried_under_a_higher_ceiling(run, cold, monkeypatch):
    zero = Budgets(fuel=0)
    _ceiling(monkeypatch, 1000)
    assert run(NORMAL_BOT, budgets=zero).kind is TurnKind.FUEL
    assert cold.get(cache_key(NORMAL_BOT.encode(), zero.memory), 1000).exhausted

    monkeypatch.undo()
    assert run(NORMAL_BOT, budgets=zero).ok


def test_the_cache_keeps_the_most_recent_bundles_within_its_limits():
    cache = BytecodeCache(entries=2, max_bytes=100)
    one, two, three = (cache_key(name, 1) for name in (b"one", b"two", b"three"))
    cache.put(one, Compiled(fuel=1, bytecode=b"x" * 10))
    cache.put(two, Compiled(fuel=2, bytecode=b"x" * 10))
    assert cache.get(one, 10) is not None  # one is now the most recent
    cache.put(three, Compiled(fuel=3, bytecode=b"x" * 10))

    assert cache.get(two, 10) is None and cache.get(one, 10) and cache.get(three, 10)
    cache.put(two, Compiled(fuel=2, bytecode=b"x" * 95))
    assert len(cache) == 1 and cache.get(two, 10) is not None
    assert (
        cache.get(two, 1) is not None
    )  # a finished compile serves any ceiling (the turn checks it)


def test_outcomes_cut_short_by_the_clock_are_not_kept():
    cache = BytecodeCache()
    key = cache_key(b"slow", 1)
    cache.put(key, Compiled(fuel=5, trap=wasmtime.Trap("interrupt")))
    cache.put(cache_key(b"short", 1), Compiled(fuel=5, exhausted=True))

    assert cache.get(key, 1) is None
    assert cache.get(cache_key(b"short", 1), 5) is not None
    assert cache.get(cache_key(b"short", 1), 6) is None  # a higher ceiling compiles again
