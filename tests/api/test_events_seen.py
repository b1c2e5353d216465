"""A player's view of the event log (``events_page(..., seen_only=True)``, the lab's "as alice saw
it"): other players' turns only where the player saw them, and each round end trimmed to what
happened on tiles the player saw. The whole log names every building's production."""

from __future__ import annotations

import pytest

from nova_tools import api
from nova_tools.starter.house import house

ROUNDS = 30


@pytest.fixture(scope="module")
def duel(tmp_path_factory):
    """Two starters on a 12x12 map for 30 rounds: each builds extractors near its own charger,
    mostly out of the other's sight (range 3)."""
    path = tmp_path_factory.mktemp("seen") / "duel.json"
    api.create_game(path, seed=4)
    entry = house("house:starter").entry_path
    for player in ("alice", "bob"):
        uploaded = api.upload_script(path, player, entry)
        api.launch_android(path, player, uploaded.script_id)
    api.run_rounds(path, ROUNDS)
    return path


def _ends(page: api.EventsPage) -> dict[int, dict]:
    return {e["round"]: e for e in page.to_json()["events"] if e["type"] == "round.ended"}


def test_a_round_end_names_other_players_production_only_on_tiles_the_player_saw(duel) -> None:
    whole = _ends(api.events_page(duel, limit=500, from_round=1))
    hidden = 0
    for round in range(1, ROUNDS + 1):
        seen = _ends(api.events_page(duel, player="alice", seen_only=True, round=round, limit=500))
        [mine] = seen.values()
        frame = api.player_world(duel, "alice", round=round)
        visible = {(t["position"]["x"], t["position"]["y"]) for t in frame.to_json()["tiles"]}
        buildings = {
            b["id"]: (b["position"]["x"], b["position"]["y"])
            for b in api.player_world(duel, "alice", round=round, whole=True).to_json()["buildings"]
        }
        for made in mine.get("production", []):
            if made["owner"] != "alice":
                assert buildings[made["building"]] in visible, (round, mine["text"])
        # her own buildings' production is always hers to read
        own = [p for p in whole[round].get("production", []) if p["owner"] == "alice"]
        assert [p for p in mine.get("production", []) if p["owner"] == "alice"] == own
        hidden += len(whole[round].get("production", [])) - len(mine.get("production", []))
    assert hidden > 0  # bob's extractors worked out of her sight: those parts were left out
