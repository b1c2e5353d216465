"""Nova-specific checks on android scripts, beyond what the type checker can see.

``turn-shadows-round``
    The rulebook's own examples name the turn function ``turn`` (``const turn: AndroidTurn =
    ...``). At module level that declaration shadows the global ``turn``, the round counter, so a
    later ``turn % 2`` or ``turn > 10`` reads the function, not the round. tsc reports that as a
    type error in words about function types; this check says what went wrong, and offers to
    rename the function.

``rule-literal``
    A number literal equal to a rule's value, next to words that name that rule (``12`` on a line
    about cargo is ``rules.android.cargoCapacity``). A host can retune every rule, so the script
    should read it; the quick fix replaces the literal with the rule.

``host-global``
    A browser or Node global (``document``, ``setTimeout``, ``require`` ...) in a script: android
    scripts get the ES2022 built-ins and the game's globals only, so ``nova upload`` refuses the
    file. A project made by ``nova new-android`` has tsc say so already; a bare file is checked in
    an inferred project that includes the DOM, so this check says it instead. ``WeakRef`` and
    ``FinalizationRegistry`` type-check everywhere but are removed from the sandbox (their timing
    is not deterministic), so they are flagged in every file.

The functions here take text and return :class:`Finding` objects with character offsets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types

from ...toolchain.tstext import IDENT, Source, camel_words
from ..context import Document, DocumentKind, Feature
from ..textpos import LineIndex

TURN_SHADOWS_ROUND = "turn-shadows-round"
RULE_LITERAL = "rule-literal"
HOST_GLOBAL = "host-global"


@dataclass(frozen=True)
class Edit:
    start: int
    end: int
    new_text: str


@dataclass(frozen=True)
class Fix:
    title: str
    edits: tuple[Edit, ...]
    preferred: bool = False


@dataclass(frozen=True)
class Finding:
    code: str
    start: int
    end: int
    message: str
    severity: str  # "warning" | "information"
    related: tuple[tuple[int, int, str], ...] = ()
    fixes: tuple[Fix, ...] = field(default=())


def check(text: str, resolved_rules: dict, *, bare: bool = False) -> list[Finding]:
    """Every finding in ``text``; ``bare``: the file has no tsconfig (see ``host-global``)."""
    source = Source(text)
    return [
        *turn_shadows_round(source),
        *rule_literals(source, resolved_rules),
        *host_globals(source, bare=bare),
    ]


# --- host-global ----------------------------------------------------------------------------------

# Globals of a browser or of Node that the sandbox does not have (tsc's inferred project for a
# bare file includes the DOM, so it accepts them).
# Only names a script is unlikely to use for its own variables (no `self`, `process`, `module`).
_HOST_ONLY = (
    "document",
    "window",
    "navigator",
    "localStorage",
    "sessionStorage",
    "fetch",
    "XMLHttpRequest",
    "WebSocket",
    "setTimeout",
    "setInterval",
    "clearTimeout",
    "clearInterval",
    "requestAnimationFrame",
    "alert",
    "structuredClone",
    "queueMicrotask",
    "require",
    "Buffer",
    "__dirname",
    "__filename",
)
# In the ES2022 library, but removed from the sandbox: garbage-collection timing is not
# deterministic, and two machines replaying a match must agree.
_REMOVED = ("WeakRef", "FinalizationRegistry")
_HOST_NAME = re.compile(r"(?<![\w$.])(" + "|".join(_HOST_ONLY + _REMOVED) + r")(?![\w$])")


def host_globals(source: Source, *, bare: bool) -> list[Finding]:
    masked = source.masked
    declared = {
        m.group(1)
        for m in re.finditer(r"\b(?:const|let|var|function|class|import)\s+([\w$]+)", masked)
    }
    findings = []
    for m in _HOST_NAME.finditer(masked):
        name = m.group(1)
        start, end = m.span(1)
        if name in declared:
            continue
        if _OBJECT_KEY_BEFORE.search(masked[max(0, start - 40) : start]) and re.match(
            r"\s*:", masked[end:]
        ):
            continue  # an object key such as { document: 1 }
        if name in _REMOVED:
            message = (
                f"`{name}` is removed from the sandbox (garbage-collection timing would make turns differ "
                "between machines): this line throws ReferenceError when the android runs."
            )
        elif bare:
            message = (
                f"`{name}` is not available to android scripts: they run with the ES2022 built-ins and the "
                "game's globals only (no browser or Node globals), so `nova upload` refuses this file."
            )
        else:
            continue  # the project's tsconfig (lib es2022) makes tsc report it
        findings.append(Finding(HOST_GLOBAL, start, end, message, "warning"))
    return findings


# --- turn-shadows-round -------------------------------------------------------------------------

_DECLARATION = re.compile(r"\b(?:const|let|var|function|class)\s+(turn)\b")
_TURN = re.compile(r"(?<![\w$.])turn(?![\w$])")
_NUMERIC_AFTER = re.compile(r"\s*(?:%|\*|/(?![/*])|\+(?!\+)|-(?!-)|<|>|[=!]==?)")
_NUMERIC_BEFORE = re.compile(r"(?:%|\*|/|\+|-|<|(?<![=-])>|[=!]==?)\s*$")
_OBJECT_KEY_BEFORE = re.compile(r"[{,]\s*$")
_NEW_NAMES = ("act", "decide", "takeTurn", "turnFunction")


def _numeric_use(masked: str, start: int, end: int) -> bool:
    if _NUMERIC_AFTER.match(masked, end):
        return True
    return _NUMERIC_BEFORE.search(masked[max(0, start - 8) : start]) is not None


def turn_shadows_round(source: Source) -> list[Finding]:
    masked = source.masked
    declaration = next(
        (m for m in _DECLARATION.finditer(masked) if source.depths[m.start()] == 0), None
    )
    if declaration is None:
        return []
    decl_start, decl_end = declaration.span(1)
    numeric, other = [], []
    for m in _TURN.finditer(masked):
        start, end = m.span()
        if start == decl_start:
            other.append((start, end))
        elif _numeric_use(masked, start, end):
            numeric.append((start, end))
        elif not (
            _OBJECT_KEY_BEFORE.search(masked[max(0, start - 40) : start])
            and re.match(r"\s*:", masked[end:])
        ):
            other.append((start, end))
    if not numeric:
        return []
    used = set(IDENT.findall(masked))
    new_name = next((n for n in _NEW_NAMES if n not in used), "turnFunction2")
    line = source.text.count("\n", 0, decl_start) + 1
    rename = Fix(
        f"Rename the turn function to `{new_name}` so `turn` is the round again",
        tuple(Edit(s, e, new_name) for s, e in other),
        preferred=True,
    )
    message = (
        f"`turn` here is this file's own turn function (declared on line {line}), not the round number: "
        "a module-level `turn` shadows the global round counter `turn`. Give the function another name "
        "(the rulebook's examples call it `turn`) to read the round."
    )
    return [
        Finding(
            TURN_SHADOWS_ROUND,
            s,
            e,
            message,
            "warning",
            ((decl_start, decl_end, "the turn function is declared here"),),
            (rename,),
        )
        for s, e in numeric
    ]


# --- rule-literal ---------------------------------------------------------------------------------

# Words that name too many rules (or none) to tell them apart on their own.
_GENERIC = {
    "per",
    "point",
    "amount",
    "cost",
    "limit",
    "round",
    "max",
    "turn",
    "range",
    "capacity",
    "damage",
    "rate",
    "ms",
}
_NUMBER = re.compile(r"(?<![\w$.])(\d+(?:\.\d+)?)(?![\w$.])")
_SKIPPED_GROUPS = ("scoring",)


@dataclass(frozen=True)
class _RuleWord:
    path: tuple
    value: float
    needs: frozenset[str]  # every one of these must be on the line (a building id) ...
    any_of: frozenset[str]  # ... and at least one of these


def _numeric_rules(resolved: dict, defaults: dict) -> list[_RuleWord]:
    out: list[_RuleWord] = []

    def walk(value: object, path: tuple) -> None:
        if isinstance(value, dict):
            for key, sub in value.items():
                walk(sub, path + (key,))
            return
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value in (0, 1):
            return
        if path[0] in _SKIPPED_GROUPS or path[:2] == ("world", "generation"):
            return
        if path[0] == "buildings":
            building, rest = path[1], path[2:]
            words = {w for part in rest for w in camel_words(part)} - _GENERIC
            out.append(
                _RuleWord(
                    path,
                    float(value),
                    frozenset({building.lower()}),
                    frozenset(words) or frozenset({building.lower()}),
                )
            )
        else:
            words = {w for part in path[1:] for w in camel_words(str(part))} - _GENERIC
            if path[0] == "salvage":
                words.add("salvage")
            if words:
                out.append(_RuleWord(path, float(value), frozenset(), frozenset(words)))

    walk(resolved, ())
    from ..ruledocs import value_at

    # A literal equal to the shipped default but not to a retuned value is still that rule.
    for rule in list(out):
        default = value_at(defaults, rule.path)
        if (
            isinstance(default, (int, float))
            and not isinstance(default, bool)
            and float(default) != rule.value
            and default not in (0, 1)
        ):
            out.append(_RuleWord(rule.path, float(default), rule.needs, rule.any_of))
    return out


_TABLE: tuple[dict, list[_RuleWord]] | None = None  # for the rules object in effect (one at a time)


def _rules_table(resolved: dict) -> list[_RuleWord]:
    global _TABLE
    if _TABLE is None or _TABLE[0] is not resolved:
        from ...rules.loading import default_rules_json  # the models: on the first check

        _TABLE = (resolved, _numeric_rules(resolved, default_rules_json()))
    return _TABLE[1]


def _meaning(path: tuple) -> str:
    if len(path) == 4 and path[0] == "buildings" and path[2] in ("cost",):
        return f"the {path[3]} a {path[1]} costs"
    from ..ruledocs import lookup

    doc = lookup(path)
    return doc.description.rstrip(".") if doc else ""


def rule_literals(source: Source, resolved: dict) -> list[Finding]:
    from ..ruledocs import dotted, format_value, value_at

    table = _rules_table(resolved)
    text, masked = source.text, source.masked
    findings = []
    for m in _NUMBER.finditer(masked):
        number = float(m.group(1))
        candidates = [r for r in table if r.value == number]
        if not candidates:
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        line_end = text.find("\n", m.end())
        line_end = len(text) if line_end < 0 else line_end
        line = source.without_comments[line_start:line_end].lower()  # identifiers and strings
        matches = []
        for rule in candidates:
            if dotted(rule.path).lower() in line:
                continue  # the line already reads the rule
            if all(w in line for w in rule.needs) and any(w in line for w in rule.any_of):
                matches.append(rule)
        if not matches:
            continue
        seen, unique = set(), []
        for rule in matches:
            if rule.path not in seen:
                seen.add(rule.path)
                unique.append(rule)
        literal = m.group(1)
        names = " or ".join(f"`{dotted(r.path)}`" for r in unique)
        meaning = f" ({_meaning(unique[0].path)})" if len(unique) == 1 else ""
        value_now = value_at(resolved, unique[0].path)
        retuned = (
            ""
            if isinstance(value_now, (int, float)) and float(value_now) == number
            else f"; this game sets it to {format_value(value_now)}"
        )
        message = (
            f"{literal} is {names}{meaning}{retuned}. Read the rule instead of the number: "
            "every rule can be retuned for a game."
        )
        fixes = tuple(
            Fix(
                f"Read `{dotted(r.path)}` instead of {literal}",
                (Edit(m.start(1), m.end(1), dotted(r.path)),),
                preferred=len(unique) == 1,
            )
            for r in unique
        )
        findings.append(
            Finding(RULE_LITERAL, m.start(1), m.end(1), message, "information", (), fixes)
        )
    return findings


# --- LSP ------------------------------------------------------------------------------------------

_SEVERITY = {
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
}


def _diagnostic(finding: Finding, index: LineIndex, uri: str | None) -> types.Diagnostic:
    related = None
    if uri is not None and finding.related:
        related = [
            types.DiagnosticRelatedInformation(
                location=types.Location(uri=uri, range=index.range(s, e)), message=m
            )
            for s, e, m in finding.related
        ]
    return types.Diagnostic(
        range=index.range(finding.start, finding.end),
        message=finding.message,
        severity=_SEVERITY[finding.severity],
        source="nova",
        code=finding.code,
        related_information=related,
    )


def diagnostics(
    text: str, resolved_rules: dict, uri: str | None = None, *, bare: bool = False
) -> list[types.Diagnostic]:
    index = LineIndex(text)
    return [_diagnostic(f, index, uri) for f in check(text, resolved_rules, bare=bare)]


def code_actions(
    uri: str, text: str, resolved_rules: dict, wanted: types.Range
) -> list[types.CodeAction]:
    """Quick fixes for the findings that touch ``wanted``."""
    index = LineIndex(text)
    start, end = index.offset(wanted.start), index.offset(wanted.end)
    actions = []
    for finding in check(text, resolved_rules):
        if finding.end < start or finding.start > end:
            continue
        diagnostic = _diagnostic(finding, index, uri)
        for fix in finding.fixes:
            edits = [
                types.TextEdit(range=index.range(e.start, e.end), new_text=e.new_text)
                for e in fix.edits
            ]
            actions.append(
                types.CodeAction(
                    title=fix.title,
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic],
                    edit=types.WorkspaceEdit(changes={uri: edits}),
                    is_preferred=fix.preferred,
                )
            )
    return actions


def is_bare(uri: str) -> bool:
    """No tsconfig above the file: tsc checks it in an inferred project (which has the DOM)."""
    from pygls.uris import to_fs_path

    from ..tsserver import find_tsconfig

    path = to_fs_path(uri)
    return path is None or find_tsconfig(Path(path)) is None


class ChecksFeature(Feature):
    """The Nova checks of a script (diagnostics) and their quick fixes (code actions), against
    the rules in effect."""

    kinds = frozenset({DocumentKind.SCRIPT})

    async def diagnostics(self, document: Document) -> list[types.Diagnostic]:
        return diagnostics(
            document.text, self.server.rules.current().json, bare=is_bare(document.uri)
        )

    async def code_actions(
        self, document: Document, params: types.CodeActionParams
    ) -> list[types.CodeAction]:
        return code_actions(
            document.uri, document.text, self.server.rules.current().json, params.range
        )

    def code_action_kinds(self) -> list[str]:
        return [types.CodeActionKind.QuickFix.value]
