"""The Nova language server: wiring of the features to LSP methods (pygls 2).

Each editor feature lives in its own module under :mod:`nova_tools.lsp.features`; this module
only says which feature answers which method for which kind of document:

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

Game facts come from :mod:`nova_tools.api` and :mod:`nova_tools.rules`; the TypeScript checker
runs in a child process behind :class:`~nova_tools.lsp.tsserver.TsServer`, started while the
server answers ``initialize`` so that the features it answers can be offered with its options.
An editor that runs its own TypeScript server (VS Code) passes ``{"nova": {"forwardTypeScript":
false}}`` as initialization options: then only diagnostics, hover and completion come from tsc.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.workspace import TextDocument

from .. import __version__
from ..toolchain.typecheck import typings_path
from .features import checks, dry_run, forwarded, hover, rules_files, typescript
from .features.diagnostics import DiagnosticsHub
from .settings import RulesContext, Settings
from .tsserver import CONFIGURATION_SECTIONS, TsServer, TsUnavailable, uri_to_path

log = logging.getLogger(__name__)

COMPLETION_TRIGGERS = [".", '"', "'", "`", "/", "@", "<", "#", " "]
TSC_START_AT_INITIALIZE_S = 10.0  # past this, the session goes on without tsc's extra features


class NovaProtocol(LanguageServerProtocol):
    """Positions are always UTF-16: the tsc child speaks nothing else, and every client must
    accept UTF-16 (the LSP default). So the client's other offers are not taken up."""

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


class NovaServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("nova", __version__, protocol_cls=NovaProtocol, max_workers=4)
        self.root: Path | None = None
        self.init_settings = Settings()  # from initializationOptions
        self.client_settings = Settings()  # from workspace/configuration
        self.settings = Settings()
        self.rules = RulesContext(self.open_text, rules_files.resolve_text)
        self.ts = TsServer(typings=typings_path())
        self.diagnostics = DiagnosticsHub(self)
        self.dry_runs: dict[str, dry_run.LastRun] = {}
        self.dry_run_lock = asyncio.Lock()
        self.forward_typescript = True  # offer every feature tsc answers (initializationOptions)
        self.forwarded: list[forwarded.Forward] = []

    # --- documents -----------------------------------------------------------------------------

    def open_document(self, uri: str) -> TextDocument | None:
        """The document if the client has it open (never read from disk)."""
        return self.workspace.text_documents.get(uri)

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

    @staticmethod
    def kind_of(uri: str, text: str) -> str | None:
        name = unquote(uri.rsplit("/", 1)[-1])
        if name.endswith(".d.ts"):
            return "typings"
        if name.endswith(".ts"):
            return "script"
        if rules_files.is_rules_document(name, text):
            return "rules"
        return None

    def refresh_code_lenses(self) -> None:
        workspace = self.client_capabilities.workspace
        if workspace and workspace.code_lens and workspace.code_lens.refresh_support:
            future = self.workspace_code_lens_refresh(None)
            future.add_done_callback(lambda f: f.exception() if not f.cancelled() else None)

    def markup_kind(self) -> types.MarkupKind:
        hover_caps = self.client_capabilities.text_document and self.client_capabilities.text_document.hover
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
                types.ConfigurationParams(items=[types.ConfigurationItem(section=s) for s in sections])
            )
        except Exception as error:  # a client that cannot answer keeps the settings it gave at start
            log.warning("workspace/configuration failed: %s", error)
            return
        result = list(result or [])
        self.client_settings = Settings.from_json(result[0] if result else None)
        self.ts.configure({s: v for s, v in zip(sections[1:], result[1:]) if isinstance(v, dict)})
        self.apply_settings()

    async def relay_from_tsc(self, method: str, params: object) -> None:
        """tsc asks the editor to refresh what it showed (see ``tsserver.RELAYED_REQUESTS``)."""
        if method == types.WORKSPACE_DIAGNOSTIC_REFRESH:
            self.diagnostics.results_changed()
            return
        workspace = self.client_capabilities.workspace
        supported = {
            types.WORKSPACE_INLAY_HINT_REFRESH: workspace and workspace.inlay_hint and workspace.inlay_hint.refresh_support,
            types.WORKSPACE_SEMANTIC_TOKENS_REFRESH: workspace and workspace.semantic_tokens and workspace.semantic_tokens.refresh_support,
            types.WORKSPACE_CODE_LENS_REFRESH: workspace and workspace.code_lens and workspace.code_lens.refresh_support,
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

    # --- life cycle ----------------------------------------------------------------------------

    @server.feature(types.INITIALIZE)
    async def initialize(ls: NovaServer, params: types.InitializeParams) -> None:
        ls.root = _root_of(params)
        ls.diagnostics.configure(params.capabilities)
        ls.init_settings = Settings.from_json(params.initialization_options)
        ls.forward_typescript = _forward_typescript(params.initialization_options)
        ls.ts.root = ls.root
        ls.ts.client_capabilities = typescript.to_json(params.capabilities)
        ls.ts.relay = ls.relay_from_tsc
        if isinstance(params.initialization_options, dict):
            ls.ts.configure(params.initialization_options)
        ls.apply_settings(refresh=False)  # nothing is open yet, and no request may go out before initialized
        # The first dry-run finds the sandbox and the toolchain warm: this starts now (in a thread),
        # while tsc starts, not after the editor has opened its first script.
        asyncio.ensure_future(dry_run.prewarm(ls))
        capabilities: dict = {}
        if ls.forward_typescript:
            try:  # its capabilities say what it answers; and it is warm when the first script opens
                await asyncio.wait_for(ls.ts.start(), TSC_START_AT_INITIALIZE_S)
                capabilities = ls.ts.capabilities
            except (TsUnavailable, TimeoutError) as error:
                log.warning("the TypeScript checker is not ready (%s): its extra features are not offered", error or "timed out")
            ls.forwarded = forwarded.register(ls, capabilities)
        _register_merged(ls, capabilities)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: NovaServer, params: types.InitializedParams) -> None:
        asyncio.ensure_future(_warm(ls))  # the first script opened then finds tsc ready
        await ls.pull_settings()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: NovaServer, params: types.DidChangeConfigurationParams) -> None:
        settings = params.settings
        if isinstance(settings, dict) and any(isinstance(settings.get(s), dict) for s in CONFIGURATION_SECTIONS):
            ls.ts.configure(settings)
        if isinstance(settings, dict) and isinstance(settings.get("nova"), dict):
            ls.client_settings = Settings.from_json(settings)
            ls.apply_settings()
        else:
            await ls.pull_settings()

    @server.feature(types.SHUTDOWN)
    async def shutdown(ls: NovaServer, params: None) -> None:
        await ls.ts.stop()

    @server.feature(types.EXIT)
    def exit_(ls: NovaServer, params: None) -> None:
        ls.ts.kill()

    # --- documents -----------------------------------------------------------------------------
    # Synchronous on purpose: edits reach the tsc child in the order they were made.

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: NovaServer, params: types.DidOpenTextDocumentParams) -> None:
        uri, text = params.text_document.uri, params.text_document.text
        kind = ls.kind_of(uri, text)
        if kind in ("script", "typings"):
            ls.ts.open(uri, text)
        if kind is not None:
            ls.diagnostics.changed(uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: NovaServer, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        document = ls.open_document(uri)
        if document is None:
            return
        text = document.source
        kind = ls.kind_of(uri, text)
        if kind in ("script", "typings"):
            ls.ts.change(uri, text)
        if kind is not None:
            ls.diagnostics.changed(uri)
        if kind == "rules" and ls.rules.reads(uri_to_path(uri)):
            ls.diagnostics.results_changed()  # the rules in effect changed under the scripts

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: NovaServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.ts.close(uri)
        ls.dry_runs.pop(uri, None)
        ls.diagnostics.closed(uri)

    # --- diagnostics (pull) --------------------------------------------------------------------

    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(identifier="nova", inter_file_dependencies=True, workspace_diagnostics=False),
    )
    async def pull_diagnostics(ls: NovaServer, params: types.DocumentDiagnosticParams):
        items = await ls.diagnostics.collect(params.text_document.uri)
        return types.RelatedFullDocumentDiagnosticReport(items=items)

    # --- hover, completion -------------------------------------------------------------------------

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: NovaServer, params: types.HoverParams):
        document = ls.open_document(params.text_document.uri)
        if document is None:
            return None
        kind = ls.kind_of(document.uri, document.source)
        if kind == "script":
            return await hover.hover(ls, params, document.source)
        if kind == "typings":
            return await typescript.hover(ls, params)
        if kind == "rules":
            return rules_files.hover_lsp(document.source, params.position, ls.markup_kind())
        return None

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=COMPLETION_TRIGGERS, resolve_provider=True))
    async def on_completion(ls: NovaServer, params: types.CompletionParams):
        document = ls.open_document(params.text_document.uri)
        if document is None:
            return None
        kind = ls.kind_of(document.uri, document.source)
        if kind in ("script", "typings"):
            return await typescript.completion(ls, params)
        if kind == "rules":
            return rules_files.completion_lsp(document.source, params.position, ls.markup_kind())
        return None

    @server.feature(types.COMPLETION_ITEM_RESOLVE)
    async def on_completion_resolve(ls: NovaServer, item: types.CompletionItem):
        if typescript.is_tsc_item(item):
            return await typescript.resolve_completion(ls, item)
        return item

    # --- dry-run (code lenses and code actions: see _register_merged) ------------------------------

    @server.command(dry_run.COMMAND)
    async def on_dry_run(ls: NovaServer, *arguments):
        return await dry_run.run(ls, arguments)

    return server


def _forward_typescript(options: object) -> bool:
    nova = options.get("nova") if isinstance(options, dict) else None
    value = nova.get("forwardTypeScript") if isinstance(nova, dict) else None
    return value is not False


def _register_merged(server: NovaServer, capabilities: dict) -> None:
    """Code lenses and code actions: Nova's own, then tsc's (when it is forwarded)."""
    forwarding = server.forward_typescript and bool(capabilities)
    lens_provider = capabilities.get("codeLensProvider") if forwarding else None
    resolve_lenses = isinstance(lens_provider, dict) and bool(lens_provider.get("resolveProvider"))

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=resolve_lenses or None))
    async def on_code_lens(ls: NovaServer, params: types.CodeLensParams):
        document = ls.open_document(params.text_document.uri)
        if document is None or ls.kind_of(document.uri, document.source) != "script":
            return []
        lenses = dry_run.code_lenses(ls, document.uri, document.source)
        if lens_provider:
            lenses += await forwarded.code_lenses(ls, params)
        return lenses

    if resolve_lenses:
        @server.feature(types.CODE_LENS_RESOLVE)
        async def on_code_lens_resolve(ls: NovaServer, lens: types.CodeLens):
            return await forwarded.resolve_code_lens(ls, lens) if forwarded.is_tsc_lens(lens) else lens

    ours = [types.CodeActionKind.QuickFix.value]
    kinds = forwarded.code_action_kinds(capabilities, ours) if forwarding else ours

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=kinds))
    async def on_code_action(ls: NovaServer, params: types.CodeActionParams):
        document = ls.open_document(params.text_document.uri)
        if document is None or ls.kind_of(document.uri, document.source) not in ("script", "typings"):
            return []
        actions: list = []
        if ls.kind_of(document.uri, document.source) == "script":
            actions += checks.code_actions(document.uri, document.source, ls.rules.current().json, params.range)
        if forwarding and capabilities.get("codeActionProvider"):
            actions += await forwarded.code_actions(ls, params)
        return actions


async def _warm(ls: NovaServer) -> None:
    try:
        await ls.ts.start()
    except Exception as error:  # reported again, as a diagnostic, when a script is checked
        log.warning("the TypeScript checker did not start: %s", error)
