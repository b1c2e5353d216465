"""The state hash peers exchange every round and comparisons report: it is the sha256 of the
state's canonical JSON, however it is computed, and it sees every change to the board."""

from __future__ import annotations

import hashlib

import pytest
from determinism_game import decide

from nova_tools.engine import add_script, generate, join, launch, play_round, state_hash, to_json
from nova_tools.engine.state import Tile, canonical
from nova_tools.rules import resolve


def _by_definition(state) -> str:
    return hashlib.sha256(canonical(to_json(state))).hexdigest()


def _played(width: int, height: int, seed: int, rounds: int):
    rules = resolve(
        {"world": {"width": width, "height": height}, "android": {"failedTurnHealthPenalty": 1}}
    )
    state = generate(rules, seed)
    for player in ("amber", "basalt"):
        join(state, player)
        script = add_script(state, player, "starter").script
        launch(state, player, script)
        launch(state, player, script)
    for _ in range(rounds):
        play_round(state, decide)
    return state


@pytest.mark.parametrize(
    ("width", "height", "seed", "rounds"),
    [(12, 12, 1, 0), (12, 12, 5, 40), (24, 16, 9, 25), (64, 64, 3, 5)],
)
def test_the_hash_is_the_sha256_of_the_canonical_state(
    width: int, height: int, seed: int, rounds: int
) -> None:
    state = _played(width, height, seed, rounds)
    state.androids[
        next(iter(state.androids))
    ].memory = "naïve ☃ \u2028 memory"  # not ASCII: hashed as UTF-8
    assert state_hash(state) == _by_definition(state)


def test_every_change_to_a_tile_changes_the_hash_and_a_zero_entry_does_not() -> None:
    state = _played(16, 16, 2, 3)
    before = state_hash(state)
    tile = state.tiles[37]
    more = {**tile.scattered, "metal": tile.scattered.get("metal", 0) + 1}
    state.tiles[37] = Tile(tile.composition, more)
    changed = state_hash(state)
    assert changed != before and changed == _by_definition(state)
    state.tiles[37] = Tile(
        # a zero entry is no material
        {**tile.composition, "ore": tile.composition.get("ore", 0)},
        {**more, "metal": more["metal"] - 1},
    )
    assert state_hash(state) == before == _by_definition(state)
    last = state.tiles[-1]
    state.tiles[-1] = Tile({**last.composition, "acid": last.composition.get("acid", 0) + 2})
    assert state_hash(state) not in (before, changed)
    assert state_hash(state) == _by_definition(state)


def test_numbers_read_as_floats_are_hashed_as_written() -> None:
    # a hand-edited file's "width": 12.0 loads (it still counts 144 tiles), and so does a tile's
    # 1.0 beside another tile's 1: equal in Python, different in JSON
    state = _played(12, 12, 4, 2)
    state.width = 12.0
    state.tiles[0], state.tiles[1] = Tile({"ore": 1}), Tile({"ore": 1.0})
    state.tiles[2], state.tiles[3] = Tile(scattered={"metal": 2}), Tile(scattered={"metal": 2.0})
    assert state_hash(state) == _by_definition(state)
