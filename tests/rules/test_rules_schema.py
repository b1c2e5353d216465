"""The committed JSON Schema is generated from the models, and on its own enforces the same shape."""

from __future__ import annotations

import json

import jsonschema
import pytest
from rules_samples import RULEBOOK_EXAMPLE

from nova_tools.rules import jsonc
from nova_tools.rules.schema import SCHEMA_PATH, render_schema


def test_committed_schema_is_up_to_date() -> None:
    committed = SCHEMA_PATH.read_text(encoding="utf-8")
    assert committed == render_schema(), (
        "schemas/rules.schema.json is out of date with the rules models: "
        "run `python -m nova_tools.rules.schema --write` and commit the result"
    )


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize(
    "document",
    [
        {},
        jsonc.parse(RULEBOOK_EXAMPLE).value,
        {"android": {"sight": None}},
        {"buildings": {"depot": {"androidCapacity": 1}}},
        {"match": {"finalRound": 20}},
    ],
    ids=["empty", "rulebook-example", "null-sight", "depot-capacity", "final-round"],
)
def test_schema_accepts(validator, document) -> None:
    assert list(validator.iter_errors(document)) == []


@pytest.mark.parametrize(
    ("document", "where"),
    [
        ({"android": {"sight": {"range": 6}}}, ["android", "sight"]),
        ({"android": {"cargoCapcity": 6}}, ["android"]),
        ({"wrld": {}}, []),
        ({"buildings": {"depot": {"cost": {"gold": 1}}}}, ["buildings", "depot", "cost"]),
        (
            {"buildings": {"processor": {"conversion": [{"inputs": {"ore": 2}}]}}},
            ["buildings", "processor", "conversion", 0],
        ),
        ({"world": {"width": 1}}, ["world", "width"]),
        ({"android": {"cargoCapacity": "6"}}, ["android", "cargoCapacity"]),
    ],
    ids=[
        "partial-sight",
        "unknown-android-key",
        "unknown-group",
        "unknown-material",
        "partial-conversion",
        "too-narrow",
        "string-number",
    ],
)
def test_schema_rejects(validator, document, where) -> None:
    errors = list(validator.iter_errors(document))
    assert errors, document
    assert any(list(e.absolute_path) == where for e in errors), [
        (list(e.absolute_path), e.message) for e in errors
    ]
