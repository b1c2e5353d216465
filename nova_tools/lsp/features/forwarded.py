"""Everything else the warm TypeScript checker answers, passed on as it is: one server is enough.

``nova lsp`` offers the editor each feature of this table that the ``tsc --lsp`` child says it
answers (its own capabilities, read when it starts), with the child's own options (trigger
characters, the semantic token legend...). A request about an android script (or the typings) is
sent to the child unchanged and its answer comes back unchanged; any other document (a rules
file, a JSON file) gets no answer from these. Hover, completion, diagnostics, code actions and code
lenses are not here: the server merges the child's answers with Nova's own for those
(:mod:`.typescript`, :mod:`.hover`, :mod:`.checks`, :mod:`.dry_run`).

Found by probing typescript 7.0.2 (docs/editors.md lists what works): the child also advertises
``textDocument/linkedEditingRange``, which only answers inside JSX tags (an android script has
none), so it is not offered; it has no ``codeAction/resolve``, ``inlayHint/resolve`` or semantic
token deltas. The server answers ``initialize`` at once, before tsc has started: a feature the
editor can register later (``dynamicRegistration``) is registered (``client/registerCapability``)
with tsc's own options once it has started; any other is offered at once with the options tsc
7.0.x gives (:data:`PINNED`, checked against the real tsc in the tests). Only the semantic token
legend depends on the editor (tsc leaves out the types it does not know): a static offer carries
every type tsc knows, and tsc's token types are renumbered into it (:func:`renumber_tokens`).
Inlay hints and its code lenses (references, implementations) are off until the
editor's ``typescript`` settings turn them on (``typescript.inlayHints.*``,
``typescript.referencesCodeLens.enabled``): the server passes those settings on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass

from lsprotocol import types
from pygls.lsp import get_method_options_type

from ..context import Document, DocumentKind, Feature, Host
from ..tsserver import TsUnavailable
from .typescript import CONVERTER, structure_result, to_json

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Forward:
    method: str
    provider: str  # the key of tsc's ServerCapabilities that says it answers ``method``
    feature: str  # what a player calls it (docs/editors.md)
    about_document: bool = (
        True  # params name a document (``textDocument``); else an item or the workspace
    )


FORWARDS: tuple[Forward, ...] = (
    Forward(types.TEXT_DOCUMENT_DEFINITION, "definitionProvider", "go to definition"),
    Forward(types.TEXT_DOCUMENT_TYPE_DEFINITION, "typeDefinitionProvider", "go to type definition"),
    Forward(types.TEXT_DOCUMENT_IMPLEMENTATION, "implementationProvider", "go to implementation"),
    Forward(types.TEXT_DOCUMENT_REFERENCES, "referencesProvider", "find references"),
    Forward(
        types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT,
        "documentHighlightProvider",
        "highlight a symbol's uses",
    ),
    Forward(
        types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, "documentSymbolProvider", "document symbols (outline)"
    ),
    Forward(
        types.WORKSPACE_SYMBOL, "workspaceSymbolProvider", "workspace symbols", about_document=False
    ),
    Forward(types.TEXT_DOCUMENT_SIGNATURE_HELP, "signatureHelpProvider", "signature help"),
    Forward(types.TEXT_DOCUMENT_PREPARE_RENAME, "renameProvider", "rename (prepare)"),
    Forward(types.TEXT_DOCUMENT_RENAME, "renameProvider", "rename"),
    Forward(types.TEXT_DOCUMENT_FORMATTING, "documentFormattingProvider", "format document"),
    Forward(
        types.TEXT_DOCUMENT_RANGE_FORMATTING, "documentRangeFormattingProvider", "format selection"
    ),
    Forward(
        types.TEXT_DOCUMENT_ON_TYPE_FORMATTING, "documentOnTypeFormattingProvider", "format on type"
    ),
    Forward(types.TEXT_DOCUMENT_FOLDING_RANGE, "foldingRangeProvider", "folding ranges"),
    Forward(types.TEXT_DOCUMENT_SELECTION_RANGE, "selectionRangeProvider", "expand selection"),
    Forward(types.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY, "callHierarchyProvider", "call hierarchy"),
    Forward(
        types.CALL_HIERARCHY_INCOMING_CALLS,
        "callHierarchyProvider",
        "call hierarchy: incoming calls",
        about_document=False,
    ),
    Forward(
        types.CALL_HIERARCHY_OUTGOING_CALLS,
        "callHierarchyProvider",
        "call hierarchy: outgoing calls",
        about_document=False,
    ),
    Forward(types.TEXT_DOCUMENT_INLAY_HINT, "inlayHintProvider", "inlay hints"),
    Forward(
        types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, "semanticTokensProvider", "semantic highlighting"
    ),
    Forward(
        types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE,
        "semanticTokensProvider",
        "semantic highlighting (range)",
    ),
    Forward(
        types.WORKSPACE_WILL_RENAME_FILES,
        "workspace",
        "update imports when a file is renamed",
        about_document=False,
    ),
)

TYPESCRIPT_KINDS = frozenset({DocumentKind.SCRIPT, DocumentKind.TYPINGS})

#: The capabilities typescript 7.0.x's ``tsc --lsp`` gives (the ones this module reads), with the
#: semantic token legend of every type it knows: what an editor that cannot register a feature
#: later is offered before tsc has started. ``tests/lsp/test_start_registration.py`` compares
#: them with the real tsc's for several editors' capabilities.
PINNED: dict = {
    "signatureHelpProvider": {"triggerCharacters": ["(", ",", "<"], "retriggerCharacters": [")"]},
    "definitionProvider": True,
    "typeDefinitionProvider": True,
    "implementationProvider": True,
    "referencesProvider": True,
    "documentHighlightProvider": True,
    "documentSymbolProvider": True,
    "codeActionProvider": {
        "codeActionKinds": [
            "quickfix",
            "source.organizeImports",
            "source.removeUnusedImports",
            "source.sortImports",
            "source.fixAll",
        ]
    },
    "codeLensProvider": {"resolveProvider": True},
    "workspaceSymbolProvider": True,
    "documentFormattingProvider": True,
    "documentRangeFormattingProvider": True,
    "documentOnTypeFormattingProvider": {
        "firstTriggerCharacter": "{",
        "moreTriggerCharacter": ["}", ";", "\n"],
    },
    "renameProvider": {"prepareProvider": True},
    "foldingRangeProvider": True,
    "selectionRangeProvider": True,
    "callHierarchyProvider": True,
    "semanticTokensProvider": {
        "legend": {
            "tokenTypes": [
                "namespace",
                "class",
                "enum",
                "interface",
                "struct",
                "typeParameter",
                "type",
                "parameter",
                "variable",
                "property",
                "enumMember",
                "decorator",
                "event",
                "function",
                "method",
                "macro",
                "comment",
                "string",
                "keyword",
                "number",
                "regexp",
                "operator",
            ],  # fmt: skip
            "tokenModifiers": [
                "declaration",
                "definition",
                "readonly",
                "static",
                "deprecated",
                "abstract",
                "async",
                "modification",
                "documentation",
                "defaultLibrary",
            ],  # fmt: skip
        },
        "range": True,
        "full": True,
    },
    "inlayHintProvider": True,
    "workspace": {
        "fileOperations": {
            "willRename": {
                "filters": [
                    {
                        "scheme": "file",
                        "pattern": {"glob": "**/*.{ts,tsx,js,jsx,cts,cjs,mts,mjs,json}"},
                    }
                ]
            }
        }
    },
}

#: The client capability that says whether a forwarded method can be registered later.
_CLIENT_CAPABILITY = {
    "textDocument/prepareRename": "rename",
    "textDocument/prepareCallHierarchy": "callHierarchy",
    "callHierarchy/incomingCalls": "callHierarchy",
    "callHierarchy/outgoingCalls": "callHierarchy",
    "textDocument/semanticTokens/full": "semanticTokens",
    "textDocument/semanticTokens/range": "semanticTokens",
}


def registers_later(client: dict, forward: Forward) -> bool:
    """Whether the editor (its capabilities as LSP JSON) takes ``forward`` registered later."""
    if forward.method == types.WORKSPACE_SYMBOL:
        found = (client.get("workspace") or {}).get("symbol")
    elif forward.method == types.WORKSPACE_WILL_RENAME_FILES:
        found = (client.get("workspace") or {}).get("fileOperations")
    else:
        name = _CLIENT_CAPABILITY.get(forward.method, forward.method.split("/", 1)[1])
        found = (client.get("textDocument") or {}).get(name)
    return isinstance(found, dict) and found.get("dynamicRegistration") is True


def renumber_tokens(raw: object, theirs: dict | None, ours: dict | None) -> object:
    """tsc's semantic tokens (numbered by its ``theirs`` legend) numbered by the legend offered
    to the editor (``ours``); unchanged when they are the same."""
    if not (isinstance(raw, dict) and isinstance(raw.get("data"), list) and theirs and ours):
        return raw
    if theirs == ours:
        return raw
    types_at = {name: i for i, name in enumerate(ours.get("tokenTypes") or [])}
    mods_at = {name: i for i, name in enumerate(ours.get("tokenModifiers") or [])}
    type_map = [types_at.get(name, types_at.get("variable", 0)) for name in theirs["tokenTypes"]]
    mod_map = [mods_at.get(name) for name in theirs.get("tokenModifiers") or []]
    data = list(raw["data"])
    for i in range(3, len(data), 5):
        t = data[i]
        data[i] = type_map[t] if 0 <= t < len(type_map) else t
        bits, mods = data[i + 1], 0
        for bit, target in enumerate(mod_map):
            if bits & (1 << bit) and target is not None:
                mods |= 1 << target
        data[i + 1] = mods
    return {**raw, "data": data}


def provided(capabilities: dict, forward: Forward) -> object:
    """tsc's options for ``forward`` (truthy when it answers it)."""
    value = capabilities.get(forward.provider)
    if forward.method == types.WORKSPACE_WILL_RENAME_FILES:
        return ((value or {}).get("fileOperations") or {}).get("willRename")
    if forward.method in (
        types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
        types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE,
    ):
        # Both need the legend, which FULL's registration carries (tsc sends an empty one to an
        # editor that did not say which token types it knows: then there is nothing to offer).
        if not isinstance(value, dict):
            return None
        legend = value.get("legend")
        if not (isinstance(legend, dict) and legend.get("tokenTypes") and value.get("full")):
            return None
        return (
            value
            if forward.method == types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL or value.get("range")
            else None
        )
    if forward.method == types.TEXT_DOCUMENT_PREPARE_RENAME:
        return isinstance(value, dict) and value.get("prepareProvider")
    return value


def options_for(forward: Forward, value: object) -> object | None:
    """The options to register ``forward`` with: tsc's own, as the lsprotocol type pygls wants."""
    if forward.method == types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL:
        legend = value.get("legend") if isinstance(value, dict) else None
        return CONVERTER.structure(legend, types.SemanticTokensLegend)
    if forward.method == types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE:
        return None  # registered beside FULL, which carries the legend
    if forward.method == types.TEXT_DOCUMENT_RENAME:
        return (
            types.RenameOptions(prepare_provider=True)
            if isinstance(value, dict) and value.get("prepareProvider")
            else None
        )
    options_type = get_method_options_type(forward.method)
    if not isinstance(value, dict) or options_type is None:
        return None
    try:
        return CONVERTER.structure(value, options_type)
    except Exception:  # an option this lsprotocol does not know: offer the feature plainly
        log.warning("tsc's options for %s are not understood: %r", forward.method, value)
        return None


def _concerns_typescript(server: Host, forward: Forward, raw_params: dict) -> bool:
    if forward.method == types.WORKSPACE_WILL_RENAME_FILES:
        files = raw_params.get("files") or []
        return any(
            str(f.get("oldUri", "")).endswith(".ts")
            or "." not in str(f.get("oldUri", "")).rsplit("/", 1)[-1]
            for f in files
        )
    if not forward.about_document:
        return True
    uri = (raw_params.get("textDocument") or {}).get("uri")
    document = server.document(uri) if isinstance(uri, str) else None
    return document is not None and document.kind in TYPESCRIPT_KINDS


def handler(forward: Forward, legend: Callable[[], dict | None] = lambda: None) -> Callable:
    """The route of ``forward``; ``legend()``: the semantic token legend the editor was given."""

    async def forward_to_tsc(ls: Host, params):
        raw_params = to_json(params)
        if not isinstance(raw_params, dict) or not _concerns_typescript(ls, forward, raw_params):
            return None
        try:
            raw = await ls.ts.request(forward.method, raw_params)
        except TsUnavailable:
            return None
        if forward.method in (
            types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
            types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE,
        ):
            theirs = (ls.ts.capabilities.get("semanticTokensProvider") or {}).get("legend")
            raw = renumber_tokens(raw, theirs, legend())
        try:
            return structure_result(forward.method, raw)
        except Exception:  # an answer this lsprotocol cannot read is dropped, not sent on half-read
            log.warning("tsc's answer to %s is not understood: %r", forward.method, raw)
            return None

    forward_to_tsc.__name__ = "forward_" + forward.method.replace("/", "_")
    return forward_to_tsc


def register(
    server: Host,
    capabilities: dict,
    forwards=FORWARDS,
    legend: Callable[[], dict | None] = lambda: None,
) -> list[Forward]:
    """Offer each of ``forwards`` that ``capabilities`` (tsc's) say tsc answers, with those
    options, while the server answers ``initialize``; returns those offered."""
    offered = []
    for forward in forwards:
        value = provided(capabilities, forward)
        if not value:
            continue
        server.offer(forward.method, options_for(forward, value), handler(forward, legend))
        offered.append(forward)
    return offered


def registration(forward: Forward, value: object) -> types.Registration:
    """``forward`` as a ``client/registerCapability`` entry, with tsc's options ``value``."""
    options = options_for(forward, value)
    raw = to_json(options) if options is not None else {}
    if forward.method == types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL and isinstance(value, dict):
        raw = {"legend": value.get("legend"), "full": True, "range": bool(value.get("range"))}
    if forward.method == types.WORKSPACE_WILL_RENAME_FILES:
        raw = value if isinstance(value, dict) else {}
    elif forward.about_document or forward.method.startswith("callHierarchy/"):
        raw = {**(raw if isinstance(raw, dict) else {}), "documentSelector": None}
    return types.Registration(
        id=f"nova:{forward.method}", method=forward.method, register_options=raw
    )


# --- merged with Nova's own: code actions and code lenses ---------------------------------------


async def _merged(server: Host, method: str, params: object, what: str) -> list:
    """tsc's answer to ``method`` as a list, to join with Nova's own (nothing when tsc cannot say)."""
    try:
        raw = await server.ts.request(method, to_json(params))
        return list(structure_result(method, raw) or [])
    except TsUnavailable:
        return []
    except Exception:
        log.warning("tsc's %s are not understood", what, exc_info=True)
        return []


async def code_actions(server: Host, params: types.CodeActionParams) -> list:
    """tsc's code actions (its quick fixes, organize imports...) for a script."""
    return await _merged(server, types.TEXT_DOCUMENT_CODE_ACTION, params, "code actions")


async def code_lenses(server: Host, params: types.CodeLensParams) -> list[types.CodeLens]:
    """tsc's code lenses (references, implementations: when its preferences turn them on)."""
    return await _merged(server, types.TEXT_DOCUMENT_CODE_LENS, params, "code lenses")


def is_tsc_lens(lens: types.CodeLens) -> bool:
    return lens.command is None and lens.data is not None


async def resolve_code_lens(server: Host, lens: types.CodeLens) -> types.CodeLens:
    try:
        raw = await server.ts.request(types.CODE_LENS_RESOLVE, to_json(lens))
        return structure_result(types.CODE_LENS_RESOLVE, raw) or lens
    except TsUnavailable:
        return lens


def code_action_kinds(capabilities: dict, ours: list[str]) -> list[str]:
    provider = capabilities.get("codeActionProvider")
    theirs = provider.get("codeActionKinds") or [] if isinstance(provider, dict) else []
    return list(dict.fromkeys([*ours, *theirs]))


class ForwardedFeature(Feature):
    """tsc's own features for scripts and typings, offered as tsc offers them; and its code
    actions and code lenses beside Nova's."""

    kinds = TYPESCRIPT_KINDS

    def __init__(self, server: Host) -> None:
        super().__init__(server)
        self.capabilities: dict = {}  # tsc's (PINNED until it has started), when forwarded
        self.offered: list[Forward] = []
        self.later: list[Forward] = []  # registered once tsc has started
        self.legend: dict | None = None  # the semantic token legend the editor was given

    async def initialize(self, params: types.InitializeParams) -> None:
        """Answered at once: what the editor can register later waits for tsc (:meth:`initialized`);
        the rest is offered now with tsc 7.0.x's options (:data:`PINNED`)."""
        if not self.server.forward_typescript:
            return
        client = to_json(params.capabilities) or {}
        self.later = [f for f in FORWARDS if registers_later(client, f)]
        # tsc colours only what the editor says it knows (it offers no legend to one that knows
        # no token types): neither is it offered here
        knows = ((client.get("textDocument") or {}).get("semanticTokens") or {}).get("tokenTypes")
        now = [
            f
            for f in FORWARDS
            if f not in self.later and (knows or "semanticTokens" not in f.method)
        ]
        self.capabilities = PINNED
        self.legend = PINNED["semanticTokensProvider"]["legend"]
        self.offered = register(self.server, PINNED, now, lambda: self.legend)

    async def initialized(self) -> None:
        if self.later:
            asyncio.ensure_future(self._register_later())

    async def _register_later(self) -> None:
        """Once tsc has started: route and register (``client/registerCapability``) what it
        answers of :attr:`later`, with its own options."""
        server = self.server
        try:
            await server.ts.start()
        except TsUnavailable as error:
            log.warning(
                "the TypeScript checker did not start (%s): its features are not registered", error
            )
            return
        theirs = server.ts.capabilities or {}
        self.capabilities = {**PINNED, **theirs}
        registrations = []
        for forward in self.later:
            value = provided(theirs, forward)
            if not value:
                continue
            if forward.method == types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL:
                self.legend = value.get("legend") if isinstance(value, dict) else None
            server.offer(forward.method, None, handler(forward, lambda: self.legend))
            if forward.method != types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE:  # FULL carries it
                registrations.append(registration(forward, value))
            self.offered.append(forward)
        if not registrations:
            return
        try:
            await server.register_capabilities(registrations)
        except Exception as error:  # the editor refused: what it was offered at once stays
            log.warning("client/registerCapability failed: %s", error)

    async def code_lenses(
        self, document: Document, params: types.CodeLensParams
    ) -> list[types.CodeLens]:
        if document.kind is not DocumentKind.SCRIPT or not self.capabilities.get(
            "codeLensProvider"
        ):
            return []
        return await code_lenses(self.server, params)

    def resolves_code_lenses(self) -> bool:
        provider = self.capabilities.get("codeLensProvider")
        return isinstance(provider, dict) and bool(provider.get("resolveProvider"))

    async def resolve_code_lens(self, lens: types.CodeLens) -> types.CodeLens | None:
        return await resolve_code_lens(self.server, lens) if is_tsc_lens(lens) else None

    async def code_actions(self, document: Document, params: types.CodeActionParams) -> list:
        if not self.capabilities.get("codeActionProvider"):
            return []
        return await code_actions(self.server, params)

    def code_action_kinds(self) -> list[str]:
        return code_action_kinds(self.capabilities, []) if self.capabilities else []
