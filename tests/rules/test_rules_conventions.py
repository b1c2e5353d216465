def test_a_schema_reference_for_editors_is_not_a_rule():
    import json

    import jsonschema

    from nova_tools.rules import loads
    from nova_tools.rules.schema import rules_schema

    text = '{ "$schema": "../schemas/rules.schema.json", "android": { "cargoCapacity": 6 } }'
    assert loads(text).android.cargo_capacity == 6
    jsonschema.Draft202012Validator(rules_schema()).validate(json.loads(text))


def test_shipped_defaults_and_an_empty_rules_file_are_the_same_json():
    from nova_tools.rules import Rules, resolve

    assert Rules().to_json() == resolve({}).to_json()
    assert isinstance(Rules().android.failed_turn_health_penalty, float)
