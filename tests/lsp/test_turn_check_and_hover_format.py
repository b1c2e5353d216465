"""The real server over stdio: the default export is checked as an upload checks it, at the
player's own line; and hover comes in the format the editor advertises (``contentFormat``),
Markdown for one that reads it, plain text that reads on its own for one that does not (Emacs's
Eglot without markdown-mode)."""

from __future__ import annotations

import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from .conftest import Editor, accept_registrations, position_of

pytestmark = pytest.mark.asyncio(loop_scope="module")

UNTYPED = (
    "// a turn with no type\nexport default () => ({ type: 'android.move', direction: 'up' });\n"
)
TYPED = "const turn: AndroidTurn = () => ({ type: 'android.move', direction: 'east' });\nexport default turn;\n"
RULE = "const c: number = rules.android.cargoCapacity;\nexport default (): Action => ({ type: 'android.wait' });\n"

FORMATS = {
    "markdown": [types.MarkupKind.Markdown, types.MarkupKind.PlainText],
    "plaintext": [types.MarkupKind.PlainText],
}


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "nova_tools.lsp"]),
    scope="module",
    params=list(FORMATS),
)
async def lsp(request, lsp_client: LanguageClient, tmp_path_factory):
    root = tmp_path_factory.mktemp(f"formats-{request.param}")
    accept_registrations(lsp_client)
    caps = client_capabilities("neovim@v0.11.0")
    caps.text_document.hover = types.HoverClientCapabilities(content_format=FORMATS[request.param])
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=caps,
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
        )
    )
    lsp_client.nova_editor = Editor(lsp_client, "neovim", root)  # type: ignore[attr-defined]
    lsp_client.nova_format = request.param  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.fixture(scope="module")
def editor(lsp: LanguageClient) -> Editor:
    return lsp.nova_editor  # type: ignore[attr-defined]


async def test_an_untyped_default_export_is_an_error_on_its_own_line(editor: Editor):
    uri = editor.open("bare/untyped.ts", UNTYPED)
    found = [
        d
        for d in await editor.diagnostics(
            uri, until=lambda ds: any("AndroidTurn" in d.message for d in ds)
        )
        if "default export is not an AndroidTurn" in d.message
    ]
    assert len(found) == 1, found
    [error] = found
    assert error.severity == types.DiagnosticSeverity.Error
    assert error.range.start == position_of(UNTYPED, "export default")
    assert "'\"android.move\"'" in error.message and "const turn: AndroidTurn" in error.message


async def test_a_typed_default_export_gets_no_such_error(editor: Editor):
    uri = editor.open("bare/typed.ts", TYPED)
    assert [d for d in await editor.diagnostics(uri) if d.severity == 1] == []


async def test_hover_comes_in_the_advertised_format_and_reads_on_its_own(editor: Editor, lsp):
    uri = editor.open("bare/rule.ts", RULE)
    spot = position_of(RULE, "cargoCapacity", 3)
    hover = await editor.hover(uri, spot.line, spot.character)
    assert isinstance(hover.contents, types.MarkupContent)
    text = hover.contents.value
    if lsp.nova_format == "markdown":
        assert hover.contents.kind == types.MarkupKind.Markdown
        assert "**rules.android.cargoCapacity**" in text and "```" in text
        return
    assert hover.contents.kind == types.MarkupKind.PlainText
    assert not any(mark in text for mark in ("**", "```", "`", "---"))
    lines = text.splitlines()
    assert lines[0].startswith("rules.android.cargoCapacity")
    # tsc's signature stands on a line of its own, never run into the docs that follow it
    [signature] = [line for line in lines if "cargoCapacity: number" in line]
    assert signature.rstrip().endswith(": number"), text
