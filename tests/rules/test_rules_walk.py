"""One walk over the rules models (nova_tools.rules.walk): it reaches every rule the defaults
hold, with a description, and gives the reference docs each rule's path, type, default and
group."""

from __future__ import annotations

from nova_tools.rules import Rules
from nova_tools.rules.walk import MISSING, default_json, node_at, reference, type_label


def _paths(value: object, path: tuple = ()) -> list[tuple]:
    out = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _paths(item, path + (index,))
    return out


def test_the_reference_lists_every_rule_of_the_defaults_once_in_order() -> None:
    entries = list(reference())
    listed = [e.path for e in entries]
    assert len(listed) == len(set(listed))
    defaults = _paths(default_json())
    assert [
        p for p in listed if p in set(defaults)
    ] == defaults  # all of them, in the defaults' order
    # beyond the defaults: only the fields of a leaf whose default is null (a charger's sight),
    # which a rules file may still give
    extra = [p for p in listed if p not in set(defaults)]
    assert extra and all(
        any(node_at(p[:i]).default is None for i in range(1, len(p))) for p in extra
    )
    assert all(e.group == e.path[0] for e in entries)
    assert all(e.default == node_at(e.path).default for e in entries)


def test_every_rule_says_what_it_means_and_what_it_holds() -> None:
    undescribed = [e.dotted for e in reference() if not e.description]
    assert not undescribed, undescribed
    by_path = {e.path: e for e in reference()}
    assert by_path[("android", "cargoCapacity")].type == "integer"
    assert by_path[("match", "finalRound")].type == "integer or null"
    assert by_path[("buildings",)].type == "group"
    assert by_path[("buildings", "depot", "cost")].type == "leaf value, given whole"


def test_a_path_that_holds_no_rule_has_no_node() -> None:
    assert node_at(("android", "cargo")) is None
    assert node_at(("buildings", "castle")) is None
    assert node_at(("world", "width", "more")) is None
    assert node_at(()).description and type_label(node_at(()).annotation) == "group"
    assert (
        node_at(("buildings", "depot", "conversion", 5)) is not None
        and node_at(("buildings", "depot", "conversion", 5)).default is MISSING
    )


def test_a_part_of_the_rules_can_be_listed_alone() -> None:
    android = list(reference(("android",)))
    assert android[0].path == ("android",) and {e.group for e in android} == {"android"}
    assert [e.path for e in android][1:] == [
        p for p in _paths(default_json()) if p[0] == "android" and len(p) > 1
    ]
    assert Rules().android.cargo_capacity == next(
        e.default for e in android if e.path == ("android", "cargoCapacity")
    )
