"""The Nova language server: wiring of the features to LSP methods (pygls 2).

Each editor feature lives in its own module under :mod:`nova_tools.lsp.features`; this module
only says which feature answers which method for which kind of document:

=====================  =======================================  ===============================
method                 android script (``*.ts``)                rules file
=====================  =======================================  ===============================
diagnostics            typescript + checks + dry_run            rules_files
hover                  hover (+ tsc's own)                      rules_files
completion             typescript (tsc, through the typings)    rules_files (keys)
code lens, command     dry_run (``nova.dryRun``)                -
code action            checks (quick fixes)                     -
=====================  =======================================  ===============================

Game facts come from :mod:`nova_tools.api` and :mod:`nova_tools.rules`; the TypeScript checker
runs in a child process behind :class:`~nova_tools.lsp.tsserver.TsServer`.
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
from .features import checks, dry_run, hover, rules_files, typescript
from .features.diagnostics import DiagnosticsHub
from .settings import RulesContext, Settings
from .tsserver import TsServer, uri_to_path

log = logging.getLogger(__name__)

COMPLETION_TRIGGERS = [".", '"', "'", "`", "/", "@", "<", "#", " "]


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
        workspace = self.client_capabilities.workspace
        if not (workspace and workspace.configuration):
            return
        try:
            result = await self.workspace_configuration_async(
                types.ConfigurationParams(items=[types.ConfigurationItem(section="nova")])
            )
        except Exception as error:  # a client that cannot answer keeps the settings it gave at start
            log.warning("workspace/configuration failed: %s", error)
            return
        self.client_settings = Settings.from_json(result[0] if result else None)
        self.apply_settings()


def _root_of(params: types.InitializeParams) -> Path | None:
    for uri in [f.uri for f in (params.workspace_folders or [])] + [params.root_uri]:
        if uri and (path := uri_to_path(uri)) is not None:
            return path
    return Path(params.root_path) if params.root_path else None


def create_server() -> NovaServer:
    server = NovaServer()

    # --- life cycle ----------------------------------------------------------------------------

    @server.feature(types.INITIALIZE)
    def initialize(ls: NovaServer, params: types.InitializeParams) -> None:
        ls.root = _root_of(params)
        ls.diagnostics.configure(params.capabilities)
        ls.init_settings = Settings.from_json(params.initialization_options)
        text_caps = params.capabilities.text_document
        ls.ts.root = ls.root
        ls.ts.text_document_capabilities = {
            "hover": typescript.to_json(text_caps.hover) if text_caps and text_caps.hover else None,
            "completion": typescript.to_json(text_caps.completion) if text_caps and text_caps.completion else None,
        }
        ls.apply_settings(refresh=False)  # nothing is open yet, and no request may go out before initialized

    @server.feature(types.INITIALIZED)
    async def initialized(ls: NovaServer, params: types.InitializedParams) -> None:
        asyncio.ensure_future(_warm(ls))  # the first script opened then finds tsc ready
        await ls.pull_settings()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: NovaServer, params: types.DidChangeConfigurationParams) -> None:
        settings = params.settings
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

    # --- dry-run, quick fixes ------------------------------------------------------------------

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS)
    def on_code_lens(ls: NovaServer, params: types.CodeLensParams):
        document = ls.open_document(params.text_document.uri)
        if document is None or ls.kind_of(document.uri, document.source) != "script":
            return []
        return dry_run.code_lenses(ls, document.uri, document.source)

    @server.command(dry_run.COMMAND)
    async def on_dry_run(ls: NovaServer, *arguments):
        return await dry_run.run(ls, arguments)

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    def on_code_action(ls: NovaServer, params: types.CodeActionParams):
        document = ls.open_document(params.text_document.uri)
        if document is None or ls.kind_of(document.uri, document.source) != "script":
            return []
        return checks.code_actions(document.uri, document.source, ls.rules.current().json, params.range)

    return server


async def _warm(ls: NovaServer) -> None:
    try:
        await ls.ts.start()
    except Exception as error:  # reported again, as a diagnostic, when a script is checked
        log.warning("the TypeScript checker did not start: %s", error)
