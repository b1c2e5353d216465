"""`nova new-android` makes a project from the starter that type-checks on its own, uploads and
dry-runs with the real `nova` command, and whose first turn the engine accepts."""

from __future__ import annotations

import json

from nova_testing import nova

from nova_tools.toolchain import typecheck_project


def test_a_new_android_project_checks_and_its_first_turn_is_accepted(tmp_path):
    project = tmp_path / "bot"
    made = nova("new-android", project)
    assert made.code == 0, made.err
    assert typecheck_project(project) == []
    ran = nova("dry-run", project / "src" / "main.ts", "--json")
    assert ran.code == 0, ran.err
    result = json.loads(ran.out)
    assert result["accepted"] is True and result["ticks"] == 0
    assert result["action"]["type"] == "android.launch"  # its first move: a second android
    game = tmp_path / "game.json"
    assert nova("create-game", "--file", game, "--seed", 7).code == 0
    uploaded = nova(
        "upload", "--file", game, "--player", "me", project / "src" / "main.ts", "--json"
    )
    assert uploaded.code == 0, uploaded.err
    launched = nova(
        "launch", "--file", game, "--player", "me", "--script", json.loads(uploaded.out)["scriptId"]
    )
    assert launched.code == 0, launched.err
    assert nova("run", "--file", game, "--rounds", 5).code == 0
    in_game = nova(
        "dry-run", project / "src" / "main.ts", "--file", game, "--android", "android-1", "--json"
    )
    assert in_game.code == 0 and json.loads(in_game.out)["accepted"] is True, in_game.out
