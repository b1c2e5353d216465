"""One walk over the rules models: what lives at a JSON path, and every rule in order.

The rules are typed pydantic models (:mod:`nova_tools.rules.models`); loading (merging a rules
file over the defaults), the editor's hover and completion, and the reference docs all need to
follow those models by JSON path: through a group's fields (by their camelCase alias), into the
entries of a keyed dict (``buildings.depot``) and the items of a list (``conversion[0]``). This
module does that once.

>>> node = node_at(("android", "cargoCapacity"))
>>> node.dotted, type_label(node.annotation), node.default
('rules.android.cargoCapacity', 'integer', 12)
>>> node_at(("android", "noSuchRule")) is None
True
>>> [entry.dotted for entry in reference()][:3]
['rules.world', 'rules.world.width', 'rules.world.height']
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from .models import Leaf, Rules

JsonPath = tuple[str | int, ...]

MISSING = object()  # a path with no value (e.g. a pod material the defaults do not roll)


# --- annotations ----------------------------------------------------------------------------------


def unwrap_optional(annotation: object) -> tuple[object, bool]:
    """``X | None`` -> ``(X, True)``; anything else -> ``(annotation, False)``."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return annotation, False


def model_in(annotation: object) -> type[BaseModel] | None:
    """The pydantic model a field holds, looking through ``X | None``."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        for arg in typing.get_args(annotation):
            if (found := model_in(arg)) is not None:
                return found
    return None


def dict_value_model(annotation: object) -> type[BaseModel] | None:
    """For ``dict[K, Model]``: the model of its entries."""
    if typing.get_origin(annotation) is dict:
        return model_in(typing.get_args(annotation)[1])
    return None


def list_item_model(annotation: object) -> type[BaseModel] | None:
    """For ``list[Model]``: the model of its items."""
    if typing.get_origin(annotation) is list:
        return model_in(typing.get_args(annotation)[0])
    return None


def fields_by_alias(model: type[BaseModel]) -> dict[str, str]:
    """A model's JSON keys (aliases) -> its field names."""
    return {(f.alias or name): name for name, f in model.model_fields.items()}


def keys_of(annotation: object) -> tuple[str, ...]:
    """The keys an object of this type may hold: a model's fields, or a dict's literal keys."""
    annotation, _ = unwrap_optional(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return tuple(fields_by_alias(annotation))
    if typing.get_origin(annotation) is dict:
        key_type = typing.get_args(annotation)[0]
        if typing.get_origin(key_type) is typing.Literal:
            return tuple(str(a) for a in typing.get_args(key_type))
    return ()


def type_label(annotation: object) -> str:
    """What a rule holds, in a word or two: ``integer``, ``number or null``, ``group``, ``leaf
    value, given whole``, ``entries by id``, ``list``, or the literal values it may take."""
    annotation, optional = unwrap_optional(annotation)
    suffix = " or null" if optional else ""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
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
    named = names.get(annotation) if isinstance(annotation, type) else None
    return (named or str(getattr(annotation, "__name__", annotation))) + suffix


def model_doc(model: type[BaseModel]) -> str:
    """A model's docstring on one line."""
    return " ".join((model.__doc__ or "").split())


# --- values -----------------------------------------------------------------------------------------


def tidy(value: object) -> object:
    """Whole floats as integers (a float rule of 10 reads ``10``, as the rulebook writes it)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: tidy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [tidy(v) for v in value]
    return value


def value_at(value: object, path: JsonPath) -> object:
    """The JSON value at ``path`` inside ``value``, or :data:`MISSING`."""
    for part in path:
        if isinstance(value, dict) and isinstance(part, str) and part in value:
            value = value[part]
        elif isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
            value = value[part]
        else:
            return MISSING
    return value


@lru_cache(maxsize=1)
def default_json() -> dict[str, Any]:
    """The shipped rules as JSON (by alias)."""
    return Rules().model_dump(by_alias=True, mode="json")


def dotted(path: JsonPath) -> str:
    """``("buildings", "depot", "cost")`` -> ``rules.buildings.depot.cost`` (list items as ``[i]``)."""
    out = "rules"
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


# --- the walk -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Node:
    """What lives at a JSON path of the rules: its annotation, description and default."""

    path: JsonPath
    annotation: object  # the type it holds (``X | None`` kept)
    description: str  # the field's description (or, for a model without one, the model's docstring)

    @property
    def dotted(self) -> str:
        return dotted(self.path)

    @property
    def default(self) -> object:
        """The shipped value (JSON), or :data:`MISSING`."""
        return value_at(default_json(), self.path)

    @property
    def model(self) -> type[BaseModel] | None:
        """The group or leaf model at this path, if it holds one."""
        return model_in(self.annotation)


def step(node: Node, part: str | int) -> Node | None:
    """The node one step below ``node``: a field of a model, an entry of a keyed dict, an item of
    a list; None when there is nothing there."""
    current, _ = unwrap_optional(node.annotation)
    path = node.path + (part,)
    if isinstance(current, type) and issubclass(current, BaseModel):
        name = fields_by_alias(current).get(str(part))
        if name is None:
            return None
        field = current.model_fields[name]
        inner, _ = unwrap_optional(field.annotation)
        description = field.description or ""
        if (
            isinstance(inner, type)
            and issubclass(inner, BaseModel)
            and inner.__doc__
            and not description
        ):
            description = model_doc(inner)
        return Node(path, field.annotation, description)
    if typing.get_origin(current) is dict:
        key_type, value_type = typing.get_args(current)
        if typing.get_origin(key_type) is typing.Literal and part not in typing.get_args(key_type):
            return None
        inner, _ = unwrap_optional(value_type)
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            return Node(path, value_type, f"{part}: {model_doc(inner)}")
        return Node(path, value_type, str(part))
    if typing.get_origin(current) is list:
        if not isinstance(part, int):
            return None
        item = typing.get_args(current)[0]
        inner, _ = unwrap_optional(item)
        return Node(
            path,
            item,
            model_doc(inner) if isinstance(inner, type) and issubclass(inner, BaseModel) else "",
        )
    return None


ROOT = Node((), Rules, model_doc(Rules))


@lru_cache(maxsize=512)
def node_at(path: JsonPath) -> Node | None:
    """The node at a JSON path (``()`` is the whole rules object), or None when no rule lives there."""
    node = ROOT
    for part in path:
        found = step(node, part)
        if found is None:
            return None
        node = found
    return node


def nodes_along(path: JsonPath) -> Iterator[Node]:
    """The nodes from the top down to ``path`` (as far as the path leads to rules)."""
    node = ROOT
    for part in path:
        found = step(node, part)
        if found is None:
            return
        node = found
        yield node


# --- the reference ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RuleEntry:
    """One rule for the reference docs: where it is, what it holds, its default, what it means,
    and the top-level group it belongs to (``world``, ``android``, ``buildings`` ...)."""

    path: JsonPath
    type: str
    default: object  # JSON, or MISSING
    description: str
    group: str

    @property
    def dotted(self) -> str:
        return dotted(self.path)


def reference(within: JsonPath = ()) -> Iterator[RuleEntry]:
    """Every rule below ``within`` (default: all of them), depth first in the models' field
    order: groups, then their fields; keyed entries in the order the defaults list them; a
    leaf value is one rule (its fields are listed below it, as the docs show them)."""
    start = node_at(within)
    if start is None:
        raise KeyError(f"there is no rule at {dotted(within)}")
    yield from _entries(start, descend=True) if within else _children(start)


def _children(node: Node) -> Iterator[RuleEntry]:
    current, _ = unwrap_optional(node.annotation)
    if isinstance(current, type) and issubclass(current, BaseModel):
        parts: list[str | int] = list(fields_by_alias(current))
    elif typing.get_origin(current) is dict:
        default = node.default
        parts = list(default) if isinstance(default, dict) else list(keys_of(current))
    elif typing.get_origin(current) is list:
        default = node.default
        parts = list(range(len(default))) if isinstance(default, list) else []
    else:
        parts = []
    for part in parts:
        child = step(node, part)
        if child is not None:
            yield from _entries(child, descend=True)


def _entries(node: Node, *, descend: bool) -> Iterator[RuleEntry]:
    yield RuleEntry(
        node.path, type_label(node.annotation), node.default, node.description, str(node.path[0])
    )
    if descend:
        yield from _children(node)
