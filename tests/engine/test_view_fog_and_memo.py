"""The fog holds on every board shape, and the memoised sight never leaks one board's or one tile's
diamond into another's (rulebook section 14).

The view filters what stands on tiles by their index ``y * width + x``, and the sight of each tile
is memoised per board: a wrong index or a memo shared across boards would not show on the square
boards of the other tests, so these use boards of several shapes, many positions, and boards of the
same width but different heights covered one after another in the same process (as the MCP server or
the lab does while hosting several games)."""

from __future__ import annotations

import pytest
from engine_worlds import P1, P2, scenario, turn

from nova_tools.engine import REDACTED, world_view

SIGHT = 3  # an android's diamond (rules.android.sight)


def _xy(entry: dict) -> tuple[int, int]:
    return entry["position"]["x"], entry["position"]["y"]


def _diamond(x: int, y: int, width: int, height: int) -> set[tuple[int, int]]:
    return {
        (tx, ty)
        for ty in range(height)
        for tx in range(width)
        if abs(tx - x) + abs(ty - y) <= SIGHT
    }


# Bob's thing stands on (x, y); (width - x, y - 1) is the tile a mixed-up index (y * width - x) would
# put it on. Alice's android stands there, so that tile is in her sight and (x, y) is not.
UNSEEN_NEXT_TO_AN_ALIAS = [
    (10, 6, 8, 1),
    (10, 6, 9, 4),
    (12, 9, 2, 5),
    (12, 9, 10, 8),
    (9, 14, 8, 12),
    (9, 14, 1, 3),
]


@pytest.mark.parametrize(("width", "height", "x", "y"), UNSEEN_NEXT_TO_AN_ALIAS)
def test_a_view_never_lists_a_building_or_broadcast_on_a_tile_its_player_cannot_see(
    width: int, height: int, x: int, y: int
) -> None:
    s = scenario(width=width, height=height)
    alice = s.android(P1, (width - x, y - 1))
    bob = s.android(P2, (x, y))
    s.building("depot", P2, (x, y), storage={"metal": 5})
    state = s.build()
    assert (y - 1) * width + (width - x) in state.visible[P1]
    assert y * width + x not in state.visible[P1]
    turn(state, bob, {"type": "android.broadcast", "content": "bob's secret"})

    view = world_view(state, P1, state.androids[alice])

    seen = {_xy(t) for t in view["tiles"]}
    assert seen == _diamond(
        width - x, y - 1, width, height
    )  # her android's sight (chargers see nothing)
    assert (x, y) not in seen
    assert [b for b in view["buildings"] if b["ownerId"] == P2 and _xy(b) == (x, y)] == []
    assert view["messages"] == []
    for kind in ("androids", "buildings", "messages"):
        assert {_xy(e) for e in view[kind]} <= seen, kind
    # and bob, who stands there, sees his own depot and broadcast
    bobs = world_view(state, P2, state.androids[bob])
    assert (x, y) in {_xy(b) for b in bobs["buildings"]}
    assert [m["content"] for m in bobs["messages"]] == ["bob's secret"]


@pytest.mark.parametrize("width", [5, 7])
def test_boards_of_one_width_and_different_heights_in_one_process_each_see_their_own_diamond(
    width: int,
) -> None:
    """Every tile of boards as wide as each other and of different heights, one after another and
    each board twice (forwards, then backwards): an android sees exactly the diamond around it,
    clipped to its own board: never a tile of a taller board seen before, nor another tile's."""
    for height in (10, 5, 8, 3, 10):
        tiles = [(x, y) for y in range(height) for x in range(width)]
        for x, y in tiles + tiles[::-1]:
            s = scenario(width=width, height=height)
            s.android(P1, (x, y))
            state = s.build()
            seen = {(i % width, i // width) for i in state.visible[P1]}
            assert max(state.visible[P1]) < width * height, (width, height, x, y)
            assert seen == _diamond(x, y, width, height), (width, height, x, y)


def test_buildings_that_see_follow_the_same_rule_on_boards_of_one_width() -> None:
    """A scanner's sight (diamond of 4) goes through the same memo: on a 6x12 board and then a
    6x6 one, a scanner on the same tile sees only its own board's tiles."""
    for height in (12, 6, 12):
        s = scenario(width=6, height=height)
        s.building("scanner", P1, (2, 4))
        state = s.build()
        seen = {(i % 6, i // 6) for i in state.visible[P1]}
        assert seen == {
            (tx, ty) for ty in range(height) for tx in range(6) if abs(tx - 2) + abs(ty - 4) <= 4
        }


def test_the_whole_map_view_shows_every_tile_and_everything_on_it() -> None:
    s = scenario(width=9, height=6)
    s.tile(8, 5, ore=2)
    me = s.android(P1, (0, 0), memory="mine")
    bob = s.android(P2, (8, 5), memory="bob's")
    s.building("depot", P2, (7, 5))
    state = s.build()
    turn(state, bob, {"type": "android.broadcast", "content": "far away"})

    view = world_view(state, P1, whole=True)

    assert [_xy(t) for t in view["tiles"]] == [(x, y) for y in range(6) for x in range(9)]
    assert {a["id"] for a in view["androids"]} == {me, bob}
    assert {a["memory"] for a in view["androids"]} == {REDACTED}  # whole, yet still redacted
    assert (7, 5) in {_xy(b) for b in view["buildings"]}
    assert [m["content"] for m in view["messages"]] == ["far away"]
    # the fogged view of the same moment does not reach there
    fogged = world_view(state, P1)
    assert (8, 5) not in {_xy(t) for t in fogged["tiles"]} and fogged["messages"] == []


def test_a_view_without_an_acting_android_redacts_every_android() -> None:
    """A view between rounds (what `nova world` and the MCP world tool read): no android acts, so
    every android's memory and recording, the player's own included, stay redacted."""
    s = scenario()
    mine = s.android(P1, (3, 3), memory="my notes")
    state = s.build()
    state.androids[mine].recording = "my log"

    view = world_view(state, P1)

    [android] = view["androids"]
    assert (android["id"], android["memory"], android["recording"]) == (mine, REDACTED, REDACTED)
    assert {_xy(t) for t in view["tiles"]} == _diamond(3, 3, 7, 7)


def test_someone_who_has_not_joined_sees_nothing_unless_shown_the_whole_map() -> None:
    """A name that is not a player of this game has no sight: an empty fogged view, not a crash."""
    s = scenario()
    s.android(P1, (3, 3))
    state = s.build()
    view = world_view(state, "carol")
    assert (
        view["tiles"],
        view["androids"],
        view["buildings"],
        view["messages"],
        view["scripts"],
    ) == ([], [], [], [], [])
    assert len(world_view(state, "carol", whole=True)["tiles"]) == 49


def test_only_construction_sites_owe_material() -> None:
    """A complete building owes nothing, whatever it holds; a site owes its cost less what was put in."""
    s = scenario()
    me = s.android(P1, (3, 3))
    s.building("processor", P1, (3, 3))
    s.building("depot", P1, (3, 4), invested={})
    s.building("processor", P1, (2, 3), complete=False, invested={"metal": 4})
    state = s.build()
    owed = {
        _xy(b): (b["complete"], b["owed"])
        for b in world_view(state, P1, state.androids[me])["buildings"]
    }
    assert owed[(3, 3)] == (True, {})
    assert owed[(3, 4)] == (True, {})
    assert owed[(2, 3)] == (False, {"metal": 6, "electronics": 2})
