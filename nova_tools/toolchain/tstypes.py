"""Pydantic annotations as TypeScript types, written once for every generated TypeScript file.

The android typings (:mod:`nova_tools.toolchain.typings`, ``typings/nova.d.ts``) and the lab's page
types (``nova_tools.lab.typegen``) both turn the same models into TypeScript; they differ only in how
they declare a model and in two spellings (a named literal union, a map), which are hooks here.

>>> from typing import Literal
>>> from pydantic import BaseModel
>>> class Seat(BaseModel):
...     player: str
...     seat: int | float | None
...     side: Literal["north", "south"]
>>> types = TypeScriptTypes()
>>> types.type(list[Seat]), [types.type(f.annotation) for f in Seat.model_fields.values()]
('Seat[]', ['string', 'number | null', "'north' | 'south'"])
>>> types.models == [Seat]
True
"""

from __future__ import annotations

import enum
import json
import types
import typing
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel


def ts_string(value: str) -> str:
    """A TypeScript string literal: ``'it\\'s'``."""
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


class TypeScriptTypes:
    """Renders annotations; every model met on the way is named and kept in ``models`` (first-use
    order), so the caller can declare each one after."""

    def __init__(self) -> None:
        self.models: list[type[BaseModel]] = []
        self.names: dict[str, type[BaseModel]] = {}

    def model(self, cls: type[BaseModel]) -> str:
        name = cls.__name__
        if name in self.names and self.names[name] is not cls:
            raise ValueError(
                f"two models are both called {name!r} ({self.names[name].__module__}, {cls.__module__})"
            )
        if name not in self.names:
            self.names[name] = cls
            self.models.append(cls)
        return name

    def type(self, annotation: Any) -> str:
        origin = get_origin(annotation)
        if origin is Annotated:
            base, *meta = get_args(annotation)
            for item in meta:  # a field that declares its own JSON schema (api's event lines)
                schema = getattr(item, "json_schema", None)
                if schema == {"additionalProperties": True, "type": "object"}:
                    return self.mapping(str, Any)
            return self.type(base)
        if annotation is type(None) or annotation is None:
            return "null"
        if annotation is str or (isinstance(annotation, type) and issubclass(annotation, Path)):
            return "string"
        if annotation in (int, float):
            return "number"
        if annotation is bool:
            return "boolean"
        if annotation is Any:
            return "unknown"
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return self.model(annotation)
        if origin is Literal:
            return self.literal(get_args(annotation))
        if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
            return self.literal(tuple(member.value for member in annotation))
        if origin in (Union, types.UnionType):
            return " | ".join(
                dict.fromkeys(self.type(a) for a in get_args(annotation))
            )  # int | float: number
        if origin in (list, tuple, typing.Sequence) or annotation in (list,):
            items = [a for a in get_args(annotation) if a is not Ellipsis]
            inner = self.type(items[0]) if items else "unknown"
            return f"({inner})[]" if "|" in inner else f"{inner}[]"
        if origin is dict:
            key, value = get_args(annotation)
            return self.mapping(key, value)
        alias_type = getattr(typing, "TypeAliasType", None)  # `type X = ...`, from Python 3.12
        if alias_type is not None and isinstance(annotation, alias_type):
            aliased: Any = annotation
            return self.type(aliased.__value__)
        raise TypeError(f"no TypeScript type for {annotation!r}")

    # --- the spellings a generated file may choose ------------------------------------------------

    def literal(self, values: tuple) -> str:
        return " | ".join(ts_string(v) if isinstance(v, str) else json.dumps(v) for v in values)

    def mapping(self, key: Any, value: Any) -> str:
        return f"Record<string, {self.type(value)}>"


__all__ = ["TypeScriptTypes", "ts_string"]
