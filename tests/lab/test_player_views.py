"""The lab keeps reads in a cache; what it read for one player is never served to another. Each
read is asked as one player, then another, then with no player, then the first again, and each
answer is the api's own for that player, read in this process."""

from __future__ import annotations

import json

import pytest
from lab_testing import Lab, running_lab
from nova_testing import nova, wanderer

from nova_tools import api

SECRET = "ann-secret-7781"
KEEPER = f"""
const keep: AndroidTurn = () => ({{ type: 'android.move', direction: turn % 2 ? 'east' : 'west', memory: '{SECRET}', recording: '{SECRET} ' + turn }});
export default keep;
"""


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    root = tmp_path_factory.mktemp("lab-views")
    game = root / "duel.json"
    assert nova("create-game", "--file", game, "--seed", "5").code == 0
    (root / "keeper.ts").write_text(KEEPER, encoding="utf-8")
    bot = wanderer(root, "walker")
    for player, script in (("ann", root / "keeper.ts"), ("bob", bot)):
        assert nova("upload", "--file", game, "--player", player, script).code == 0
    assert nova("launch", "--file", game, "--player", "ann", "--script", "script-1").code == 0
    assert nova("launch", "--file", game, "--player", "bob", "--script", "script-2").code == 0
    assert nova("run", "--file", game, "--rounds", 6).code == 0
    with running_lab(root) as running:
        yield running


def expected(data: object) -> object:
    return json.loads(json.dumps(data))


ORDER = ["ann", "bob", None, "ann", "bob"]


def test_a_timeline_read_for_one_player_is_never_served_to_another(lab: Lab) -> None:
    game = api.open_game(lab.root / "duel.json")
    answers = {}
    for player in ORDER:
        query = f"?player={player}" if player else ""
        status, body = lab.get(f"/api/games/duel/timeline{query}")
        assert status == 200, body
        want = api.replay_timeline(game, player=player).model_dump(mode="json", by_alias=True)
        assert body == expected(want), f"the timeline asked for {player} is not {player}'s"
        answers.setdefault(player, body)
    assert answers["ann"] != answers["bob"] != answers[None]


def test_a_round_of_turns_read_for_one_player_is_never_served_to_another(lab: Lab) -> None:
    game = api.open_game(lab.root / "duel.json")
    for player in ORDER:
        query = f"&player={player}" if player else ""
        status, body = lab.get(f"/api/games/duel/timeline?round=3{query}")
        assert status == 200, body
        want = api.replay_timeline(
            game, player=player, per_turn=True, first_round=3, last_round=3
        ).model_dump(mode="json", by_alias=True)
        assert body == expected(want)


def test_an_android_read_for_its_owner_is_never_served_to_another_player(lab: Lab) -> None:
    game = api.open_game(lab.root / "duel.json")
    seen = {}
    for player in ORDER:
        query = f"&player={player}" if player else ""
        status, body = lab.get(f"/api/games/duel/androids/android-1?round=4{query}")
        assert status == 200, body
        want = api.android_at(game, "android-1", round=4, player=player).to_json()
        assert body == expected(want)
        seen[player] = json.dumps(body)
    assert SECRET in seen["ann"]
    assert SECRET not in seen["bob"], "bob was shown ann's android's memory"
