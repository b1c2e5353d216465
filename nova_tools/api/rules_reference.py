"""The rules reference: every rule, its value and its meaning, generated from the rules models
(through their one walker, :mod:`nova_tools.rules.walk`) so it cannot drift from them.

Two forms: ``docs/rules.md`` (every default, grouped as the rulebook groups them, with the
buildings and the scoring as tables), rewritten by ``nova generate`` and checked by a test; and
``nova rules show --table`` (the resolved rules of a game or a rules file, a line a rule, marking
those that differ from the defaults).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..rules import Rules
from ..rules.walk import MISSING, Node, default_json, node_at, reference, tidy, value_at

RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"

# The top-level groups in the order the rulebook meets them, with the section that explains them.
GROUPS = (
    ("world", "The world", "rulebook section 3 (World) and 9 (Resources)"),
    ("android", "Androids", "rulebook section 5 (Androids) and 8 (Android Action API)"),
    (
        "buildings",
        "Buildings",
        "rulebook sections 6 (Chargers), 10 (Buildings), 11 (Acid) and 14 (Visibility)",
    ),
    ("salvage", "Salvage and repair", "rulebook section 12 (Salvage and Sabotage)"),
    ("scoring", "The colony readiness score", "rulebook section 16 (Colony Readiness Score)"),
    ("script", "What a turn may spend", "rulebook section 7.1 (What a Turn May Spend)"),
    ("match", "The match", "rulebook section 1.1 (When the Humans Arrive)"),
)
BUILDING_FIELDS = (
    "cost",
    "ticks",
    "health",
    "androidCapacity",
    "charge",
    "storage",
    "extraction",
    "conversion",
    "sight",
    "cleansAcid",
    "salvageableByOthers",
)


# --- values in words ---------------------------------------------------------------------------


def bag_text(bag: dict, joiner: str = ", ") -> str:
    """``{"metal": 8, "electronics": 1, "ore": 0}`` -> ``8 metal, 1 electronics`` (``nothing``)."""
    parts = [f"{units} {material}" for material, units in bag.items() if units]
    return joiner.join(parts) or "nothing"


def shown(path: tuple[str | int, ...], value: Any) -> str:
    """A rule's value as the reference writes it: JSON for a number, a word or null; a material
    bag, a sight, an extraction or a conversion in words."""
    value = tidy(value)
    name = path[-1] if path else ""
    if value is None or isinstance(value, (bool, int, float, str)):
        return json.dumps(value)
    if name in ("cost", "repairCost", "inputs", "outputs"):
        return bag_text(value)
    if name == "sight" or (isinstance(value, dict) and set(value) == {"shape", "range"}):
        return f"{value['shape']} {value['range']}"
    if name == "storage":
        allowed = [k for k in ("deposit", "withdraw") if value.get(k)]
        return " and ".join(allowed) if allowed else "none"
    if name == "extraction":
        return (
            "; ".join(f"{e['amount']} {e['material']} from {e['source']}" for e in value) or "none"
        )
    if name == "conversion":
        return (
            "; ".join(
                f"{bag_text(c['inputs'], ' + ')} -> {bag_text(c['outputs'], ' + ')}" for c in value
            )
            or "none"
        )
    if isinstance(value, dict) and set(value) == {"min", "max"}:
        return f"{value['min']}-{value['max']}"
    if isinstance(value, dict) and set(value) == {"chance", "min", "max"}:
        return f"{value['chance']:.0%} of tiles, {value['min']}-{value['max']}"
    return json.dumps(value, separators=(", ", ": "))


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


# --- docs/rules.md -----------------------------------------------------------------------------


def _row(entry) -> str:
    return f"| `{entry.dotted}` | {_cell(shown(entry.path, entry.default))} | {_cell(entry.description)} |"


def _scalar_rows(within: tuple) -> list[str]:
    """One row per rule below ``within`` that is not itself a group: its path, default, meaning.
    A leaf value (a sight, a roll) is one row; its fields are described in its meaning."""
    rows = []
    for entry in reference(within):
        if (
            entry.path == within
            or entry.type.startswith(("group", "entries by id", "list"))
            or _inside_leaf(entry.path)
        ):
            continue
        rows.append(_row(entry))
    return rows


def rule_at(path: tuple[str | int, ...]) -> Node:
    """The node of a rule this reference names, which must exist."""
    node = node_at(path)
    if node is None:
        raise KeyError(f"the rules have no {'.'.join(map(str, path))}")
    return node


def _inside_leaf(path: tuple) -> bool:
    """Whether ``path`` is a field of a leaf value (shown whole, in its parent's row)."""
    for depth in range(1, len(path)):
        parent = node_at(path[:depth])
        if parent is not None and parent.model is not None and "leaf value" in _type_of(parent):
            return True
    return False


def _type_of(node) -> str:
    from ..rules.walk import type_label

    return type_label(node.annotation)


TABLE_HEAD = ["| rule | default | meaning |", "|---|---|---|"]


def _buildings_section() -> list[str]:
    defaults = default_json()["buildings"]
    out = [
        "Each building type has the same rules, `rules.buildings.<type>.<rule>`; the table gives every",
        "type's defaults, and the one below it what each rule means.",
        "",
        "| `rules.buildings.` | " + " | ".join(f"`{f}`" for f in BUILDING_FIELDS) + " |",
        "|---|" + "---|" * len(BUILDING_FIELDS),
    ]
    for kind, rules in defaults.items():
        cells = [_cell(shown((kind, field), rules[field])) for field in BUILDING_FIELDS]
        out.append(f"| `{kind}` | " + " | ".join(cells) + " |")
    out += ["", "| rule | meaning |", "|---|---|"]
    for field in BUILDING_FIELDS:
        node = rule_at(("buildings", "charger", field))
        out.append(f"| `{field}` | {_cell(node.description)} |")
    out += ["", "What each type is for:", ""]
    for kind in defaults:
        out.append(f"- `{kind}`: {rule_at(('buildings', kind)).description}")
    return out


def _scoring_section() -> list[str]:
    scoring = default_json()["scoring"]
    out = [
        "Only completed buildings and material stored in completed buildings of the owner count;",
        "anything worth 0 points earns no line in the breakdown.",
        "",
        "| completed building | points | rule |",
        "|---|---|---|",
    ]
    out += [
        f"| {kind} | {shown((), points)} | `rules.scoring.buildings.{kind}` |"
        for kind, points in scoring["buildings"].items()
    ]
    out += ["", "| stored material, per unit | points | rule |", "|---|---|---|"]
    out += [
        f"| {material} | {shown((), points)} | `rules.scoring.materials.{material}` |"
        for material, points in scoring["materials"].items()
    ]
    return out


def _generation_rows() -> list[str]:
    rows = [
        _row(e)
        for e in reference(("world",))
        if e.path[:2] != ("world", "generation") and e.path != ("world",)
    ]
    pods = default_json()["world"]["generation"]["pods"]
    rows.append(
        f"| `rules.world.generation.pods.count` | {pods['count']} | {_cell(rule_at(('world', 'generation', 'pods', 'count')).description)} |"
    )
    contents = rule_at(("world", "generation", "pods", "contents"))
    rows.append(
        f"| `rules.world.generation.pods.contents` | {_cell('; '.join(f'{m} {shown((), r)}' for m, r in pods['contents'].items()))} "
        f"| {_cell(contents.description)} Each entry is a roll between `min` and `max`, both included. |"
    )
    for kind in ("ore", "water", "acid", "radiation"):
        node = rule_at(("world", "generation", kind))
        rows.append(
            f"| `rules.world.generation.{kind}` | {_cell(shown((), node.default))} | {_cell(node.description)} |"
        )
    return rows


# The leaf values, by a rule that holds one: their fields are given together, whole.
LEAF_EXAMPLES = (
    ("Material amounts", ("buildings", "charger", "cost")),
    ("Sight", ("android", "sight")),
    ("Roll", ("world", "generation", "pods", "contents", "metal")),
    ("Composition roll", ("world", "generation", "ore")),
    ("Extraction", ("buildings", "extractor", "extraction", 0)),
    ("Conversion", ("buildings", "processor", "conversion", 0)),
    ("Storage", ("buildings", "depot", "storage")),
)


def _leaves_section() -> list[str]:
    out = [
        "## Leaf values",
        "",
        "Given whole wherever a rule holds one (a field left out is an error, not a default).",
        "",
    ]
    for title, path in LEAF_EXAMPLES:
        model = rule_at(path).model
        if model is None:
            raise TypeError(f"{path} holds no leaf value")
        out += [
            f"### {title}",
            "",
            " ".join((model.__doc__ or "").split()),
            "",
            "| field | meaning |",
            "|---|---|",
        ]
        for name, field in model.model_fields.items():
            out.append(f"| `{field.alias or name}` | {_cell(field.description or '')} |")
        out.append("")
    return out


def rules_markdown() -> str:
    """The whole of ``docs/rules.md``."""
    out = [
        "# Rules reference",
        "",
        "<!-- generated from nova_tools/rules/models.py by `nova generate`; do not edit here -->",
        "",
        "Every number the game is played with is a rule, and every rule has a default: `{}` is the",
        "game as it ships. A rules file (JSON with comments) may give any subset; `nova rules show",
        "--table [--file GAME | --rules RULES]` lists the rules a game really plays with. An android",
        "reads them at run time from the `rules` global (`rules.android.cargoCapacity`), so a script",
        "that reads them keeps working when a host retunes them.",
        "",
        "Two conventions (rulebook section 18): a group (`android`, `buildings.depot`) may be given in",
        "part, the rest keep their defaults; a *leaf value* (a sight, a cost, a roll, an extraction, a",
        "conversion) is given whole or not at all. Values below: numbers and words as JSON; a material",
        "amount as `8 metal, 1 electronics`; a sight as its shape and range; a roll as `min-max`.",
        "",
    ]
    for group, title, where in GROUPS:
        out += [
            f"## {title} (`rules.{group}`)",
            "",
            f"{rule_at((group,)).description} See {where}.",
            "",
        ]
        if group == "buildings":
            out += _buildings_section()
        elif group == "scoring":
            out += _scoring_section()
        elif group == "world":
            out += TABLE_HEAD + _generation_rows()
        else:
            out += TABLE_HEAD + _scalar_rows((group,))
        out.append("")
    out += _leaves_section()
    return "\n".join(out).rstrip("\n") + "\n"


def stale() -> dict[Path, str]:
    """``docs/rules.md`` if its committed text differs from what the models give: path -> text."""
    wanted = rules_markdown()
    current = RULES_DOC.read_text(encoding="utf-8") if RULES_DOC.exists() else None
    return {RULES_DOC: wanted} if current != wanted else {}


# --- nova rules show --table ---------------------------------------------------------------------


def rules_table(rules: Rules, width: int | None = None) -> str:
    """The resolved ``rules`` as text, a rule a line (``rule  value  meaning``), a ``*`` beside each
    value that differs from the default, grouped as docs/rules.md groups them. With ``width``,
    each line's meaning is cut to fit it."""
    values = tidy(rules.to_json())
    defaults = tidy(default_json())
    lines = []
    changed = 0
    for group, title, _ in GROUPS:
        lines.append(f"{title} (rules.{group})")
        entries = [
            e
            for e in reference((group,))
            if e.path != (group,)
            and not e.type.startswith(("group", "entries by id"))
            and not _inside_leaf(e.path)
        ]
        rows = []
        for entry in entries:
            value = value_at(values, entry.path)
            if value is MISSING:
                continue
            differs = value != value_at(defaults, entry.path)
            changed += differs
            rows.append(
                (
                    entry.dotted.removeprefix("rules."),
                    shown(entry.path, value) + (" *" if differs else ""),
                    entry.description,
                )
            )
        name_width = max(len(r[0]) for r in rows)
        value_width = min(max(len(r[1]) for r in rows), 24)
        for name, value, meaning in rows:
            line = f"  {name:<{name_width}}  {value:<{value_width}}  {meaning}"
            if width is not None and len(line) > width:
                line = line[: max(width - 1, name_width + value_width + 6)] + "…"
            lines.append(line)
        lines.append("")
    lines.append(
        f"{changed} rule{'s' if changed != 1 else ''} differ from the defaults (marked *)."
        if changed
        else "Every rule is at its default."
    )
    return "\n".join(lines)
