"""Which LSP method reaches which features, grouped as the features are: the life cycle, the
documents, the answers the features give one at a time (diagnostics, hover, completion), the
commands, and the answers joined over the features (code lenses, code actions)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from .context import Document, kind_of
from .protocol import IGNORED
from .server import NovaServer  # at run time too: pygls reads the handlers' annotations
from .settings import Settings
from .tsserver import CONFIGURATION_SECTIONS, uri_to_path

if TYPE_CHECKING:
    from .context import Command

COMPLETION_TRIGGERS = [".", '"', "'", "`", "/", "@", "<", "#", " "]


def create_server() -> NovaServer:
    server = NovaServer()
    register(server)
    return server


def register(server: NovaServer) -> None:
    """Every route but the joined ones, which :func:`merged` adds once the features have
    initialised."""
    lifecycle(server)
    documents(server)
    answers(server)
    commands(server)


def lifecycle(server: NovaServer) -> None:
    @server.feature(IGNORED)
    def ignored(ls: NovaServer, params: Any) -> None:
        """A message refused or skipped unread: already logged (and answered, if it asked)."""

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
        merged(ls)

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


def documents(server: NovaServer) -> None:
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


def answers(server: NovaServer) -> None:
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


def commands(server: NovaServer) -> None:
    """The ``workspace/executeCommand`` commands of every feature (code lenses and code actions
    that run them: see :func:`merged`)."""
    for feature in server.features:
        for name, run in feature.commands().items():
            _command(server, name, run)


def _root_of(params: types.InitializeParams) -> Path | None:
    for uri in [f.uri for f in (params.workspace_folders or [])] + [params.root_uri]:
        if uri and (path := uri_to_path(uri)) is not None:
            return path
    return Path(params.root_path) if params.root_path else None


def _command(server: NovaServer, name: str, run: Command) -> None:
    @server.command(name)
    async def on_command(ls: NovaServer, *arguments):
        return await run(*arguments)


def _forward_typescript(options: object) -> bool:
    nova = options.get("nova") if isinstance(options, dict) else None
    value = nova.get("forwardTypeScript") if isinstance(nova, dict) else None
    return value is not False


def merged(server: NovaServer) -> None:
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
