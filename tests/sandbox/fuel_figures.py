"""The exact wasm fuel of a few fixed turns, pinned for one sandbox build.

wasmtime counts fuel deterministically, and the sandbox build (wasmtime, quickjs-wasi, prelude,
revision) is pinned and recorded in every game file, so these figures are exact: a change in any
of them means turns cost something else than they did, which is either a bug (the compile no
longer charged to the turn, say) or a deliberate change that bumps ``SANDBOX_REVISION``.

After a deliberate change, re-pin them (and review the difference in the commit):

    .venv/bin/python tests/sandbox/fuel_figures.py --write
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
if str(_HERE) not in sys.path:
    sys.path.insert(0, str(_HERE))

from sandbox_cases import NORMAL_BOT, body  # noqa: E402

# A turn that only returns its action.
WAIT = body("return { type: 'android.wait' };")
# A million empty iterations: 200 ticks.
LOOP = body("for (let i = 0; i < 1e6; i++) {}\nreturn 'done';")
# The normal bot plus ~30 KB of functions it never calls: compiling them is most of its turn.
DEAD_CODE = NORMAL_BOT + "\n".join(
    f"function unused{i}(a, b) {{ return [a + b, `${{a}}-${{b}}`, {{ k: a * {i} }}]; }}"
    for i in range(400)
)
# name -> (source, tick budget)
CASES = {
    "wait": (WAIT, 200),
    "normal bot": (NORMAL_BOT, 200),
    "normal bot + 30 KB of dead code": (DEAD_CODE, 200),
    "1e6 empty iterations": (LOOP, 1000),
}

# --- pinned: written by `fuel_figures.py --write` -------------------------------------------------
PINNED_FOR = {
    "wasmtime": "50.0.1",
    "quickjs": "0.17.0",
    "zig": "0.15.2",
    "quickjsWasm": "2c6e54ecc9ab89675436c4ce0576fb6cb76b70633799c112c26d4d7d2e32f62f",
    "wasmFuelPerTick": "25000000",
    "wasmFuelPerSourceByte": "1500",
    "sandbox": "10",
}
# name -> (wasm fuel of compiling the bundle, wasm fuel of the whole turn, compile included)
FUEL = {
    "wait": (66887, 138731),
    "normal bot": (365156, 4686550),
    "normal bot + 30 KB of dead code": (33163432, 40823651),
    "1e6 empty iterations": (98677, 409164983),
}
# --- end of pinned --------------------------------------------------------------------------------

REPIN = "re-pin them with `.venv/bin/python tests/sandbox/fuel_figures.py --write` and say why in the commit"


def measure() -> dict[str, tuple[int, int]]:
    """Each case's compile fuel and whole-turn fuel, measured now with a cold cache."""
    from sandbox_cases import globals_json

    from nova_tools.sandbox import Budgets, Sandbox
    from nova_tools.sandbox.build import wasm_fuel_ceiling
    from nova_tools.sandbox.bytecode import CACHE, cache_key

    sandbox = Sandbox()
    figures = {}
    for name, (source, ticks) in CASES.items():
        budgets = Budgets(fuel=ticks)
        code = source.encode()
        CACHE.clear()
        turn = sandbox.run_turn(source, globals_json(), budgets, 7)
        compiled = CACHE.get(cache_key(code, budgets.memory), wasm_fuel_ceiling(ticks, len(code)))
        assert turn.ok and compiled is not None, (name, turn.error)
        figures[name] = (compiled.fuel, turn.wasm_fuel)
    CACHE.clear()
    return figures


def _write() -> None:
    from nova_tools.sandbox.build import SANDBOX_BUILD

    figures = measure()
    path = Path(__file__)
    text = path.read_text(encoding="utf-8")
    block = (
        f"PINNED_FOR = {SANDBOX_BUILD!r}\n"
        "# name -> (wasm fuel of compiling the bundle, wasm fuel of the whole turn, compile included)\n"
        "FUEL = {\n"
        + "".join(f"    {name!r}: {value!r},\n" for name, value in figures.items())
        + "}\n"
    )
    text = re.sub(
        r"(?s)(# --- pinned: .*?\n).*?(# --- end of pinned)",
        lambda m: m.group(1) + block + m.group(2),
        text,
    )
    path.write_text(text, encoding="utf-8")
    for name, (compile_fuel, turn_fuel) in figures.items():
        old = FUEL.get(name)
        print(f"{name:34s} compile {compile_fuel:>12,}  turn {turn_fuel:>14,}   (was {old})")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        _write()
    else:
        for name, value in measure().items():
            print(f"{name!r}: {value!r},")
