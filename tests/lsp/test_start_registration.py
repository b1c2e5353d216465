"""``nova lsp`` answers ``initialize`` before tsc has started: an editor that registers features
later gets tsc's registered once it has (``client/registerCapability``), and one that cannot gets
them offered at once with tsc 7.0.x's options (``forwarded.PINNED``). Both get them working."""

from __future__ import annotations

import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from nova_tools.lsp.features.forwarded import FORWARDS, PINNED, provided
from nova_tools.lsp.tsserver import TsServer
from nova_tools.toolchain.typecheck import typings_path

from .conftest import Editor, accept_registrations, position_of

pytestmark = pytest.mark.asyncio(loop_scope="module")

EDITORS = {
    "registers later": "visual-studio-code",
    "cannot register": "emacs@v29.1",
    "registers some later": "neovim@v0.11.0",
}

SCRIPT = """\
function plan(step: number): Direction {
  return step > 2 ? 'north' : 'south';
}
const wrong: number = 'ç';
const turn: AndroidTurn = () => ({ type: 'android.move', direction: plan(turn.length) });
export default turn;
"""


@pytest.mark.parametrize("name", ["visual-studio-code", "neovim@v0.11.0", "emacs@v29.1"])
async def test_the_pinned_options_are_the_real_tscs(name: str):
    ts = TsServer(typings=typings_path())
    ts.client_capabilities = default_converter().unstructure(client_capabilities(name))
    await ts.start()
    real = ts.capabilities
    await ts.stop()
    for forward in FORWARDS:
        if "semanticTokens" in forward.method:
            continue
        assert provided(PINNED, forward) == provided(real, forward), forward.method
    for key in ("codeActionProvider", "codeLensProvider"):
        assert PINNED[key] == real[key]
    theirs, ours = (
        real["semanticTokensProvider"]["legend"],
        PINNED["semanticTokensProvider"]["legend"],
    )
    assert set(theirs["tokenTypes"]) <= set(ours["tokenTypes"])  # the editor's part of tsc's
    if not theirs["tokenTypes"]:  # an editor that knows no token types is offered none
        return
    assert theirs["tokenModifiers"] == ours["tokenModifiers"]


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "nova_tools.lsp"]),
    scope="module",
    params=list(EDITORS),
)
async def lsp(request, lsp_client: LanguageClient, tmp_path_factory):
    root = tmp_path_factory.mktemp("start")
    accept_registrations(lsp_client)
    caps = client_capabilities(EDITORS[request.param])
    result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=caps, root_uri=root.as_uri())
    )
    editor = Editor(lsp_client, "neovim", root)  # takes pushed diagnostics
    editor.server_capabilities = result.capabilities
    lsp_client.nova_editor = editor  # type: ignore[attr-defined]
    lsp_client.nova_later = request.param  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.fixture(scope="module")
def editor(lsp: LanguageClient) -> Editor:
    return lsp.nova_editor  # type: ignore[attr-defined]


async def test_tscs_features_are_offered_at_once_or_registered_once_it_runs(
    editor: Editor, lsp: LanguageClient
):
    caps = editor.server_capabilities
    assert caps is not None and caps.hover_provider and caps.completion_provider
    if lsp.nova_later == "registers some later":  # type: ignore[attr-defined]
        # Neovim 0.11 registers definition and rename later, semantic tokens it takes at once
        registered = await editor.registered({"textDocument/definition", "textDocument/rename"})
        assert caps.definition_provider is None and caps.references_provider
        legend = caps.semantic_tokens_provider.legend
        assert list(legend.token_types) == PINNED["semanticTokensProvider"]["legend"]["tokenTypes"]
    elif lsp.nova_later == "registers later":  # type: ignore[attr-defined]
        assert caps.definition_provider is None and caps.semantic_tokens_provider is None
        registered = await editor.registered(
            {"textDocument/definition", "textDocument/semanticTokens/full", "textDocument/rename"}
        )
        assert registered["textDocument/rename"]["prepareProvider"] is True
        assert registered["textDocument/semanticTokens/full"]["legend"]["tokenTypes"]
    else:
        assert caps.definition_provider and caps.rename_provider and caps.references_provider
        assert list(caps.signature_help_provider.trigger_characters) == ["(", ",", "<"]
        assert caps.semantic_tokens_provider is None  # Eglot knows no token types
        assert lsp.registrations == {}  # type: ignore[attr-defined]


async def test_hover_completion_diagnostics_and_definition_come_from_tsc(editor: Editor):
    uri = editor.open("start/main.ts", SCRIPT)
    found = await editor.diagnostics(
        uri, until=lambda ds: any(d.source == "ts" or d.code for d in ds)
    )
    assert any(d.range.start.line == 3 and "not assignable" in d.message for d in found), found

    hover = await editor.hover(uri, 4, SCRIPT.splitlines()[4].index("plan(") + 1)
    assert hover is not None and "plan(step: number): Direction" in str(hover.contents)

    text = SCRIPT.replace("'north' :", "'n' :")
    editor.change(uri, text)
    at = position_of(text, "'n'", 2)
    completion = await editor.client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri), position=at)
    )
    items = completion.items if isinstance(completion, types.CompletionList) else completion
    assert {"north", "south", "east", "west"} <= {i.label for i in items or []}

    definition = await editor.client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri),
            position=position_of(text, "plan(turn", 1),
        )
    )
    [target] = definition
    where = getattr(target, "range", None) or target.target_selection_range
    assert where.start.line == 0


async def test_semantic_tokens_are_numbered_by_the_legend_the_editor_was_given(
    editor: Editor, lsp: LanguageClient
):
    uri = editor.open("start/tokens.ts", "const turnCount = 1;\nexport default turnCount;\n")
    if lsp.nova_later == "cannot register":  # type: ignore[attr-defined]
        return  # Eglot is offered no semantic tokens (above)
    if lsp.nova_later == "registers later":  # type: ignore[attr-defined]
        legend = (await editor.registered({"textDocument/semanticTokens/full"}))[
            "textDocument/semanticTokens/full"
        ]["legend"]["tokenTypes"]
    else:
        legend = list(editor.server_capabilities.semantic_tokens_provider.legend.token_types)
    tokens = await editor.client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri))
    )
    data = list(tokens.data)
    assert data[:3] == [0, 6, len("turnCount")] and legend[data[3]] == "variable"
