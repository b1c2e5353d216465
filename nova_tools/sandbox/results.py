"""What a turn is given (Budgets) and what it comes back with (TurnResult), in a player's words."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..rules.budgets import MAX_BUNDLE_BYTES, MAX_HEAP_BYTES
from .guest import MAX_STACK_SIZE
from .prelude import MAX_RESULT_CHARS


@dataclass(frozen=True)
class Budgets:
    """The three per-turn allowances of ``rules.script`` (rulebook 7.1)."""

    fuel: int = 200  # interpreter ticks (rules.script.fuel); the turn fails on tick fuel + 1
    memory: int = 16 * 1024 * 1024  # JS heap bytes (rules.script.memory), globals included
    timeout_ms: int = 10_000  # host watchdog, in the turn thread's CPU time (rules.script.timeoutMs), a last resort

    def __post_init__(self) -> None:
        for name in ("fuel", "memory", "timeout_ms"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"Budgets.{name} must be a non-negative integer, not {value!r}")
        if self.memory > MAX_HEAP_BYTES:
            # Keeps the guest's linear memory under 1 GiB (rules/budgets.py).
            raise ValueError(f"Budgets.memory must be at most {MAX_HEAP_BYTES} bytes")


class TurnKind(StrEnum):
    """Why a turn ended: a short code for tools; ``TurnResult.error`` says it in words."""

    OK = "ok"
    FUEL = "fuel"  # ticks (or the wasm work ceiling that stands in for them) exhausted
    MEMORY = "memory"
    STACK = "stack"
    TIMEOUT = "timeout"
    SYNTAX = "syntax"
    ERROR = "error"  # the script threw (or failed to load)
    NO_ACTION = "no-action"  # it finished without returning an action-shaped JSON value
    CRASH = "crash"  # the interpreter itself trapped: a sandbox bug, never the player's fault


@dataclass(frozen=True)
class Frame:
    """One frame of a thrown error's stack, in the bundle: the function (None when anonymous),
    its line and column (from 1). The host maps it to the player's file (toolchain/sourcemap.py)."""

    function: str | None
    line: int
    column: int


@dataclass(frozen=True)
class TurnResult:
    value: object | None  # the JSON-decoded return value (None when the turn failed)
    error: str | None  # one sentence a player can act on, e.g. "ran out of fuel (200 ticks)"
    ticks: int  # interpreter ticks spent (interrupt-handler calls)
    kind: TurnKind = TurnKind.OK
    logs: tuple[str, ...] = ()  # console.log lines, kept even when the turn failed (unless trapped)
    line: int | None = None  # where an error was thrown, in the bundle (map with its source map)
    column: int | None = None
    stack: tuple[Frame, ...] = ()  # the thrown error's frames in the bundle, innermost first
    wasm_fuel: int = 0  # wasm fuel spent by the script (for benchmarks and the fuel factor)

    @property
    def ok(self) -> bool:
        return self.error is None


def size_text(n: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            amount = n / scale
            return f"{amount:g} {unit}" if amount == int(amount) else f"{amount:.1f} {unit}"
    return "1 byte" if n == 1 else f"{n} bytes"


def fuel_message(fuel: int, by_builtins: bool = False) -> str:
    if by_builtins:
        # Ticks only count interpreter poll points; this is the wasm-fuel ceiling (see build.py).
        return f"ran out of fuel ({fuel} ticks): built-in calls (join, sort, JSON, Date...) did too much work"
    return f"ran out of fuel ({fuel} ticks)"


def memory_message(memory: int) -> str:
    return f"ran out of memory ({size_text(memory)})"


def stack_message() -> str:
    return f"exceeded the call stack ({size_text(MAX_STACK_SIZE)}); is a recursion unbounded?"


def timeout_message(timeout_ms: int) -> str:
    return f"took longer than {timeout_ms} ms"


def _at(line: int | None) -> str:
    return f" at line {line}" if line else ""


def without_place(error: str, line: int | None) -> str:
    """An error sentence of this module without the bundle line it ends with (``_at``), for a
    host that words the place itself, in the player's files."""
    return error.removesuffix(_at(line))


def thrown_message(what: str, line: int | None) -> str:
    return f"threw {what}{_at(line)}"


def syntax_message(message: str, line: int | None) -> str:
    return f"has a syntax error: {message}{_at(line)}"


def load_message(what: str, line: int | None) -> str:
    return f"could not be loaded: {what}{_at(line)}"


_NO_ACTION = {
    "undefined": "returned undefined instead of an action",
    "function": "returned a function instead of an action",
    "symbol": "returned a symbol instead of an action",
    "promise": "returned a Promise instead of an action (the turn function must not be async)",
    "no-default": "has no default export: export the turn function with `export default`",
}


def no_action_message(got: str, type_name: str | None = None) -> str:
    if got == "not-function":
        article = "an" if (type_name or "?")[:1].lower() in "aeiou" else "a"
        return f"exports {article} {type_name} as default instead of a turn function"
    return _NO_ACTION.get(got, f"returned {got} instead of an action")


def not_json_message(what: str) -> str:
    return f"returned a value that cannot be sent as JSON ({what})"


def too_deep_message(detail: str) -> str:
    return f"returned a value {detail}; an action is an object at most two levels deep"


def too_big_message(size: int) -> str:
    return f"returned {size:,} characters of JSON; a turn may return at most {MAX_RESULT_CHARS:,}"


def bundle_too_big_message(size: int) -> str:
    return f"could not be loaded: its bundle is {size_text(size)}; a script may be at most {size_text(MAX_BUNDLE_BYTES)} once bundled"


def pending_message() -> str:
    return "never finished its top-level code (a top-level await that never settles?)"


def too_many_jobs_message(limit: int) -> str:
    return f"queued more than {limit:,} promise jobs in its top-level code"


def crash_message(detail: str) -> str:
    return f"crashed the sandbox ({detail}); please report this script"
