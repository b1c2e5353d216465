"""What a rule means, read off the models: the editor's hover and completion for ``rules.…`` in
scripts and for keys in rules files.

The descriptions are the ``Field`` descriptions of :mod:`nova_tools.rules.models` (the same text
the schema and the typings are generated from); defaults come from the models' defaults; the
action texts are the docstrings of the wire models in :mod:`nova_tools.engine.wire` (the source
of the typings' ``Action`` union). Nothing here knows a number or a rule of its own.
"""

from __future__ import annotations

import json
import re
import types as pytypes
import typing
from dataclasses import dataclass
from functools import lru_cache

from pydantic import BaseModel

from ..engine import wire
from ..rules import BUILDING_TYPES, Rules
from ..rules.loading import default_rules_json

JsonPath = tuple[str | int, ...]

MISSING = object()  # a path with no value (e.g. a pod material the defaults do not roll)


@dataclass(frozen=True)
class RuleDoc:
    path: JsonPath
    description: str
    type_label: str  # "integer", "number", "group", "leaf value", "entries", ...
    keys: tuple[str, ...]  # the keys an object at this path may hold (for completion)
    default: object  # JSON value, or MISSING

    @property
    def dotted(self) -> str:
        return dotted(self.path)


def dotted(path: JsonPath) -> str:
    out = "rules"
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _unwrap_optional(annotation: object) -> tuple[object, bool]:
    if typing.get_origin(annotation) in (typing.Union, pytypes.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return annotation, False


def _model_keys(model: type[BaseModel]) -> tuple[str, ...]:
    return tuple((f.alias or name) for name, f in model.model_fields.items())


def _doc(model: type[BaseModel]) -> str:
    return " ".join((model.__doc__ or "").split())


def _label(annotation: object) -> str:
    annotation, optional = _unwrap_optional(annotation)
    suffix = " or null" if optional else ""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        from ..rules.models import Leaf

        kind = "leaf value, given whole" if issubclass(annotation, Leaf) else "group"
        return f"{kind}{suffix}"
    origin = typing.get_origin(annotation)
    if origin is dict:
        return f"entries by id{suffix}"
    if origin is list:
        return f"list{suffix}"
    if origin is typing.Literal:
        return " | ".join(json.dumps(a) for a in typing.get_args(annotation)) + suffix
    names = {int: "integer", float: "number", bool: "boolean", str: "string"}
    return names.get(annotation, getattr(annotation, "__name__", str(annotation))) + suffix  # type: ignore[call-overload]


def _keys_of(annotation: object) -> tuple[str, ...]:
    annotation, _ = _unwrap_optional(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _model_keys(annotation)
    if typing.get_origin(annotation) is dict:
        key_type = typing.get_args(annotation)[0]
        if typing.get_origin(key_type) is typing.Literal:
            return tuple(str(a) for a in typing.get_args(key_type))
    return ()


def value_at(value: object, path: JsonPath) -> object:
    for part in path:
        if isinstance(value, dict) and isinstance(part, str) and part in value:
            value = value[part]
        elif isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
            value = value[part]
        else:
            return MISSING
    return value


@lru_cache(maxsize=512)
def lookup(path: JsonPath) -> RuleDoc | None:
    """The documentation of the rule at a JSON path (``()`` is the whole rules object), or None
    when no rule lives there."""
    annotation: object = Rules
    description = _doc(Rules)
    for part in path:
        current, _ = _unwrap_optional(annotation)
        if isinstance(current, type) and issubclass(current, BaseModel):
            by_alias = {(f.alias or name): f for name, f in current.model_fields.items()}
            field = by_alias.get(str(part))
            if field is None:
                return None
            annotation = field.annotation
            inner, _ = _unwrap_optional(annotation)
            description = field.description or ""
            if isinstance(inner, type) and issubclass(inner, BaseModel) and inner.__doc__ and not description:
                description = _doc(inner)
        elif typing.get_origin(current) is dict:
            key_type, value_type = typing.get_args(current)
            if typing.get_origin(key_type) is typing.Literal and part not in typing.get_args(key_type):
                return None
            annotation = value_type
            inner, _ = _unwrap_optional(value_type)
            description = f"{part}: {_doc(inner)}" if isinstance(inner, type) and issubclass(inner, BaseModel) else str(part)
        elif typing.get_origin(current) is list:
            if not isinstance(part, int):
                return None
            annotation = typing.get_args(current)[0]
            inner, _ = _unwrap_optional(annotation)
            description = _doc(inner) if isinstance(inner, type) and issubclass(inner, BaseModel) else ""
        else:
            return None
    return RuleDoc(path, description, _label(annotation), _keys_of(annotation), value_at(default_rules_json(), path))


def _tidy(value: object) -> object:
    """Whole floats as integers (a float rule of 10 reads ``10``, as the rulebook writes it)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _tidy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_tidy(v) for v in value]
    return value


def format_value(value: object, limit: int = 160) -> str:
    """A JSON value, compact, on one line."""
    if value is MISSING:
        return "(none)"
    text = json.dumps(_tidy(value), separators=(", ", ": "))
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- actions and building types ----------------------------------------------------------------


@dataclass(frozen=True)
class ActionDoc:
    type: str
    summary: str
    fields: tuple[tuple[str, bool, str], ...]  # (name, required, description)


@lru_cache(maxsize=1)
def _actions() -> dict[str, ActionDoc]:
    docs = {}
    for model in wire.ACTION_MODELS:
        action_type = typing.get_args(model.model_fields["type"].annotation)[0]
        fields = tuple(
            ((f.alias or name), f.is_required(), f.description or "")
            for name, f in model.model_fields.items()
            if name not in ("type", "memory", "recording")
        )
        docs[action_type] = ActionDoc(action_type, _doc(model), fields)
    return docs


def action_doc(action_type: str) -> ActionDoc | None:
    return _actions().get(action_type)


def is_building_type(name: str) -> bool:
    return name in BUILDING_TYPES


_RULE_MENTION = re.compile(r"rules\.([A-Za-z]+(?:\.[A-Za-z]+)*)")


def with_values(text: str, resolved: dict) -> str:
    """``"costs rules.android.moveBatteryCost battery"`` -> ``"costs rules.android.moveBatteryCost (1) battery"``:
    every scalar rule a text mentions, followed by its resolved value."""

    def add(match: re.Match) -> str:
        value = value_at(resolved, tuple(match.group(1).split(".")))
        if value is MISSING or isinstance(value, (dict, list)):
            return match.group(0)
        return f"{match.group(0)} ({format_value(value)})"

    return _RULE_MENTION.sub(add, text)
