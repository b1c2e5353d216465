"""The module's top level is evaluated once, into the script's image (sandbox revision 7; revision 9 counts every turn's polls from a full countdown).

Each turn starts from the state the top level left and installs its own globals, so turns stay as
independent as when every turn evaluated the module: what a turn changes is gone by the next one,
and a top level that could tell it ran before the turn's globals existed runs every turn instead
(images.evaluate_top_level). Its cost is charged to every turn, so budgets are what they were.
"""

from __future__ import annotations

import json

import pytest
from sandbox_cases import Run, body, globals_json

from nova_tools.sandbox import Budgets, Sandbox, TurnKind
from nova_tools.sandbox.bytecode import CACHE
from nova_tools.sandbox.determinism import math_random_state, xorshift64star
from nova_tools.sandbox.images import BUNDLES, GAMES


def evaluated(source: str) -> bool | None:
    """Whether the image of ``source`` (its most recent one) holds its top level evaluated."""
    found = None
    for (_game, (digest, _memory), _ticks), image in BUNDLES._items.items():
        if image is not None and digest == _digest(source):
            found = image.evaluated
    return found


def evaluated_images() -> list[bool]:
    return [image.evaluated for image in BUNDLES._items.values() if image is not None]


def _digest(source: str) -> str:
    import hashlib

    return hashlib.sha256(source.encode()).hexdigest()


COUNTER = """
let turns = 0;
const seen = [];
export default () => {
  turns++;
  seen.push(androidId);
  globalThis.leftOver = (globalThis.leftOver || 0) + 1;
  return { type: 'android.wait', turns, seen: seen.length, leftOver: globalThis.leftOver };
};
"""


def test_what_a_turn_changes_is_gone_by_the_next_turn(run: Run) -> None:
    results = [run(COUNTER, androidId=f"and-{i}") for i in range(3)]
    assert [r.value for r in results] == [
        {"type": "android.wait", "turns": 1, "seen": 1, "leftOver": 1}
    ] * 3
    assert evaluated(COUNTER) is True


FRESH = """
const atTop = Date.now();
export default () => ({
  random: [Math.random(), Math.random()],
  now: Date.now(), atTop, hours: new Date().getHours(),
  androidId, turn, width: world.width, rules: typeof rules,
});
"""


@pytest.mark.parametrize("seed", [1, 2, 99])
def test_math_random_date_and_the_turns_globals_are_the_turns_own(run: Run, seed: int) -> None:
    turn = run(FRESH, seed=seed, androidId=f"and-{seed}", turn=seed + 10)
    state, first = xorshift64star(math_random_state(seed))
    _, second = xorshift64star(state)
    assert turn.ok, turn.error
    assert turn.value == {
        "random": [first, second],
        "now": 4_102_444_800_000,
        "atTop": 4_102_444_800_000,
        "hours": 0,
        "androidId": f"and-{seed}",
        "turn": seed + 10,
        "width": 12,
        "rules": "object",
    }
    assert evaluated(FRESH) is True


# Top levels that could tell the turn's globals were not there yet: each runs every turn, and so
# sees the turn's own values, as before revision 7.
TELLING = {
    "reads androidId": "const me = androidId;",
    "reads world": "const me = world.width + androidId;",
    "asks typeof turn": "const me = typeof turn + androidId;",
    "writes a turn global": "turn = 5; const me = androidId;",
    "deletes a turn global, later": "const me = androidId; delete globalThis.world;",
    "reads a descriptor": "const d = Object.getOwnPropertyDescriptor(globalThis, 'androidId');"
    " const me = 'value' in d ? d.value : 'accessor';",
    "reads every descriptor": "const me = Object.getOwnPropertyDescriptors(globalThis).androidId"
    ".value;",
    "uses Reflect": "const me = Reflect.getOwnPropertyDescriptor(globalThis, 'androidId').value;",
    "looks a getter up": "const me = String(globalThis.__lookupGetter__('androidId')) + androidId;",
    "in a promise job": "let me; Promise.resolve().then(() => { me = androidId; });",
    "after an await": "await null; const me = androidId;",
    "draws Math.random": "const r = Math.random(); const me = androidId + r;",
    "freezes the global object": "Object.freeze(globalThis); const me = 'frozen';",
}


@pytest.mark.parametrize("name", sorted(TELLING))
def test_a_top_level_that_could_tell_runs_every_turn(sandbox: Sandbox, name: str) -> None:
    source = TELLING[name] + "\nexport default () => ({ type: 'android.wait', me: String(me) });\n"
    first = sandbox.run_turn(source, globals_json(androidId="and-1"), Budgets(), 1)
    second = sandbox.run_turn(source, globals_json(androidId="and-2"), Budgets(), 2)
    assert first.ok and second.ok, (first.error, second.error)
    assert evaluated(source) is False
    if name not in ("freezes the global object", "deletes a turn global, later"):
        assert "and-1" in first.value["me"] and "and-2" in second.value["me"]
    if name == "reads a descriptor":
        assert first.value["me"] == "and-1"  # a data property, as always


def test_a_top_level_that_deletes_a_turn_global_still_loses_it_every_turn(run: Run) -> None:
    source = "delete globalThis.world;\nexport default () => typeof world;\n"
    assert [run(source).value for _ in range(2)] == ["undefined", "undefined"]
    assert evaluated(source) is False


def test_top_level_failures_are_reported_as_before(run: Run) -> None:
    thrown = run("throw new Error('top');\nexport default () => 1;\n")
    assert (thrown.kind, thrown.error, thrown.line) == (
        TurnKind.ERROR,
        "threw Error: top at line 1",
        1,
    )
    looping = run("while (true) {}\nexport default () => 1;\n")
    assert (looping.kind, looping.error, looping.ticks) == (
        TurnKind.FUEL,
        "ran out of fuel (200 ticks)",
        201,
    )
    blown = run(
        "const a = []; for (;;) a.push('x'.repeat(1000) + a.length);\nexport default () => 1;\n"
    )
    assert (blown.kind, blown.error) == (TurnKind.MEMORY, "ran out of memory (16 MiB)")
    builtin = run(
        "Array(2e7).fill(7).join(',');\nexport default () => 1;\n", budgets=Budgets(fuel=1)
    )
    assert (builtin.kind, builtin.ticks, builtin.error) == (
        TurnKind.FUEL,
        0,
        "ran out of fuel (1 ticks): built-in calls (join, sort, JSON, Date...) did too much work",
    )
    assert not any(evaluated_images())  # each ran in its turn


# A top level spending ~60 ticks, and a turn spending ~100 more.
TICKING = """
let sum = 0;
for (let i = 0; i < 300000; i++) sum += i;
export default () => {
  for (let i = 0; i < 500000; i++) sum -= i;
  return { type: 'android.wait', sum };
};
"""


def _outcome(result) -> tuple:
    return result.value, result.error, result.kind, result.ticks, result.wasm_fuel


def test_the_top_levels_ticks_and_fuel_are_charged_to_every_turn(sandbox: Sandbox) -> None:
    turns = [sandbox.run_turn(TICKING, globals_json(), Budgets(fuel=200), 7) for _ in range(2)]
    assert evaluated(TICKING) is True
    top = next(i for i in BUNDLES._items.values() if i is not None and i.top_ticks)
    assert top.top_ticks >= 55 and top.top_fuel > 50_000_000
    assert turns[0].ok and turns[0].ticks >= top.top_ticks + 95
    assert _outcome(turns[0]) == _outcome(turns[1])
    # cold caches give the same turn, to the tick and the unit of fuel
    CACHE.clear()
    BUNDLES.clear()
    GAMES.clear()
    assert _outcome(Sandbox().run_turn(TICKING, globals_json(), Budgets(fuel=200), 7)) == _outcome(
        turns[0]
    )
    # the whole turn no longer fits: cut where it would have been had the top level run in it
    short = sandbox.run_turn(TICKING, globals_json(), Budgets(fuel=120), 7)
    assert (short.kind, short.ticks) == (TurnKind.FUEL, 121)
    assert short.stack[0].function == "default"  # in the turn's own loop
    # the top level itself does not fit: it runs in the turn, and is cut there
    shorter = sandbox.run_turn(TICKING, globals_json(), Budgets(fuel=20), 7)
    assert (shorter.kind, shorter.ticks, shorter.stack[0].function) == (TurnKind.FUEL, 21, None)


def test_the_top_levels_console_lines_are_in_every_turn(run: Run) -> None:
    source = (
        "console.log('top', 'é😀');\nexport default () => { console.log('turn'); return 1; };\n"
    )
    assert [run(source).logs for _ in range(2)] == [("top é😀", "turn")] * 2
    assert evaluated(source) is True


def test_the_envelope_is_the_same_json_as_from_a_top_level_run_every_turn(run: Run) -> None:
    telling = "const me = androidId;\nexport default () => ({ me, w: world.width });\n"
    quiet = "export default () => ({ me: androidId, w: world.width });\n"
    assert json.dumps(run(telling).value) == json.dumps(run(quiet).value)
    assert (evaluated(telling), evaluated(quiet)) == (False, True)


def test_every_turn_counts_its_polls_from_a_full_countdown(sandbox: Sandbox) -> None:
    # A loop iteration polls twice: a turn of just under 10,000 polls spends no tick, one just
    # over spends one, whatever ran in the images or the turns before (revision 9), and however
    # the globals were handed over (setup's polls are not the turn's: revision 10).
    def ticks(n: int, top: str = "", **world: object) -> list[int]:
        source = top + body(f"for (let i = 0; i < {n}; i++) {{}}\nreturn 1;")
        turn = globals_json(**({"world": world} if world else {}))
        return [sandbox.run_turn(source, turn, Budgets(), s).ticks for s in (1, 2)]

    # The turn's own polls besides the loop (the call, run and its envelope): 28 at this build,
    # so the first tick falls between 4,986 and 4,987 iterations (a pinned figure: re-pin with a
    # reason)
    assert ticks(4986) == [0, 0] and ticks(4987) == [1, 1]
    assert ticks(4986 + 5000) == [1, 1] and ticks(4987 + 5000) == [2, 2]
    assert ticks(4986, "const me = androidId;\n") == [0, 0]  # run every turn: the same count
    # no world, or one of many keys: setup polls more or less, the turn's count does not move
    assert ticks(4986, **{f"k{i}": [i] * 30 for i in range(40)}) == [0, 0]
    assert ticks(4987, **{f"k{i}": i for i in range(40)}) == [1, 1]
    # the top level's polls in the image are the turn's: 20 iterations, so 20 fewer for the turn
    top = "let t = 0;\nfor (let i = 0; i < 20; i++) t++;\n"
    assert ticks(4966, top) == [0, 0] and ticks(4967, top) == [1, 1]


SHARED_ACCESSORS = """
export default () => {
  const d = Object.getOwnPropertyDescriptor(world, 'androids');
  const before = typeof d.get + typeof d.set + ('prototype' in d.get);
  const child = Object.create(world);
  const viaChild = child.androids.length;
  const late = d.get.call({}).length;  // after the first read: the same parsed value
  const after = 'value' in Object.getOwnPropertyDescriptor(world, 'androids');
  world.tiles = 'mine';
  Object.freeze(world);
  let refused = '';
  try { d.set.call(world, 1); } catch (e) { refused = e.message; }
  return { before, viaChild, late, after, tiles: world.tiles, keys: Object.keys(world), refused };
};
"""


def test_the_worlds_shared_accessors_behave_as_plain_lazy_properties(run: Run) -> None:
    # longer than 24 characters of JSON, so `androids` is lazy (globals.EAGER_CHARS)
    one = [{"id": "android-é-" + "x" * 20}]
    two = [{"id": "android-1-" + "y" * 20}, {"id": "android-2"}]
    turns = [run(SHARED_ACCESSORS, world={"round": 4, "androids": one, "tiles": []})]
    turns.append(run(SHARED_ACCESSORS, world={"round": 5, "androids": two, "tiles": [1, 2]}))
    assert [t.value for t in turns] == [
        {
            "before": "functionfunctionfalse",
            "viaChild": n,
            "late": n,
            "after": True,
            "tiles": "mine",
            "keys": ["round", "androids", "tiles"],
            "refused": "'androids' is read-only",
        }
        for n in (1, 2)
    ]
