"""The typings are generated from the models, committed, and teach the game on hover."""

from __future__ import annotations

import re

from nova_tools.engine import wire
from nova_tools.toolchain import typings
from nova_tools.toolchain.paths import PACKAGED_TYPINGS, REPO_TYPINGS
from nova_tools.toolchain.typecheck import typecheck_files


def test_committed_typings_are_up_to_date():
    stale = typings.stale_files()
    assert not stale, (
        f"{', '.join(str(p) for p in stale)} differ from the models: {typings.REGENERATE_HINT}"
    )


def test_repo_and_packaged_copies_are_identical():
    assert REPO_TYPINGS.read_text(encoding="utf-8") == PACKAGED_TYPINGS.read_text(encoding="utf-8")


def test_check_mode_exit_code(capsys):
    assert typings.main(["--check"]) == 0


def test_typings_are_a_global_script():
    text = typings.render_typings()
    assert not re.search(r"^(import|export)\b", text, re.M), (
        "a top-level import/export would make it a module"
    )
    for declaration in (
        "declare const androidId: string;",
        "declare const world: World;",
        "declare const rules: Rules;",
        "declare const turn: number;",
        "declare const finalTurn: number | undefined;",
        "type AndroidTurn = () => Action;",
        "type Direction = 'north' | 'south' | 'east' | 'west';",
    ):
        assert declaration in text


def test_action_union_has_all_fourteen_actions():
    text = typings.render_typings()
    union = re.search(r"^type Action =\n((?:  \| \w+;?\n)+)", text, re.M)
    assert union
    members = re.findall(r"\| (\w+)", union.group(1))
    assert len(members) == 14 == len(wire.ACTION_TYPES)
    for action_type in wire.ACTION_TYPES:
        assert f"type: '{action_type}';" in text


def test_every_property_has_a_doc_comment():
    lines = typings.render_typings().splitlines()
    for i, line in enumerate(lines):
        if re.match(r"^  [\w']+\??: .+;$", line):
            assert lines[i - 1].strip().endswith("*/"), f"no JSDoc above: {line.strip()}"


def _property_doc(text: str, interface: str, prop: str) -> str:
    body = re.search(rf"^interface {interface} \{{\n(.*?)^\}}", text, re.M | re.S).group(1)
    match = re.search(rf"(/\*\*(?:(?!\*/).)*\*/)\n  {prop}\??:", body, re.S)
    assert match, f"{interface}.{prop} not found"
    return match.group(1)


def test_rules_docs_carry_descriptions_and_defaults():
    text = typings.render_typings()
    doc = _property_doc(text, "AndroidRules", "cargoCapacity")
    assert "Most material units an android can carry" in doc and "@default 12" in doc
    assert "@default 0.15" in _property_doc(text, "AndroidRules", "decayPerRound")
    assert "@default null" in _property_doc(text, "MatchRules", "finalRound")
    charger = _property_doc(text, "Buildings", "charger")
    assert (
        '"androidCapacity": 2' in charger
        and '"charge": 25' in charger
        and '"cost": {"metal": 10}' in charger
    )
    # resolved rules: every field present, nullable ones typed `| null`
    assert re.search(r"^  finalRound: number \| null;$", text, re.M)
    assert re.search(r"^  sight: Sight \| null;$", text, re.M)


def test_wire_optional_fields_are_optional_not_null():
    text = typings.render_typings()
    assert re.search(r"^  revealedBy\?: string\[\];$", text, re.M)
    assert re.search(r"^  resources\?: MaterialAmounts;$", text, re.M)  # collect / deposit ...
    assert re.search(r"^  resources: MaterialAmounts;$", text, re.M)  # withdraw needs it
    assert re.search(r"^  buildingType: BuildingType;$", text, re.M)
    assert "| null" not in text.split("interface Rules {")[0], (
        "wire JSON leaves fields out, it never sends null"
    )


def test_typings_type_check_on_their_own():
    assert typecheck_files([], typings=REPO_TYPINGS, skip_lib_check=False) == []
