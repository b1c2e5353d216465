"""What a rule means, read off the models: the editor's hover and completion for ``rules.…`` in
scripts and for keys in rules files.

The descriptions are the ``Field`` descriptions of :mod:`nova_tools.rules.models` (the same text
the schema and the typings are generated from); defaults come from the models' defaults; the
action texts are the docstrings of the wire models in :mod:`nova_tools.engine.wire` (the source
of the typings' ``Action`` union, read by ``api.action_docs``). Nothing here knows a number
or a rule of its own, and the rules models are walked by :mod:`nova_tools.rules.walk`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache

from ..api import ActionDoc, action_docs
from ..rules import BUILDING_TYPES
from ..rules.walk import (
    MISSING,
    JsonPath,
    dotted,
    keys_of,
    node_at,
    tidy,
    type_label,
    value_at,
)

__all__ = [
    "MISSING",
    "ActionDoc",
    "RuleDoc",
    "action_doc",
    "dotted",
    "format_value",
    "is_building_type",
    "lookup",
    "value_at",
    "with_values",
]


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


@lru_cache(maxsize=512)
def lookup(path: JsonPath) -> RuleDoc | None:
    """The documentation of the rule at a JSON path (``()`` is the whole rules object), or None
    when no rule lives there (the walk is :func:`nova_tools.rules.walk.node_at`)."""
    node = node_at(path)
    if node is None:
        return None
    return RuleDoc(
        path, node.description, type_label(node.annotation), keys_of(node.annotation), node.default
    )


def format_value(value: object, limit: int = 160) -> str:
    """A JSON value, compact, on one line."""
    if value is MISSING:
        return "(none)"
    text = json.dumps(tidy(value), separators=(", ", ": "))
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- actions and building types ----------------------------------------------------------------


@lru_cache(maxsize=1)
def _actions() -> dict[str, ActionDoc]:
    return {doc.type: doc for doc in action_docs()}


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
