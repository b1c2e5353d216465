"""The rules reference is generated from the rules models: docs/rules.md as committed is what they
give (a changed default makes it stale), every rule of the models is in it with its default, and
`nova rules show --table` lists the rules a game really plays with."""

from __future__ import annotations

import json
import re

import pytest
from nova_testing import nova

from nova_tools.api import rules_reference
from nova_tools.rules import walk

DOC = rules_reference.RULES_DOC


def test_the_committed_rules_reference_is_the_generated_one():
    stale = rules_reference.stale()
    assert not stale, "docs/rules.md is out of date: run `nova generate` and commit it"


def test_a_changed_default_makes_the_reference_stale(monkeypatch):
    retuned = json.loads(json.dumps(walk.default_json()))
    retuned["android"]["cargoCapacity"] = 7
    monkeypatch.setattr(walk, "default_json", lambda: retuned)
    monkeypatch.setattr(rules_reference, "default_json", lambda: retuned)

    assert rules_reference.stale()
    assert "| `rules.android.cargoCapacity` | 7 |" in rules_reference.rules_markdown()


def tables(text: str) -> list[list[list[str]]]:
    """Every Markdown table of ``text``: its rows (header first, the ---| row left out) as cells."""
    found, current = [], []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            cells = [
                c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]
            ]
            if not all(set(c) <= set("-") for c in cells):
                current.append(cells)
        elif current:
            found.append(current)
            current = []
    return found


def documented_default(doc_tables, path: tuple) -> str | None:
    """Where docs/rules.md states the default of the rule at ``path``: the cell beside its name in a
    rule | default row, or the cell of its building's row under its column."""
    dotted = walk.dotted(path)
    for table in doc_tables:
        header = table[0]
        for row in table[1:]:
            if (
                f"`{dotted}`" in row
            ):  # a row naming the rule: its default is the cell after the name
                at = row.index(f"`{dotted}`")
                return row[at + 1] if at == 0 else row[1]
        if path[0] == "buildings" and len(path) == 3 and header[0] == "`rules.buildings.`":
            column = header.index(f"`{path[2]}`")
            row = next(r for r in table[1:] if r[0] == f"`{path[1]}`")
            return row[column]
    return None


def test_every_rule_in_the_models_is_in_the_reference_with_its_default():
    doc_tables = tables(DOC.read_text(encoding="utf-8"))
    checked = 0
    for entry in walk.reference():
        if entry.type.startswith("group") or rules_reference._inside_leaf(entry.path):
            continue  # a group is its rules; a leaf's fields are in the leaf's row
        if entry.type.startswith("entries by id"):  # pods.contents: one row, each entry in it
            row = documented_default(doc_tables, entry.path)
            for key, value in entry.default.items():
                assert f"{key} {rules_reference.shown((), value)}" in row, (entry.dotted, key)
            checked += 1
            continue
        if entry.path[:4] == ("world", "generation", "pods", "contents") or any(
            isinstance(p, int) for p in entry.path
        ):
            continue  # an entry of the row above, an item of a list (in the list's cell)
        stated = documented_default(doc_tables, entry.path)
        assert stated is not None, f"{entry.dotted} is not in docs/rules.md"
        assert stated == rules_reference.shown(entry.path, entry.default), entry.dotted
        checked += 1
    # every building's 11 rules, the 9 + 6 scoring values, and the groups' own rules
    assert checked >= 9 * 11 + 15 + 20


def test_the_scoring_table_gives_every_building_and_material_its_points():
    text = DOC.read_text(encoding="utf-8")
    assert "| colonyModule | 100 | `rules.scoring.buildings.colonyModule` |" in text
    assert "| ore | 0.5 | `rules.scoring.materials.ore` |" in text
    assert (
        "| `processor` | 10 metal, 2 electronics | 4 | 100 | 0 | 0 | deposit and withdraw | none | 2 ore -> 1 metal; 1 metal + 1 water -> 1 electronics |"
        in text
    )


def test_rules_show_table_lists_the_rules_a_game_plays_with(tmp_path):
    rules = tmp_path / "rules.jsonc"
    rules.write_text(
        '{ "android": { "cargoCapacity": 6 }, // a smaller hold\n "buildings": { "depot": { "cost": { "metal": 4 } } } }'
    )
    game = tmp_path / "game.json"
    assert nova("create-game", "--file", game, "--rules", rules).code == 0

    from_file = nova("rules", "show", "--table", "--file", game)
    from_rules = nova("rules", "show", "--table", "--rules", rules)
    shipped = nova("rules", "show", "--table")

    assert from_file.code == from_rules.code == shipped.code == 0
    assert from_file.out == from_rules.out
    lines = from_file.out.splitlines()
    assert "Androids (rules.android)" in lines
    assert re.search(
        r"^  android\.cargoCapacity +6 \* +Most material units an android can carry",
        from_file.out,
        re.M,
    )
    assert re.search(r"^  buildings\.depot\.cost +4 metal \* ", from_file.out, re.M)
    assert re.search(r"^  android\.memoryLimit +4096 +Most characters", from_file.out, re.M)
    assert lines[-1] == "2 rules differ from the defaults (marked *)."
    assert shipped.out.splitlines()[-1] == "Every rule is at its default."
    assert "*" not in "".join(line[:60] for line in shipped.out.splitlines())


@pytest.mark.parametrize(
    "args", [["--table", "--rules", "missing.json"], ["--table", "--file", "missing.json"]]
)
def test_rules_show_table_of_a_missing_file_is_one_sentence(tmp_path, args):
    result = nova("rules", "show", *args, cwd=tmp_path)
    assert result.code == 1 and "missing.json" in result.err and "Traceback" not in result.err
