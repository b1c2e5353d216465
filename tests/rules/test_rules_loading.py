"""Rules files: JSON with comments, deep merge over the defaults, whole leaves, path-naming errors."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from rules_samples import RULEBOOK_EXAMPLE

from nova_tools.rules import Rules, RulesError, load, loads, resolve


def test_empty_object_is_the_shipped_game() -> None:
    assert loads("{}") == Rules()
    assert resolve({}) == Rules()
    assert loads("  // nothing changed\n{ /* really */ }\n") == Rules()


def test_the_rulebook_example_resolves() -> None:
    rules = loads(RULEBOOK_EXAMPLE)
    assert (rules.world.width, rules.world.height) == (24, 24)
    assert rules.android.cargo_capacity == 6
    assert rules.buildings.depot.cost.items() == [("metal", 4)]
    assert rules.buildings.depot.ticks == 1


def test_deep_merge_keeps_every_other_default() -> None:
    """ "{ "android": { "cargoCapacity": 6 } } leaves every other android rule alone"."""
    rules = loads(RULEBOOK_EXAMPLE)
    default = Rules()
    got, want = rules.to_json(), default.to_json()
    assert got["android"] == {**want["android"], "cargoCapacity": 6}
    assert got["world"] == {**want["world"], "width": 24, "height": 24}
    assert got["buildings"]["depot"] == {
        **want["buildings"]["depot"],
        "cost": {**want["buildings"]["depot"]["cost"], "metal": 4},
        "ticks": 1,
    }
    assert got["buildings"]["depot"]["storage"] == {"deposit": True, "withdraw": True}
    assert got["buildings"]["depot"]["salvageableByOthers"] is False
    for name in want["buildings"]:
        if name != "depot":
            assert got["buildings"][name] == want["buildings"][name], name
    for group in ("salvage", "scoring", "script", "match"):
        assert got[group] == want[group]


def test_a_leaf_is_replaced_whole() -> None:
    """A cost is a leaf: giving { electronics: 1 } means the cost is one electronics, not six
    metal and one electronics."""
    rules = resolve({"buildings": {"depot": {"cost": {"electronics": 1}}}})
    assert rules.buildings.depot.cost.items() == [("electronics", 1)]
    rules = resolve(
        {
            "buildings": {
                "processor": {"conversion": [{"inputs": {"ore": 3}, "outputs": {"metal": 2}}]}
            }
        }
    )
    assert len(rules.buildings.processor.conversion) == 1
    assert rules.buildings.processor.conversion[0].outputs.items() == [("metal", 2)]


def test_null_sight_is_allowed() -> None:
    assert resolve({"android": {"sight": None}}).android.sight is None
    assert (
        resolve(
            {"buildings": {"depot": {"sight": {"shape": "disc", "range": 2}}}}
        ).buildings.depot.sight.range
        == 2
    )


def _error(text: str) -> str:
    with pytest.raises(RulesError) as caught:
        loads(text)
    message = str(caught.value)
    assert "\n" not in message, message
    return message


ERROR_ROWS = [
    ('{ "android": { "sight": { "range": 6 } } }', "android.sight", "'shape' is missing"),
    ('{ "android": { "cargoCapcity": 6 } }', "android.cargoCapcity", "unknown key"),
    ('{ "wrld": {} }', "wrld", "unknown key"),
    (
        '{ "buildings": { "depot": { "cost": { "gold": 1 } } } }',
        "buildings.depot.cost.gold",
        "unknown key",
    ),
    ('{ "buildings": { "fortress": {} } }', "buildings.fortress", "unknown key"),
    ('{ "android": { "cargoCapacity": "6" } }', "android.cargoCapacity", "integer"),
    ('{ "android": { "cargoCapacity": 6.5 } }', "android.cargoCapacity", "integer"),
    ('{ "world": { "width": 1 } }', "world.width", "greater than or equal to 2"),
    ('{ "salvage": { "ownReturnRate": 1.5 } }', "salvage.ownReturnRate", "less than or equal to 1"),
    (
        '{ "android": { "sight": { "shape": "square", "range": 2 } } }',
        "android.sight.shape",
        "'diamond' or 'disc'",
    ),
    (
        '{ "world": { "generation": { "ore": { "chance": 0.5, "min": 4, "max": 1 } } } }',
        "world.generation.ore",
        "min (4)",
    ),
    (
        '{ "world": { "generation": { "pods": { "contents": { "metal": { "min": 1 } } } } } }',
        "world.generation.pods.contents.metal",
        "'max' is missing",
    ),
    (
        '{ "buildings": { "processor": { "conversion": [ { "inputs": { "ore": 2 } } ] } } }',
        "buildings.processor.conversion[0]",
        "a conversion is given whole",
    ),
    (
        '{ "buildings": { "extractor": { "extraction": [ { "source": "ore", "amount": 2 } ] } } }',
        "buildings.extractor.extraction[0]",
        "an extraction is given whole",
    ),
    (
        '{ "buildings": { "depot": { "storage": { "deposit": true } } } }',
        "buildings.depot.storage",
        "a storage is given whole",
    ),
    ('{ "android": 6 }', "android", "valid dictionary"),
]


@pytest.mark.parametrize(
    ("text", "path", "says"), ERROR_ROWS, ids=[f"{i}-{row[1]}" for i, row in enumerate(ERROR_ROWS)]
)
def test_errors_name_the_path_in_one_line(text: str, path: str, says: str) -> None:
    message = _error(text)
    assert message.startswith(f"rules: {path}: "), message
    assert says in message, message


def test_not_an_object_or_not_json() -> None:
    assert "one JSON object" in _error("[]")
    assert "line 2, column 17" in _error('{\n  "android": [1 2]\n}')


def test_several_problems_are_all_reported_and_counted() -> None:
    with pytest.raises(RulesError) as caught:
        loads('{ "android": { "memoryLimit": -1, "foo": 1 }, "bar": 2 }')
    paths = sorted(p.dotted for p in caught.value.problems)
    assert paths == ["android.foo", "android.memoryLimit", "bar"]
    assert "(and 2 more problems)" in str(caught.value)


def test_load_names_the_file(tmp_path) -> None:
    good = tmp_path / "rules.json"
    good.write_text(RULEBOOK_EXAMPLE, encoding="utf-8")
    assert load(good).android.cargo_capacity == 6
    bad = tmp_path / "bad.jsonc"
    bad.write_text('{ "android": { "sight": { "range": 6 } } }', encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        load(bad)
    assert str(caught.value).startswith(f"{bad}: android.sight: ")
    with pytest.raises(RulesError) as caught:
        load(tmp_path / "missing.json")
    assert "no such file" in str(caught.value)


def test_rules_are_immutable() -> None:
    rules = Rules()
    with pytest.raises(ValidationError, match="frozen"):
        rules.android.cargo_capacity = 99  # type: ignore[misc]
    with pytest.raises(ValidationError, match="frozen"):
        rules.world = rules.world  # type: ignore[misc]
    assert rules.android.cargo_capacity == 12
