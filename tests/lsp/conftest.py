"""End-to-end fixtures: the real ``nova lsp`` over stdio, driven by pytest-lsp, once per editor.

Two capability sets, so both ways diagnostics travel are exercised:

* ``vscode``: VS Code's capabilities plus pull diagnostics (``textDocument.diagnostic``) and
  diagnostic refresh, as VS Code has had since 1.67;
* ``neovim``: Neovim 0.11's capabilities: it pulls diagnostics when the text changes but cannot be
  asked to pull again (no ``workspace.diagnostics.refreshSupport``), so the server pushes to it.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

TIMEOUT_S = 30.0


def editor_capabilities(name: str) -> types.ClientCapabilities:
    if name == "vscode":
        caps = client_capabilities("visual-studio-code")
        caps.text_document.diagnostic = types.DiagnosticClientCapabilities(
            dynamic_registration=True, related_document_support=False
        )
        caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(
            refresh_support=True
        )
        return caps
    caps = client_capabilities("neovim@v0.11.0")
    assert (
        caps.text_document.diagnostic is not None and caps.workspace.diagnostics is None
    )  # pulls, no refresh
    return caps


class Editor:
    """A thin editor over a pytest-lsp client: open and edit files, read their diagnostics."""

    def __init__(self, client: LanguageClient, name: str, root: Path) -> None:
        self.client = client
        self.name = name
        self.root = root
        self.pull = name == "vscode"
        self.server_capabilities: types.ServerCapabilities | None = None
        self.client_capabilities: types.ClientCapabilities | None = None
        self.versions: dict[str, int] = {}

    def write(self, relative: str, text: str) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def open(
        self, relative: str, text: str, language: str | None = None, *, save: bool = True
    ) -> str:
        path = self.write(relative, text) if save else self.root / relative
        uri = path.resolve().as_uri()
        language = language or ("typescript" if relative.endswith(".ts") else "json")
        self.client.diagnostics.pop(uri, None)
        self.versions[uri] = 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)
            )
        )
        return uri

    def change(self, uri: str, text: str) -> None:
        self.client.diagnostics.pop(uri, None)
        self.versions[uri] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=uri, version=self.versions[uri]
                ),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    def close(self, uri: str) -> None:
        self.client.text_document_did_close(
            types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri))
        )

    async def diagnostics(self, uri: str, until=None) -> list[types.Diagnostic]:
        """The document's diagnostics now: pulled, or the first push since the last edit (or,
        with ``until``, the first push that satisfies it)."""
        if self.pull:
            report = await self.client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri))
            )
            return list(report.items)
        async with asyncio.timeout(TIMEOUT_S):
            while uri not in self.client.diagnostics or (
                until is not None and not until(self.client.diagnostics[uri])
            ):
                await asyncio.sleep(0.005)
        return list(self.client.diagnostics[uri])

    async def registered(self, methods: set[str]) -> dict:
        """The features registered later (``client/registerCapability``), once ``methods`` are."""
        found = self.client.registrations  # type: ignore[attr-defined]
        async with asyncio.timeout(TIMEOUT_S):
            while not methods <= set(found):
                await asyncio.sleep(0.01)
        return found

    async def hover(self, uri: str, line: int, character: int) -> types.Hover | None:
        return await self.client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri),
                position=types.Position(line, character),
            )
        )

    async def settings(self, **nova: str) -> None:
        """Change the ``nova`` settings the way an editor does (didChangeConfiguration)."""
        self.client.set_configuration(nova, section="nova")
        self.client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"nova": nova})
        )
        await asyncio.sleep(0.05)

    async def command(self, name: str, *arguments: object) -> object:
        return await self.client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=name, arguments=list(arguments))
        )


def accept_registrations(client: LanguageClient) -> None:
    """Take ``client/registerCapability`` as an editor that says it does (recorded in
    ``client.registrations``: method -> its options)."""
    client.registrations = {}  # type: ignore[attr-defined]

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params: types.RegistrationParams) -> None:
        for registration in params.registrations:
            client.registrations[registration.method] = registration.register_options  # type: ignore[attr-defined]


def position_of(text: str, needle: str, delta: int = 0) -> types.Position:
    """The position of the first ``needle`` in ``text`` (plus ``delta`` characters); ASCII texts."""
    offset = text.index(needle) + delta
    line = text.count("\n", 0, offset)
    return types.Position(line=line, character=offset - (text.rfind("\n", 0, offset) + 1))


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "nova_tools.lsp"]),
    scope="module",
    params=["vscode", "neovim"],
)
async def lsp(request, lsp_client: LanguageClient, tmp_path_factory):
    root = tmp_path_factory.mktemp(f"workspace-{request.param}")
    lsp_client.code_lens_refreshes = 0  # type: ignore[attr-defined]
    accept_registrations(lsp_client)

    @lsp_client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def code_lens_refresh(params: None) -> None:
        lsp_client.code_lens_refreshes += 1  # type: ignore[attr-defined]

    # Editors that say they take these refreshes (Neovim 0.11) get them when tsc's settings change.
    @lsp_client.feature(types.WORKSPACE_INLAY_HINT_REFRESH)
    def inlay_hint_refresh(params: None) -> None:
        pass

    @lsp_client.feature(types.WORKSPACE_SEMANTIC_TOKENS_REFRESH)
    def semantic_tokens_refresh(params: None) -> None:
        pass

    result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=editor_capabilities(request.param),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
        )
    )
    lsp_client.nova_editor = Editor(lsp_client, request.param, root)  # type: ignore[attr-defined]
    lsp_client.nova_editor.server_capabilities = result.capabilities  # type: ignore[attr-defined]
    lsp_client.nova_editor.client_capabilities = editor_capabilities(request.param)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.fixture(scope="module")
def editor(lsp: LanguageClient) -> Editor:
    return lsp.nova_editor  # type: ignore[attr-defined]
