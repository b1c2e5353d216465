"""Visibility (rulebook section 14) and the fogged world a script receives."""

from __future__ import annotations

import json

import pytest
from engine_worlds import P1, P2, scenario, turn

from nova_tools.engine import (
    REDACTED,
    Decision,
    Scenario,
    begin_round,
    end_round,
    launch,
    play_round,
    turn_order,
    world_view,
)
from nova_tools.engine.wire import World

BIG = 13  # an odd board, so (6, 6) is its centre and every footprint fits


def big(override: dict | None = None) -> Scenario:
    return scenario(override, width=BIG, height=BIG)


def visible_offsets(state, player: str, centre: tuple[int, int]) -> set[tuple[int, int]]:
    cx, cy = centre
    return {(i % state.width - cx, i // state.width - cy) for i in state.visible[player]}


@pytest.mark.parametrize(
    ("what", "expected_tiles", "inside", "outside"),
    [
        ("android", 25, [(3, 0), (0, -3), (2, 1), (-1, -2)], [(4, 0), (2, 2), (3, 1)]),
        ("scanner", 41, [(4, 0), (2, 2), (3, -1), (0, -4)], [(5, 0), (3, 2), (4, 1)]),
        ("radar", 81, [(5, 0), (3, 4), (-4, -3), (4, 2)], [(6, 0), (4, 4), (5, 1)]),
        ("relayTower", 0, [], [(0, 0), (1, 0)]),
        ("depot", 0, [], [(0, 0)]),
    ],
)
def test_sight_footprints(what: str, expected_tiles: int, inside, outside) -> None:
    """Androids see a diamond of range 3 (25 tiles), scanners a diamond of 4 (41), radars a disc of
    radius 5 (81); a building type whose sight is null reveals nothing."""
    s = big()
    centre = (6, 6)
    if what == "android":
        s.android(P1, centre)
    else:
        s.building(what, P1, centre)
    state = s.build()
    seen = visible_offsets(state, P1, centre)
    assert len(seen) == expected_tiles
    assert set(inside) <= seen
    assert not set(outside) & seen


@pytest.mark.parametrize("kind", ["scanner", "radar"])
def test_construction_sites_reveal_nothing(kind: str) -> None:
    s = big()
    s.building(kind, P1, (6, 6), complete=False, invested={"metal": 4, "electronics": 1})
    state = s.build()
    assert state.visible[P1] == frozenset()


def test_sight_is_clipped_at_the_edge_and_is_per_player() -> None:
    s = big()
    s.android(P1, (0, 0))
    s.building("scanner", P2, (12, 0))
    state = s.build()
    assert len(state.visible[P1]) == 10  # 1 + 2 + 3 + 4 tiles of the diamond inside the corner
    assert len(state.visible[P2]) == 15  # 1 + 2 + 3 + 4 + 5
    assert not state.visible[P1] & state.visible[P2]


@pytest.mark.parametrize(
    ("width", "height"), [(3, 8), (8, 3), (5, 5)], ids=["tall", "wide", "square"]
)
def test_every_tile_of_any_board_shape_sees_its_own_diamond(width: int, height: int) -> None:
    """The sight of an android on each tile in turn, on tall, wide and square boards: always the
    diamond of range 3 around that tile, clipped to the board, whatever tiles were looked at
    before (the coverage is memoised per board, so a mixed-up tile key shows here)."""
    for y in range(height):
        for x in range(width):
            s = scenario(width=width, height=height)
            s.android(P1, (x, y))
            state = s.build()
            seen = {(i % width, i // width) for i in state.visible[P1]}
            expected = {
                (tx, ty)
                for ty in range(height)
                for tx in range(width)
                if abs(tx - x) + abs(ty - y) <= 3
            }
            assert seen == expected, (x, y)


def test_wrecks_reveal_nothing() -> None:
    s = big()
    s.android(P1, (6, 6), active=False)
    assert s.build().visible[P1] == frozenset()


def test_retuned_sight() -> None:
    """rules.android.sight and rules.buildings[type].sight are read, shape included."""
    s = big(
        {
            "android": {"sight": {"shape": "disc", "range": 1}},
            "buildings": {"depot": {"sight": {"shape": "diamond", "range": 2}}},
        }
    )
    s.android(P1, (2, 2))
    s.building("depot", P2, (9, 9))
    state = s.build()
    assert len(state.visible[P1]) == 5 and len(state.visible[P2]) == 13


def test_visibility_follows_the_round_not_the_step() -> None:
    """Visibility is recomputed at the start and the end of every round: a tile goes dark once
    nothing is in range, and a move during the round shows up at its end."""
    s = big()
    a = s.android(P1, (2, 6))
    state = s.build()
    begin_round(state)
    far_west = 6 * BIG + 0  # (0, 6)
    far_east = 6 * BIG + 7  # (7, 6)
    assert far_west in state.visible[P1] and far_east not in state.visible[P1]
    for _ in range(3):
        turn(state, a, {"type": "android.move", "direction": "east"})
    assert far_west in state.visible[P1]  # still this round's visibility
    end_round(state)
    assert far_east in state.visible[P1] and far_west not in state.visible[P1]


def test_a_launched_android_has_a_lit_first_turn() -> None:
    """ "Recomputing at the start is what gives a newly launched Android a lit first turn"."""
    s = big()
    state = s.build()
    launch(state, P1, "script-1")  # the initial charger is at (0, 0)
    seen_by_first_turn = []
    play_round(
        state,
        lambda st, a: (
            seen_by_first_turn.append(len(world_view(st, a.owner, a)["tiles"])),
            Decision({"type": "android.wait"}),
        )[1],
    )
    assert seen_by_first_turn == [10]


# --- the fogged view ---------------------------------------------------------------------------------------


def fog_world() -> tuple:
    s = big()
    s.script(P2, "secret plan")
    s.tile(6, 6, ore=2, scattered={"metal": 3})
    s.tile(12, 0, acid=3, scattered={"electronics": 1})
    me = s.android(P1, (6, 6), memory="my memory")
    sibling = s.android(P1, (7, 6), memory="sibling memory")
    rival_near = s.android(P2, (6, 8), memory="rival memory")
    rival_far = s.android(P2, (12, 0), memory="far memory")
    wreck = s.android(P2, (5, 6), active=False, memory="wreck memory")
    s.building("depot", P2, (6, 7), storage={"metal": 9})
    s.building("scanner", P2, (12, 1))
    state = s.build()
    state.androids[me].recording = "my log"
    state.androids[sibling].recording = "sibling log"
    turn(state, rival_near, {"type": "android.broadcast", "content": "near"})
    turn(state, rival_far, {"type": "android.broadcast", "content": "far"})
    return state, me, sibling, rival_near, rival_far, wreck


def test_view_holds_only_visible_tiles_and_what_stands_on_them() -> None:
    state, me, sibling, rival_near, rival_far, wreck = fog_world()
    view = world_view(state, P1, state.androids[me])
    positions = {(t["position"]["x"], t["position"]["y"]) for t in view["tiles"]}
    expected = {(i % BIG, i // BIG) for i in state.visible[P1]}
    assert positions == expected
    assert (12, 0) not in positions
    assert {a["id"] for a in view["androids"]} == {me, sibling, rival_near, wreck}
    assert [b["position"] for b in view["buildings"]] == [{"x": 6, "y": 7}]
    assert [m["content"] for m in view["messages"]] == ["near"]
    assert set(view) == {
        "round",
        "width",
        "height",
        "tiles",
        "androids",
        "buildings",
        "messages",
        "scripts",
    }
    assert (view["width"], view["height"]) == (BIG, BIG)
    World.model_validate(view)  # the shape scripts are typed against


def test_view_redacts_every_other_androids_notes() -> None:
    state, me, sibling, rival_near, rival_far, wreck = fog_world()
    view = world_view(state, P1, state.androids[me])
    notes = {a["id"]: (a["memory"], a["recording"]) for a in view["androids"]}
    assert notes[me] == ("my memory", "my log")
    assert notes[sibling] == (REDACTED, REDACTED) == ("[Redacted]", "[Redacted]")
    assert notes[rival_near] == (REDACTED, REDACTED)
    assert notes[wreck] == (REDACTED, REDACTED)
    assert "wreck memory" not in json.dumps(view) and "rival memory" not in json.dumps(view)


def test_view_shows_wrecks_as_inactive() -> None:
    state, me, *_, wreck = fog_world()
    view = world_view(state, P1, state.androids[me])
    assert [a["active"] for a in view["androids"] if a["id"] == wreck] == [False]


def test_view_omits_other_players_scripts() -> None:
    state, me, *_ = fog_world()
    view = world_view(state, P1, state.androids[me])
    assert view["scripts"] == [{"id": "script-1", "name": "starter"}]
    rival_view = world_view(state, P2, state.androids["android-3"])
    assert [s["name"] for s in rival_view["scripts"]] == ["starter", "secret plan"]


def test_view_always_includes_the_acting_androids_own_tile() -> None:
    """ "as well as the acting Android's current tile so it can always inspect itself": with the
    android's sight retuned to null (which the rules document as "nothing but its own tile") the
    view is exactly that tile and what stands on it."""
    s = big({"android": {"sight": None}})
    s.tile(4, 4, radiation=2, scattered={"metal": 1})
    me = s.android(P1, (4, 4), memory="m")
    s.android(P2, (4, 5))
    state = s.build()
    assert state.visible[P1] == frozenset({4 * BIG + 4})
    view = world_view(state, P1, state.androids[me])
    assert view["tiles"] == [
        {
            "position": {"x": 4, "y": 4},
            "composition": {"radiation": 2},
            "scattered": {"metal": 1},
            "revealedBy": [P1],
        }
    ]
    assert [a["id"] for a in view["androids"]] == [me]


def test_view_of_a_moved_android_includes_its_new_tile() -> None:
    """After a move the android's new tile is in its view at once, although the round's
    visibility (its old tile) is only recomputed at the round end."""
    s = big({"android": {"sight": None}})
    me = s.android(P1, (4, 4))
    state = s.build()
    turn(state, me, {"type": "android.move", "direction": "south"})
    view = world_view(state, P1, state.androids[me])
    assert [(t["position"]["x"], t["position"]["y"], "revealedBy" in t) for t in view["tiles"]] == [
        (4, 4, True),
        (4, 5, False),
    ]
    end_round(state)
    view = world_view(state, P1, state.androids[me])
    assert [t["position"] for t in view["tiles"]] == [{"x": 4, "y": 5}]


def test_revealed_by_names_who_can_see_a_tile() -> None:
    s = big()
    s.android(P1, (5, 6))
    s.android(P2, (8, 6))
    state = s.build()
    view = world_view(state, P1, state.androids["android-1"])
    by_pos = {(t["position"]["x"], t["position"]["y"]): t.get("revealedBy") for t in view["tiles"]}
    assert by_pos[(6, 6)] == [P1, P2]
    assert by_pos[(3, 6)] == [P1]


def test_construction_site_shows_what_it_still_owes() -> None:
    s = big()
    s.building("processor", P1, (6, 6), complete=False, invested={"metal": 4})
    me = s.android(P1, (6, 6))
    state = s.build()
    [site] = world_view(state, P1, state.androids[me])["buildings"]
    assert (site["complete"], site["invested"], site["owed"], site["remainingTicks"]) == (
        False,
        {"metal": 4},
        {"metal": 6, "electronics": 2},
        4,
    )


# --- turn order ------------------------------------------------------------------------------------------


def test_turn_order_interleaves_players_and_rotates_the_leader() -> None:
    s = scenario()
    for _ in range(2):
        s.android(P1, (1, 1))
    for _ in range(3):
        s.android(P2, (5, 5))
    state = s.build()
    a1, a2, b1, b2, b3 = "android-1", "android-2", "android-3", "android-4", "android-5"
    orders = []
    for _ in range(3):
        begin_round(state)
        orders.append(turn_order(state))
        end_round(state)
    assert orders == [[a1, b1, a2, b2, b3], [b1, a1, b2, a2, b3], [a1, b1, a2, b2, b3]]


def test_turn_order_rotates_through_three_seats() -> None:
    s = Scenario(width=9, height=9)
    for i, p in enumerate(["zed", "amy", "kim"]):
        s.player(p, charger_at=(i * 3, 0))
        s.android(p, (i * 3, 4))
    state = s.build()
    leaders = []
    for _ in range(6):
        begin_round(state)
        leaders.append(state.androids[turn_order(state)[0]].owner)
        end_round(state)
    assert leaders == ["zed", "amy", "kim", "zed", "amy", "kim"]  # seat order, not name order


def test_a_launched_android_acts_the_following_round() -> None:
    """ "The new android ... takes its first turn in the following round." Wrecks and the
    dismantled take no turns."""
    s = scenario()
    parent = s.android(P1, (0, 0))
    state = s.build()
    asked: list[list[str]] = []

    def decide(st, android):
        asked[-1].append(android.id)
        if android.id == parent and st.round == 1:
            return Decision({"type": "android.launch", "scriptId": "script-1"})
        if android.id == parent and st.round == 2:
            return Decision({"type": "android.dismantle"})
        return Decision({"type": "android.wait"})

    for _ in range(3):
        asked.append([])
        play_round(state, decide)
    assert asked == [[parent], [parent, "android-2"], ["android-2"]]


def test_a_sibling_dismantled_earlier_in_the_round_takes_no_turn() -> None:
    s = scenario()
    a = s.android(P1, (0, 0))
    b = s.android(P1, (0, 0))
    state = s.build()
    asked = []

    def decide(st, android):
        asked.append(android.id)
        return Decision(
            {"type": "android.dismantle", "targetAndroidId": b}
            if android.id == a
            else {"type": "android.wait"}
        )

    events = play_round(state, decide)
    assert asked == [a]
    assert [e.kind for e in events] == ["round.started", "turn", "round.ended"]


def test_each_turn_sees_the_world_as_it_stands_when_its_turn_comes() -> None:
    """DESIGN 5: turns resolve one at a time and apply at once — the second racer's view no
    longer shows the pod the first one just picked up, so it can know its collect would fail."""
    s = scenario()
    s.tile(3, 3, scattered={"metal": 4})
    s.android(P1, (3, 3))
    s.android(P2, (3, 3))
    state = s.build()
    seen: dict[str, dict] = {}

    def decide(st, android):
        view = world_view(st, android.owner, android)
        seen[android.id] = next(
            t["scattered"] for t in view["tiles"] if t["position"] == {"x": 3, "y": 3}
        )
        return Decision({"type": "android.collect"})

    events = play_round(state, decide)
    assert seen == {"android-1": {"metal": 4}, "android-2": {}}
    assert [e.code for e in events if e.kind == "turn"] == [None, "nothing-here"]


@pytest.mark.parametrize("shape", ["diamond", "disc"])
def test_a_sight_is_clipped_to_the_board_as_its_footprint_is(shape: str) -> None:
    """covered() walks only the board's cells; what it reveals is the footprint clipped to it,
    at the edges, the corners and for a range far past the board (range 512: the whole board)."""
    from nova_tools.engine.visibility import covered, footprint
    from nova_tools.rules import Sight

    for reach in (0, 1, 3, 5, 9, 512):
        sight = Sight(shape=shape, range=reach)
        offsets = footprint(shape, reach) if reach < 512 else None
        for width, height in ((1, 1), (7, 4), (5, 9)):
            for y in range(height):
                for x in range(width):
                    got = covered(sight, x, y, width, height)
                    if offsets is None:
                        assert got == frozenset(range(width * height))
                        continue
                    assert got == frozenset(
                        (y + dy) * width + x + dx
                        for dx, dy in offsets
                        if 0 <= x + dx < width and 0 <= y + dy < height
                    )
