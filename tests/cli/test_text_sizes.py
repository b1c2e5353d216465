"""A script's text is measured as the script measures it: UTF-16 code units, what `.length` says
and what the engine's limits count. A memory of 3 emoji is 6, in `nova dry-run --json` and its
words, in `nova android` (the memory's length), never 3 (the code points)."""

from __future__ import annotations

import json

from nova_testing import nova

MEMORY = "\U0001f916\U0001f680\U0001f30d"  # 3 emoji, each a surrogate pair in UTF-16
RECORDING = "café ✓"  # 6 units: é and ✓ are one each

SCRIPT = (
    "const t: AndroidTurn = () => ({ type: 'android.wait', memory: '\\u{1F916}\\u{1F680}\\u{1F30D}',"
    " recording: 'caf\\u00e9 \\u2713' });\nexport default t;\n"
)


def test_a_dry_run_reports_a_memory_of_three_emoji_as_six(tmp_path):
    script = tmp_path / "emoji.ts"
    script.write_text(SCRIPT, encoding="utf-8")
    run = nova("dry-run", script, "--json")
    assert run.code == 0, run.err
    result = json.loads(run.out)
    assert result["action"]["memory"] == MEMORY and len(MEMORY) == 3
    assert result["memorySize"] == 6
    assert result["recordingSize"] == 6
    words = nova("dry-run", script)
    assert words.code == 0, words.err
    assert "memory 6 chars, recording 6 chars" in words.out


def test_the_engine_refuses_what_the_dry_run_counts_over_the_limit(tmp_path):
    """The dry-run and the engine agree: at a memory limit of 5, 3 emoji (6 units) is refused."""
    rules = tmp_path / "rules.json"
    rules.write_text('{"android": {"memoryLimit": 5}}', encoding="utf-8")
    game = tmp_path / "game.json"
    assert nova("create-game", "--file", game, "--rules", rules).code == 0
    script = tmp_path / "emoji.ts"
    script.write_text(SCRIPT, encoding="utf-8")
    assert nova("upload", "--file", game, "--player", "ana", script).code == 0
    assert nova("launch", "--file", game, "--player", "ana", "--script", "script-1").code == 0
    run = nova("dry-run", script, "--file", game, "--android", "android-1", "--json")
    assert run.code == 2, run.out + run.err
    result = json.loads(run.out)
    assert result["memorySize"] == 6 and result["code"] == "memory-too-long", result
