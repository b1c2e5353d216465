"""The JSON Schema of a rules file, generated from the models (``schemas/rules.schema.json``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .models import Rules

SCHEMA_ID = "https://nova.invalid/schemas/rules.schema.json"
SCHEMA_PATH = Path(__file__).resolve().parents[2] / "schemas" / "rules.schema.json"


def rules_schema() -> dict[str, Any]:
    """The schema a rules file must satisfy on its own: every group optional, every leaf whole,
    no unknown keys."""
    schema = Rules.model_json_schema(by_alias=True, mode="validation")
    schema["properties"] = {
        "$schema": {
            "type": "string",
            "description": "The schema this file follows (for editors); not a rule.",
        },
        **schema["properties"],
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Nova rules file",
        **schema,
    }


def render_schema() -> str:
    return json.dumps(rules_schema(), indent=2, sort_keys=False) + "\n"


def main() -> None:  # python -m nova_tools.rules.schema [--write]
    import sys

    text = render_schema()
    if "--write" in sys.argv:
        SCHEMA_PATH.parent.mkdir(parents=True, exist_ok=True)
        SCHEMA_PATH.write_text(text, encoding="utf-8")
        print(f"wrote {SCHEMA_PATH.name}")
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
