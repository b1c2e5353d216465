"""Tier 2: when diagnostics are sent — per-document debounce for pushing clients, refresh requests
for pulling ones — with a stand-in server (no process, no tsc)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from lsprotocol import types

from nova_tools.lsp.features import rules_files
from nova_tools.lsp.features.diagnostics import DiagnosticsHub


@dataclass
class Doc:
    source: str
    version: int


class FakeWorkspace:
    def __init__(self) -> None:
        self.text_documents: dict[str, Doc] = {}


class FakeServer:
    """What the hub needs of the server: documents, what their diagnostics are, and the two ways out."""

    def __init__(self) -> None:
        self.workspace = FakeWorkspace()
        self.published: list[types.PublishDiagnosticsParams] = []
        self.refreshes = 0

    def open_document(self, uri: str) -> Doc | None:
        return self.workspace.text_documents.get(uri)

    async def collect_diagnostics(self, uri: str) -> list[types.Diagnostic]:
        """Every document here is a rules file: its diagnostics are the rules feature's."""
        document = self.open_document(uri)
        return rules_files.diagnostics(document.source) if document is not None else []

    def text_document_publish_diagnostics(self, params: types.PublishDiagnosticsParams) -> None:
        self.published.append(params)

    def workspace_diagnostic_refresh(self, params: None):
        self.refreshes += 1
        future = asyncio.get_running_loop().create_future()
        future.set_result(None)
        return future


def capabilities(pull: bool, refresh: bool = True) -> types.ClientCapabilities:
    return types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            diagnostic=types.DiagnosticClientCapabilities() if pull else None
        ),
        workspace=types.WorkspaceClientCapabilities(
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=refresh)
        ),
    )


async def test_a_burst_of_edits_is_checked_and_published_once_for_its_last_version():
    server = FakeServer()
    hub = DiagnosticsHub(server)
    hub.configure(capabilities(pull=False))
    uri = "file:///w/rules.json"
    for version in range(1, 6):
        server.workspace.text_documents[uri] = Doc(
            '{ "android": { "sight": { "range": 6 } } }', version
        )
        hub.changed(uri)
        await asyncio.sleep(0.001)
    await asyncio.sleep(hub.DEBOUNCE_S * 3)
    [published] = server.published
    assert published.version == 5 and len(published.diagnostics) == 1


async def test_documents_are_debounced_separately():
    server = FakeServer()
    hub = DiagnosticsHub(server)
    hub.configure(capabilities(pull=False))
    for name in ("a", "b"):
        server.workspace.text_documents[f"file:///w/{name}.nova-rules.json"] = Doc("{}", 1)
        hub.changed(f"file:///w/{name}.nova-rules.json")
    await asyncio.sleep(hub.DEBOUNCE_S * 3)
    assert sorted(p.uri for p in server.published) == [
        "file:///w/a.nova-rules.json",
        "file:///w/b.nova-rules.json",
    ]


async def test_a_pulling_client_is_not_pushed_to_but_asked_to_pull_again():
    server = FakeServer()
    hub = DiagnosticsHub(server)
    hub.configure(capabilities(pull=True))
    uri = "file:///w/rules.json"
    server.workspace.text_documents[uri] = Doc("{ nope", 1)
    hub.changed(uri)
    hub.results_changed(uri)
    await asyncio.sleep(hub.DEBOUNCE_S * 3)
    assert server.published == [] and server.refreshes == 1
    [problem] = await hub.collect(uri)
    assert "not valid JSON" in problem.message


async def test_a_client_that_pulls_but_cannot_be_asked_to_pull_again_gets_pushes():
    """Neovim 0.10/0.11 and eglot: they pull when the text changes, never after a dry-run."""
    server = FakeServer()
    hub = DiagnosticsHub(server)
    hub.configure(capabilities(pull=True, refresh=False))
    assert not hub.pull
    uri = "file:///w/rules.json"
    server.workspace.text_documents[uri] = Doc("{ nope", 1)
    hub.results_changed(uri)
    await asyncio.sleep(hub.DEBOUNCE_S * 3)
    [published] = server.published
    assert published.uri == uri and "not valid JSON" in published.diagnostics[0].message
    assert server.refreshes == 0


async def test_closing_a_document_clears_its_pushed_diagnostics():
    server = FakeServer()
    hub = DiagnosticsHub(server)
    hub.configure(capabilities(pull=False))
    uri = "file:///w/rules.json"
    server.workspace.text_documents[uri] = Doc("{ nope", 1)
    hub.changed(uri)
    del server.workspace.text_documents[uri]
    hub.closed(uri)
    await asyncio.sleep(hub.DEBOUNCE_S * 3)
    [cleared] = server.published
    assert cleared.uri == uri and cleared.diagnostics == []


async def test_a_verdict_is_published_before_the_command_that_made_it_answers():
    server = FakeServer()
    hub = DiagnosticsHub(server)
    hub.configure(capabilities(pull=True, refresh=False))
    uri = "file:///w/rules.json"
    server.workspace.text_documents[uri] = Doc("{ nope", 1)
    hub.changed(uri)  # a debounced publish is pending: it is replaced, not doubled
    await hub.publish_now(uri)
    [published] = server.published  # already sent when publish_now returns
    assert published.uri == uri and published.diagnostics
    await asyncio.sleep(hub.DEBOUNCE_S * 3)
    assert len(server.published) == 1
