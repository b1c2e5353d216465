"""`nova rules validate` and `nova rules show`, as a host retuning a game would use them."""

from __future__ import annotations

import json

import pytest
from nova_testing import nova

RULEBOOK_EXAMPLE = """// rules.json — a complete rules file
{
  "world": { "width": 24, "height": 24 },
  "android": { "cargoCapacity": 6 },
  "buildings": { "depot": { "cost": { "metal": 4 }, "ticks": 1 } },
}
"""


@pytest.mark.parametrize("text", ["{}", RULEBOOK_EXAMPLE], ids=["empty", "rulebook-example"])
def test_validate_accepts_the_shipped_game_and_the_rulebook_example(tmp_path, text):
    rules = tmp_path / "rules.json"
    rules.write_text(text)
    result = nova("rules", "validate", rules)
    assert (result.code, result.err) == (0, "")
    assert "valid" in result.out


@pytest.mark.parametrize(
    "text, path",
    [
        ('{ "android": { "sight": { "range": 6 } } }', "android.sight"),
        ('{ "android": { "cargoCapacty": 6 } }', "android.cargoCapacty"),
        ('{ "world": { "width": "wide" } }', "world.width"),
        ('{ "buildings": { "depot": { "cost": { "gold": 1 } } } }', "buildings.depot.cost.gold"),
    ],
    ids=["partial-leaf", "unknown-key", "wrong-type", "unknown-material"],
)
def test_validate_rejects_with_one_line_naming_the_path(tmp_path, text, path):
    rules = tmp_path / "rules.json"
    rules.write_text(text)
    result = nova("rules", "validate", rules)
    assert result.code == 1
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.err
    assert lines[0].startswith(f"{rules}: {path}:")


def test_validate_reports_broken_json_with_line_and_column(tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text('{\n  "android": { "cargoCapacity": 6 \n}')
    result = nova("rules", "validate", rules)
    assert result.code == 1
    assert "line 3" in result.err


def test_show_prints_resolved_rules_merged_over_the_defaults(tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text(RULEBOOK_EXAMPLE)
    shown = json.loads(nova("rules", "show", "--rules", rules).out)
    assert shown["world"]["width"] == 24 and shown["android"]["cargoCapacity"] == 6
    assert shown["android"]["memoryLimit"] == 4096  # untouched defaults stay
    assert shown["buildings"]["depot"]["cost"] == {
        "metal": 4,
        "electronics": 0,
        "polymer": 0,
        "ore": 0,
        "water": 0,
        "acidCanister": 0,
    }
    defaults = json.loads(nova("rules", "show").out)
    assert defaults["world"]["width"] == 12 and defaults["buildings"]["depot"]["cost"]["metal"] == 6


def test_a_game_keeps_the_rules_it_was_created_with(tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text(RULEBOOK_EXAMPLE)
    game = tmp_path / "game.json"
    assert nova("create-game", "--file", game, "--rules", rules).code == 0
    rules.write_text("{}")  # editing the rules file later does not retune the game
    shown = json.loads(nova("rules", "show", "--file", game).out)
    assert shown["world"]["width"] == 24 and shown["android"]["cargoCapacity"] == 6
