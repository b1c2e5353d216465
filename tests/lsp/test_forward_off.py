"""An editor with its own TypeScript server (VS Code) turns the forwarding off: it then gets
Nova's features and tsc's diagnostics, hover and completion, and no second set of the rest."""

from __future__ import annotations

import sys

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "nova_tools.lsp"]))
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
    assert caps.definition_provider is None and caps.rename_provider is None and caps.inlay_hint_provider is None
    assert caps.semantic_tokens_provider is None and caps.document_symbol_provider is None
    assert list(caps.code_action_provider.code_action_kinds) == ["quickfix"]  # Nova's quick fixes only
    assert caps.hover_provider and caps.completion_provider and caps.code_lens_provider
