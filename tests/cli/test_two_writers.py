"""Writers that reach one game through different paths (a link to the file, a linked folder, a
relative path, a path with ``..``, the api in this process beside `nova run` in others) take turns
on it: every round each of them asked for is in the game, none lost to another's save."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

from nova_testing import nova

from nova_tools import api

ROUNDS = 4


def test_writers_through_links_relative_and_dotted_paths_lose_no_rounds(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    real = games / "duel.json"
    assert nova("create-game", "--file", real, "--seed", "9").code == 0
    for player in ("ann", "bob"):
        assert nova("upload", "--file", real, "--player", player, api.starter_entry()).code == 0
    assert nova("launch", "--file", real, "--player", "ann", "--script", "script-1").code == 0
    assert nova("launch", "--file", real, "--player", "bob", "--script", "script-2").code == 0
    (tmp_path / "link.json").symlink_to(real)
    (tmp_path / "linked-folder").symlink_to(games)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "link-to-link.json").symlink_to(tmp_path / "link.json")
    paths = [
        str(tmp_path / "link.json"),
        str(tmp_path / "linked-folder" / "duel.json"),
        "games/duel.json",  # relative to cwd
        str(tmp_path / "elsewhere" / ".." / "games" / "duel.json"),
        str(tmp_path / "link-to-link.json"),
    ]
    runs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "nova_tools.cli",
                "run",
                "--file",
                path,
                "--rounds",
                str(ROUNDS),
            ],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for path in paths
    ]
    errors: list[BaseException] = []

    def in_process() -> None:
        try:
            api.run_rounds(real, ROUNDS)  # an MCP server's write, beside the CLI's
        except BaseException as error:
            errors.append(error)

    thread = threading.Thread(target=in_process)
    thread.start()
    for run in runs:
        out, err = run.communicate(timeout=600)
        assert run.returncode == 0, err
    thread.join(600)
    assert not errors, errors
    writers = len(paths) + 1
    assert api.status(real).round == writers * ROUNDS, "a writer's rounds were lost"
    for link in ("link.json", "linked-folder", "link-to-link.json"):
        assert (tmp_path / link).is_symlink()  # the links still link: the writes went to the game
    assert sorted(p.name for p in games.iterdir()) == ["duel.json", "duel.json.lock"]
    assert os.path.realpath(tmp_path / "link-to-link.json") == str(real)
