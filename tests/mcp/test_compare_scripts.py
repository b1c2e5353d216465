"""compare_scripts: an agent asks whether one script beats another, and gets a small answer."""

from __future__ import annotations

from pathlib import Path

from nova_mcp_testing import call, connect, ok, thrower

HOARDER = (Path(__file__).resolve().parents[1] / "arena" / "androids" / "hoarder.ts").read_text(
    encoding="utf-8"
)


async def test_a_script_that_throws_loses_every_game_with_its_failures_counted(tmp_path):
    seen: list[tuple[float, float | None, str | None]] = []

    async def progress(done: float, total: float | None, message: str | None) -> None:
        seen.append((done, total, message))

    async with connect(tmp_path) as client:
        result = await client.call_tool(
            "compare_scripts",
            {
                "a": {"source": HOARDER, "name": "hoarder"},
                "b": {"source": thrower("no")},
                "seeds": "1-2",
                "rounds": 20,
            },
            progress_callback=progress,
        )
    assert not result.is_error, result.content
    data = result.structured_content
    assert (data["played"], data["seeds"], data["rounds"], data["draws"]) == (4, 2, 20, 0)
    hoarder, loser = data["scripts"]
    assert (hoarder["name"], hoarder["wins"], loser["name"], loser["wins"], loser["losses"]) == (
        "hoarder",
        4,
        "b",
        0,
        4,
    )
    assert loser["failedTurns"] == 40 and loser["failedTurnsByReason"] == {"script-error": 40}
    assert data["difference"]["mean"] > 0 and data["verdict"] in (
        "hoarder scores more than b",
        "no clear difference",
    )
    text = result.content[0].text
    assert (
        text.startswith("hoarder vs b: 4 games over 2 seeds: hoarder won 4, b won 0, 0 draws")
        and "script-error 40" in text
    )
    # progress after every game, in order, ending on the last
    assert [done for done, _, _ in seen] == [1, 2, 3, 4] and seen[-1][1:] == (4, "game 4 of 4")
    # the answer stays small: no per-game results, no code
    assert len(text) < 1200 and "stateHash" not in str(data) and "always fails" not in str(data)


async def test_an_uploaded_script_and_the_starter_can_be_compared(tmp_path):
    async with connect(tmp_path) as client:
        await ok(client, "create_game", name="g")
        uploaded = await ok(
            client, "upload_script", game="g", player="alice", source=thrower("mine")
        )
        script = uploaded.data["scriptId"]
        reply = await ok(
            client,
            "compare_scripts",
            a={"starter": True},
            b={"game": "g", "player": "alice", "script_id": script},
            seeds="3",
            rounds=30,
        )
        assert [s["name"] for s in reply.data["scripts"]] == ["starter", uploaded.data["name"]]
        assert reply.data["scripts"][1]["wins"] == 0
        # someone else's script is not yours to run
        theirs = await call(
            client,
            "compare_scripts",
            a={"starter": True},
            b={"game": "g", "player": "bob", "script_id": script},
            seeds="3",
            rounds=5,
        )
        assert theirs.error and f"'{script}' is not one of bob's scripts" in theirs.text


async def test_bad_arguments_are_errors_an_agent_can_act_on(tmp_path):
    async with connect(tmp_path) as client:
        too_many = await call(
            client, "compare_scripts", a={"starter": True}, b={"starter": True}, seeds="1-50"
        )
        assert (
            too_many.error
            and "at most 40" in too_many.text
            and "give at most 20 seeds" in too_many.text
        )
        rounds = await call(
            client,
            "compare_scripts",
            a={"starter": True},
            b={"starter": True},
            seeds="1",
            rounds=1000,
        )
        assert rounds.error and "rounds must be from 1 to 300, not 1000" in rounds.text
        seeds = await call(
            client, "compare_scripts", a={"starter": True}, b={"starter": True}, seeds="9-2"
        )
        assert seeds.error and "must run upwards" in seeds.text
        mixed = await call(
            client,
            "compare_scripts",
            a={"starter": True, "game": "g"},
            b={"starter": True},
            seeds="1",
        )
        assert mixed.error and "game, player and script_id together" in mixed.text
        broken = await call(
            client,
            "compare_scripts",
            a={"source": "export default 5 +;"},
            b={"starter": True},
            seeds="1",
        )
        assert broken.error and "main.ts" in broken.text
        nothing = await call(client, "compare_scripts", a={}, b={"starter": True}, seeds="1")
        assert nothing.error and "give the android's code" in nothing.text
