"""A fresh map from ``rules.world.generation`` and the game seed."""

from __future__ import annotations

from ..rules import COMPOSITION, MATERIALS, Rules
from .prng import SplitMix64, derive
from .state import Board, GameState, Tile, reindex
from .symmetry import group_size, images


def generate(rules: Rules, seed: int) -> GameState:
    """Generate the initial world: ground composition per tile, then the scattered pods.

    The order of draws is part of the format: for each tile in row-major order, for each of
    ore, water, acid, radiation: one chance draw, then (if it hits) one amount draw; then for each
    pod: a tile draw, then one draw per material listed in ``pods.contents``, in material order.

    On a rotational map (``rules.world.symmetry``) the draws are the same, but only for the first
    tile of each rotation orbit (in row-major order), whose composition its twins copy; and each
    pod draw lands a whole symmetric group of pods, one on each image of the tile drawn.
    """
    world = rules.world
    gen = world.generation
    width, height, symmetry = world.width, world.height, world.symmetry
    # built as plain bags, then made the board's tiles
    compositions: list[dict[str, int]] = [{} for _ in range(width * height)]
    scattered: list[dict[str, int]] = [{} for _ in range(width * height)]
    rng = SplitMix64(derive(seed, "generation", "composition"))
    for index in range(len(compositions)):
        twins = [
            ty * width + tx
            for tx, ty in images(index % width, index // width, width, height, symmetry)
        ]
        if min(twins) < index:
            continue  # its composition was copied from the first tile of its orbit
        for kind in COMPOSITION:
            roll = getattr(gen, kind)
            if rng.chance(roll.chance):
                amount = rng.between(roll.min, roll.max)
                if amount:
                    for twin in twins:
                        compositions[twin][kind] = amount
    rng = SplitMix64(derive(seed, "generation", "pods"))
    group = group_size(width, height, symmetry)
    for _ in range(
        (gen.pods.count + group // 2) // group
    ):  # the nearest multiple of the group, halves up
        index = rng.below(len(scattered))
        landing = [
            scattered[ty * width + tx]
            for tx, ty in images(index % width, index // width, width, height, symmetry)
        ]
        for material in MATERIALS:
            roll = gen.pods.contents.get(material)
            if roll is None:
                continue
            units = rng.between(roll.min, roll.max)
            if units:
                for bag in landing:
                    bag[material] = bag.get(material, 0) + units
    tiles = Board(map(Tile, compositions, scattered))
    state = GameState(rules=rules, seed=seed, width=width, height=height, tiles=tiles)
    reindex(state)
    return state
