"""Getting diagnostics to the editor, pushed or pulled.

A client that declares ``textDocument.diagnostic`` *and* ``workspace.diagnostics.refreshSupport``
(VS Code) *pulls*: it asks after every change, and the answer is computed then. Every other client
gets them *pushed* (``textDocument/publishDiagnostics``) after a short per-document debounce, so a
burst of keystrokes costs one check: that includes Neovim 0.10/0.11 and Emacs eglot, which pull
only when the text changes and cannot be asked to pull again, so a dry-run verdict would never
reach them (the server does not offer them pull diagnostics at all). When something other than
the text changes what a document's diagnostics are (a dry-run verdict, the settings), pulling
clients are asked to pull again (``workspace/diagnostic/refresh``) and pushing clients get a
fresh publish.

What the diagnostics *are* is decided by the features (each feature's ``diagnostics`` hook, for
the kinds of document it serves); the server gathers them (``collect_diagnostics``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from lsprotocol import types

log = logging.getLogger(__name__)


class Publisher(Protocol):
    """What the hub needs of the server: the open documents, what their diagnostics are, and
    the two ways to get them to the client."""

    @property
    def workspace(self) -> Any: ...

    def open_document(self, uri: str) -> Any: ...

    async def collect_diagnostics(self, uri: str) -> list[types.Diagnostic]: ...

    def text_document_publish_diagnostics(self, params: types.PublishDiagnosticsParams) -> None: ...

    def workspace_diagnostic_refresh(self, params: None) -> Any: ...


class DiagnosticsHub:
    DEBOUNCE_S = 0.04  # short: tsc answers a warm edit in a few ms; long enough to merge a burst

    def __init__(self, server: Publisher) -> None:
        self.server = server
        self.pull = False
        self.refresh_supported = False
        self._pending: dict[str, asyncio.Task] = {}

    def configure(self, capabilities: types.ClientCapabilities) -> None:
        text = capabilities.text_document
        workspace = capabilities.workspace
        self.refresh_supported = bool(
            workspace and workspace.diagnostics and workspace.diagnostics.refresh_support
        )
        self.pull = text is not None and text.diagnostic is not None and self.refresh_supported

    # --- what the diagnostics are ------------------------------------------------------------------

    async def collect(self, uri: str) -> list[types.Diagnostic]:
        return await self.server.collect_diagnostics(uri)

    # --- when they are sent --------------------------------------------------------------------------

    def changed(self, uri: str) -> None:
        """The text of a document changed (or it was opened)."""
        if not self.pull:
            self._schedule(uri, self.DEBOUNCE_S)

    def results_changed(self, uri: str | None = None) -> None:
        """Something besides the text changed what the diagnostics of ``uri`` (or all) are."""
        if self.pull:
            future = self.server.workspace_diagnostic_refresh(None)
            future.add_done_callback(lambda f: f.exception() if not f.cancelled() else None)
            return
        uris = [uri] if uri else list(self.server.workspace.text_documents)
        for each in uris:
            self._schedule(each, 0)

    async def publish_now(self, uri: str) -> None:
        """Like :meth:`results_changed` for one document, but done before returning: a command
        (the dry-run) answers only after its verdict is on its way. Emacs's jsonrpc, for one, reads
        nothing that follows a command's answer in the same chunk until more output comes."""
        if self.pull:
            self.results_changed(uri)
            return
        task = self._pending.pop(uri, None)
        if task is not None:
            task.cancel()
        await self._publish_after(uri, 0)

    def closed(self, uri: str) -> None:
        task = self._pending.pop(uri, None)
        if task is not None:
            task.cancel()
        if not self.pull:
            self.server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )

    def _schedule(self, uri: str, delay: float) -> None:
        task = self._pending.pop(uri, None)
        if task is not None:
            task.cancel()
        self._pending[uri] = asyncio.ensure_future(self._publish_after(uri, delay))

    async def _publish_after(self, uri: str, delay: float) -> None:
        try:
            if delay:
                await asyncio.sleep(delay)
            document = self.server.open_document(uri)
            if document is None:
                return
            version = document.version
            items = await self.collect(uri)
            document = self.server.open_document(uri)
            if document is None or document.version != version:
                return  # a newer edit has its own check coming
            self.server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=items, version=version)
            )
        except asyncio.CancelledError:
            pass
        except Exception:  # never let one document's check take the server down
            log.exception("checking %s failed", uri)
        finally:
            if self._pending.get(uri) is asyncio.current_task():
                del self._pending[uri]
