"""run_rounds says whose each android destroyed in its rounds was (issue 22: every answer that
lists androids says whose they are), in its text and its structured result."""

from __future__ import annotations

from nova_mcp_testing import connect, ok, thrower


async def test_run_rounds_names_the_owner_of_each_android_it_saw_destroyed(tmp_path) -> None:
    async with connect(tmp_path) as client:
        await ok(client, "create_game", name="g", seed=2)
        for player in ("alice", "bob"):
            source = thrower(f"{player} fails") if player == "bob" else None
            if source is None:
                source = "export default (() => ({ type: 'android.wait' })) as AndroidTurn;"
            script = await ok(client, "upload_script", game="g", player=player, source=source)
            android = (
                await ok(
                    client,
                    "launch_android",
                    game="g",
                    player=player,
                    script_id=script.data["scriptId"],
                )
            ).data["androidId"]
            if player == "bob":
                bobs = android
        ran = await ok(client, "run_rounds", game="g", rounds=12)
    # a failed turn costs 10 health: bob's thrower falls within 12 rounds, alice's waiter stands
    assert ran.data["destroyed"] == [bobs]
    assert ran.data["owners"] == {bobs: "bob"}
    assert f"destroyed: bob's {bobs}" in ran.text
