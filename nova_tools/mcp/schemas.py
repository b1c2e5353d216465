"""The lean tool list: what ``tools/list`` shows of each tool's schemas, and the full result
schemas as one resource.

An agent holds the whole tool list in its context on every turn, so it is kept small
(under 20,000 characters, pinned by tests/mcp/test_tools_snapshot.py):

- an output schema is an object named by its result model's ``title``; its fields, their types
  and what each means are in the resource below, and the tool's description says what it
  returns. Measured on the 18 tools of issue 22: the full schemas cost 42,000 characters of the
  list, field names with their JSON types 5,500, the always-present names 2,000, the titles 900
  (the league's 3 tools then took the list from 19,800 to 23,500 with names listed). Every structured result still validates against it (it is a loosening
  of the full schema, never a different shape);
- the full schemas, every field described, nested shapes included, are the resource
  ``nova://schemas/results.json``: one ``$defs`` entry per result model, shared by every tool
  (``#/$defs/Status``), read only when an agent needs a field's meaning;
- an input schema keeps every argument and its description, without pydantic's repeated titles
  (``"title": "Game"`` beside ``game``) and without ``null`` among an optional argument's types.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel


def output_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The compact output schema of a result model (see the module's docstring)."""
    return {"type": "object", "title": model.__name__}


def _lean(schema: Any) -> Any:
    if isinstance(schema, list):
        return [_lean(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _lean(v) for k, v in schema.items() if k != "title"}
    if out.get("additionalProperties") is True:  # the default
        del out["additionalProperties"]
    options = out.get("anyOf")
    if isinstance(options, list) and len(options) == 2 and {"type": "null"} in options:
        [other] = [o for o in options if o != {"type": "null"}]
        if isinstance(other.get("type"), str):
            del out["anyOf"]
            out = {**other, "type": [other["type"], "null"], **out}
    default = out.get("default", ...)
    if default is None or (default is False and out.get("type") == "boolean"):
        del out["default"]  # an optional value is absent, an optional flag off, unless given
    return out


def _optional_without_null(schema: dict[str, Any]) -> None:
    """An optional argument is left out, not sent as null: its type need not say null."""
    required = set(schema.get("required", ()))
    for name, field in schema.get("properties", {}).items():
        kind = field.get("type")
        if name not in required and isinstance(kind, list) and "null" in kind:
            rest = [k for k in kind if k != "null"]
            field["type"] = rest[0] if len(rest) == 1 else rest
        options = field.get("anyOf")
        if name not in required and isinstance(options, list) and {"type": "null"} in options:
            rest = [o for o in options if o != {"type": "null"}]
            if len(rest) == 1:
                del field["anyOf"]
                field.update(rest[0])
            else:
                field["anyOf"] = rest


def input_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """An input schema without repeated titles; an optional argument's type without null (the
    server still takes null for one)."""
    lean = _lean(schema)
    _optional_without_null(lean)
    for definition in lean.get("$defs", {}).values():
        definition.pop("description", None)  # the argument that takes it says what it is
        if definition.get("additionalProperties") is False:  # the server refuses others anyway
            del definition["additionalProperties"]
        _optional_without_null(definition)
    return lean


def results_document(models: Iterable[type[BaseModel]]) -> str:
    """Every result model's full JSON Schema, field descriptions included, under ``$defs``."""
    defs: dict[str, Any] = {}
    for model in models:
        schema = model.model_json_schema(by_alias=True, ref_template="#/$defs/{model}")
        for name, definition in [*schema.pop("$defs", {}).items(), (model.__name__, schema)]:
            if defs.setdefault(name, definition) != definition:
                raise ValueError(f"two result models are both called {name!r}: rename one")
    document = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "What the Nova MCP tools return",
        "description": "Each tool's outputSchema has the title of its result here.",
        "$defs": dict(sorted(defs.items())),
    }
    return json.dumps(document, indent=1, ensure_ascii=False)
