"""Rules files: diagnostics at the offending key or value, hover docs per key, key completion.

A rules file is ``rules.json`` (the rulebook's name, and what ``nova new-android`` writes),
``NAME.nova-rules.json`` for more than one in a folder (``.jsonc`` for either), or any JSON file
whose ``$schema`` names ``rules.schema.json``. Not ``*.rules.json``: that is also Firebase's
``database.rules.json``. The VS Code extension's ``package.json`` says the same. Checking is :func:`nova_tools.rules.jsonc.parse` (which keeps the source
range of every key and value) plus :func:`nova_tools.rules.resolve` (whose problems carry JSON
paths): this module only maps one onto the other.

The functions here work on text and character offsets; the server converts to LSP positions.
The rules' models (and :mod:`..ruledocs`, which reads them) are imported by the functions that
use them, when a rules file is first checked: never while the server starts.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lsprotocol import types

from ..context import Document, DocumentKind, Feature
from ..plaintext import markdown_to_plain
from ..settings import SHIPPED_DEFAULTS
from ..textpos import LineIndex

if TYPE_CHECKING:
    from ...rules import Rules, jsonc
    from ...rules.loading import RuleProblem
    from ..ruledocs import RuleDoc

#: ``render_rule``'s "no value given" (ruledocs.MISSING, without importing it to say so)
_NO_VALUE = object()


def _without_schema(value: object) -> object:
    # "$schema" tells an editor which schema to validate with; it is not a rule.
    if isinstance(value, dict) and "$schema" in value:
        return {k: v for k, v in value.items() if k != "$schema"}
    return value


def resolve_text(text: str, source: str = "rules") -> Rules:
    """The resolved rules of a rules file's text; raises :class:`RulesError`."""
    from ...rules import resolve
    from ...rules.loading import parse_text

    return resolve(_without_schema(parse_text(text, source).value), source)


@dataclass(frozen=True)
class Problem:
    start: int
    end: int
    message: str


def _about_the_key(problem: RuleProblem) -> bool:
    # An unknown key, or a leaf object given in part, is the key's fault; a wrong value is the value's.
    return (
        problem.message.startswith("unknown key") or "given whole or not at all" in problem.message
    )


@functools.lru_cache(maxsize=4)
def parsed_of(text: str) -> jsonc.Parsed:
    """``jsonc.parse(text)``, kept for the last few texts: the diagnostics of an edit parse it, and
    each hover or completion on that version then reads the same parse (an 8 MB rules buffer took
    ~1-7 s to parse for every hover). Raises :class:`jsonc.JsoncError` (never kept)."""
    from ...rules import jsonc

    return jsonc.parse(text)


@functools.lru_cache(maxsize=4)
def index_of(text: str) -> LineIndex:
    """The text's line index, kept like :func:`parsed_of`."""
    return LineIndex(text)


def check(text: str) -> list[Problem]:
    """Every problem of a rules file, each at the exact source range of its key or value."""
    from ...rules import RulesError, jsonc, resolve
    from ...rules.loading import RuleProblem

    try:
        parsed = parsed_of(text)
    except jsonc.JsoncError as error:
        message = str(error).split(": ", 1)[-1]
        start = min(
            error.offset, max(len(text) - 1, 0)
        )  # at the end of the text: its last character
        return [Problem(start, min(start + 1, len(text)), f"not valid JSON: {message}")]
    try:
        resolve(_without_schema(parsed.value))
        return []
    except RulesError as error:
        problems = []
        for problem in error.problems:
            if problem.path and problem.path[-1] == "[key]":  # a key outside a fixed set of ids
                problem = RuleProblem(problem.path[:-1], f"unknown key: {problem.message}")
            if problem.path:
                start, end = parsed.range_of(problem.path, prefer_key=_about_the_key(problem))
            else:
                start, end = parsed.value_ranges.get((), (0, 0))
                end = min(end, start + 1)
            problems.append(Problem(start, end, str(problem)))
        return problems


# --- hover ----------------------------------------------------------------------------------------


def path_at(parsed: jsonc.Parsed, offset: int) -> tuple[tuple, tuple[int, int]] | None:
    """The JSON path whose key (or scalar value) is under the offset, with that range."""
    from .. import ruledocs

    best = None
    for ranges in (parsed.key_ranges, parsed.value_ranges):
        for path, (start, end) in ranges.items():
            if (
                start <= offset < end
                and path
                and (best is None or end - start < best[1][1] - best[1][0])
            ):
                value = ruledocs.value_at(parsed.value, path)
                if ranges is parsed.key_ranges or not isinstance(value, (dict, list)):
                    best = (path, (start, end))
    return best


def _key_while_editing(text: str, offset: int) -> tuple[tuple, tuple[int, int]] | None:
    context = key_context(text, offset)
    if context is None or context.string_start is None:
        return None
    end = context.string_start + 1
    while end < len(text) and text[end] not in '"\n':
        end += 2 if text[end] == "\\" else 1
    key = text[context.string_start + 1 : end]
    return context.path + (key,), (context.string_start, min(end + 1, len(text)))


def render_rule(doc: RuleDoc, *, value: object = _NO_VALUE, origin: str | None = None) -> str:
    """Markdown for one rule: what it is, what it means, its default (and value, when known)."""
    from .. import ruledocs

    value = ruledocs.MISSING if value is _NO_VALUE else value
    lines = [f"**{doc.dotted}** · {doc.type_label}", "", doc.description or "(no description)", ""]
    if doc.type_label.startswith(("group", "entries")):
        lines.append("Keys: " + ", ".join(f"`{k}`" for k in doc.keys) if doc.keys else "")
    elif value is not ruledocs.MISSING and origin is not None:
        shown = f"Value: `{ruledocs.format_value(value)}`"
        if origin == SHIPPED_DEFAULTS:
            lines.append(f"{shown} (the shipped default)")
        elif value == doc.default:
            lines.append(f"{shown} (from {origin}; the shipped default)")
        else:
            lines.append(
                f"{shown} (from {origin}) · shipped default `{ruledocs.format_value(doc.default)}`"
            )
    else:
        lines.append(f"Default: `{ruledocs.format_value(doc.default)}`")
    return "\n".join(lines).rstrip()


def hover(text: str, offset: int) -> tuple[str, tuple[int, int]] | None:
    from ...rules import jsonc
    from .. import ruledocs

    parsed: jsonc.Parsed | None
    try:
        parsed = parsed_of(text)
    except jsonc.JsoncError:
        parsed = None
        found = _key_while_editing(text, offset)  # half-typed JSON: keys can still be explained
    else:
        found = path_at(parsed, offset)
    if found is None or found[0] == ("$schema",):
        return None
    path, span = found
    doc = ruledocs.lookup(path)
    if doc is None:
        return None
    here = ruledocs.value_at(parsed.value, path) if parsed is not None else ruledocs.MISSING
    body = render_rule(doc)
    if not isinstance(here, (dict, list)) and here is not ruledocs.MISSING and here != doc.default:
        body += f"\n\nThis file sets `{ruledocs.format_value(here)}`."
    return body, span


# --- completion -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class KeyContext:
    path: tuple  # the object being written
    present: frozenset[str]  # keys it already has (before the cursor)
    string_start: int | None  # the opening quote when the cursor is inside a key string


def key_context(text: str, offset: int) -> KeyContext | None:
    """Where the cursor is, if it is where an object key goes (tolerant of unfinished text)."""
    stack: list[dict] = []
    i = 0
    while i < offset:
        c = text[i]
        if c in " \t\r\n":
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = offset if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = offset if end < 0 else end + 2
        elif c == '"':
            j = i + 1
            while j < len(text) and text[j] not in '"\n':
                j += 2 if text[j] == "\\" else 1
            if j >= offset:  # the cursor is inside this string
                top = stack[-1] if stack else None
                if top and top["kind"] == "obj" and top["expect"] == "key":
                    return KeyContext(top["path"], frozenset(top["keys"]), i)
                return None
            value = text[i + 1 : j]
            _token_value(stack, value)
            i = j + 1
        elif c in "{[":
            path: tuple = ()
            if stack:
                top = stack[-1]
                path = top["path"] + ((top["key"],) if top["kind"] == "obj" else (top["index"],))
            stack.append(
                {
                    "kind": "obj" if c == "{" else "arr",
                    "path": path,
                    "expect": "key",
                    "key": None,
                    "index": 0,
                    "keys": set(),
                }
            )
            i += 1
        elif c in "}]":
            if stack:
                stack.pop()
            if stack:
                stack[-1]["expect"] = "comma"
            i += 1
        elif c == ":":
            if stack:
                stack[-1]["expect"] = "value"
            i += 1
        elif c == ",":
            if stack:
                top = stack[-1]
                top["expect"] = "key"
                top["index"] += 1
            i += 1
        else:  # a number, true/false/null, or junk
            while i < offset and text[i] not in ' \t\r\n,:{}[]"/':
                i += 1
            if stack:
                stack[-1]["expect"] = "comma"
    top = stack[-1] if stack else None
    if top and top["kind"] == "obj" and top["expect"] == "key":
        return KeyContext(top["path"], frozenset(top["keys"]), None)
    return None


def _token_value(stack: list[dict], value: str) -> None:
    if not stack:
        return
    top = stack[-1]
    if top["kind"] == "obj" and top["expect"] == "key":
        top["key"] = value
        top["keys"].add(value)
        top["expect"] = "colon"
    else:
        top["expect"] = "comma"


def completions(text: str, offset: int) -> tuple[KeyContext, list[RuleDoc]] | None:
    """The rules that may be written at the cursor (keys not yet in the object)."""
    from .. import ruledocs

    context = key_context(text, offset)
    if context is None:
        return None
    parent = ruledocs.lookup(context.path)
    if parent is None:
        return None
    docs = [
        ruledocs.lookup(context.path + (key,)) for key in parent.keys if key not in context.present
    ]
    return context, [d for d in docs if d is not None]


# --- LSP ------------------------------------------------------------------------------------------


def diagnostics(text: str) -> list[types.Diagnostic]:
    index = index_of(text)
    return [
        types.Diagnostic(
            range=index.range(p.start, p.end),
            message=p.message,
            severity=types.DiagnosticSeverity.Error,
            source="nova rules",
        )
        for p in check(text)
    ]


def hover_lsp(text: str, position: types.Position, markup: types.MarkupKind) -> types.Hover | None:
    index = index_of(text)
    found = hover(text, index.offset(position))
    if found is None:
        return None
    body, (start, end) = found
    if markup is types.MarkupKind.PlainText:
        body = markdown_to_plain(body)
    return types.Hover(
        contents=types.MarkupContent(kind=markup, value=body), range=index.range(start, end)
    )


def completion_lsp(
    text: str, position: types.Position, markup: types.MarkupKind
) -> types.CompletionList | None:
    index = index_of(text)
    offset = index.offset(position)
    found = completions(text, offset)
    if found is None:
        return None
    from .. import ruledocs

    context, docs = found
    items = []
    for order, doc in enumerate(docs):
        key = str(doc.path[-1])
        if context.string_start is not None:
            # Replace what is typed inside the quotes (and the closing quote, if there is one).
            end = offset
            while end < len(text) and text[end] not in '"\n,:}':
                end += 1
            if end < len(text) and text[end] == '"':
                end += 1
            edit = types.TextEdit(range=index.range(context.string_start, end), new_text=f'"{key}"')
        else:
            edit = types.TextEdit(range=index.range(offset, offset), new_text=f'"{key}": ')
        items.append(
            types.CompletionItem(
                label=key,
                kind=types.CompletionItemKind.Property,
                detail=f"{doc.type_label} · default {ruledocs.format_value(doc.default, 60)}",
                documentation=types.MarkupContent(
                    kind=markup,
                    value=render_rule(doc)
                    if markup is types.MarkupKind.Markdown
                    else markdown_to_plain(render_rule(doc)),
                ),
                sort_text=f"{order:03d}",
                filter_text=f'"{key}"' if context.string_start is not None else key,
                text_edit=edit,
            )
        )
    return types.CompletionList(is_incomplete=False, items=items)


class RulesFilesFeature(Feature):
    """Rules files: their problems, hover docs per key, key completion; and an edit to the file
    the scripts' rules come from makes the scripts' diagnostics stale."""

    kinds = frozenset({DocumentKind.RULES})

    def changed(self, document: Document) -> None:
        from ..tsserver import uri_to_path

        if self.server.rules.reads(uri_to_path(document.uri)):
            self.server.diagnostics.results_changed()  # the rules in effect changed under the scripts

    async def diagnostics(self, document: Document) -> list[types.Diagnostic]:
        return diagnostics(document.text)

    async def hover(self, document: Document, params: types.HoverParams) -> types.Hover | None:
        return hover_lsp(document.text, params.position, self.server.markup_kind())

    async def completion(
        self, document: Document, params: types.CompletionParams
    ) -> types.CompletionList | None:
        return completion_lsp(document.text, params.position, self.server.markup_kind())
