"""The whole map of a recorded round: what a player's replay keeps (every tile, everyone's androids
and buildings), for studying a game afterwards; the fogged view stays the default. The privacy of
memory, recordings and code in it: tests/mcp/test_privacy.py sweeps get_world and
get_board_image with whole_map too."""

from __future__ import annotations

from nova_mcp_testing import call, connect, ok

from nova_tools import api


async def test_the_whole_map_of_a_round_is_the_replayed_world_and_the_fogged_view_is_less(
    starter_game,
):
    async with connect(starter_game.root) as client:
        fogged = await ok(
            client, "get_world", game="duel", player="alice", round=40, tile_limit=200
        )
        whole = await ok(
            client,
            "get_world",
            game="duel",
            player="alice",
            round=40,
            whole_map=True,
            tile_limit=200,
        )
        now = await ok(
            client, "get_world", game="duel", player="alice", whole_map=True, tile_limit=1
        )
        picture = await ok(
            client, "get_board_image", game="duel", player="alice", round=40, whole_map=True
        )
        late = await call(
            client, "get_world", game="duel", player="alice", round=101, whole_map=True
        )

    [frame] = api.replay_frames(starter_game.root / "duel.json", first_round=40, last_round=40)
    data = whole.data
    assert (
        data["wholeMap"]
        and not fogged.data["wholeMap"]
        and data["round"] == fogged.data["round"] == 40
    )
    assert data["visibleTiles"] == data["width"] * data["height"] > fogged.data["visibleTiles"]
    # every android and building of the round, where the replay has them
    seen = {
        a["id"]: (a["position"]["x"], a["position"]["y"])
        for a in data["androids"] + data["yours"]["androids"]
    }
    assert seen == {a.id: (a.position.x, a.position.y) for a in frame.androids}
    assert {b["id"] for b in data["buildings"] + data["yours"]["buildings"]} == {
        b.id for b in frame.buildings
    }
    assert {a["ownerId"] for a in data["androids"]} == {"bob"}
    assert len(data["androids"]) > len(fogged.data["androids"])
    # every tile with something in it, as the replay has them
    assert data["tileCount"] == len(frame.tiles) > fogged.data["tileCount"]
    assert "the whole map (a replay's view) for alice" in whole.text
    assert now.data["round"] == 100 and now.data["wholeMap"]
    assert picture.data["visibleTiles"] == data["width"] * data["height"]
    assert late.error and "has no round 101 (it has rounds 0-100)" in late.text
