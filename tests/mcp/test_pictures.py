"""Tools for agents that can see: the board as a player saw it (a PNG, fog drawn as fog), and each
player's score round by round (small enough for an agent's context)."""

from __future__ import annotations

import base64
import io

import pytest
from nova_mcp_testing import call, connect, ok
from PIL import Image

from nova_tools import api
from nova_tools.mcp.board_image import FOG, tile_size


async def board(client, **arguments) -> tuple[Image.Image, dict]:
    reply = await ok(client, "get_board_image", **arguments)
    [picture] = [block for block in reply.result.content if block.type == "image"]
    assert picture.mime_type == "image/png"
    raw = base64.b64decode(picture.data)
    assert raw[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(raw))
    image.load()  # decodes the whole picture: a truncated PNG fails here
    assert image.format == "PNG"
    assert reply.text.startswith("Round ") and "fog" in reply.text  # the legend beside it
    return image.convert("RGB"), reply.data


def tile_mean(image: Image.Image, x: int, y: int, size: int) -> tuple[float, ...]:
    tile = image.crop((x * size, y * size, (x + 1) * size, (y + 1) * size))
    from PIL import ImageStat

    return tuple(ImageStat.Stat(tile).mean)


async def test_the_board_image_is_a_png_of_the_expected_size(starter_game):
    async with connect(starter_game.root) as client:
        image, data = await board(client, game="duel", player="alice")
    world = api.player_world(starter_game.root / "duel.json", "alice")
    size = tile_size(world.width, world.height)
    assert (
        image.size
        == (world.width * size, world.height * size)
        == (data["widthPixels"], data["heightPixels"])
    )
    assert (data["round"], data["tilePixels"], data["visibleTiles"]) == (
        100,
        size,
        len(world.tiles),
    )


async def test_fogged_tiles_are_drawn_as_fog_and_differ_from_visible_ones(starter_game):
    async with connect(starter_game.root) as client:
        image, data = await board(client, game="duel", player="alice")
    world = api.player_world(starter_game.root / "duel.json", "alice")
    size = data["tilePixels"]
    visible = {(t.position.x, t.position.y) for t in world.tiles}
    fogged = [
        (x, y) for y in range(world.height) for x in range(world.width) if (x, y) not in visible
    ]
    assert visible and fogged  # alice sees part of the board
    fog_means = [tile_mean(image, x, y, size) for x, y in fogged]
    seen_means = [tile_mean(image, x, y, size) for x, y in visible]
    for mean in fog_means:  # every fogged tile: the fog colour and its faint hatching, nothing else
        assert all(abs(c - f) < 12 for c, f in zip(mean, FOG, strict=True)), mean
    for mean in seen_means:  # every visible tile: the ground drawn, far from fog
        assert sum(mean) > sum(FOG) + 120, mean
    x, y = fogged[0]
    vx, vy = next(iter(visible))
    assert image.getpixel((x * size + size // 2, y * size + 1)) != image.getpixel(
        (vx * size + size // 2, vy * size + 1)
    )


async def test_each_player_sees_their_own_fog(starter_game):
    async with connect(starter_game.root) as client:
        alice, _ = await board(client, game="duel", player="alice")
        bob, _ = await board(client, game="duel", player="bob")
    assert alice.tobytes() != bob.tobytes()


async def test_an_earlier_round_shows_the_board_as_it_stood_then(starter_game):
    async with connect(starter_game.root) as client:
        then, data = await board(client, game="duel", player="alice", round=1)
        now, _ = await board(client, game="duel", player="alice")
        late = await call(client, "get_board_image", game="duel", player="alice", round=101)
        stranger = await call(client, "get_board_image", game="duel", player="carol")
    assert data["round"] == 1 and then.tobytes() != now.tobytes()
    assert late.error and "no round 101" in late.text and "0-100" in late.text
    assert stranger.error and "carol" in stranger.text


async def test_the_score_history_lists_each_players_scores_compactly(starter_game):
    async with connect(starter_game.root) as client:
        sampled = await ok(client, "get_score_history", game="duel")
        every_round = await ok(client, "get_score_history", game="duel", every=1)
        bad = await call(client, "get_score_history", game="duel", every=0)
    status = api.status(starter_game.root / "duel.json")
    final = {p.id: p.score for p in status.players}
    data = every_round.data
    assert data["rounds"] == list(range(101)) and data["every"] == 1
    assert {
        p["id"]: p["scores"][-1] for p in data["players"]
    } == final  # ends where get_status ends
    assert all(len(p["scores"]) == 101 for p in data["players"])
    # 101 rounds: sampled every 2nd round, the last one included, and a few KB at most.
    assert (
        sampled.data["every"] == 2
        and sampled.data["rounds"][-1] == 100
        and len(sampled.data["rounds"]) == 51
    )
    assert sampled.size < 3000
    assert [p["id"] for p in sampled.data["players"]] == ["alice", "bob"]
    # where the lead changed, over the whole game, as nova status --history shows it
    history = api.score_history(starter_game.root / "duel.json")
    assert (
        every_round.data["leadChanges"]
        == sampled.data["leadChanges"]
        == [c.to_json() for c in history.lead_changes]
    )
    assert "Where the lead changed:" in sampled.text and sampled.text.splitlines()[1].startswith(
        "Scores after each round"
    )
    assert bad.error and "every" in bad.text


async def test_a_game_nobody_joined_has_no_scores_yet(tmp_path):
    async with connect(tmp_path) as client:
        await ok(client, "create_game", name="empty")
        reply = await ok(client, "get_score_history", game="empty")
    assert reply.data["players"] == [] and "no scores yet" in reply.text


@pytest.mark.parametrize("size", [(12, 12), (48, 48), (100, 40)])
def test_pictures_stay_small_on_any_board(size):
    width, height = size
    tile = tile_size(width, height)
    assert 8 <= tile <= 32 and max(width, height) * tile <= 800
