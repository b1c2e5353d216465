"""The Nova language server: the features, and which LSP method reaches which of them (pygls 2).

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
:class:`~nova_tools.lsp.tsserver.TsServer`, started while the server answers ``initialize`` so
that the features it answers can be offered with its options. An editor that runs its own
TypeScript server (VS Code) passes ``{"nova": {"forwardTypeScript": false}}`` as initialization
options: then only diagnostics, hover and completion come from tsc.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types
from lsprotocol.types import ResponseError
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method
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
from .settings import RulesContext, Settings
from .tsserver import CONFIGURATION_SECTIONS, TsServer, uri_to_path

log = logging.getLogger(__name__)

# What stands in for a message that was refused here or skipped unread (lsp.BoundedInput): a
# notification the server ignores.
IGNORED = "$/nova/ignored"
COMPLETION_TRIGGERS = [".", '"', "'", "`", "/", "@", "<", "#", " "]
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


class NovaProtocol(LanguageServerProtocol):
    """Positions are always UTF-16: the tsc child speaks nothing else, and every client must
    accept UTF-16 (the LSP default). So the client's other offers are not taken up.

    A request whose parameters do not fit the protocol (a position at line -1, say) gets an
    error reply (InvalidParams) with its id: pygls alone logs it and answers nothing, and the
    client waits for ever. The server's log gets one line for it, not pygls's traceback (a
    client sending such requests in a loop would fill an editor's log, or a pipe no one reads)."""

    def structure_message(self, data: dict):
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            method = str(data.get("method"))[:80] if isinstance(data, dict) else "?"
            msg_id = data.get("id") if isinstance(data, dict) else None
            reason = (
                "its parameters do not fit the protocol"
                if isinstance(error, JsonRpcInvalidParams)
                else "it could not be read"
            )
            if "method" in data and isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool):
                self._send_response(
                    msg_id,
                    error=ResponseError(code=error.code, message=f"{method} was refused: {reason}"),
                )
            log.warning(
                "%s was refused: %s (%s)",
                method,
                reason,
                " ".join(str(error.__cause__ or error).split())[:200],
            )
            return super().structure_message({"jsonrpc": "2.0", "method": IGNORED, "params": None})

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams):
        if params.capabilities.general is not None:
            params.capabilities.general.position_encodings = None
        result = yield from super().lsp_initialize(params)
        if not self._server.diagnostics.pull:
            # Offered pull diagnostics, a client pulls *instead of* taking pushes; one that cannot
            # be asked to pull again would never see a dry-run verdict. So it is not offered them.
            result.capabilities.diagnostic_provider = None
        return result


def _not_pygls_deserialize_trace(record: logging.LogRecord) -> bool:
    """pygls logs a message it cannot structure with a whole traceback before NovaProtocol gets
    to word it in one line; that traceback is dropped."""
    return not str(record.msg).startswith("Unable to deserialize message")


logging.getLogger("pygls.protocol.json_rpc").addFilter(_not_pygls_deserialize_trace)


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
        """The document if the client has it open (never read from disk)."""
        return self.workspace.text_documents.get(uri)

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

    # --- talking to the client -------------------------------------------------------------------

    def show_message(self, kind: types.MessageType, message: str) -> None:
        self.window_show_message(types.ShowMessageParams(type=kind, message=message))

    def offer(self, method: str, options: object, handler: Callable[..., Any]) -> None:
        self.feature(method, options)(handler)

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
        if formats and types.MarkupKind.Markdown not in formats:
            return types.MarkupKind.PlainText
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


def _root_of(params: types.InitializeParams) -> Path | None:
    for uri in [f.uri for f in (params.workspace_folders or [])] + [params.root_uri]:
        if uri and (path := uri_to_path(uri)) is not None:
            return path
    return Path(params.root_path) if params.root_path else None


def create_server() -> NovaServer:
    server = NovaServer()

    @server.feature(IGNORED)
    def ignored(ls: NovaServer, params: Any) -> None:
        """A message refused or skipped unread: already logged (and answered, if it asked)."""

    # --- life cycle ----------------------------------------------------------------------------

    @server.feature(types.INITIALIZE)
    async def initialize(ls: NovaServer, params: types.InitializeParams) -> None:
        ls.root = _root_of(params)
        ls.diagnostics.configure(params.capabilities)
        ls.init_settings = Settings.from_json(params.initialization_options)
        ls.forward_typescript = _forward_typescript(params.initialization_options)
        ls.apply_settings(
            refresh=False
        )  # nothing is open yet, and no request may go out before initialized
        for feature in ls.features:
            feature.begin()
        for feature in ls.features:
            await feature.initialize(params)
        _register_merged(ls)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: NovaServer, params: types.InitializedParams) -> None:
        for feature in ls.features:
            await feature.initialized()
        await ls.pull_settings()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(
        ls: NovaServer, params: types.DidChangeConfigurationParams
    ) -> None:
        settings = params.settings
        if isinstance(settings, dict) and any(
            isinstance(settings.get(s), dict) for s in CONFIGURATION_SECTIONS
        ):
            ls.ts.configure(settings)
        if isinstance(settings, dict) and isinstance(settings.get("nova"), dict):
            ls.client_settings = Settings.from_json(settings)
            ls.apply_settings()
        else:
            await ls.pull_settings()

    @server.feature(types.SHUTDOWN)
    async def shutdown(ls: NovaServer, params: None) -> None:
        for feature in ls.features:
            await feature.shutdown()

    @server.feature(types.EXIT)
    def exit_(ls: NovaServer, params: None) -> None:
        for feature in ls.features:
            feature.exit()

    # --- documents -----------------------------------------------------------------------------
    # Synchronous on purpose: edits reach the tsc child in the order they were made.

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: NovaServer, params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        ls.text_changed(
            Document(item.uri, item.text, item.version, kind_of(item.uri, item.text)), opened=True
        )

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: NovaServer, params: types.DidChangeTextDocumentParams) -> None:
        if (document := ls.document(params.text_document.uri)) is not None:
            ls.text_changed(document, opened=False)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: NovaServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        for feature in ls.features:  # the document may be gone already: every feature forgets it
            feature.closed(uri)
        ls.diagnostics.closed(uri)

    # --- answers ---------------------------------------------------------------------------------

    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier="nova", inter_file_dependencies=True, workspace_diagnostics=False
        ),
    )
    async def pull_diagnostics(ls: NovaServer, params: types.DocumentDiagnosticParams):
        items = await ls.diagnostics.collect(params.text_document.uri)
        return types.RelatedFullDocumentDiagnosticReport(items=items)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: NovaServer, params: types.HoverParams):
        return await ls.first_answer("hover", params)

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=COMPLETION_TRIGGERS, resolve_provider=True),
    )
    async def on_completion(ls: NovaServer, params: types.CompletionParams):
        return await ls.first_answer("completion", params)

    @server.feature(types.COMPLETION_ITEM_RESOLVE)
    async def on_completion_resolve(ls: NovaServer, item: types.CompletionItem):
        return await ls.resolved("resolve_completion", item)

    # --- commands (code lenses and code actions: see _register_merged) ---------------------------

    for feature in server.features:
        for name, run in feature.commands().items():
            _command(server, name, run)

    return server


def _command(server: NovaServer, name: str, run) -> None:
    @server.command(name)
    async def on_command(ls: NovaServer, *arguments):
        return await run(*arguments)


def _forward_typescript(options: object) -> bool:
    nova = options.get("nova") if isinstance(options, dict) else None
    value = nova.get("forwardTypeScript") if isinstance(nova, dict) else None
    return value is not False


def _register_merged(server: NovaServer) -> None:
    """Code lenses and code actions, joined over the features; registered once the features have
    initialised, because their options depend on what tsc answers (when it is forwarded)."""
    resolve_lenses = any(f.resolves_code_lenses() for f in server.features)
    kinds = list(dict.fromkeys(kind for f in server.features for kind in f.code_action_kinds()))

    @server.feature(
        types.TEXT_DOCUMENT_CODE_LENS,
        types.CodeLensOptions(resolve_provider=resolve_lenses or None),
    )
    async def on_code_lens(ls: NovaServer, params: types.CodeLensParams):
        return await ls.joined_answers("code_lenses", params)

    if resolve_lenses:

        @server.feature(types.CODE_LENS_RESOLVE)
        async def on_code_lens_resolve(ls: NovaServer, lens: types.CodeLens):
            return await ls.resolved("resolve_code_lens", lens)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=kinds)
    )
    async def on_code_action(ls: NovaServer, params: types.CodeActionParams):
        return await ls.joined_answers("code_actions", params)
