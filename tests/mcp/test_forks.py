"""Forked scripts (a base plus what changes), play_game, and compare_scripts' detail: what an
agent sends and gets back, through the SDK's client."""

from __future__ import annotations

import json

from nova_mcp_testing import call, connect, ok

from nova_tools import starter

ENTRY = "main.ts"


def _changed_entry(text: str, marker: str) -> tuple[str, str]:
    """An edit that changes the bundle (an exported constant is kept, a comment would not be)."""
    first = text.splitlines()[0]
    return first, f"{first}\nexport const forked = {json.dumps(marker)};"


async def test_a_fork_and_the_same_files_uploaded_whole_are_the_same_script_and_game(tmp_path):
    files = starter.files()
    old, new = _changed_entry(files[ENTRY], "fork-1")
    whole = {**files, ENTRY: files[ENTRY].replace(old, new, 1)}
    async with connect(tmp_path) as client:
        forked = await ok(
            client,
            "add_script",
            player="alice",
            base="starter",
            edits=[{"file": ENTRY, "old": old, "new": new}],
        )
        sent = await ok(client, "add_script", player="alice", files=whole)
        assert sent.data["id"] == forked.data["id"] and sent.data["added"] is False
        # the same id whether given by edits or as a replaced file
        replaced = await ok(
            client, "add_script", player="alice", base="starter", files={ENTRY: whole[ENTRY]}
        )
        assert replaced.data["id"] == forked.data["id"]
        for game, how in (
            ("by-fork", {"base": "starter", "edits": [{"file": ENTRY, "old": old, "new": new}]}),
            ("whole", {"files": whole}),
        ):
            await ok(client, "create_game", name=game, seed=4)
            script = (await ok(client, "upload_script", game=game, player="alice", **how)).data
            assert script["libraryId"] == forked.data["id"]
            await ok(
                client, "launch_android", game=game, player="alice", script_id=script["scriptId"]
            )
            await ok(client, "run_rounds", game=game, rounds=15)
    by_fork = (tmp_path / "by-fork.json").read_bytes()
    assert by_fork.replace(b"by-fork", b"whole") == (tmp_path / "whole.json").read_bytes()


async def test_a_library_script_is_a_base_and_a_file_set_to_null_is_removed(tmp_path):
    async with connect(tmp_path) as client:
        first = await ok(
            client,
            "add_script",
            player="alice",
            files={
                "main.ts": "import { step } from './lib';\nexport default step;",
                "lib.ts": "export const step: AndroidTurn = () => ({ type: 'android.wait' });",
            },
        )
        second = await ok(
            client,
            "add_script",
            player="alice",
            base=first.data["id"],
            files={
                "main.ts": "const w: AndroidTurn = () => ({ type: 'android.wait' });\nexport default w;",
                "lib.ts": None,
            },
        )
        assert second.data["files"] == ["main.ts"] and second.data["id"] != first.data["id"]
        # another player cannot fork alice's script
        theirs = await call(client, "add_script", player="bob", base=first.data["id"])
        assert theirs.error and "not in bob's script library" in theirs.text


async def test_an_edit_that_does_not_match_exactly_once_is_refused_naming_the_file(tmp_path):
    async with connect(tmp_path) as client:
        missing = await call(
            client,
            "add_script",
            player="alice",
            base="starter",
            edits=[{"file": "nav.ts", "old": "no such text, ünïcode", "new": "x"}],
        )
        assert missing.error and "found 0 times in nav.ts" in missing.text
        assert "\n" not in missing.text.split(".")[0]  # one sentence
        twice = await call(
            client,
            "add_script",
            player="alice",
            base="starter",
            edits=[{"file": "main.ts", "old": "import", "new": "x"}],
        )
        assert twice.error and "in main.ts, not exactly once" in twice.text
        nofile = await call(
            client,
            "add_script",
            player="alice",
            base="starter",
            edits=[{"file": "nope.ts", "old": "a", "new": "b"}],
        )
        assert nofile.error and "no file 'nope.ts'" in nofile.text
        entry = await call(
            client, "add_script", player="alice", base="starter", files={"main.ts": None}
        )
        assert entry.error and "entry file 'main.ts' cannot be removed" in entry.text
        unknown = await call(client, "add_script", player="alice", base="house:nobody")
        assert unknown.error and "house:starter" in unknown.text
        lonely = await call(
            client,
            "add_script",
            player="alice",
            edits=[{"file": "main.ts", "old": "a", "new": "b"}],
        )
        assert lonely.error and "give base too" in lonely.text
        assert (
            not list((tmp_path / "library").glob("*.json"))
            if (tmp_path / "library").exists()
            else True
        )


async def test_play_game_is_exactly_that_game_of_a_comparison(tmp_path):
    files = starter.files()
    old, new = _changed_entry(files[ENTRY], "fork-2")
    async with connect(tmp_path) as client:
        fork = (
            await ok(
                client,
                "add_script",
                player="alice",
                base="starter",
                edits=[{"file": ENTRY, "old": old, "new": new}],
                name="mine",
            )
        ).data["id"]
        compared = await ok(
            client,
            "compare_scripts",
            a=fork,
            b="house:starter",
            player="alice",
            seeds="2-3",
            rounds=30,
            detail=True,
        )
        games = compared.data["games"]
        assert len(games) == 4 and {g["seed"] for g in games} == {2, 3}
        [match] = [g for g in games if g["seed"] == 3 and g["seats"] == ["mine", "starter"]]
        assert match["margin"] == match["scores"][0] - match["scores"][1]
        assert set(match["failedByReason"][0]) <= set(
            compared.data["scripts"][0]["failedTurnsByReason"]
        )
        played = await ok(
            client, "play_game", a=fork, b="house:starter", player="alice", seed=3, rounds=30
        )
        assert played.data["scores"] == match["scores"]
        assert played.data["stateHash"] == match["stateHash"]
        assert played.data["game"] == match["game"]
        # the kept game opens in the game tools, its players named after the scripts
        status = await ok(client, "get_status", game=match["game"])
        assert [p["id"] for p in status.data["players"]] == ["mine", "starter"]
        assert [p["score"] for p in status.data["players"]] == match["scores"]
        events = await ok(
            client, "get_events", game=match["game"], player="mine", mine_only=True, limit=3
        )
        assert events.data["lines"]
        # the default answer stays short: no games, the 3 seeds that differ most at most
        short = await ok(
            client, "compare_scripts", a=fork, b="starter", player="alice", seeds="2-3", rounds=30
        )
        assert "games" not in short.data and len(short.data["mostDifferent"]) <= 3
        assert short.size < compared.size


async def test_create_game_says_how_its_game_differs_from_a_comparisons(tmp_path):
    async with connect(tmp_path) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert "rotational" in tools["create_game"].description
        assert "finalRound" in tools["create_game"].description


def test_the_guide_says_in_one_line_what_each_starter_file_decides():
    from nova_tools.mcp.content import guide

    text = guide()
    for name in starter.files():
        [line] = [row for row in text.splitlines() if row.startswith(f"| `{name}` |")]
        assert len(line) > len(name) + 20, line
