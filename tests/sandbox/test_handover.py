"""The turn is handed over by numbers (globals.Handover: the prelude reads androidId's length, turn
and the world's shape from memory the host wrote, and fills in a world object made in the
snapshot) wherever it can be, and by a JSON head otherwise. A script cannot tell which: the same
globals, keys, order, values, kinds of property and prototype, before and after it reads them."""

from __future__ import annotations

import json

import pytest

from nova_tools.engine.view import WORLD_KEYS
from nova_tools.sandbox import Budgets, GameGlobals, Sandbox, TurnGlobals
from nova_tools.sandbox.globals import BY_HEAD, BY_NUMBERS, COMMON_SHAPES, Handover

GAME = GameGlobals('{"script":{"fuel":200}}', 40)

SEES = """
export default () => {
  const kind = (k) => {
    const d = Object.getOwnPropertyDescriptor(world, k);
    return ('get' in d ? 'lazy ' : 'data ') + d.enumerable + d.configurable + (d.writable ?? '');
  };
  const before = world === undefined ? null : Object.keys(world).map(kind);
  const seen = JSON.stringify({ androidId, turn, world });
  const after = world === undefined ? null : Object.keys(world).map(kind);
  const proto = world === undefined || Object.getPrototypeOf(world) === Object.prototype;
  const fresh = world === undefined || (Object.isExtensible(world) && !Object.isFrozen(world));
  let arrays = [];
  if (world !== undefined) for (const k of Object.keys(world)) arrays.push(Array.isArray(world[k]));
  if (world !== undefined) { world.tiles = 'mine'; world.round = -1; world.extra = 1; }
  return { before, seen, after, proto, fresh, arrays,
           written: world === undefined ? null : JSON.stringify(world) };
};
"""

TILES = [{"position": {"x": i % 6, "y": i // 6}, "scattered": {"metal": i % 3}} for i in range(30)]
ANDROIDS = [{"id": "android-1", "ownerId": "amber", "memory": "é" * 3}]
BUILDINGS = [{"id": "building-1", "type": "charger", "storage": {}}]
MESSAGES = [{"round": 2, "content": "Σ 火星"}]
SCRIPTS = [{"id": "script-1", "name": "s"}]


def _usual(**values: object) -> dict[str, object]:
    world: dict[str, object] = {
        "round": 3,
        "width": 6,
        "height": 5,
        "tiles": TILES,
        "androids": ANDROIDS,
        "buildings": [],
        "messages": [],
        "scripts": SCRIPTS,
    }
    world.update(values)
    assert tuple(world) == WORLD_KEYS
    return world


CASES = {
    "a game's turn": _usual(),
    "buildings and broadcasts in view": _usual(buildings=BUILDINGS, messages=MESSAGES),
    "a shape the snapshot holds no object for": _usual(tiles=[], androids=[], scripts=[]),
    "every key lazy": _usual(round=[0] * 20, width=[0] * 20, height=[0] * 20, messages=MESSAGES),
    "an eager value that is no integer": _usual(height=[1, 2], width=None),
    "an integer past int32": _usual(round=2**31),
    "a negative integer": _usual(round=-1),
    "no world": None,
    "other keys": {"width": 6, "tiles": TILES, "zone": "ü"},
}
NUMBERED = {
    "a game's turn",
    "buildings and broadcasts in view",
    "a shape the snapshot holds no object for",
    "every key lazy",
    "no world",
}


def _turn(world: dict[str, object] | None, android: str = "android-1") -> TurnGlobals:
    if world is None:
        return TurnGlobals(GAME, android, 4, None)
    return TurnGlobals.of(GAME, android, 4, world)


@pytest.fixture(scope="module")
def sandbox() -> Sandbox:
    return Sandbox()


def _seen(sandbox: Sandbox, turn: TurnGlobals) -> object:
    result = sandbox.run_turn(SEES, turn, Budgets(), 1)
    assert result.ok, result.error
    return result.value


@pytest.mark.parametrize("name", CASES)
def test_a_script_sees_the_same_turn_by_numbers_or_by_a_json_head(
    sandbox: Sandbox, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    turn = _turn(CASES[name])
    assert turn.handover().numbers[0] == (BY_NUMBERS if name in NUMBERED else BY_HEAD)
    by_default = [_seen(sandbox, turn) for _ in range(2)]  # the second from a restored image
    monkeypatch.setattr(TurnGlobals, "handover", TurnGlobals._by_head)
    by_head = _seen(sandbox, turn)
    assert by_default == [by_head, by_head]
    world = CASES[name]
    seen = by_head["seen"]  # type: ignore[index]
    expected: dict[str, object] = {"androidId": "android-1", "turn": 4}
    if world is not None:  # an undefined world is left out
        expected["world"] = world
    assert json.loads(seen) == expected


def test_the_snapshot_holds_the_common_shapes_and_a_game_hands_over_one_of_them() -> None:
    shapes = {
        _turn(_usual(buildings=b, messages=m)).handover().numbers[3]
        for b in ([], BUILDINGS)
        for m in ([], MESSAGES)
    }
    assert shapes == set(COMMON_SHAPES)


def test_androids_ids_outside_latin_1_and_turns_of_other_types_reach_the_script(
    sandbox: Sandbox,
) -> None:
    for android, turn in (("android-☃-😀", 5), ("android-1", 2.5), ("android-1", None)):
        globals_ = TurnGlobals(GAME, android, turn, TurnGlobals.of(GAME, "", 0, _usual()).world)  # type: ignore[arg-type]
        seen = json.loads(_seen(sandbox, globals_)["seen"])  # type: ignore[index]
        assert (seen["androidId"], seen["turn"]) == (android, turn)


def test_a_handover_is_text_and_numbers_the_prelude_reads() -> None:
    turn = _turn(_usual())
    handover = turn.handover()
    assert isinstance(handover, Handover)
    assert handover.text.startswith("android-1[{") and handover.numbers[:3] == (BY_NUMBERS, 9, 4)
    assert handover.text.endswith(turn.world["scripts"])  # type: ignore[index]
