"""An editor with its own TypeScript server (VS Code) turns the forwarding off: it then gets
Nova's features and tsc's diagnostics, hover and completion, and no second set of the rest."""

from __future__ import annotations

import os
import sys

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "nova_tools.lsp"])
)
async def client(lsp_client: LanguageClient, tmp_path):
    lsp_client.initialize_result = await lsp_client.initialize_session(  # type: ignore[attr-defined]
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=tmp_path.as_uri(),
            initialization_options={"nova": {"forwardTypeScript": False}},
        )
    )
    yield
    await lsp_client.shutdown_session()


async def test_forwarding_off_offers_only_novas_features_and_tscs_checks(client: LanguageClient):
    caps = client.initialize_result.capabilities  # type: ignore[attr-defined]
    assert (
        caps.definition_provider is None
        and caps.rename_provider is None
        and caps.inlay_hint_provider is None
    )
    assert caps.semantic_tokens_provider is None and caps.document_symbol_provider is None
    assert list(caps.code_action_provider.code_action_kinds) == [
        "quickfix"
    ]  # Nova's quick fixes only
    assert caps.hover_provider and caps.completion_provider and caps.code_lens_provider


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=[sys.executable, "-m", "nova_tools.lsp"],
        # A file that is there but cannot be run: the checker fails to start, as with a broken install.
        server_env={"NOVA_TSC": __file__, "PATH": os.environ.get("PATH", "")},
    )
)
async def without_tsc(lsp_client: LanguageClient, tmp_path):
    caps = client_capabilities("visual-studio-code")
    caps.text_document.diagnostic = types.DiagnosticClientCapabilities()
    caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    lsp_client.initialize_result = await lsp_client.initialize_session(  # type: ignore[attr-defined]
        types.InitializeParams(capabilities=caps, root_uri=tmp_path.as_uri())
    )
    lsp_client.root = tmp_path  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def test_without_a_typescript_checker_the_server_starts_and_says_why_types_are_not_checked(
    without_tsc: LanguageClient,
):
    caps = without_tsc.initialize_result.capabilities  # type: ignore[attr-defined]
    assert (
        caps.definition_provider is None and caps.hover_provider
    )  # nothing forwarded, Nova's own still there
    path = without_tsc.root / "main.ts"  # type: ignore[attr-defined]
    text = "export default (): Action => ({ type: 'android.wait' });\n"
    path.write_text(text)
    without_tsc.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(
                uri=path.as_uri(), language_id="typescript", version=1, text=text
            )
        )
    )
    report = await without_tsc.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(path.as_uri()))
    )
    [notice] = [d for d in report.items if d.message.startswith("Nova: ")]
    assert (
        "type checking is off" in notice.message
        and notice.severity == types.DiagnosticSeverity.Information
    )
