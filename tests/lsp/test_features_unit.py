"""Tier 1: the editor features as plain functions — text in, findings/ranges/docs out."""

from __future__ import annotations

import pytest

from nova_tools.lsp import context, ruledocs
from nova_tools.lsp.features import checks, dry_run, rules_files
from nova_tools.lsp.features.hover import nova_hover
from nova_tools.lsp.settings import RulesInEffect, Settings, shipped_defaults
from nova_tools.lsp.textpos import LineIndex
from nova_tools.rules import Rules
from nova_tools.toolchain.tstext import Source

DEFAULTS = Rules().to_json()


def marked(text: str) -> tuple[str, int]:
    """``text`` with a ``|`` marking the cursor -> (text without it, offset)."""
    offset = text.index("|")
    return text[:offset] + text[offset + 1 :], offset


# --- member chains and strings ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "names", "index"),
    [
        ("const c = rules.android.cargo|Capacity;", ["rules", "android", "cargoCapacity"], 2),
        ("const c = rules.andr|oid.cargoCapacity;", ["rules", "android"], 1),
        ("const c = rules . world\n  .wi|dth;", ["rules", "world", "width"], 2),
        ("const m = rules.buildings['dep|ot'].cost.metal;", ["rules", "buildings", "depot"], 2),
        (
            "const m = rules.buildings['depot'].cost.me|tal;",
            ["rules", "buildings", "depot", "cost", "metal"],
            4,
        ),
        ("const m = rules?.android?.sig|ht;", ["rules", "android", "sight"], 2),
        ("const x = f().ru|les;", None, None),
        ("// rules.android.cargo|Capacity", None, None),
        ("const s = 'rules.android.cargo|Capacity';", None, None),
    ],
)
def test_member_chain_at_the_cursor(text, names, index):
    text, offset = marked(text)
    chain = Source(text).member_chain_at(offset)
    if names is None:
        assert chain is None
    else:
        segments, at = chain
        assert [s.name for s in segments] == names and at == index


def test_masking_keeps_offsets_and_hides_comments_and_string_contents():
    text = "const a = 'x // y'; // turn % 2\n/* turn > 3 */ const b = `turn`;\n"
    source = Source(text)
    assert len(source.masked) == len(text)
    assert "turn" not in source.masked and "//" not in source.masked
    assert source.masked.count("\n") == 2
    assert "'x // y'" in source.without_comments and "turn % 2" not in source.without_comments


# --- rule docs ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "default", "label"),
    [
        (("android", "cargoCapacity"), 12, "integer"),
        (("android", "failedTurnHealthPenalty"), 10, "number"),
        (("android", "sight"), {"shape": "diamond", "range": 3}, "leaf value, given whole or null"),
        (("buildings", "depot", "cost", "metal"), 6, "integer"),
        (("world", "width"), 12, "integer"),
        (("match", "finalRound"), None, "integer or null"),
        (
            ("world", "generation", "pods", "contents", "polymer"),
            ruledocs.MISSING,
            "leaf value, given whole",
        ),
    ],
)
def test_rule_docs_come_from_the_models(path, default, label):
    doc = ruledocs.lookup(path)
    assert doc.default == default or doc.default is default
    assert doc.type_label == label
    assert doc.description


def test_unknown_paths_have_no_doc():
    assert ruledocs.lookup(("android", "cargoCapacty")) is None
    assert ruledocs.lookup(("buildings", "castle")) is None
    assert ruledocs.lookup(("world", "generation", "pods", "contents", "gold")) is None


def test_rule_mentions_get_their_resolved_values():
    text = ruledocs.action_doc("android.move").summary
    assert "rules.android.moveBatteryCost (1)" in ruledocs.with_values(text, DEFAULTS)


# --- hover in scripts -----------------------------------------------------------------------------


def test_hover_on_a_rule_shows_the_configured_value_and_the_default():
    rules = Rules.model_validate({"android": {"cargoCapacity": 6}})
    configured = RulesInEffect(rules, rules.to_json(), "rules.json")
    text, offset = marked("const c = rules.android.cargo|Capacity;")
    body, span = nova_hover(text, offset, configured)
    assert "Value: `6` (from rules.json)" in body and "shipped default `12`" in body
    assert text[span[0] : span[1]] == "cargoCapacity"


def test_hover_on_strings_explains_actions_and_buildings():
    text, offset = marked("({ type: 'android.start-constr|uction', buildingType: 'depot' })")
    body, _ = nova_hover(text, offset, shipped_defaults())
    assert "android.start-construction" in body and "`buildingType`" in body
    body, _ = nova_hover(text, text.index("depot") + 1, shipped_defaults())
    assert "Costs 6 metal" in body
    assert nova_hover("const s = 'hello';", 12, shipped_defaults()) is None


# --- rules files -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "flagged", "says"),
    [
        ('{ "android": { "sight": { "range": 6 } } }', '"sight"', "given whole"),
        ('{ "android": { "cargoCapacty": 6 } }', '"cargoCapacty"', "unknown key"),
        ('{ "android": { "cargoCapacity": "six" } }', '"six"', "integer"),
        ('{ "world": { "width": 1 } }', "1", "greater than or equal to 2"),
        (
            '{ "world": { "generation": { "pods": { "contents": { "gold": { "min": 1, "max": 2 } } } } } }',
            '"gold"',
            "unknown key",
        ),
        (
            '{ "android": { "cargoCapacity": 6, } // trailing commas and comments are fine\n, "nope": 1 }',
            '"nope"',
            "unknown key",
        ),
        ('{ "android": ', " ", "not valid JSON"),
    ],
)
def test_rules_file_problems_point_at_the_offending_key_or_value(text, flagged, says):
    [problem] = rules_files.check(text)
    assert text[problem.start : problem.end] == flagged
    assert says in problem.message


def test_a_schema_reference_is_not_a_rule():
    text = '{ "$schema": "../schemas/rules.schema.json", "android": { "cargoCapacity": 6 } }'
    assert rules_files.check(text) == []
    assert rules_files.resolve_text(text).android.cargo_capacity == 6


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("rules.json", "", True),
        ("tiny.nova-rules.json", "", True),
        ("tiny.nova-rules.jsonc", "", True),
        ("database.rules.json", '{ "rules": { ".read": true } }', False),  # Firebase's
        ("tiny.rules.json", "", False),
        (".nova-rules.json", "", False),
        ("rules.jsonc", "", True),
        ("anything.json", '{ "$schema": "https://nova.invalid/schemas/rules.schema.json" }', True),
        ("package.json", '{ "name": "x" }', False),
        ("myrules.json", "{}", False),
    ],
)
def test_which_files_are_rules_files(name, text, expected):
    assert context.is_rules_document(name, text) is expected


@pytest.mark.parametrize(
    ("text", "path", "offered", "not_offered"),
    [
        ('{ "android": { "cargoCapacity": 6, | } }', ("android",), "memoryLimit", "cargoCapacity"),
        ('{ "android": { "sight": { "|" } } }', ("android", "sight"), "shape", "cargoCapacity"),
        ("{ |", (), "world", "cargoCapacity"),
        (
            '{ "buildings": { "depot": { "cost": { | } } } }',
            ("buildings", "depot", "cost"),
            "metal",
            "ticks",
        ),
    ],
)
def test_key_completion_knows_where_it_is(text, path, offered, not_offered):
    text, offset = marked(text)
    context, docs = rules_files.completions(text, offset)
    keys = {d.path[-1] for d in docs}
    assert context.path == path and offered in keys and not_offered not in keys


def test_no_key_completion_in_value_position():
    text, offset = marked('{ "android": { "cargoCapacity": | } }')
    assert rules_files.completions(text, offset) is None


# --- Nova checks -------------------------------------------------------------------------------------

SHADOW = """\
const turn: AndroidTurn = () => {
  if (turn % 2 === 0) return { type: 'android.wait' };   // numeric: flagged
  if (10 < turn) return { type: 'android.wait' };        // numeric: flagged
  const next = () => turn;                                // the function itself: renamed
  const o = { turn: 1 };                                  // an object key: left alone
  return { type: 'android.wait', recording: 'turn % 2' }; // a string: ignored
};
export default turn;
"""


def test_turn_read_as_a_number_is_flagged_only_under_a_module_level_turn():
    findings = [f for f in checks.check(SHADOW, DEFAULTS) if f.code == checks.TURN_SHADOWS_ROUND]
    lines = sorted(SHADOW.count("\n", 0, f.start) + 1 for f in findings)
    assert lines == [2, 3]
    [fix] = findings[0].fixes
    renamed_lines = sorted(SHADOW.count("\n", 0, e.start) + 1 for e in fix.edits)
    assert renamed_lines == [1, 4, 8] and {e.new_text for e in fix.edits} == {"act"}


def test_turn_as_a_number_is_fine_when_nothing_shadows_it():
    text = "const act: AndroidTurn = () => (turn % 2 ? { type: 'android.wait' } : { type: 'android.charge' });\nexport default act;\n"
    assert checks.check(text, DEFAULTS) == []


def test_a_local_turn_inside_a_function_is_not_module_level():
    text = "export default (): Action => { const turn = 3; return turn > 2 ? { type: 'android.wait' } : { type: 'android.charge' }; };\n"
    assert [f for f in checks.check(text, DEFAULTS) if f.code == checks.TURN_SHADOWS_ROUND] == []


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        ("const full = cargoTotal >= 12;", "rules.android.cargoCapacity"),
        ("if (me.battery < 100) charge();", "rules.android.batteryCapacity"),
        ("const lastColumn = boardWidth - 12;", "rules.world.width"),
        ("if (cargo.metal >= 6) build('depot');", "rules.buildings.depot.cost.metal"),
        ("const note = memory.slice(0, 4096);", "rules.android.memoryLimit"),
    ],
)
def test_a_literal_equal_to_a_rule_near_its_words_gets_a_fix(line, rule):
    [finding] = [f for f in checks.check(line, DEFAULTS) if f.code == checks.RULE_LITERAL]
    assert any(fix.edits[0].new_text == rule for fix in finding.fixes)


@pytest.mark.parametrize(
    "line",
    [
        "const half = total / 12;",  # no word of any rule nearby
        "const full = cargoTotal >= rules.android.cargoCapacity; // 12",
        "const one = cargo + 1;",  # 0 and 1 are everywhere
        "const full = cargoTotal >= rules.android.cargoCapacity || cargoTotal >= 12;",  # already read here
    ],
)
def test_literals_that_are_not_a_rule_are_left_alone(line):
    assert [f for f in checks.check(line, DEFAULTS) if f.code == checks.RULE_LITERAL] == []


def test_a_retuned_rule_is_still_recognised_by_its_default():
    retuned = Rules.model_validate({"android": {"cargoCapacity": 6}}).to_json()
    [finding] = checks.check("const full = cargoTotal >= 12;", retuned)
    assert "this game sets it to 6" in finding.message


# --- dry-run helpers -------------------------------------------------------------------------------


def test_the_export_default_is_found_at_module_level_only():
    text = "const f = () => { /* export default x */ };\nexport default f;\n"
    start, end = dry_run.export_default_span(text)
    assert text[start:end] == "export default" and text.count("\n", 0, start) == 1


# --- settings and positions ---------------------------------------------------------------------------


def test_settings_accept_both_shapes_and_fall_back():
    nested = Settings.from_json({"nova": {"rulesFile": "r.json", "androidId": " android-2 "}})
    flat = Settings.from_json({"gameFile": "g.json"})
    assert nested == Settings(rules_file="r.json", android_id="android-2")
    assert nested.over(flat) == Settings(
        rules_file="r.json", game_file="g.json", android_id="android-2"
    )
    assert Settings.from_json(None) == Settings()


def test_positions_count_utf16_units():
    text = "const a = '🚀';\nconst b = rules.android.cargoCapacity;"
    index = LineIndex(text)
    rocket_end = text.index("';") + 1
    assert index.position(rocket_end).character == len("const a = '") + 2 + 1
    for offset in (0, 5, rocket_end, text.index("rules"), len(text)):
        assert index.offset(index.position(offset)) == offset


HOSTS = """\
const act: AndroidTurn = () => {
  document.title = 'x';                    // a browser global: flagged in a bare file
  setTimeout(() => 0, 1);                  // flagged in a bare file
  const ref = new WeakRef({});             // removed from the sandbox: flagged everywhere
  const o = { fetch: 1 };                  // an object key: left alone
  const s = 'require in a string';         // a string: ignored
  return { type: 'android.wait', recording: String(o.fetch) + s + String(ref) };
};
export default act; // document in a comment
"""


def test_browser_and_node_globals_are_flagged_in_a_bare_file_and_removed_ones_everywhere():
    bare = [(f.code, HOSTS[f.start : f.end]) for f in checks.check(HOSTS, DEFAULTS, bare=True)]
    assert bare == [
        (checks.HOST_GLOBAL, "document"),
        (checks.HOST_GLOBAL, "setTimeout"),
        (checks.HOST_GLOBAL, "WeakRef"),
    ]
    in_project = [HOSTS[f.start : f.end] for f in checks.check(HOSTS, DEFAULTS)]
    assert in_project == ["WeakRef"]  # the project's tsc (lib es2022) reports the rest itself
    [weak] = [f for f in checks.check(HOSTS, DEFAULTS) if f.code == checks.HOST_GLOBAL]
    assert "ReferenceError" in weak.message and weak.severity == "warning"


def test_a_script_that_declares_its_own_fetch_is_left_alone():
    text = "function fetch(x: number) { return x; }\nconst act: AndroidTurn = () => ({ type: 'android.wait', recording: String(fetch(1)) });\nexport default act;\n"
    assert checks.check(text, DEFAULTS, bare=True) == []


def test_every_forwarded_typescript_feature_is_listed_in_the_editors_doc():
    from pathlib import Path

    from nova_tools.lsp.features.forwarded import FORWARDS

    text = (Path(__file__).resolve().parents[2] / "docs" / "editors.md").read_text(encoding="utf-8")
    assert [f.feature for f in FORWARDS if f.feature not in text] == []
