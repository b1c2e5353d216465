"""The status a player reads counts each player's own androids, wrecks and buildings."""

from __future__ import annotations

from nova_tools import api, store
from nova_tools.engine import Scenario
from nova_tools.rules import Rules
from nova_tools.sandbox.build import SANDBOX_BUILD


def test_each_player_is_counted_their_own_androids_wrecks_and_buildings(tmp_path):
    world = Scenario(Rules(), width=6, height=6)
    world.player("alice", charger_at=(0, 0))
    world.player("bob", charger_at=(5, 5))
    world.building("depot", "alice", (1, 0))
    for _ in range(3):
        world.android("alice", (0, 0))
    world.android("alice", (1, 1), active=False)
    world.android("bob", (5, 5), active=False)
    path = tmp_path / "game.json"
    store.save(store.new_game(path, Rules(), 0, SANDBOX_BUILD, initial=world.build()))

    players = {p.id: p for p in api.status(path).players}

    assert (players["alice"].active_androids, players["alice"].wrecks, players["alice"].score) == (
        3,
        1,
        7,
    )
    assert (players["bob"].active_androids, players["bob"].wrecks, players["bob"].score) == (
        0,
        1,
        4,
    )
