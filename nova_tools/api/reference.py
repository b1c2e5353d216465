"""Reference docs generated from the code, so they cannot drift from it; and what the actions
are, for the editor's hover.

``docs/game-details.md`` holds the reason-code tables between two markers; ``nova generate``
rewrites that part from :class:`~nova_tools.engine.reasons.Reason`, and ``docs/rules.md`` whole
from the rules models (:mod:`.rules_reference`); a test fails when a committed file differs from
what would be generated.
"""

from __future__ import annotations

import typing
from pathlib import Path

from ..engine import wire
from ..engine.reasons import reason_table
from ..limits import NOTES
from ..rules.walk import model_doc
from .results import ActionDoc, ActionField

DOCS = Path(__file__).resolve().parents[2] / "docs"
GAME_DETAILS = DOCS / "game-details.md"
BEGIN = "<!-- reason codes: generated from nova_tools/engine/reasons.py by `nova generate`; do not edit here -->"
END = "<!-- end of the generated reason codes -->"

_SECTIONS = (
    ("script", "The script produced no action", "The turn failed before the engine saw an action."),
    (
        "action",
        "The engine refused the action",
        "A well-formed action the rules do not allow; nothing else changes.",
    ),
    (
        "command",
        "A player command was refused",
        "A command between rounds (joining with a first upload, launching): the command changes nothing and costs nothing.",
    ),
)


def reason_codes_markdown() -> str:
    """The reason-code tables, one per group, as they stand between the markers."""
    parts = []
    for group, title, intro in _SECTIONS:
        parts += [f"### {title}", "", intro, "", reason_table(group), ""]
    return "\n".join(parts).rstrip("\n")


def splice(text: str, generated: str, where: Path = GAME_DETAILS) -> str:
    """``text`` with the part between the markers replaced by ``generated``."""
    try:
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
    except ValueError:
        raise ValueError(
            f"{where} lacks the markers of the generated reason codes ({BEGIN} ... {END})"
        ) from None
    return f"{head}{BEGIN}\n{generated}\n{END}{tail}"


def stale_docs() -> dict[Path, str]:
    """Generated docs whose committed text differs from what the code gives: path -> new text
    (the reason codes in docs/game-details.md, the rules reference docs/rules.md)."""
    from . import rules_reference

    current = GAME_DETAILS.read_text(encoding="utf-8")
    wanted = splice(current, reason_codes_markdown())
    stale = {GAME_DETAILS: wanted} if wanted != current else {}
    return {**stale, **rules_reference.stale()}


def write_docs() -> list[Path]:
    """Rewrite the generated parts of the docs; return the files that changed."""
    stale = stale_docs()
    for path, text in stale.items():
        path.write_text(text, encoding="utf-8", newline="\n")
    return list(stale)


def action_docs() -> tuple[ActionDoc, ...]:
    """Every action a script may return: its type, what it does, and its fields (the notes,
    memory and recording, left out: every action carries them). From the wire models the
    typings' ``Action`` union is generated from."""
    docs = []
    for model in wire.ACTION_MODELS:
        action_type = typing.get_args(model.model_fields["type"].annotation)[0]
        fields = tuple(
            ActionField(
                name=f.alias or name, required=f.is_required(), description=f.description or ""
            )
            for name, f in model.model_fields.items()
            if name not in ("type", *NOTES)
        )
        docs.append(ActionDoc(type=action_type, summary=model_doc(model), fields=fields))
    return tuple(docs)
