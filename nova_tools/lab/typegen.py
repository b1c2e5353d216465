"""The page's TypeScript types, generated from the models the lab's JSON comes from.

Never written by hand: each ``export interface`` is one pydantic model, either an api result
(:mod:`nova_tools.api.results`, whose ``to_json()`` the endpoints pass through) or one of the
lab's own (:mod:`nova_tools.lab.wire`), field by field with its JSON name. A field that may be
null is ``name?: T | null`` in an answer (it may be left out), and a request's field with a
default is optional. The page is type-checked against
this file, so a change in an api result that the page does not follow breaks the build, and a test
fails when the committed file differs from the models.

``python -m nova_tools.lab.typegen`` prints it, ``--write`` updates it, ``--check`` fails when it is
stale (``python -m nova_tools.lab.build`` writes it before bundling).
"""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import Union, get_args, get_origin

from pydantic import BaseModel

from .. import api
from ..arena import league as leagues
from ..limits import BUILDING_LETTERS, NOTES
from ..rules import Rules
from ..toolchain.tstypes import TypeScriptTypes
from . import wire

TYPES_FILE = Path(__file__).resolve().parent / "web" / "src" / "generated" / "api.ts"

#: The api results the page reads (the models they hold are found from these).
API_MODELS: tuple[type[BaseModel], ...] = (
    api.Timeline,
    api.AndroidMoment,
    api.Status,
    api.EventsPage,
    api.GameSummary,
    leagues.LeagueTable,  # the League page: the table, and an entry's games
    leagues.LeagueGames,
    Rules,  # the game's rules (the page scales its bars by them)
)

HEADER = """\
// api.ts: the types of the JSON the lab's endpoints answer with.
//
// GENERATED from nova_tools.api's result models and nova_tools.lab.wire by nova_tools.lab.typegen.
// Do not edit: run `python -m nova_tools.lab.build` (or `python -m nova_tools.lab.typegen --write`).
"""


class _Renderer(TypeScriptTypes):
    """The page's spellings are the shared ones (maps as ``Record<string, T>``)."""

    def interface(self, cls: type[BaseModel]) -> list[str]:
        doc = (cls.__doc__ or "").strip()
        lines = (
            [f"/** {' '.join(doc.split())} */"]
            if doc and cls.__doc__ is not BaseModel.__doc__
            else []
        )
        fields = cls.model_fields
        shown = getattr(cls, "json_fields", None)
        lines.append(f"export interface {cls.__name__} {{")
        for name, field in fields.items():
            if shown is not None and name not in shown:
                continue
            key = field.alias or name
            annotation = field.annotation
            nullable = get_origin(annotation) in (Union, types.UnionType) and type(
                None
            ) in get_args(annotation)
            # an answer may leave out a null (Status.match); a request may leave out any default
            optional = not field.is_required() and (nullable or issubclass(cls, wire.Request))
            lines.append(f"  {key}{'?' if optional else ''}: {self.type(annotation)};")
        lines.append("}")
        return lines


def render() -> str:
    renderer = _Renderer()
    for cls in (*API_MODELS, *wire.WIRE_MODELS):
        renderer.model(cls)
    parts = [HEADER]
    done = 0
    while done < len(renderer.models):  # rendering a model may find more
        parts.append("\n".join(renderer.interface(renderer.models[done])) + "\n")
        done += 1
    parts.append(_constants())
    return "\n".join(parts)


def _constants() -> str:
    """The shared facts the page draws with (``nova_tools.limits``), so it never copies them."""
    letters = ", ".join(f"{key}: {json.dumps(value)}" for key, value in BUILDING_LETTERS.items())
    return (
        "/** The letter each building type is drawn with, on every board. */\n"
        f"export const BUILDING_LETTERS: Record<string, string> = {{ {letters} }};\n"
        "/** The action fields in which an android keeps its notes. */\n"
        f"export const NOTES: readonly string[] = {json.dumps(list(NOTES))};\n"
    )


def stale() -> bool:
    try:
        return TYPES_FILE.read_text(encoding="utf-8") != render()
    except OSError:
        return True


def write() -> bool:
    """Write the types file; True when it changed."""
    text = render()
    if TYPES_FILE.is_file() and TYPES_FILE.read_text(encoding="utf-8") == text:
        return False
    TYPES_FILE.parent.mkdir(parents=True, exist_ok=True)
    TYPES_FILE.write_text(text, encoding="utf-8", newline="\n")
    return True


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--write" in argv:
        print(f"wrote {TYPES_FILE}" if write() else f"{TYPES_FILE} is up to date")
        return 0
    if "--check" in argv:
        if stale():
            print(
                f"{TYPES_FILE} differs from the models: run `python -m nova_tools.lab.build`",
                file=sys.stderr,
            )
            return 1
        return 0
    sys.stdout.write(render())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
