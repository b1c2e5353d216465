"""Hand-authored worlds: place tiles, players, buildings and androids exactly.

Used by the tests, and by dry-runs that need a world without a game file::

    >>> from nova_tools.rules import Rules
    >>> s = Scenario(Rules(), width=5, height=5)
    >>> _ = s.tile(2, 2, acid=4, scattered={"metal": 3})
    >>> alice = s.player("alice", charger_at=(0, 0))
    >>> bot = s.android("alice", at=(2, 2))
    >>> state = s.build()
    >>> state.tile(2, 2).composition, state.androids[bot].x
    ({'acid': 4}, 2)
"""

from __future__ import annotations

from typing import Any

from ..rules import MATERIALS, Rules
from . import materials as mat
from . import players
from .state import Board, Building, GameState, Tile, reindex


class Scenario:
    def __init__(
        self,
        rules: Rules | None = None,
        *,
        width: int | None = None,
        height: int | None = None,
        seed: int = 0,
        round: int = 0,
    ):
        rules = rules or Rules()
        width = width or rules.world.width
        height = height or rules.world.height
        if (width, height) != (rules.world.width, rules.world.height):
            rules = rules.model_copy(
                update={"world": rules.world.model_copy(update={"width": width, "height": height})}
            )
        self.state = GameState(
            rules=rules,
            seed=seed,
            width=width,
            height=height,
            tiles=Board([Tile()] * (width * height)),  # tiles are values: one shared
            round=round,
        )

    def tile(
        self, x: int, y: int, *, scattered: dict[str, Any] | None = None, **composition: int
    ) -> Tile:
        return self.state.put_tile(
            x,
            y,
            composition={k: v for k, v in composition.items() if v},
            scattered=None if scattered is None else mat.bag(scattered),
        )

    def player(self, player: str, *, charger_at: tuple[int, int]) -> str:
        players.join(self.state, player, at=charger_at)
        return player

    def script(self, player: str, name: str = "script") -> str:
        return players.add_script(self.state, player, name).script

    def building(
        self,
        building_type: str,
        owner: str,
        at: tuple[int, int],
        *,
        complete: bool = True,
        storage: dict[str, Any] | None = None,
        invested: dict[str, Any] | None = None,
        health: float | None = None,
        remaining_ticks: int | None = None,
    ) -> str:
        rules = self.state.rules.building(building_type)
        building = Building(
            id=self.state.new_id("building"),
            type=building_type,
            owner=owner,
            x=at[0],
            y=at[1],
            health=rules.health if health is None else health,
            complete=complete,
            remaining_ticks=0
            if complete
            else (rules.ticks if remaining_ticks is None else remaining_ticks),
            invested=mat.bag(rules.cost) if (complete and invested is None) else mat.bag(invested),
            storage=mat.bag(storage),
        )
        if (building.x, building.y) in self.state.building_at:
            raise ValueError(f"({building.x}, {building.y}) already holds a building")
        self.state.buildings[building.id] = building
        self.state.building_at[(building.x, building.y)] = building.id
        return building.id

    def android(
        self,
        owner: str,
        at: tuple[int, int],
        *,
        script: str | None = None,
        cargo: dict[str, Any] | None = None,
        battery: float | None = None,
        health: float | None = None,
        active: bool = True,
        memory: str = "",
    ) -> str:
        if script is None:
            script = next(
                (s.id for s in self.state.scripts.values() if s.owner == owner), None
            ) or self.script(owner)
        android = players.spawn(self.state, owner, script, at[0], at[1])
        android.cargo = mat.bag(cargo)
        android.active = active
        android.memory = memory
        if battery is not None:
            android.battery = battery
        if health is not None:
            android.health = health
        return android.id

    def build(self) -> GameState:
        reindex(self.state)
        return self.state


__all__ = ["MATERIALS", "Scenario"]
