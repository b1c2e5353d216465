"""`nova create-game --final-round N` gives a game its arrival date without a rules file, and
`nova run` says so in one line when a game has none (scripts then see finalTurn as undefined)."""

from __future__ import annotations

import json

from nova_testing import nova


def waiting_bot(folder):
    bot = folder / "deadline.ts"
    bot.write_text(
        "const t: AndroidTurn = () => ({ type: 'android.wait', recording: `turn ${turn} of ${finalTurn}` });\n"
        "export default t;\n"
    )
    return bot


def play_one_round(game, bot) -> str:
    assert nova("upload", "--file", game, "--player", "p", bot).code == 0
    assert nova("launch", "--file", game, "--player", "p", "--script", "script-1").code == 0
    ran = nova("run", "--file", game, "--rounds", 1)
    assert ran.code == 0, ran.err
    return ran.err


def test_final_round_reaches_the_rules_status_and_the_scripts(tmp_path):
    game = tmp_path / "game.json"
    created = nova("create-game", "--file", game, "--final-round", 20)
    assert created.code == 0, created.err
    assert "humans land on round 20" in created.out
    assert json.loads(nova("rules", "show", "--file", game).out)["match"]["finalRound"] == 20
    assert json.loads(nova("status", "--file", game, "--json").out)["finalTurn"] == 20
    notice = play_one_round(game, waiting_bot(tmp_path))
    assert notice == ""  # a game with an arrival date needs no notice
    assert (
        json.loads(nova("android", "--file", game, "android-1", "--json").out)["recording"]
        == "turn 1 of 20"
    )


def test_final_round_overrides_the_rules_file_and_keeps_its_other_rules(tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text('{ "world": { "width": 8, "height": 6 }, "match": { "finalRound": 30 } }')
    game = tmp_path / "game.json"
    assert (
        nova("create-game", "--file", game, "--rules", rules, "--final-round", 12, "--json").code
        == 0
    )
    shown = json.loads(nova("rules", "show", "--file", game).out)
    assert shown["match"]["finalRound"] == 12
    assert (shown["world"]["width"], shown["world"]["height"]) == (8, 6)


def test_run_notes_in_one_line_that_a_game_has_no_final_round(tmp_path):
    game = tmp_path / "game.json"
    assert nova("create-game", "--file", game).code == 0
    notice = play_one_round(game, waiting_bot(tmp_path))
    assert notice.count("\n") == 1 and "no final round" in notice and "--final-round" in notice
    # the note says what the script saw: `undefined`, as the recording shows (not `null`)
    assert "scripts see finalTurn as undefined" in notice
    recording = json.loads(nova("android", "--file", game, "android-1", "--json").out)["recording"]
    assert recording == "turn 1 of undefined"
    # --json output stays one clean object with nothing on stderr
    ran = nova("run", "--file", game, "--rounds", 1, "--json")
    assert ran.err == "" and json.loads(ran.out)["lastRound"] == 2


def test_a_final_round_below_one_is_refused_in_one_sentence_and_writes_nothing(tmp_path):
    game = tmp_path / "game.json"
    refused = nova("create-game", "--file", game, "--final-round", 0)
    assert refused.code == 1
    assert refused.err.strip() == "nova create-game: the final round must be at least 1, not 0"
    assert not game.exists()
