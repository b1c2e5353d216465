"""league_add, league_play, league_table: an agent keeps a league of its versions in the root."""

from __future__ import annotations

from pathlib import Path

from nova_mcp_testing import call, connect, ok, thrower

HOARDER = (Path(__file__).resolve().parents[1] / "arena" / "androids" / "hoarder.ts").read_text(
    encoding="utf-8"
)


async def test_an_agent_adds_versions_plays_only_new_pairings_and_reads_the_table(tmp_path):
    seen: list[tuple[float, float | None, str | None]] = []

    async def progress(done: float, total: float | None, message: str | None) -> None:
        seen.append((done, total, message))

    async with connect(tmp_path) as client:
        added = await ok(
            client, "league_add", league="ladder", name="maison", house="house:starter"
        )
        assert added.data == {
            "name": "maison",
            "source": "house:starter",
            "sha256": added.data["sha256"],
            "entries": 1,
        }
        await ok(client, "league_add", league="ladder", name="lanceur", source=thrower("non"))
        again = await call(client, "league_add", league="ladder", name="lanceur", source=HOARDER)
        assert again.error and "already has an entry named 'lanceur'" in again.text
        same = await call(client, "league_add", league="ladder", name="v2", house="house:starter")
        assert same.error and "as 'maison' (the same bundle)" in same.text

        result = await client.call_tool(
            "league_play",
            {"league": "ladder", "seeds": "1-2", "rounds": 10},
            progress_callback=progress,
        )
        assert not result.is_error, result.content
        played = result.structured_content
        assert (played["wanted"], played["planned"], played["played"], played["complete"]) == (
            4,
            4,
            4,
            True,
        )
        assert [s[:2] for s in seen] == [(1, 4), (2, 4), (3, 4), (4, 4)]

        await ok(client, "league_add", league="ladder", name="hoarder", source=HOARDER)
        more = await ok(client, "league_play", league="ladder", seeds="1-2", rounds=10)
        assert (more.data["already"], more.data["played"], more.data["wanted"]) == (4, 8, 12)

        table = await ok(client, "league_table", league="ladder")
    assert table.data["games"] == 12
    entries = {e["name"]: e for e in table.data["entries"]}
    assert set(entries) == {"hoarder", "maison", "lanceur"}
    assert [e["rank"] for e in table.data["entries"]] == [1, 2, 3]
    hoarder = entries["hoarder"]
    assert hoarder["games"] == 8 and hoarder["sigma"] > 0
    assert {h["opponent"]: h["games"] for h in hoarder["against"]} == {"maison": 4, "lanceur": 4}
    assert next(h for h in hoarder["against"] if h["opponent"] == "lanceur")["losses"] == 0
    assert table.text.startswith("League 'ladder': 3 entries, 12 games. 1. ")
    assert (tmp_path / "ladder.league").is_file()  # the file nova league reads


async def test_league_play_is_bounded_and_says_how_to_go_on(tmp_path):
    async with connect(tmp_path) as client:
        missing = await call(client, "league_play", league="nowhere")
        assert missing.error and "there is no league" in missing.text
        bad = await call(client, "league_add", league="../up", name="x", house="house:starter")
        assert bad.error and "is not a valid league name" in bad.text
        await ok(client, "league_add", league="l", name="a", house="house:starter")
        await ok(client, "league_add", league="l", name="b", source=thrower("non"))
        many = await call(client, "league_play", league="l", seeds="1-101")
        assert many.error and "at most 100" in many.text
        long = await call(client, "league_play", league="l", rounds=301)
        assert long.error and "rounds must be from 1 to 300" in long.text
        # 21 seeds x 2 seat orders = 42 games: 40 in the first call, the rest in the next
        first = await ok(client, "league_play", league="l", seeds="1-21", rounds=1)
        assert (first.data["played"], first.data["complete"]) == (40, False)
        assert "2 pairings are left: call league_play again" in first.text
        second = await ok(client, "league_play", league="l", seeds="1-21", rounds=1)
        assert (second.data["played"], second.data["already"], second.data["complete"]) == (
            2,
            40,
            True,
        )


async def test_a_cancelled_league_play_stops_its_games_and_gives_back_its_claims(tmp_path):
    import sqlite3

    import anyio

    async with connect(tmp_path) as client:
        await ok(client, "league_add", league="long", name="a", house="house:starter")
        await ok(client, "league_add", league="long", name="b", source=HOARDER)
        with anyio.move_on_after(6):
            await client.call_tool(
                "league_play", {"league": "long", "seeds": "1-20", "rounds": 300}
            )
            raise AssertionError("40 games of 300 rounds ended within 6 s")

        def counts() -> tuple[int, int, int]:
            with sqlite3.connect(tmp_path / "long.league") as db:
                return tuple(
                    db.execute(q).fetchone()[0]
                    for q in (
                        "SELECT COUNT(*) FROM games WHERE state = 'done'",
                        "SELECT COUNT(*) FROM games WHERE state = 'claimed'",
                        "SELECT COUNT(*) FROM runs",
                    )
                )

        with anyio.fail_after(30):
            while counts()[1:] != (0, 0):  # the stopped run gives its claims back
                await anyio.sleep(0.2)
        done = counts()[0]
        await anyio.sleep(3)
        assert counts() == (done, 0, 0)  # and no game is played after the cancel
        assert done < 40
        table = await ok(client, "league_table", league="long")
        assert table.data["games"] == done
