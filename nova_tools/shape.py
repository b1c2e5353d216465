"""The base of every outward shape: a frozen pydantic model, snake_case in Python and camelCase
in JSON, whose ``to_json()`` is its documented JSON and whose schema has a description per field.

The api's results (:mod:`nova_tools.api.results`) and the arena's (:mod:`nova_tools.arena.results`)
derive from it; the MCP tools answer with them as they are, the lab's TypeScript types and the
MCP output schemas are generated from them. It sits below both, so neither imports the other.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel


def _without_field_titles(schema: dict[str, Any]) -> None:
    """Drop pydantic's automatic field titles ('Android Id' for androidId): they repeat the name
    and make every schema an agent or a front end reads longer."""
    for field in schema.get("properties", {}).values():
        field.pop("title", None)


class Result(BaseModel):
    # defer_build: a model's validator is built the first time it is used, not when this module is
    # imported, so a command pays only for the results it returns (nova status: three of them)
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        frozen=True,
        serialize_by_alias=True,
        defer_build=True,
        json_schema_extra=_without_field_titles,
    )

    # the fields ``to_json()`` gives, when the documented shape is a part of the result
    json_fields: ClassVar[set[str] | frozenset[str] | None] = None

    def to_json(self) -> dict[str, Any]:
        shown = None if self.json_fields is None else set(self.json_fields)
        return self.model_dump(mode="json", by_alias=True, include=shown)

    def wire(self) -> dict[str, Any]:
        """The whole result as the MCP tools give it: every field, except an optional one that
        is None (a required one that may be null stays, as null: the schema says it is there)."""
        data = self.model_dump(mode="json", by_alias=True)
        _prune(self, data)
        return data


def _prune(value: Any, data: Any) -> None:
    """Drop from ``data`` (``value`` dumped) the optional fields of every model that are None."""
    if isinstance(value, BaseModel) and isinstance(data, dict):
        for name, field in type(value).model_fields.items():
            key = field.alias or name
            if key not in data:
                continue
            inner = getattr(value, name)
            if inner is None and not field.is_required():
                del data[key]
            else:
                _prune(inner, data[key])
    elif isinstance(value, (list, tuple)) and isinstance(data, list):
        for item, dumped in zip(value, data, strict=True):
            _prune(item, dumped)
    elif isinstance(value, dict) and isinstance(data, dict):
        for key, item in value.items():
            if isinstance(key, str) and key in data:
                _prune(item, data[key])
