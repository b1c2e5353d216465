"""The Nova language server: the features, and which LSP method reaches which of them (pygls 2).
The routes themselves (and :func:`~.routes.create_server`) are in :mod:`.routes` (grouped: life cycle, documents, answers, commands,
joined answers), the protocol's edges (messages that do not fit, ``initialize``) in
:mod:`.protocol`.

Each editor feature is a :class:`~nova_tools.lsp.context.Feature` in its own module under
:mod:`nova_tools.lsp.features`, holding its own state; this module decides once what kind a
document is (:func:`~nova_tools.lsp.context.kind_of`) and hands each method to the features that
serve that kind, in the order of ``FEATURES``:

=====================  =======================================  ===============================
method                 android script (``*.ts``)                rules file
=====================  =======================================  ===============================
diagnostics            typescript + checks + dry_run            rules_files
hover                  hover (+ tsc's own)                      rules_files
completion             typescript (tsc, through the typings)    rules_files (keys)
code lens, command     dry_run (``nova.dryRun``) + tsc's        -
code action            checks (quick fixes) + tsc's             -
everything else tsc    forwarded (definition, references,       -
answers                rename, symbols, formatting, hints...)
=====================  =======================================  ===============================

Diagnostics, code lenses and code actions of several features are joined; hover and completion
take the first feature's answer. Game facts come from :mod:`nova_tools.api` and
:mod:`nova_tools.rules`; the TypeScript checker runs in a child process behind
:class:`~nova_tools.lsp.tsserver.TsServer`, started behind ``initialize``, which is answered at
once: the features tsc answers are registered once it has started when the editor takes
registrations later, else offered at once with tsc 7.0.x's options (:mod:`.features.forwarded`). An editor that runs its own
TypeScript server (VS Code) passes ``{"nova": {"forwardTypeScript": false}}`` as initialization
options: then only diagnostics, hover and completion come from tsc.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument

from .. import __version__
from ..toolchain.typecheck import typings_path
from .context import Document, Feature, kind_of
from .features.checks import ChecksFeature
from .features.diagnostics import DiagnosticsHub
from .features.dry_run import DryRunFeature
from .features.forwarded import ForwardedFeature
from .features.hover import HoverFeature
from .features.rules_files import RulesFilesFeature, resolve_text
from .features.typescript import TypeScriptFeature
from .protocol import NovaProtocol
from .settings import RulesContext, Settings
from .tsserver import CONFIGURATION_SECTIONS, TsServer, uri_to_path

log = logging.getLogger(__name__)

# the features, in the order their answers are joined (the TypeScript feature starts tsc at
# initialize; the forwarded one then offers what tsc answers)
FEATURES: tuple[type[Feature], ...] = (
    TypeScriptFeature,
    HoverFeature,
    ChecksFeature,
    DryRunFeature,
    RulesFilesFeature,
    ForwardedFeature,
)


class NovaServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("nova", __version__, protocol_cls=NovaProtocol, max_workers=4)
        self.root: Path | None = None
        self.init_settings = Settings()  # from initializationOptions
        self.client_settings = Settings()  # from workspace/configuration
        self.settings = Settings()
        self.rules = RulesContext(self.open_text, resolve_text)
        self.ts = TsServer(typings=typings_path())
        self.diagnostics = DiagnosticsHub(self)
        self.forward_typescript = True  # offer every feature tsc answers (initializationOptions)
        self.features: list[Feature] = [feature(self) for feature in FEATURES]

    # --- documents -----------------------------------------------------------------------------

    def open_document(self, uri: str) -> TextDocument | None:
        """The document if the client has it open (never read from disk). pygls keeps documents
        by their URI percent-decoded (``entr%C3%A9e`` as ``entrée``)."""
        return self.workspace.text_documents.get(unquote(uri))

    def document(self, uri: str) -> Document | None:
        """The open document with its kind (None when the client does not have it open)."""
        document = self.open_document(uri)
        if document is None:
            return None
        return Document(uri, document.source, document.version, kind_of(uri, document.source))

    def serving(self, document: Document | None) -> list[Feature]:
        """The features that serve this kind of document, in order."""
        return [f for f in self.features if f.serves(document)] if document is not None else []

    def text_changed(self, document: Document, *, opened: bool) -> None:
        """A document was opened or edited: its features follow, then its diagnostics are due."""
        for feature in self.serving(document):
            if opened:
                feature.opened(document)
            else:
                feature.changed(document)
        if document.kind is not None:
            self.diagnostics.changed(document.uri)

    async def collect_diagnostics(self, uri: str) -> list[types.Diagnostic]:
        document = self.document(uri)
        items: list[types.Diagnostic] = []
        if document is None:
            return items
        for feature in self.serving(document):
            items += await feature.diagnostics(document)
        return items

    async def first_answer(self, hook: str, params: Any) -> Any:
        """The first answer of the features serving ``params``'s document (hover, completion)."""
        document = self.document(params.text_document.uri)
        for feature in self.serving(document):
            if (found := await getattr(feature, hook)(document, params)) is not None:
                return found
        return None

    async def resolved(self, hook: str, item: Any) -> Any:
        """An item (a completion, a lens) resolved by the feature it is from, else as it is."""
        for feature in self.features:
            if (found := await getattr(feature, hook)(item)) is not None:
                return found
        return item

    async def joined_answers(self, hook: str, params: Any) -> list:
        """Every answer of the features serving ``params``'s document, in order (lenses, actions)."""
        document = self.document(params.text_document.uri)
        return [
            item
            for feature in self.serving(document)
            for item in await getattr(feature, hook)(document, params)
        ]

    def open_text(self, path: Path) -> tuple[str, int] | None:
        document = self.open_document(path.resolve().as_uri())
        return (document.source, document.version or 0) if document is not None else None

    def read_text(self, path: Path) -> str | None:
        """An open buffer's text, else the file's."""
        if (buffer := self.open_text(path)) is not None:
            return buffer[0]
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def buffers(self) -> dict[Path, str]:
        """The text of every open file (``file:`` documents) by its absolute path, saved or not."""
        return {
            path.resolve(): document.source
            for document in self.workspace.text_documents.values()
            if (path := uri_to_path(document.uri)) is not None
        }

    # --- talking to the client -------------------------------------------------------------------

    def show_message(self, kind: types.MessageType, message: str) -> None:
        self.window_show_message(types.ShowMessageParams(type=kind, message=message))

    def offer(self, method: str, options: object, handler: Callable[..., Any]) -> None:
        self.feature(method, options)(handler)

    async def register_capabilities(self, registrations: list[types.Registration]) -> None:
        await self.client_register_capability_async(
            types.RegistrationParams(registrations=registrations)
        )

    def refresh_code_lenses(self) -> None:
        workspace = self.client_capabilities.workspace
        if workspace and workspace.code_lens and workspace.code_lens.refresh_support:
            future = self.workspace_code_lens_refresh(None)
            future.add_done_callback(lambda f: f.exception() if not f.cancelled() else None)

    def markup_kind(self) -> types.MarkupKind:
        hover_caps = (
            self.client_capabilities.text_document and self.client_capabilities.text_document.hover
        )
        formats = hover_caps.content_format if hover_caps else None
        # the client's order is its preference; one that says nothing reads Markdown (VS Code)
        for kind in formats or ():
            if kind in (types.MarkupKind.Markdown, types.MarkupKind.PlainText):
                return types.MarkupKind(kind)
        return types.MarkupKind.Markdown

    # --- settings --------------------------------------------------------------------------------

    def apply_settings(self, *, refresh: bool = True) -> None:
        self.settings = self.client_settings.over(self.init_settings)
        self.rules.root = self.root
        self.rules.settings = self.settings
        if refresh:
            self.diagnostics.results_changed()

    async def pull_settings(self) -> None:
        """``nova`` settings for the server, and tsc's preferences (``typescript``, ``editor``...)
        passed on to the child, from ``workspace/configuration`` when the editor answers it."""
        workspace = self.client_capabilities.workspace
        if not (workspace and workspace.configuration):
            return
        sections = ("nova", *CONFIGURATION_SECTIONS)
        try:
            result = await self.workspace_configuration_async(
                types.ConfigurationParams(
                    items=[types.ConfigurationItem(section=s) for s in sections]
                )
            )
        except (
            Exception
        ) as error:  # a client that cannot answer keeps the settings it gave at start
            log.warning("workspace/configuration failed: %s", error)
            return
        result = list(result or [])
        self.client_settings = Settings.from_json(result[0] if result else None)
        self.ts.configure(
            {s: v for s, v in zip(sections[1:], result[1:], strict=False) if isinstance(v, dict)}
        )
        self.apply_settings()

    async def relay_from_tsc(self, method: str, params: object) -> None:
        """tsc asks the editor to refresh what it showed (see ``tsserver.RELAYED_REQUESTS``)."""
        if method == types.WORKSPACE_DIAGNOSTIC_REFRESH:
            self.diagnostics.results_changed()
            return
        workspace = self.client_capabilities.workspace
        supported = {
            types.WORKSPACE_INLAY_HINT_REFRESH: workspace
            and workspace.inlay_hint
            and workspace.inlay_hint.refresh_support,
            types.WORKSPACE_SEMANTIC_TOKENS_REFRESH: workspace
            and workspace.semantic_tokens
            and workspace.semantic_tokens.refresh_support,
            types.WORKSPACE_CODE_LENS_REFRESH: workspace
            and workspace.code_lens
            and workspace.code_lens.refresh_support,
        }
        if supported.get(method):
            await self.protocol.send_request_async(method, None)
