"""Generate ``nova.d.ts``, the TypeScript typings an android is written against.

Never written by hand: everything comes from the pydantic models, field by field —
:class:`nova_tools.rules.models.Rules` (the ``rules`` global) and :mod:`nova_tools.engine.wire`
(the ``world`` global and the ``Action`` a turn returns). Every property carries a JSDoc comment
made of the model's description and, for rules, the shipped default (``@default 12``), so an
editor's hover teaches the game.

The file is a global script (no top-level ``import``/``export``), so a bare ``.ts`` file that is
checked together with it sees the globals ``androidId``, ``world``, ``rules``, ``turn`` and
``finalTurn`` and the types ``Action``, ``AndroidTurn``, ``World`` ...

Two kinds of model are rendered differently:

* **rules** models describe the *resolved* rules a script receives: every field is present, and a
  field that may be null is typed ``T | null``;
* **wire** models describe JSON the engine builds sparsely (``world``) or accepts (``Action``): a
  field whose default is None is simply left out, so it is typed ``name?: T``.

Run ``python -m nova_tools.toolchain.typings`` to print the typings, ``--write`` to update
``typings/nova.d.ts`` (and the copy shipped in the package), ``--check`` to fail when they are
stale. ``nova generate`` does the same.
"""

from __future__ import annotations

import functools
import inspect
import json
import operator
import sys
import types
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic_core import PydanticUndefined, to_jsonable_python

from .paths import PACKAGED_TYPINGS, REPO_TYPINGS
from .tstypes import TypeScriptTypes, ts_string

TYPINGS_FILES = (REPO_TYPINGS, PACKAGED_TYPINGS)

REGENERATE_HINT = (
    "regenerate it with `nova generate` (or `python -m nova_tools.toolchain.typings --write`)"
)


def _named_literals() -> dict[frozenset, tuple[str, tuple[str, ...], str]]:
    """Literal unions that get a type name of their own: value set -> (name, values, doc)."""
    from ..engine import wire
    from ..rules import models

    named = [
        (
            "Direction",
            wire.Direction,
            "A compass direction: north is y - 1, south y + 1, east x + 1, west x - 1.",
        ),
        (
            "Material",
            models.Material,
            "A material id: the key of a material in cargo, storage and costs.",
        ),
        (
            "BuildingType",
            models.BuildingType,
            "A building type id: the key of its entry in rules.buildings.",
        ),
        (
            "CompositionKind",
            models.CompositionKind,
            "A kind of ground composition (see Tile.composition).",
        ),
    ]
    return {frozenset(get_args(lit)): (name, get_args(lit), doc) for name, lit, doc in named}


def _doc(lines: list[str], indent: str = "") -> list[str]:
    text = [line.replace("*/", "*\\/") for line in lines if line is not None]
    while text and not text[-1].strip():
        text.pop()
    if not text:
        return []
    if len(text) == 1:
        return [f"{indent}/** {text[0]} */"]
    return (
        [f"{indent}/**"] + [f"{indent} *{(' ' + t) if t else ''}" for t in text] + [f"{indent} */"]
    )


def _literal(value: Any) -> str:
    """A default value as a compact JS literal (``100.0`` prints as ``100``)."""
    from ..rules.walk import tidy

    return json.dumps(tidy(value), separators=(", ", ": "), ensure_ascii=False)


class _Renderer(TypeScriptTypes):
    """The android typings' spellings: a named union for the ids listed in :func:`_named_literals`,
    and maps keyed by those ids written as mapped types (a key outside them is a type error)."""

    def __init__(self) -> None:
        super().__init__()
        self.named = _named_literals()
        self.used_literals: set[str] = set()

    def literal(self, values: tuple) -> str:
        if (entry := self.named.get(frozenset(values))) is not None and len(values) > 1:
            self.used_literals.add(entry[0])
            return entry[0]
        return super().literal(values)

    def mapping(self, key: Any, value: Any) -> str:
        if get_origin(key) is Literal:
            return f"{{ [K in {self.type(key)}]?: {self.type(value)} }}"
        return f"{{ [key: string]: {self.type(value)} }}"

    # --- declarations --------------------------------------------------------------------------

    def interface(self, cls: type[BaseModel]) -> list[str]:
        resolved = cls.__module__.endswith("rules.models")
        out = _doc(_paragraphs(cls.__doc__)) + [f"interface {cls.__name__} {{"]
        for name, field in cls.model_fields.items():
            key = field.alias or name
            annotation = field.annotation
            args = get_args(annotation)
            nullable = get_origin(annotation) in (Union, types.UnionType) and type(None) in args
            default = field.get_default(call_default_factory=True)
            has_default = default is not PydanticUndefined
            optional = False
            if nullable and not resolved and has_default and default is None:
                # Wire JSON leaves such a field out rather than sending null.
                optional = True
                rest = [a for a in args if a is not type(None)]
                annotation = functools.reduce(operator.or_, rest)
            ts = self.type(annotation)
            lines = _paragraphs(field.description or "")
            if not lines and get_origin(annotation) is Literal and len(get_args(annotation)) == 1:
                # An action's `type`: say what the action does, from its class doc.
                lines = [
                    f"Always {_ts_string(get_args(annotation)[0])}: "
                    + " ".join(_paragraphs(cls.__doc__))
                ]
            if not lines:
                raise ValueError(
                    f"{cls.__name__}.{name} has no description: give it Field(description=...)"
                )
            if has_default and (resolved or default is not None):
                lines += _default_lines(field.annotation, default)
            out += _doc(lines, "  ")
            out.append(f"  {_ts_key(key)}{'?' if optional else ''}: {ts};")
        out.append("}")
        return out


def _diff(value: Any, base: Any) -> Any:
    """The parts of ``value`` that differ from ``base`` (both JSON)."""
    if isinstance(value, dict) and isinstance(base, dict):
        return {k: _diff(v, base.get(k)) for k, v in value.items() if v != base.get(k)}
    return value


def _jsonable(value: Any) -> Any:
    """A default as JSON, with every ``Materials`` amount shown sparsely (zeros left out, as the
    Materials type documents)."""
    from ..rules.models import Materials

    if isinstance(value, Materials):
        return dict(value.items())
    if isinstance(value, BaseModel):
        return {
            (f.alias or name): _jsonable(getattr(value, name))
            for name, f in type(value).model_fields.items()
        }
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return to_jsonable_python(value)


def _default_lines(annotation: Any, default: Any) -> list[str]:
    """``@default`` for a property. An object-valued default is shown as what differs from its
    type's own defaults (each nested field documents its own), or not at all when nothing does."""
    value = _jsonable(default)
    if isinstance(default, BaseModel):
        try:
            base = _jsonable(type(default)())
        except Exception:  # the type has required fields: show the whole value
            base = None
        if base is not None:
            diff = _diff(value, base)
            if not diff:
                return []
            if diff != value:
                name = type(default).__name__
                return ["", f"@default {_literal(diff)} (every field not listed: as in {name})"]
    return ["", f"@default {_literal(value)}"]


def _paragraphs(text: str | None) -> list[str]:
    return inspect.cleandoc(text).splitlines() if text else []


_ts_string = ts_string


def _ts_key(key: str) -> str:
    return key if key.isidentifier() else _ts_string(key)


HEADER = """\
// nova.d.ts: the TypeScript typings of Project: Nova android scripts.
//
// GENERATED from nova_tools.rules.models (the `rules` global) and nova_tools.engine.wire (the
// `world` global and the Action a turn returns) by nova_tools.toolchain.typings. Do not edit:
// run `nova generate` (or `python -m nova_tools.toolchain.typings --write`).
//
// This is a global script, not a module: a bare .ts file checked together with it sees these
// globals and types without importing anything.
"""

GLOBALS = """\
/** The id of the android taking its turn now, e.g. 'android-3'. */
declare const androidId: string;
/**
 * The world as your android's owner sees it this turn: the visible tiles (plus the acting
 * android's own tile) and the androids, buildings and broadcasts on them. Fogged: what your
 * androids and sight buildings cannot see now is not here. Keep a map in memory if you need one.
 */
declare const world: World;
/** Every rule (number) of this game, resolved. Read these instead of copying numbers from the rulebook. */
declare const rules: Rules;
/** The round now being played, counting from 1. */
declare const turn: number;
/**
 * The round the humans are expected to land on (rules.match.finalRound), or undefined when no
 * arrival is scheduled. Nothing happens on that round; it is the deadline the colony is built to.
 */
declare const finalTurn: number | undefined;

/**
 * A script's turn function: its module's default export, called once per round; it returns
 * that round's action.
 *
 * @example
 * const act: AndroidTurn = () => ({ type: 'android.move', direction: 'east' });
 * export default act;
 * // (the rulebook names it `turn`; a module-level `turn` hides the round counter global)
 */
type AndroidTurn = () => Action;

/**
 * Printing for debugging: the lines come back with a dry-run (`nova dry-run`, the editor's
 * code lens, the MCP dry_run_turn tool). They are not kept in the game; write what the player
 * should read later into the android's `recording`.
 */
interface Console {
  log(...data: any[]): void;
  info(...data: any[]): void;
  warn(...data: any[]): void;
  error(...data: any[]): void;
  debug(...data: any[]): void;
}
// `var` and an interface, the shapes lib.dom uses, so an editor that adds the DOM library to a
// bare file merges the two declarations instead of reporting a redeclaration.
declare var console: Console;
"""


def render_typings() -> str:
    """The full text of ``nova.d.ts``, generated from the current models."""
    from ..engine import wire
    from ..rules.models import Rules

    r = _Renderer()
    action_names = [r.model(m) for m in wire.ACTION_MODELS]

    parts: list[str] = [HEADER, GLOBALS]
    parts.append(
        "\n".join(
            _doc(
                [
                    "What a turn function returns: one action, discriminated by `type`. Every action may also",
                    "carry `memory` and `recording`, which replace the android's own if the action is accepted;",
                    "a refused action is a failed turn (rules.android.failedTurnHealthPenalty health) and keeps",
                    "neither.",
                ]
            )
            + [
                "type Action =",
                *[f"  | {n}" for n in action_names[:-1]],
                f"  | {action_names[-1]};",
            ]
        )
        + "\n"
    )
    parts.append("/** The `type` of every action. */\ntype ActionType = Action['type'];\n")

    # Rendering an interface may discover more models; each root's family is rendered (breadth
    # first) before the next root's.
    done = 0
    for root in (None, wire.World, Rules):
        if root is not None:
            r.model(root)
        while done < len(r.models):
            parts.append("\n".join(r.interface(r.models[done])) + "\n")
            done += 1

    for key in sorted(r.named, key=lambda k: r.named[k][0]):
        name, values, doc = r.named[key]
        union = " | ".join(_ts_string(v) for v in values)
        parts.append("\n".join(_doc([doc]) + [f"type {name} = {union};"]) + "\n")
    return "\n".join(parts)


def stale_files(text: str | None = None) -> list[Path]:
    """The committed typings files that differ from :func:`render_typings` (or are missing)."""
    text = render_typings() if text is None else text
    stale = []
    for path in TYPINGS_FILES:
        if (
            path == REPO_TYPINGS
            and not REPO_TYPINGS.parent.parent.joinpath("pyproject.toml").is_file()
        ):
            continue  # not a source checkout: only the packaged copy exists
        try:
            current = path.read_text(encoding="utf-8")
        except OSError:
            current = None
        if current != text:
            stale.append(path)
    return stale


def write_typings() -> list[Path]:
    """Write ``typings/nova.d.ts`` and the packaged copy; return the files that changed."""
    text = render_typings()
    changed = stale_files(text)
    for path in changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
    return changed


def main(argv: list[str] | None = None) -> int:
    """``python -m nova_tools.toolchain.typings [--write | --check]``."""
    argv = sys.argv[1:] if argv is None else argv
    if "--write" in argv:
        changed = write_typings()
        for path in changed:
            print(f"wrote {path}")
        if not changed:
            print("typings are up to date")
        return 0
    if "--check" in argv:
        stale = stale_files()
        for path in stale:
            print(f"{path} is out of date: {REGENERATE_HINT}", file=sys.stderr)
        return 1 if stale else 0
    sys.stdout.write(render_typings())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
