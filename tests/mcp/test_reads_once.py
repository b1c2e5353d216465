"""One path for one question: an MCP run_rounds reads the game file once (to play on from it) and
takes the standings it answers with from the run itself, never replaying the game a second time
through status (the same standings get_status then gives).

The reads are counted with Python's audit hook on ``open``: every open of the game file's path,
by any code, in this process (the SDK's client runs the server in process)."""

from __future__ import annotations

import sys
from pathlib import Path

from nova_mcp_testing import connect, ok, wall_walker

_WATCHED: list[Path] = []  # the game file being counted (empty: the hook does nothing)
_OPENS: list[str] = []


def _count_opens(event: str, args: tuple) -> None:
    if event == "open" and _WATCHED and isinstance(args[0], (str, bytes, Path)):
        try:
            opened = Path(args[0] if not isinstance(args[0], bytes) else args[0].decode())
        except (TypeError, ValueError):
            return
        if opened.name == _WATCHED[0].name and opened.resolve() == _WATCHED[0]:
            _OPENS.append(str(args[1]))


sys.addaudithook(_count_opens)  # an audit hook cannot be removed: it is inert unless _WATCHED


async def test_run_rounds_reads_the_game_file_once_and_answers_with_the_runs_standings(tmp_path):
    async with connect(tmp_path) as client:
        await ok(client, "create_game", name="g", seed=5)
        for player in ("alice", "bob"):
            script = (
                await ok(client, "upload_script", game="g", player=player, source=wall_walker())
            ).data["scriptId"]
            await ok(client, "launch_android", game="g", player=player, script_id=script)
        game = (tmp_path / "g.json").resolve()
        assert game.is_file()
        _WATCHED.append(game)
        try:
            played = await ok(client, "run_rounds", game="g", rounds=5)
            during_run = list(_OPENS)
            _OPENS.clear()
            status = await ok(client, "get_status", game="g")
            during_status = list(_OPENS)
        finally:
            _WATCHED.clear()
            _OPENS.clear()
    assert len(during_run) == 1, f"run_rounds opened the game file {len(during_run)} times"
    assert played.data["lastRound"] == 5
    # the standings it answered with are the game's, as get_status reads them
    by_player = {p["id"]: p["score"] for p in status.data["players"]}
    assert {s["player"]: s["score"] for s in played.data["scores"]} == by_player
    assert set(by_player) == {"alice", "bob"}
    assert len(during_status) == 1
