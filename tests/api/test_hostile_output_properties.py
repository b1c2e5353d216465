"""Property tests (hypothesis) for issue 9: whatever a script returns, throws or prints is judged,
never trusted. Arbitrary JavaScript values (lone UTF-16 surrogates, nesting thousands deep, huge
and non-finite numbers, huge strings in every field, cycles, getters, proxies, toJSON hooks) go
through the real path, the sandbox's QuickJS, the engine and the game file, and every one of them
is one accepted or failed turn with a reason code, never an exception; the game file still loads
and is valid UTF-8 JSON. The same for thrown values and console.log arguments in a dry-run."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nova_tools import api, engine, store
from nova_tools.play import FAILURE_CODES, sandbox_build
from nova_tools.rules import Rules
from nova_tools.toolchain.compile import CompiledScript

KNOWN_CODES = (
    {str(code) for code in FAILURE_CODES.values()} | set(engine.REFUSAL_CODES) | {"not-an-action"}
)

HELPERS = """
const deep = (n, leaf) => { let v = leaf; for (let i = 0; i < n; i++) v = [v]; return v; };
const deepObject = (n, leaf) => { let v = leaf; for (let i = 0; i < n; i++) v = { type: 'android.wait', v }; return v; };
const cycle = (v) => { const o = { type: 'android.wait', v }; o.self = o; return o; };
const getter = (v) => ({ type: 'android.wait', get memory() { return v; } });
const throwingGetter = (v) => ({ get type() { throw v; } });
const proxy = (v) => new Proxy({ type: 'android.wait', v }, { get(t, k) { if (k === 'memory') throw v; return t[k]; } });
const withToJSON = (v) => ({ type: 'android.wait', toJSON() { return v; } });
const hostileError = (v) => { const e = new Error('x'); Object.defineProperty(e, 'message', { get() { throw v; } }); return e; };
const bigMessage = (n) => new Error('m'.repeat(n) + '\\uD800');
"""

# --- JavaScript expressions ------------------------------------------------------------------------

code_unit = st.one_of(st.integers(0xD800, 0xDFFF), st.integers(0x20, 0x7E), st.integers(0, 0xFFFF))
short_string = st.lists(code_unit, max_size=8).map(
    lambda units: "'" + "".join(f"\\u{u:04x}" for u in units) + "'"
)
huge_string = st.tuples(
    st.sampled_from([4096, 4097, 16385, 1 << 20, 3 << 20]),
    st.sampled_from(["x", "\\u{1F600}", "\\uD800"]),
).map(lambda p: f"'{p[1]}'.repeat({p[0]})")
numbers = st.one_of(
    st.sampled_from(
        [
            "0",
            "-0",
            "1e308",
            "-1e308",
            "1.7976931348623157e308",
            "NaN",
            "Infinity",
            "-Infinity",
            "2 ** 53 + 1",
            "1e21",
            "5e-324",
            "123n",
            "2n ** 4000n",
            "Number.MAX_SAFE_INTEGER",
        ]
    ),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.integers(-(2**80), 2**80).map(str),
)
others = st.sampled_from(
    [
        "null",
        "undefined",
        "true",
        "false",
        "() => 1",
        "Symbol('s')",
        "Promise.resolve(1)",
        "new Date(0)",
        "/re/g",
        "new Map([[1, 2]])",
        "new Uint8Array(3)",
        "globalThis",
    ]
)
leaves = st.one_of(short_string, huge_string, numbers, others)
ACTION_TYPES = st.sampled_from(
    [
        "'android.wait'",
        "'android.broadcast'",
        "'android.move'",
        "'android.collect'",
        "'android.launch'",
        "'android.dismantle'",
        "'android.fly'",
    ]
)
STRING_FIELDS = [
    "memory",
    "recording",
    "content",
    "direction",
    "scriptId",
    "targetAndroidId",
    "buildingType",
    "type",
]


def _containers(child: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    key = st.one_of(
        st.sampled_from(STRING_FIELDS + ["resources", "androidId", "__proto__"]), short_string
    )
    return st.one_of(
        st.lists(child, max_size=4).map(lambda items: "[" + ", ".join(items) + "]"),
        st.dictionaries(key, child, max_size=4).map(
            lambda d: "({" + ", ".join(f"[{_key(k)}]: {v}" for k, v in d.items()) + "})"
        ),
        st.tuples(st.sampled_from([31, 32, 33, 3000, 200_000]), child, st.booleans()).map(
            lambda p: f"{'deepObject' if p[2] else 'deep'}({p[0]}, {p[1]})"
        ),
        st.tuples(
            st.sampled_from(
                ["cycle", "getter", "throwingGetter", "proxy", "withToJSON", "hostileError"]
            ),
            child,
        ).map(lambda p: f"{p[0]}({p[1]})"),
    )


def _key(key: str) -> str:
    return key if key.startswith("'") else f"'{key}'"


values = st.recursive(leaves, _containers, max_leaves=8)


@st.composite
def actions(draw) -> str:
    """Something shaped like an action, with arbitrary values in any of its fields."""
    fields = {"type": draw(st.one_of(ACTION_TYPES, values))}
    for name in draw(
        st.lists(st.sampled_from(STRING_FIELDS[:-1] + ["resources"]), max_size=4, unique=True)
    ):
        fields[name] = draw(st.one_of(values, short_string, huge_string))
    return "({" + ", ".join(f"{k}: {v}" for k, v in fields.items()) + "})"


turn_results = st.one_of(actions(), values)


def _bundle(body: str) -> str:
    return HELPERS + f"export default () => {{ {body} }};\n"


# --- a turn's result, through the sandbox, the engine and the game file --------------------------


def _game_with(path: Path, bundle: str) -> None:
    """A fresh game file where one android runs ``bundle`` (stored as an upload stores it)."""
    path.unlink(missing_ok=True)
    game = store.new_game(path, Rules(), 5, sandbox_build())
    events = [engine.join(game.state, "p")]
    script = engine.add_script(game.state, "p", "hostile")
    events.append(script)
    compiled = CompiledScript.of(bundle, "main.ts")
    game.scripts[script.script] = store.StoredScript(
        "p", "hostile", compiled.sha256, compiled.bundle
    )
    events.append(engine.launch(game.state, "p", script.script))
    game.record(events)
    store.save(game)


def _strict(raw: bytes) -> object:
    def refuse(name: str) -> object:
        raise AssertionError(f"{name} is not JSON")

    return json.loads(raw.decode("utf-8"), parse_constant=refuse)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(result=turn_results)
def test_any_returned_value_is_one_judged_turn_and_the_game_file_stays_valid(tmp_path, result):
    path = tmp_path / "game.json"
    _game_with(path, _bundle(f"return {result};"))
    assert api.run_rounds(path, 1).turns == 1
    api.run_rounds(
        path, 1
    )  # loads the file: replays the first turn, then plays another (if still active)
    data = _strict(path.read_bytes())
    turns = [e for e in data["events"] if e["type"] == "turn"]
    for turn in turns:
        assert turn["outcome"] in ("accepted", "refused", "invalid", "error")
        if turn["outcome"] != "accepted":
            assert turn["code"] in KNOWN_CODES, turn["code"]
            assert isinstance(turn["reason"], str) and len(turn["reason"]) < 2000
    assert store.load(path).state.round == 2


# --- thrown values and console.log arguments, in a dry-run ----------------------------------------


def _dry_run(bundle: str) -> api.DryRun:
    return api.dry_run(compiled=CompiledScript.of(bundle, "main.ts"))


def _well_formed_reply(result: api.DryRun) -> dict:
    shown = result.to_json()
    _strict(json.dumps(shown, ensure_ascii=False).encode("utf-8"))
    return shown


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(thrown=st.one_of(values, st.sampled_from(["bigMessage(8 << 20)", "bigMessage(1 << 20)"])))
def test_any_thrown_value_is_a_script_error_with_a_well_formed_reason(thrown):
    result = _dry_run(_bundle(f"throw {thrown};"))
    shown = _well_formed_reply(result)
    assert not result.accepted
    assert result.code in ("script-error", "out-of-memory", "stack-overflow", "out-of-fuel"), (
        result.code,
        result.reason,
    )
    assert shown["reason"] and len(shown["reason"]) < 1000


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(arguments=st.lists(values, min_size=1, max_size=3))
def test_any_console_log_arguments_are_kept_well_formed_and_the_turn_goes_on(arguments):
    result = _dry_run(
        _bundle(f"console.log({', '.join(arguments)}); return {{ type: 'android.wait' }};")
    )
    shown = _well_formed_reply(result)
    if result.code is None:
        assert result.accepted and shown["logs"]
    else:  # building the arguments themselves can run out (a 3 MiB string twice, deep(200000))
        assert result.code in ("out-of-memory", "stack-overflow", "out-of-fuel", "script-error"), (
            result.code,
            result.reason,
        )
