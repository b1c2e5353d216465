"""Resolving a rules file: parse (JSONC), merge over the defaults, validate.

Groups merge deeply; a leaf value object replaces the default whole, so a partial one is an
error rather than a shape silently inherited from the default. Every problem names its JSON path.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path as FsPath
from typing import Any

from pydantic import BaseModel, ValidationError

from ..errors import NovaError
from . import budgets, jsonc
from .models import Group, Leaf, Rules
from .walk import (
    JsonPath,
    default_json,
    dict_value_model,
    fields_by_alias,
    list_item_model,
    model_in,
)


@dataclass(frozen=True)
class RuleProblem:
    """One thing wrong with a rules file."""

    path: JsonPath
    message: str

    @property
    def dotted(self) -> str:
        return format_path(self.path)

    def __str__(self) -> str:
        return f"{self.dotted}: {self.message}" if self.path else self.message


class RulesError(NovaError, ValueError):
    """A rules file that cannot be used; ``problems`` lists every reason with its JSON path."""

    def __init__(self, problems: list[RuleProblem], source: str = "rules") -> None:
        self.problems = problems
        self.source = source
        first = problems[0]
        more = (
            f" (and {len(problems) - 1} more problem{'s' if len(problems) > 2 else ''})"
            if len(problems) > 1
            else ""
        )
        super().__init__(f"{source}: {first}{more}")


def format_path(path: JsonPath) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def merge(
    model: type[BaseModel], defaults: dict[str, Any], override: object, path: JsonPath = ()
) -> object:
    """Deep-merge ``override`` into ``defaults`` (both JSON, by alias) following ``model``'s shape.

    Groups merge key by key; leaves, lists and scalars are replaced whole. Unknown keys are kept so
    that validation reports them with their path.
    """
    if not isinstance(override, dict):
        return override
    result = dict(defaults)
    plan = _merge_plan(model)
    for key, value in override.items():
        how = plan.get(key)
        if how is None:
            result[key] = value
            continue
        group, keyed = how
        if group is not None and isinstance(value, dict) and isinstance(defaults.get(key), dict):
            result[key] = merge(group, defaults[key], value, path + (key,))
        elif keyed and isinstance(value, dict) and isinstance(defaults.get(key), dict):
            result[key] = {**defaults[key], **value}  # keyed entries: each entry given whole
        else:
            result[key] = value
    return result


@cache
def _merge_plan(model: type[BaseModel]) -> dict[str, tuple[type[Group] | None, bool]]:
    """How :func:`merge` treats each JSON key of a model: the group it holds (merged key by key;
    None if it holds none) and whether it holds keyed entries (``dict[K, Model]``). Read from the
    model's fields once: every game file's load merges its stored rules (a tenth of opening one
    went into asking the annotations again)."""
    plan: dict[str, tuple[type[Group] | None, bool]] = {}
    for key, name in fields_by_alias(model).items():
        annotation = model.model_fields[name].annotation
        sub = model_in(annotation)
        plan[key] = (
            sub if sub is not None and issubclass(sub, Group) else None,
            dict_value_model(annotation) is not None,
        )
    return plan


def _leaf_at(path: JsonPath) -> type[Leaf] | None:
    """The leaf model a JSON path points into, if any (for clearer messages)."""
    model: type[BaseModel] | None = Rules
    for part in path:
        if model is None or isinstance(part, int):
            return None
        name = fields_by_alias(model).get(str(part))
        if name is None:
            # a key of a dict[..., Model] field
            return None
        annotation = model.model_fields[name].annotation
        model = model_in(annotation) or dict_value_model(annotation) or list_item_model(annotation)
        if model is not None and issubclass(model, Leaf):
            return model
    return None


def _shown(value: object) -> str:
    """A rule's value as a message quotes it: a 400-digit number or a megabyte of text is clipped."""
    shown = repr(value)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _problems(error: ValidationError) -> list[RuleProblem]:
    problems = []
    for item in error.errors(include_url=False):
        loc = tuple(item["loc"])
        kind = item["type"]
        if kind == "missing":
            parent, key = loc[:-1], loc[-1]
            leaf = _leaf_at(parent)
            name = leaf.__name__[0].lower() + leaf.__name__[1:] if leaf else ""
            what = (
                f"{'an' if name[:1] in ('a', 'e', 'i', 'o', 'u') else 'a'} {name}"
                if leaf
                else "this value"
            )
            message = f"{what} is given whole or not at all: '{key}' is missing"
            problems.append(RuleProblem(parent, message))
        elif kind == "extra_forbidden":
            problems.append(
                RuleProblem(loc, "unknown key (check the spelling against the rules schema)")
            )
        elif kind in ("literal_error", "enum"):
            problems.append(RuleProblem(loc, item["msg"].replace("Input should be", "expected")))
        else:
            message = (
                item["msg"].replace("Input should be", "expected").replace("Value error, ", "")
            )
            problems.append(
                RuleProblem(
                    loc,
                    f"{message} (got {_shown(item.get('input'))})"
                    if "input" in item and not isinstance(item.get("input"), (dict, list))
                    else message,
                )
            )
    return problems


def default_rules_json() -> dict[str, Any]:
    """The shipped rules as JSON (cached: the defaults are immutable and dumping them is not free)."""
    return default_json()


def resolve(override: object, source: str = "rules", *, stored: bool = False) -> Rules:
    """The resolved rules for a parsed rules object (``{}`` is the shipped game).

    New rules must keep the clock out of every turn (``budgets.clock_problem``); ``stored``
    rules, those a game was already created with, are taken as they are, so an existing game
    goes on under the rules it was played with."""
    if not isinstance(override, dict):
        raise RulesError(
            [RuleProblem((), f"a rules file holds one JSON object, not {type(override).__name__}")],
            source,
        )
    if isinstance(override.get("$schema"), str):
        # editors use "$schema" to find the schema; it is not a rule
        override = {k: v for k, v in override.items() if k != "$schema"}
    merged = merge(Rules, default_rules_json(), override)
    try:
        rules = Rules.model_validate(merged)
    except ValidationError as error:
        raise RulesError(_problems(error), source) from None
    script = rules.script
    problem = (
        None if stored else budgets.clock_problem(script.fuel, script.memory, script.timeout_ms)
    )
    if problem is not None:
        # name what the file changed: the budget it raised, or the timeout it lowered
        given = override.get("script")
        given = given if isinstance(given, dict) else {}
        raised = [k for k in ("fuel", "memory") if k in given]
        field = raised[0] if raised and "timeoutMs" not in given else "timeoutMs"
        raise RulesError([RuleProblem(("script", field), problem)], source)
    return rules


def parse_text(text: str, source: str = "rules") -> jsonc.Parsed:
    try:
        return jsonc.parse(text)
    except jsonc.JsoncError as error:
        raise RulesError([RuleProblem((), f"not valid JSON: {error}")], source) from None


def loads(text: str, source: str = "rules") -> Rules:
    """Resolve rules from JSON-with-comments text."""
    return resolve(parse_text(text, source).value, source)


def read_file(path: str | FsPath) -> object:
    """A rules file's JSON value (JSON with comments), before any default is merged in; a file
    that is missing, unreadable or not JSON raises :class:`RulesError` naming it."""
    path = FsPath(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RulesError([RuleProblem((), "no such file")], str(path)) from None
    except (OSError, UnicodeDecodeError) as error:
        raise RulesError(
            [RuleProblem((), f"cannot be read ({error.__class__.__name__})")], str(path)
        ) from None
    return parse_text(text, str(path)).value


def load(path: str | FsPath) -> Rules:
    """Resolve rules from a file; any problem raises :class:`RulesError` naming the file and path."""
    return resolve(read_file(path), str(path))
