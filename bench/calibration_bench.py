"""Calibration: the most expensive turns a script can make at the default rules, against the clock.

    .venv/bin/python -m bench calibration              # every workload, median of 3 runs each
    .venv/bin/python bench/calibration_bench.py --runs 5 --only bigint

DESIGN section 3: the clock never decides a turn. Every deterministic ceiling (ticks, and the
wasm-fuel ceiling of rules/budgets.py that bounds built-ins and the compiler) must run out within
a quarter of the default ``timeoutMs``. Each workload here spends a whole default turn's ceiling
in the slowest way found (built-ins that do large work per poll point, the compiler on a bundle
near the size limit, or both), and reports its wall time as a fraction of the default timeoutMs
(target: at most 0.25) and its rate in wasm fuel per ms: the slowest rate seen is what
``budgets.SLOWEST_FUEL_PER_MS`` must stay under, with margin.

The machine is shared, so each turn is timed twice: wall-clock, and the CPU time of the thread
that ran it (``time.thread_time``), which is what the turn takes on a core of its own and barely
moves with the load of other processes. The verdict uses the CPU time; the wall time is shown
beside it with the load average, and runs at low load check that the two agree. The figures are
medians (CALIBRATION.md beside the sandbox has the runs behind rules/budgets.py).
Each turn runs with the default fuel and memory but a generous watchdog, so that a turn that
would have timed out shows how long it really takes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import dataclass

from nova_tools.rules import Rules, budgets
from nova_tools.sandbox import Budgets, Sandbox, TurnKind
from nova_tools.sandbox.bytecode import CACHE

GLOBALS = '{"androidId":"android-1","world":{},"rules":{},"turn":1,"finalTurn":null}'

# Loops that spend the whole ceiling on one built-in: few poll points, much work per call.
BURNERS = {
    "String repeat": "for (;;) s = 'ab'.repeat(4e6);",
    "Array join": "const a = Array(2e5).fill('xy'); for (;;) s = a.join(',');",
    "BigInt toString": "const x = 7n ** 30000n; for (;;) s = x.toString();",
    "BigInt multiply": "const x = 3n ** 200000n; for (;;) s = x * x;",
    "BigInt power": "for (;;) s = 7n ** 60000n;",
    "regex backtracking": "const t = 'a'.repeat(28); for (;;) s = /(a+)+b/.test(t);",
    "regex on a long text": "const t = 'ab'.repeat(5e5); for (;;) s = t.replace(/b/g, 'c');",
    "sort (default order)": "const a = []; for (let i = 0; i < 2e4; i++) a.push((i * 7919) % 100003); for (;;) s = a.slice().sort();",
    "sort a sparse array": "const a = []; a[2e6] = 1; for (let i = 0; i < 5e3; i++) a[i * 400] = i % 7; for (;;) a.sort();",
    "JSON round trip": "const o = Array.from({ length: 2e4 }, (_, i) => ({ a: i, b: 'x' + i, c: [i, i] })); for (;;) s = JSON.parse(JSON.stringify(o));",
    "string concat + slice": "let t = 'x'.repeat(4e6); for (;;) s = (t + 'y').slice(1);",
    "typed array alloc": "for (;;) s = new Uint8Array(4e6);",
    "normalize + case": "const t = '\\u00e9'.repeat(3e5); for (;;) s = t.normalize('NFD').toUpperCase();",
    "split": "const t = 'a,'.repeat(2e5); for (;;) s = t.split(',');",
    "eval of a big source": "const src = 'x = x + 1;'.repeat(2e4); globalThis.x = 0; for (;;) s = (0, eval)(src);",
    "RegExp compile": "const p = '(?:a|b)'.repeat(2e4); for (;;) s = new RegExp(p);",
    "Object.keys of a big object": "const o = {}; for (let i = 0; i < 1e5; i++) o['k' + i] = i; for (;;) s = Object.keys(o);",
    "flat": "let a = []; for (let i = 0; i < 300; i++) a = [a, Array(300).fill(i)]; for (;;) s = a.flat(Infinity);",
    "includes (a miss)": "const a = Array(1e6).fill(1); for (;;) s = a.includes(2);",
    "garbage cycles": "for (;;) { const a = []; for (let i = 0; i < 1e3; i++) { const o = { i }; o.self = o; a.push(o); } s = a; }",
    "Math functions": "let x = 0; for (;;) for (let i = 0; i < 1e5; i++) x += Math.sin(i) * Math.pow(i, 0.5) + Math.log1p(i);",
}


def burner_source(code: str) -> str:
    return f"let s;\nexport default () => {{ {code} }};\n"


def _filled(head: str, item, tail: str, size: int) -> str:
    """``head`` + ``item(0)`` + ``item(1)`` ... + ``tail``, as long as it stays within ``size`` bytes."""
    parts, used, i = [head], len(head) + len(tail), 0
    while True:
        piece = item(i)
        if used + len(piece) > size:
            return "".join(parts) + tail
        parts.append(piece)
        used += len(piece)
        i += 1


def _big_statements(size: int) -> str:
    return "let x = 0;\n" + "x = x + 1;\n" * ((size - 11) // 11)


def _big_numbers(size: int) -> str:
    return "const a = [" + "1234567," * ((size - 14) // 8) + "];\n"


def _big_object(size: int) -> str:
    return _filled("const o = {", lambda i: f"k{i}:{i},", "};\n", size)


def _big_functions(size: int) -> str:
    # top-level declarations compile in quadratic time: this one is cut by the fuel ceiling
    return _filled("", lambda i: f"function f{i}(a){{return a+{i}}}\n", "", size)


def _big_template(size: int) -> str:
    return "const t = `" + "ab" * ((size - 14) // 2) + "`;\n"


SOURCES = {
    "many statements": _big_statements,
    "number array literal": _big_numbers,
    "object literal": _big_object,
    "top-level functions": _big_functions,
    "template literal": _big_template,
}


@dataclass
class Case:
    name: str
    source: str
    cold: bool  # compile in the turn (empty the bytecode cache first)


def cases(only: str | None) -> list[Case]:
    room = budgets.MAX_BUNDLE_BYTES - 1024  # the burner and export fit in the rest
    found = [
        Case(f"burner: {name}", burner_source(code), cold=False) for name, code in BURNERS.items()
    ]
    found += [
        Case(
            f"source: {name} ({room // 1024} KB)",
            make(room) + "export default () => ({ type: 'android.wait' });\n",
            cold=True,
        )
        for name, make in SOURCES.items()
    ]
    # the whole ceiling: compiling the largest bundle, then the slowest burners with what is left
    for burner in ("BigInt toString", "sort a sparse array", "regex backtracking"):
        found.append(
            Case(
                f"source + burner: statements + {burner}",
                _big_statements(room) + burner_source(BURNERS[burner]),
                cold=True,
            )
        )
    return [c for c in found if only is None or only.lower() in c.name.lower()]


@dataclass
class Measured:
    case: Case
    cpu_ms: float  # CPU time of the thread that ran the turn: the verdict
    wall_ms: float
    fuel: int
    ticks: int
    kind: str
    error: str | None
    bundle_bytes: int

    @property
    def rate(self) -> float:
        return self.fuel / self.cpu_ms if self.cpu_ms else 0.0


def measure(case: Case, sandbox: Sandbox, budgets_: Budgets, runs: int) -> Measured:
    cpu, wall, result = [], [], None
    for _ in range(runs):
        if case.cold:
            CACHE.clear()
        else:
            sandbox.run_turn(
                case.source, GLOBALS, Budgets(fuel=0), 1
            )  # compiled before the clock starts
        start_cpu, start_wall = time.thread_time(), time.perf_counter()
        result = sandbox.run_turn(case.source, GLOBALS, budgets_, 1)
        cpu.append((time.thread_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start_wall) * 1000)
    assert result is not None
    return Measured(
        case,
        statistics.median(cpu),
        statistics.median(wall),
        result.wasm_fuel,
        result.ticks,
        str(result.kind),
        result.error,
        len(case.source.encode()),
    )


def run(runs: int = 3, only: str | None = None, out=sys.stdout) -> list[Measured]:
    rules = Rules()
    timeout = rules.script.timeout_ms
    # the default fuel and heap; a watchdog far away, so the real duration shows
    limits = Budgets(fuel=rules.script.fuel, memory=rules.script.memory, timeout_ms=600_000)
    ceiling = budgets.wasm_fuel_ceiling(rules.script.fuel, budgets.MAX_BUNDLE_BYTES)
    print(
        f"default rules: fuel {rules.script.fuel} ticks, memory {rules.script.memory >> 20} MiB, timeoutMs {timeout}; "
        f"wasm-fuel ceiling {ceiling / 1e9:.2f}G with a {budgets.MAX_BUNDLE_BYTES >> 10} KB bundle "
        f"(budgets.SLOWEST_FUEL_PER_MS {budgets.SLOWEST_FUEL_PER_MS / 1e6:.1f}M -> worst case "
        f"{budgets.worst_case_ms(rules.script.fuel, rules.script.memory):.0f} ms by the rule)",
        file=out,
    )
    print(
        f"load average at start: {os.getloadavg()[0]:.2f}; median of {runs} runs per case", file=out
    )
    sandbox = Sandbox()
    found = []
    for case in cases(only):
        m = measure(case, sandbox, limits, runs)
        found.append(m)
        flag = "" if m.kind == TurnKind.FUEL else f"  [{m.kind}: {m.error}]"
        print(
            f"  {case.name:58s} {m.cpu_ms:7.0f} ms cpu {m.wall_ms:7.0f} ms wall  {m.cpu_ms / timeout:5.3f} of timeoutMs  "
            f"{m.fuel / 1e9:5.2f}G fuel  {m.rate / 1e6:5.2f}M fuel/ms{flag}",
            file=out,
            flush=True,
        )
    worst = max(found, key=lambda m: m.cpu_ms)
    slowest = min((m for m in found if m.fuel > 1e9), key=lambda m: m.rate, default=worst)
    print(
        f"worst case: {worst.case.name}: {worst.cpu_ms:.0f} ms = {worst.cpu_ms / timeout:.3f} of timeoutMs "
        f"(target <= {1 / budgets.TIMEOUT_SHARE:.2f}) -> {'OK' if worst.cpu_ms * budgets.TIMEOUT_SHARE <= timeout else 'TOO SLOW'}",
        file=out,
    )
    print(
        f"slowest rate: {slowest.case.name}: {slowest.rate / 1e6:.2f}M fuel/ms "
        f"(budgets.SLOWEST_FUEL_PER_MS: {budgets.SLOWEST_FUEL_PER_MS / 1e6:.2f}M)",
        file=out,
    )
    print(f"load average at end: {os.getloadavg()[0]:.2f}", file=out)
    return found


def main(argv: list[str] | None = None) -> None:
    """``argv`` defaults to no options (not sys.argv): `python -m bench` calls ``main()``."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3, help="runs per case (median; default 3)")
    parser.add_argument("--only", help="only the cases whose name contains this")
    args = parser.parse_args([] if argv is None else argv)
    run(args.runs, args.only)


if __name__ == "__main__":
    main(sys.argv[1:])
