"""Every mistake an agent can make comes back as an error result (isError) whose message says
what to do next; none crashes the server, and none reaches outside the games folder."""

from __future__ import annotations

import json

import pytest
from mcp import MCPError
from nova_mcp_testing import call, connect, ok, secret_keeper

GAME_TOOLS = {
    "get_status": {},
    "get_world": {"player": "alice"},
    "get_events": {"player": "alice"},
    "get_android": {"player": "alice", "android_id": "android-1"},
    "run_rounds": {"rounds": 1},
    "launch_android": {"player": "alice", "script_id": "script-1"},
    "upload_script": {
        "player": "alice",
        "source": "export default (() => ({ type: 'android.wait' })) as AndroidTurn;",
    },
    "dry_run_turn": {
        "player": "alice",
        "source": "export default (() => ({ type: 'android.wait' })) as AndroidTurn;",
    },
}
BAD_NAMES = [
    "../x",
    "../../etc/passwd",
    "/etc/passwd",
    "a/b",
    "a\\b",
    "..",
    ".hidden",
    "",
    "x" * 65,
    "duel game",
    "duel\x00",
]


@pytest.fixture
def root(tmp_path):
    """A games folder inside a parent that must stay untouched."""
    folder = tmp_path / "games"
    folder.mkdir()
    return folder


async def _game_with_alice(client) -> str:
    await ok(client, "create_game", name="duel")
    return (
        await ok(
            client, "upload_script", game="duel", player="alice", source=secret_keeper("m", "r")
        )
    ).data["scriptId"]


@pytest.mark.parametrize("tool", sorted(GAME_TOOLS))
async def test_a_game_name_that_could_leave_the_folder_is_refused_by_every_tool(root, tool):
    async with connect(root) as client:
        for name in BAD_NAMES:
            reply = await call(client, tool, game=name, **GAME_TOOLS[tool])
            assert reply.error, (tool, name)
            assert "is not a valid game name" in reply.text and "letters, digits" in reply.text, (
                reply.text
            )
    assert sorted(p.name for p in root.parent.iterdir()) == ["games"]
    assert list(root.iterdir()) == []


async def test_create_game_refuses_names_that_could_leave_the_folder(root):
    async with connect(root) as client:
        for name in BAD_NAMES:
            reply = await call(client, "create_game", name=name)
            assert reply.error and "is not a valid game name" in reply.text, name
    assert sorted(p.name for p in root.parent.iterdir()) == ["games"]
    assert list(root.iterdir()) == []


async def test_a_file_name_is_met_with_the_name_to_use_instead(root):
    async with connect(root) as client:
        reply = await call(client, "get_status", game="duel.json")
    assert reply.error and "pass the game name without .json: 'duel'" in reply.text


@pytest.mark.parametrize("tool", sorted(GAME_TOOLS))
async def test_an_unknown_game_is_named_with_the_games_there_are(root, tool):
    async with connect(root) as client:
        await ok(client, "create_game", name="duel")
        reply = await call(client, tool, game="nope", **GAME_TOOLS[tool])
    assert reply.error
    assert "there is no game 'nope' (games: duel)" in reply.text and "create_game" in reply.text
    assert not (root / "nope.json").exists() and not (root / "nope.json.lock").exists()


async def test_creating_a_game_twice_keeps_the_first(root):
    async with connect(root) as client:
        await ok(client, "create_game", name="duel", seed=1)
        before = (root / "duel.json").read_bytes()
        reply = await call(client, "create_game", name="duel", seed=2)
    assert reply.error and "already exists" in reply.text
    assert (root / "duel.json").read_bytes() == before


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("get_world", {}),
        ("get_events", {}),
        ("get_android", {"android_id": "android-1"}),
        ("launch_android", {"script_id": "script-1"}),
        (
            "dry_run_turn",
            {"source": "export default (() => ({ type: 'android.wait' })) as AndroidTurn;"},
        ),
    ],
)
async def test_an_unknown_player_is_told_how_players_join(root, tool, arguments):
    async with connect(root) as client:
        await _game_with_alice(client)
        reply = await call(client, tool, game="duel", player="carol", **arguments)
    assert reply.error
    assert "there is no player 'carol'" in reply.text and "first upload_script" in reply.text


async def test_an_unknown_script_id_is_refused_with_where_to_find_yours(root):
    async with connect(root) as client:
        await _game_with_alice(client)
        bobs = (
            await ok(
                client, "upload_script", game="duel", player="bob", source=secret_keeper("m", "r")
            )
        ).data["scriptId"]
        for script in ("script-99", bobs):
            reply = await call(
                client, "launch_android", game="duel", player="alice", script_id=script
            )
            assert reply.error
            assert (
                f"{script!r} is not one of alice's scripts" in reply.text
                and "upload_script returned" in reply.text
            )


async def test_launching_beyond_the_chargers_capacity_is_refused(root):
    async with connect(root) as client:
        script = await _game_with_alice(client)
        for _ in range(2):
            await ok(client, "launch_android", game="duel", player="alice", script_id=script)
        before = (root / "duel.json").read_bytes()
        reply = await call(client, "launch_android", game="duel", player="alice", script_id=script)
    assert reply.error
    assert "already has 2 active android(s) and the chargers allow 2" in reply.text
    assert reply.text.lower().count("charger") == 2  # the two allowed, then what to do: said once
    assert reply.text.count("build another charger") == 1
    assert (root / "duel.json").read_bytes() == before


async def test_a_script_that_does_not_compile_comes_back_with_file_line_col_positions(root):
    async with connect(root) as client:
        await ok(client, "create_game", name="duel")
        typed = await call(
            client,
            "upload_script",
            game="duel",
            player="alice",
            source="const n: number = 'one';\nexport default (() => ({ type: 'android.wait' })) as AndroidTurn;\n",
        )
        syntax = await call(
            client,
            "upload_script",
            game="duel",
            player="alice",
            files={
                "main.ts": "import { go } from './lib/go';\nexport default go;\n",
                "lib/go.ts": "export const go: AndroidTurn = () => ({ type: 'android.wait' ;\n",
            },
        )
        wrong_action = await call(
            client,
            "upload_script",
            game="duel",
            player="alice",
            source="export default (() => ({ type: 'android.fly' })) as AndroidTurn;",
            entry="bot.ts",
        )
        status = await ok(client, "list_games")
    assert (
        typed.error
        and "main.ts:1:7 Type 'string' is not assignable to type 'number'." in typed.text
    )
    assert "call upload_script again" in typed.text
    assert syntax.error and "lib/go.ts:1:" in syntax.text
    assert wrong_action.error and "bot.ts:1:" in wrong_action.text
    assert status.data["games"][0]["summary"]["players"] == []  # nothing was stored; nobody joined


@pytest.mark.parametrize(
    ("rules", "path"),
    [
        ({"android": {"cargoCapacity": "lots"}}, "android.cargoCapacity"),
        ({"android": {"cargoCapacty": 6}}, "android.cargoCapacty"),
        ({"buildings": {"depot": {"cost": {"metal": -1}}}}, "buildings.depot.cost.metal"),
        ('{\n  // JSON with comments\n  "world": { "width": "wide", },\n}', "world.width"),
        ("{ not json", ""),
    ],
)
async def test_bad_rules_are_refused_naming_the_json_path(root, rules, path):
    async with connect(root) as client:
        created = await call(client, "create_game", name="tuned", rules=rules)
        checked = await ok(client, "validate_rules", rules=rules)
    assert (
        created.error
        and "the rules are not valid" in created.text
        and "validate_rules" in created.text
    )
    assert path in created.text
    assert not (root / "tuned.json").exists()
    assert checked.data["valid"] is False and "NOT valid" in checked.text
    assert path in [p["path"] for p in checked.data["problems"]] or path == ""


async def test_rules_given_as_json_with_comments_make_the_game(root):
    rules = '{\n  // a small board\n  "world": { "width": 8, "height": 6 },\n  "match": { "finalRound": 40 },\n}'
    async with connect(root) as client:
        checked = await ok(client, "validate_rules", rules=rules)
        created = await ok(client, "create_game", name="small", rules=rules)
        as_object = await ok(
            client,
            "create_game",
            name="small2",
            rules=json.dumps({"world": {"width": 8, "height": 6}}),
        )
    assert checked.data == {"valid": True, "problems": [], "width": 8, "height": 6, "finalTurn": 40}
    assert (created.data["width"], created.data["height"], created.data["finalTurn"]) == (8, 6, 40)
    assert as_object.data["width"] == 8


@pytest.mark.parametrize("rounds", [0, -1, 501, 10**9])
async def test_rounds_out_of_range_are_refused(root, rounds):
    async with connect(root) as client:
        await _game_with_alice(client)
        reply = await call(client, "run_rounds", game="duel", rounds=rounds)
    assert reply.error and f"rounds must be from 1 to 500, not {rounds}" in reply.text
    if rounds > 500:
        assert "call run_rounds again" in reply.text


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("run_rounds", {"game": "duel", "rounds": "many"}, "valid integer"),
        ("run_rounds", {"game": "duel"}, "rounds"),
        ("get_world", {"game": "duel"}, "player"),
        ("upload_script", {"game": "duel", "player": "alice"}, "give the android's code"),
        (
            "upload_script",
            {"game": "duel", "player": "alice", "source": "x", "files": {"a.ts": "x"}},
            "give only one of",
        ),
        ("upload_script", {"game": "duel", "player": "alice", "files": {}}, "files is empty"),
        (
            "upload_script",
            {
                "game": "duel",
                "player": "alice",
                "files": {"../evil.ts": "x"},
                "entry": "../evil.ts",
            },
            "",
        ),
        (
            "upload_script",
            {
                "game": "duel",
                "player": "bad/player",
                "source": "export default (() => ({ type: 'android.wait' })) as AndroidTurn;",
            },
            "not a valid player id",
        ),
        (
            "get_world",
            {"game": "duel", "player": "alice", "tile_limit": 0},
            "tile_limit must be from 1 to 200",
        ),
        (
            "get_events",
            {"game": "duel", "player": "alice", "limit": 1000},
            "limit must be from 1 to 100",
        ),
        (
            "get_events",
            {"game": "duel", "player": "alice", "offset": -1},
            "offset must not be negative",
        ),
        (
            "get_android",
            {"game": "duel", "player": "alice", "android_id": "android-77"},
            "there is no android 'android-77'",
        ),
        (
            "get_android",
            {"game": "duel", "player": "alice", "android_id": "android-1", "max_chars": 5},
            "max_chars must be from 100",
        ),
        ("dry_run_turn", {"game": "duel", "source": "x"}, "also give player"),
        ("dry_run_turn", {"player": "alice", "source": "x"}, "only make sense with game"),
        (
            "dry_run_turn",
            {
                "game": "duel",
                "player": "alice",
                "source": "export default (() => ({ type: 'android.wait' })) as AndroidTurn;",
            },
            "no active android of alice",
        ),
        ("create_game", {"name": "neg", "seed": -5}, "the seed must be a whole number"),
        ("no_such_tool", {}, "Unknown tool"),
    ],
)
async def test_wrong_arguments_are_error_results_not_crashes(root, tool, arguments, expected):
    async with connect(root) as client:
        await _game_with_alice(client)
        reply = await call(client, tool, **arguments)
        assert reply.error, reply.text
        assert expected in reply.text
        assert str(root) not in reply.text  # messages name games, not the server's folders
        assert not (
            await call(client, "get_status", game="duel")
        ).error  # the server is still there
    assert sorted(p.name for p in root.parent.iterdir()) == ["games"]


async def test_an_unknown_games_rules_resource_is_an_error_naming_the_games(root):
    async with connect(root) as client:
        await ok(client, "create_game", name="duel")
        with pytest.raises(MCPError, match="there is no game 'nope'"):
            await client.read_resource("nova://games/nope/rules")
        with pytest.raises(MCPError):
            await client.read_resource("nova://games/..%2Fx/rules")
