"""A game file written by an older sandbox build keeps loading, replaying and playing on (under
the current build, which the file then records).

``fixtures/sandbox-2-game.json`` was written by nova-tools before turns started from per-game
memory images (sandbox build "2"): 10 rounds of seed 11, alice with the starter, bob with a
wanderer. Loading replays its log (no script runs), so it reads back exactly as it was played.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from nova_testing import nova

from nova_tools import store
from nova_tools.sandbox import SANDBOX_BUILD

FIXTURE = Path(__file__).parent / "fixtures" / "sandbox-2-game.json"


def _copy(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    game = folder / "game.json"
    shutil.copyfile(FIXTURE, game)
    return game


def test_a_game_file_from_sandbox_build_2_loads_and_replays_as_it_was_played(tmp_path):
    game = _copy(tmp_path)
    assert json.loads(FIXTURE.read_text())["sandbox"]["sandbox"] == "2" != SANDBOX_BUILD["sandbox"]

    status = nova("status", "--file", game, "--json")
    android = nova("android", "--file", game, "android-2", "--json")
    events = nova("events", "--file", game, "--json")

    assert status.code == android.code == events.code == 0, status.err + android.err + events.err
    played = json.loads(status.out)
    assert played["round"] == 10
    assert [(p["id"], p["score"], p["activeAndroids"]) for p in played["players"]] == [
        ("alice", 4.0, 2),
        ("bob", 4.0, 1),
    ]
    assert json.loads(android.out)["memory"] == "seen 17"
    assert game.read_bytes() == FIXTURE.read_bytes()  # reading never rewrites the file


def test_a_game_file_from_sandbox_build_2_plays_on_deterministically(tmp_path):
    first, second = _copy(tmp_path / "first"), _copy(tmp_path / "second")

    for game in (first, second):
        ran = nova("run", "--file", game, "--rounds", 3, "--json")
        assert ran.code == 0, ran.err

    assert json.loads(nova("status", "--file", first, "--json").out)["round"] == 13
    assert first.read_bytes() == second.read_bytes()
    # the file now names the build that played its latest rounds; the first ten read back as
    # they were played under build 2
    recorded, original = store.load(first), store.load(FIXTURE)
    assert recorded.sandbox == SANDBOX_BUILD != original.sandbox
    assert recorded.events[: len(original.events)] == original.events
