"""The world a game hands a script is byte for byte the encoded world view, every turn.

``ScriptRunner.globals`` hands the sandbox ``engine.world_texts`` (each key's JSON text, with
each tile's, android's, building's and broadcast's JSON kept between turns and encoded again only
when it changed); this checks it, and the handover made of it (text and numbers), against
``TurnGlobals.of(world_view(...))`` built from nothing and a plain reference, for every android
turn of random games: acid cleaned, materials collected and dropped, buildings started and salvaged, androids
launched and destroyed, broadcasts in other scripts than Latin, whole-board and short sight.
"""

from __future__ import annotations

import json

import pytest

from nova_tools import engine
from nova_tools.engine.prng import SplitMix64
from nova_tools.engine.state import Android, Tile
from nova_tools.engine.view import encode
from nova_tools.play import ScriptRunner
from nova_tools.rules import BUILDING_TYPES, resolve
from nova_tools.sandbox import TurnGlobals

DIRECTIONS = ("north", "south", "east", "west")


def _reference_handover(android_id: str, turn: int, view: dict) -> tuple[str, tuple[int, ...]]:
    """setupTurn's text and numbers for a game's ``view``, written the plain way (json.dumps of
    each key; its length in UTF-16 units where it is lazy, more than 24 characters; its value
    where it is an eager integer, a flag where an empty list), as the sandbox has received it since
    revision 10: TurnGlobals.handover must give exactly these."""
    dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
    units = lambda text: len(text.encode("utf-16-le", "surrogatepass")) // 2  # noqa: E731
    shape = empties = 0
    values: list[int] = []
    large = []
    for i, value in enumerate(view.values()):
        text = dumps(value)
        if len(text) > 24:
            shape |= 1 << i
            values.append(units(text))
            large.append(text)
        elif value == []:
            empties |= 1 << i
            values.append(0)
        else:
            assert type(value) is int
            values.append(value)
    return android_id + "".join(large), (1, units(android_id), turn, shape, empties, *values)


def _action(state: engine.GameState, android: Android, rng: SplitMix64) -> dict:
    roll = rng.below(14)
    if roll < 4:
        return {"type": "android.move", "direction": DIRECTIONS[rng.below(4)]}
    if roll == 4:
        return {"type": "android.collect"}
    if roll == 5:
        return {"type": "android.clean-acid", "direction": DIRECTIONS[rng.below(4)]}
    if roll == 6:
        return {
            "type": "android.start-construction",
            "buildingType": BUILDING_TYPES[rng.below(len(BUILDING_TYPES))],
            "resources": {"metal": min(android.cargo.get("metal", 0), 6)},
        }
    if roll == 7:
        return {"type": "android.continue-construction"}
    if roll == 8:
        return {"type": "android.launch", "scriptId": android.script}
    if roll == 9:
        return {"type": "android.broadcast", "content": f"Σ {android.id} 火星 {state.round}"}
    if roll == 10:
        return {"type": "android.salvage"}
    if roll == 11:
        return {"type": "android.deposit"}
    if roll == 12:
        return {"type": "android.withdraw", "resources": {"metal": 1}}
    return {"type": "android.wait", "memory": f"ü{rng.next_u64()}"}


@pytest.mark.parametrize(
    ("seed", "size", "sight"), [(1, 8, 3), (2, 10, 512), (3, 12, 2), (4, 7, 512), (5, 9, 4)]
)
def test_the_handed_world_is_the_encoded_view_every_turn(seed: int, size: int, sight: int) -> None:
    rules = resolve(
        {
            "world": {"width": size, "height": size},
            "android": {
                "sight": {"shape": "diamond", "range": sight},
                "failedTurnHealthPenalty": 1,
            },
        }
    )
    state = engine.generate(rules, seed)
    for player in ("amber", "basalt"):
        engine.join(state, player)
        script = engine.add_script(state, player, "s").script
        for _ in range(2):
            engine.launch(state, player, script)
    runner = ScriptRunner(rules, {})
    checked = 0

    def decide(state: engine.GameState, android: Android) -> engine.Decision:
        nonlocal checked
        handed = runner.globals(state, android)
        kept, state.views = state.views, None  # the reference is built from nothing
        view = engine.world_view(state, android.owner, android)
        state.views = kept
        fresh = TurnGlobals.of(runner.game_globals, android.id, state.round, view)
        assert dict(handed.world) == {key: encode(value) for key, value in view.items()}
        handover = handed.handover()
        assert handover == fresh.handover()
        assert (handover.text, handover.numbers) == _reference_handover(
            android.id, state.round, view
        )
        checked += 1
        rng = SplitMix64(engine.turn_seed(state, android.id))
        return engine.Decision(value=_action(state, android, rng), ticks=0)

    for _ in range(40):
        engine.play_round(state, decide)
        # a change made outside an action (a scenario, a test) is seen too
        x, y = state.round % size, state.round // size % size
        metal = state.tile(x, y).scattered.get("metal", 0) + 1
        state.put_tile(x, y, scattered={**state.tile(x, y).scattered, "metal": metal})
    assert checked > 80


def test_a_view_handed_out_cannot_change_the_next_one() -> None:
    rules = resolve({"world": {"width": 6, "height": 6}})
    state = engine.generate(rules, 9)
    engine.join(state, "amber")
    engine.launch(state, "amber", engine.add_script(state, "amber", "s").script)
    android = next(iter(state.androids.values()))
    first = engine.world_view(state, "amber", android)
    before = engine.world_texts(state, "amber", android)
    for tile in first["tiles"]:
        tile.get("revealedBy", []).append("mallory")
        tile["scattered"]["metal"] = 99
    assert engine.world_texts(state, "amber", android) == before
    assert "mallory" not in encode(engine.world_view(state, "amber", android))


def test_a_tile_changed_between_two_turns_of_one_android_is_handed_over_changed() -> None:
    """One android seeing the whole board, turn after turn (the kept tiles text is reused while
    nothing in view changed): every change to a tile, a player's sight or the android shows."""
    rules = resolve(
        {"world": {"width": 6, "height": 5}, "android": {"sight": {"shape": "disc", "range": 99}}}
    )
    state = engine.generate(rules, 4)
    engine.join(state, "amber")
    engine.launch(state, "amber", engine.add_script(state, "amber", "s").script)
    android = next(iter(state.androids.values()))
    runner = ScriptRunner(rules, {})

    def check() -> str:
        handed = dict(runner.globals(state, android).world)
        kept, state.views = state.views, None
        assert handed == {
            k: encode(v) for k, v in engine.world_view(state, "amber", android).items()
        }
        state.views = kept
        return handed["tiles"]

    first = check()
    assert check() == first  # nothing changed: the same text
    changes = [
        lambda: state.put_tile(1, 1, scattered={"metal": 3}),
        lambda: state.put_tile(1, 1, scattered={"metal": 4}),
        lambda: state.put_tile(0, 0, composition={"acid": 2}),
        lambda: state.put_tile(0, 0, composition={}),
        lambda: state.tiles.__setitem__(29, Tile(scattered={"electronics": 1})),
        lambda: state.visible.__setitem__("amber", frozenset({1, 2})),
        # an android's or building's fields, in place: 100 == 100.0, but their JSON differs
        lambda: setattr(android, "battery", int(android.battery)),
        lambda: setattr(android, "battery", float(android.battery)),
        lambda: android.cargo.__setitem__("metal", 1),
        lambda: setattr(android, "memory", "ü"),
        lambda: next(iter(state.buildings.values())).storage.__setitem__("metal", 2),
    ]
    texts = {first}
    for change in changes:
        change()
        texts.add(check())
        check()
    assert len(texts) >= 6
    assert '"battery":100.0' in runner.globals(state, android).world["androids"]
