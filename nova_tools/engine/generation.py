"""A fresh map from ``rules.world.generation`` and the game seed."""

from __future__ import annotations

from ..rules import COMPOSITION, MATERIALS, Rules
from .prng import SplitMix64, derive
from .state import GameState, Tile, reindex


def generate(rules: Rules, seed: int) -> GameState:
    """Generate the initial world: ground composition per tile, then the scattered pods.

    The order of draws is part of the format: for each tile in row-major order, for each of
    ore, water, acid, radiation: one chance draw, then (if it hits) one amount draw; then for each
    pod: a tile draw, then one draw per material listed in ``pods.contents``, in material order.
    """
    world = rules.world
    gen = world.generation
    tiles = [Tile() for _ in range(world.width * world.height)]
    rng = SplitMix64(derive(seed, "generation", "composition"))
    for tile in tiles:
        for kind in COMPOSITION:
            roll = getattr(gen, kind)
            if rng.chance(roll.chance):
                amount = rng.between(roll.min, roll.max)
                if amount:
                    tile.composition[kind] = amount
    rng = SplitMix64(derive(seed, "generation", "pods"))
    for _ in range(gen.pods.count):
        tile = tiles[rng.below(len(tiles))]
        for material in MATERIALS:
            roll = gen.pods.contents.get(material)
            if roll is None:
                continue
            units = rng.between(roll.min, roll.max)
            if units:
                tile.scattered[material] = tile.scattered.get(material, 0) + units
    state = GameState(rules=rules, seed=seed, width=world.width, height=world.height, tiles=tiles)
    reindex(state)
    return state
