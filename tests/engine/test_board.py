"""Tiles are values and the board is the one place one changes (state.Board), so the views know
what changed without comparing every tile (engine/view.py): nothing can change a tile in place,
and every change the engine makes to a tile is one the board logged."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest
from determinism_game import DIRECTIONS, decide

from nova_tools.engine import (
    Decision,
    add_script,
    generate,
    join,
    launch,
    play_round,
    state_hash,
    turn_seed,
)
from nova_tools.engine.prng import SplitMix64
from nova_tools.engine.state import Board, Tile
from nova_tools.rules import resolve


def _game(seed: int, size: int = 10, pods: int = 6):
    rules = resolve(
        {"world": {"width": size, "height": size, "generation": {"pods": {"count": pods}}}}
    )
    state = generate(rules, seed)
    for player in ("amber", "basalt"):
        join(state, player)
        script = add_script(state, player, "s").script
        for _ in range(2):
            launch(state, player, script)
    return state


def test_a_tile_cannot_change_in_place() -> None:
    state = _game(1)
    tile = state.tiles[0]
    for change in (
        lambda: tile.scattered.__setitem__("metal", 1),
        lambda: tile.composition.pop("ore", None),
        lambda: tile.scattered.update(metal=1),
        lambda: tile.composition.clear(),
        lambda: tile.scattered.setdefault("metal", 1),
    ):
        with pytest.raises(TypeError, match="put a new tile"):
            change()
    with pytest.raises(dataclasses.FrozenInstanceError):
        tile.scattered = {"metal": 1}  # type: ignore[misc]
    for change in (
        lambda: state.tiles.append(Tile()),
        lambda: state.tiles.pop(),
        lambda: state.tiles.sort(key=id),
        lambda: state.tiles.__delitem__(0),
        lambda: state.tiles.__setitem__(0, {"composition": {}}),
        lambda: state.tiles.__setitem__(slice(0, 2), [Tile(), Tile()]),
    ):
        with pytest.raises(TypeError):
            change()
    assert state.tiles.changes == 0


def test_the_board_says_which_tiles_were_replaced_since_a_count() -> None:
    state = _game(2)
    board = state.tiles
    start = board.changes
    state.put_tile(3, 1, scattered={"metal": 2})
    middle = board.changes
    state.put_tile(0, 0, composition={"acid": 1})
    board[-1] = Tile(scattered={"water": 1})
    assert board.since(start) == [13, 0, 99]
    assert board.since(middle) == [0, 99]
    assert board.since(board.changes) == []
    assert state.tile(3, 1).scattered == {"metal": 2} and state.tile(9, 9).scattered == {"water": 1}
    for _ in range(3 * len(board)):  # the log is bounded: a count it no longer reaches is None
        state.put_tile(5, 5, scattered={"metal": 1})
    assert board.since(start) is None
    assert board.since(board.changes - 3) == [55, 55, 55]


def test_a_copied_or_pickled_state_is_the_same_game_and_keeps_its_own_board() -> None:
    state = _game(3)
    for _ in range(3):
        play_round(state, decide)
    for other in (copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert type(other.tiles) is Board and other.tiles is not state.tiles
        assert state_hash(other) == state_hash(state)
        other.put_tile(0, 0, scattered={"metal": 7})
        assert state.tile(0, 0).scattered != {"metal": 7}
        assert state_hash(other) != state_hash(state)


def _changing(state, android) -> Decision:
    """Collect what lies here, build with it, salvage what was built, else wander: the actions
    that change a tile, most turns."""
    rng = SplitMix64(turn_seed(state, android.id))
    here = state.tile(android.x, android.y)
    roll = rng.below(6)
    if roll == 0 and state.building_on(android.x, android.y) is None:
        action = {"type": "android.start-construction", "buildingType": "depot"}
    elif roll == 1:
        action = {"type": "android.salvage"}
    elif roll == 2:
        action = {"type": "android.continue-construction"}
    elif here.scattered and sum(android.cargo.values()) < 10:
        action = {"type": "android.collect"}
    else:
        action = {"type": "android.move", "direction": DIRECTIONS[rng.below(4)]}
    return Decision(value=action, ticks=0)


def test_every_tile_the_engine_changes_is_one_the_board_logged() -> None:
    # collecting, building with loose material and salvaging change tiles; whatever changed was
    # replaced through the board, which logged it
    changed = 0
    for seed in range(4, 10):
        state = _game(seed, size=8, pods=40)
        for _ in range(30):
            before, count = list(state.tiles), state.tiles.changes
            play_round(state, _changing)
            logged = state.tiles.since(count)
            assert logged is not None
            differ = {i for i, (a, b) in enumerate(zip(before, state.tiles, strict=True)) if a != b}
            assert differ <= set(logged)
            changed += len(differ)
    assert changed > 30
