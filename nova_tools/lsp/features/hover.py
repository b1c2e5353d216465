"""Hover that teaches the game, in android scripts.

* on a ``rules.…`` member: what the rule means (its Field description) and the value this game
  plays with (from the workspace's rules, see :class:`~nova_tools.lsp.settings.RulesContext`);
* on an action type string (``'android.move'``): what the action does, its fields, and what a
  refusal costs;
* on a building type string (``'depot'``): what it does and what it costs.

tsc's own hover (types and JSDoc) follows, under a rule. The rules' docs (:mod:`..ruledocs`, and
the models it reads) are imported at the first hover, not while the server starts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from ...toolchain.tstext import Source
from ..context import Document, DocumentKind, Feature
from ..plaintext import markdown_to_plain
from ..textpos import LineIndex
from . import typescript
from .rules_files import render_rule

if TYPE_CHECKING:
    from ..ruledocs import ActionDoc
    from ..settings import RulesInEffect


def nova_hover(text: str, offset: int, rules: RulesInEffect) -> tuple[str, tuple[int, int]] | None:
    """Markdown for what is under the cursor, with the source range it is about."""
    from .. import ruledocs

    source = Source(text)
    chain = source.member_chain_at(offset)
    if chain is not None:
        segments, index = chain
        if segments[0].name == "rules" and index >= 1:
            path = tuple(s.name for s in segments[1 : index + 1])
            doc = ruledocs.lookup(path)
            if doc is not None:
                value = ruledocs.value_at(rules.json, path)
                body = render_rule(doc, value=value, origin=rules.origin)
                if rules.problem:
                    body += f"\n\n_{rules.problem}_"
                return body, (segments[index].start, segments[index].end)
    literal = source.string_at(offset)
    if literal is None:
        return None
    if (action := ruledocs.action_doc(literal.value)) is not None:
        return render_action(action, rules), (literal.start, literal.end)
    if ruledocs.is_building_type(literal.value):
        return render_building(literal.value, rules), (literal.start, literal.end)
    return None


def render_action(action: ActionDoc, rules: RulesInEffect) -> str:
    from .. import ruledocs

    lines = [
        f"**{action.type}** · action",
        "",
        ruledocs.with_values(action.summary, rules.json),
        "",
    ]
    for field in action.fields:
        lines.append(
            f"- `{field.name}`{'' if field.required else ' (optional)'}: {ruledocs.with_values(field.description, rules.json)}"
        )
    if action.fields:
        lines.append("")
    penalty = ruledocs.format_value(
        ruledocs.value_at(rules.json, ("android", "failedTurnHealthPenalty"))
    )
    lines.append(
        "If the engine refuses it, the turn fails: the android loses "
        f"`rules.android.failedTurnHealthPenalty` ({penalty}) health and keeps neither the memory nor the "
        "recording this action carried. Dry-run the turn (the code lens on `export default`) to see the verdict."
    )
    return "\n".join(lines)


def render_building(building: str, rules: RulesInEffect) -> str:
    from .. import ruledocs

    doc = ruledocs.lookup(("buildings", building))
    spec = ruledocs.value_at(rules.json, ("buildings", building))
    lines = [f"**{building}** · building type", "", doc.description if doc else ""]
    if isinstance(spec, dict):
        cost = ", ".join(f"{n} {m}" for m, n in (spec.get("cost") or {}).items() if n) or "nothing"
        lines += [
            "",
            f"Costs {cost}; {ruledocs.format_value(spec.get('ticks'))} continue-construction ticks once paid "
            f"(`rules.buildings.{building}`, from {rules.origin}).",
        ]
    return "\n".join(lines)


class HoverFeature(Feature):
    """A script's hover: what the rule, action or building under the cursor means in this game,
    then tsc's own hover (types and JSDoc)."""

    kinds = frozenset({DocumentKind.SCRIPT})

    async def hover(self, document: Document, params: types.HoverParams) -> types.Hover | None:
        text = document.text
        index = LineIndex(text)
        ours = nova_hover(text, index.offset(params.position), self.server.rules.current())
        # An editor with its own TypeScript server (VS Code: forwardTypeScript off) shows tsc's
        # hover itself; repeating it here would show it twice.
        theirs = (
            await typescript.hover(self.server.ts, params)
            if self.server.forward_typescript
            else None
        )
        if ours is None:
            return in_format(theirs, self.server.markup_kind())
        body, (start, end) = ours
        if theirs is not None:
            body += "\n\n---\n\n" + _text_of(theirs.contents)
        return in_format(
            types.Hover(
                contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=body),
                range=index.range(start, end),
            ),
            self.server.markup_kind(),
        )


def in_format(hover: types.Hover | None, kind: types.MarkupKind) -> types.Hover | None:
    """``hover`` (Markdown, ours or tsc's) in the format the editor reads."""
    if hover is None:
        return None
    value = _text_of(hover.contents)
    if kind is types.MarkupKind.PlainText:
        value = markdown_to_plain(value)
    return types.Hover(contents=types.MarkupContent(kind=kind, value=value), range=hover.range)


def _text_of(contents: object) -> str:
    if isinstance(contents, types.MarkupContent):
        return contents.value
    if isinstance(contents, str):
        return contents
    if isinstance(contents, types.MarkedStringWithLanguage):
        return f"```{contents.language}\n{contents.value}\n```"
    if isinstance(contents, (list, tuple)):
        return "\n\n".join(_text_of(c) for c in contents)
    return ""
