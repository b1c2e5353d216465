"""The words of get_world: what an agent reads first, line by line, for a world with one of each
thing in it (a wreck, a site that still owes material, a depot that stores some, loose material,
another player's android and site, a page of tiles, broadcasts). The structured content has the
same facts; this is the text an agent that reads only text acts on (docs/mutation.md: the
`world_text` survivors of the mutation run)."""

from __future__ import annotations

from nova_tools.api import (
    AndroidState,
    BuildingState,
    Holdings,
    Message,
    OwnAndroid,
    PlayerWorld,
    Position,
    ScriptRef,
    VisibleTile,
)
from nova_tools.mcp.shaping import world_text


def _android(
    id: str, owner: str, x: int, y: int, *, active: bool = True, cargo: dict | None = None
) -> dict:
    return dict(
        id=id,
        owner_id=owner,
        script_id="script-1",
        position=Position(x=x, y=y),
        battery=87.5,
        health=100.0,
        active=active,
        cargo=cargo or {},
    )


def _building(
    id: str,
    type: str,
    owner: str,
    x: int,
    y: int,
    *,
    complete: bool = True,
    owed: dict | None = None,
    storage: dict | None = None,
    ticks: int = 0,
) -> BuildingState:
    return BuildingState(
        id=id,
        type=type,
        owner_id=owner,
        position=Position(x=x, y=y),
        health=50.0,
        complete=complete,
        initial=False,
        remaining_ticks=ticks,
        invested={},
        owed=owed or {},
        storage=storage or {},
    )


def a_world(**changes) -> PlayerWorld:
    fields = dict(
        player="alice",
        round=12,
        width=10,
        height=8,
        visible_tiles=23,
        tile_count=5,
        tile_offset=2,
        tiles=[
            VisibleTile(
                position=Position(x=3, y=4), composition={}, scattered={"metal": 5, "ore": 2}
            ),
            VisibleTile(position=Position(x=4, y=4), composition={"ore": 9}, scattered={}),
            VisibleTile(position=Position(x=5, y=1), composition={}, scattered={"water": 1}),
        ],
        loose={"metal": 5, "ore": 2, "water": 1},
        yours=Holdings(
            capacity=2,
            active_androids=1,
            androids=[
                OwnAndroid(
                    **_android("android-1", "alice", 3, 4, cargo={"metal": 3}),
                    memory_length=10,
                    recording_length=0,
                ),
                OwnAndroid(
                    **_android("android-3", "alice", 1, 1, active=False),
                    memory_length=0,
                    recording_length=0,
                ),
            ],
            buildings=[
                _building("building-1", "charger", "alice", 2, 2),
                _building("building-4", "depot", "alice", 2, 3, storage={"metal": 7}),
                _building(
                    "building-6",
                    "extractor",
                    "alice",
                    4,
                    4,
                    complete=False,
                    owed={"metal": 4, "electronics": 1},
                    ticks=3,
                ),
            ],
            scripts=[
                ScriptRef(id="script-1", name="starter"),
                ScriptRef(id="script-4", name="miner"),
            ],
        ),
        androids=[
            AndroidState(**_android("android-2", "bob", 6, 4)),
            AndroidState(**_android("android-5", "bob", 7, 4, active=False)),
        ],
        buildings=[
            _building("building-3", "charger", "bob", 7, 5),
            _building("building-7", "depot", "bob", 8, 5, complete=False),
        ],
        whole_map=False,
        message_count=3,
        messages=[
            Message(
                round=11,
                android_id="android-2",
                owner_id="bob",
                position=Position(x=6, y=4),
                content="hello",
            ),
            Message(
                round=12,
                android_id="android-1",
                owner_id="alice",
                position=Position(x=3, y=4),
                content="x" * 130,
            ),
        ],
    )
    return PlayerWorld(**{**fields, **changes})


def test_every_line_says_what_the_structured_content_holds() -> None:
    assert world_text("duel", a_world()).split("\n") == [
        "duel round 12 as alice: 23 of 80 tiles visible; 1 of 2 android slots used.",
        "your android-1 at (3,4): battery 87.5, health 100, cargo 3 metal",
        "your android-3 (wreck) at (1,1): battery 87.5, health 100, cargo nothing",
        "your charger building-1 at (2,2)",
        "your depot building-4 at (2,3), stores 7 metal",
        "your extractor building-6 at (4,4) (site, owes 4 metal, 1 electronics, 3 ticks)",
        "scripts: script-1 (starter), script-4 (miner)",
        "loose material: (3,4) 5 metal, 2 ore; (5,1) 1 water",
        "seen: bob's android-2 at (6,4)",
        "seen: bob's android-5 (wreck) at (7,4)",
        "seen: bob's charger at (7,5)",
        "seen: bob's depot site at (8,5)",
        "(listing tiles 2-4 of 5; page with tile_offset)",
        "latest broadcasts (2 of 3):",
        "  r11 bob/android-2 at (6,4): hello",
        f"  r12 alice/android-1 at (3,4): {'x' * 120}... [10 more characters]",
    ]


def test_an_empty_world_says_so_and_lists_no_page_or_broadcasts() -> None:
    empty = a_world(
        visible_tiles=9,
        tile_count=0,
        tile_offset=0,
        tiles=[],
        loose={},
        yours=Holdings(capacity=1, active_androids=0, androids=[], buildings=[], scripts=[]),
        androids=[],
        buildings=[],
        message_count=0,
        messages=[],
    )
    assert world_text("duel", empty).split("\n") == [
        "duel round 12 as alice: 9 of 80 tiles visible; 0 of 1 android slots used.",
        "scripts: none",
    ]


def test_a_replays_whole_map_says_so_instead_of_what_is_visible() -> None:
    first = world_text("duel", a_world(whole_map=True, visible_tiles=80)).split("\n")[0]
    assert (
        first
        == "duel round 12, the whole map (a replay's view) for alice: 10x8 tiles; 1 of 2 android slots used."
    )


def test_a_whole_page_of_tiles_has_no_paging_hint() -> None:
    tiles = a_world().tiles
    whole = a_world(tile_count=len(tiles), tile_offset=0)
    assert not any(
        line.startswith("(listing tiles") for line in world_text("duel", whole).split("\n")
    )
