"""Runs one android turn of a compiled script, deterministically, under budgets.

QuickJS-NG (``quickjs.wasm`` from the npm package quickjs-wasi) runs inside wasmtime, a fresh
interpreter per turn. See DESIGN.md section 3 and rulebook 7.1.

    sandbox = Sandbox()
    result = sandbox.run_turn(bundle, globals_json, Budgets(fuel=200), seed=42)
    result.value, result.error, result.ticks
"""

from .build import SANDBOX_BUILD
from .errors import SandboxUnavailable
from .results import Budgets, TurnKind, TurnResult
from .runner import Sandbox

__all__ = ["SANDBOX_BUILD", "Budgets", "Sandbox", "SandboxUnavailable", "TurnKind", "TurnResult"]
