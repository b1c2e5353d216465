"""What a language-server feature sees of the server, and what a feature is.

Each feature (``nova_tools/lsp/features/*``) is a :class:`Feature`: it owns its state, serves some
kinds of document, and implements only the hooks it needs. The server (``server.py``) creates the
features, decides once what kind a document is (:func:`kind_of`), and fans each LSP method out to
the features that serve that kind. A feature reaches the server only through :class:`Host`, so
no feature imports ``server.py`` (in the style of esbonio's language features).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol
from urllib.parse import unquote

from lsprotocol import types

if TYPE_CHECKING:
    from .settings import RulesContext, Settings
    from .tsserver import TsServer


class DocumentKind(StrEnum):
    SCRIPT = "script"  # an android script (*.ts)
    TYPINGS = "typings"  # a declaration file (*.d.ts): tsc serves it, Nova adds nothing
    RULES = "rules"  # a rules file (JSON with comments)


_RULES_NAME = re.compile(r"^(?:rules|.+\.nova-rules)\.jsonc?$")
_SCHEMA_MENTION = re.compile(r'"\$schema"\s*:\s*"[^"\n]*rules\.schema\.json"')


def is_rules_document(file_name: str, text: str) -> bool:
    """``rules.json``, ``*.nova-rules.json`` (or ``.jsonc``), or JSON naming the rules schema
    (not ``*.rules.json``: that is also Firebase's ``database.rules.json``)."""
    if _RULES_NAME.search(file_name):
        return True
    return (
        file_name.endswith((".json", ".jsonc")) and _SCHEMA_MENTION.search(text[:4096]) is not None
    )


def kind_of(uri: str, text: str) -> DocumentKind | None:
    """What kind of document this is: the one place that decides it."""
    name = unquote(uri.rsplit("/", 1)[-1])
    if name.endswith(".d.ts"):
        return DocumentKind.TYPINGS
    if name.endswith(".ts"):
        return DocumentKind.SCRIPT
    if is_rules_document(name, text):
        return DocumentKind.RULES
    return None


@dataclass(frozen=True)
class Document:
    """An open document as the client has it now (never read from disk)."""

    uri: str
    text: str
    version: int | None
    kind: DocumentKind | None


class Diagnostics(Protocol):
    def results_changed(self, uri: str | None = None) -> None: ...

    async def publish_now(self, uri: str) -> None: ...


class Host(Protocol):
    """The server, as a feature may use it."""

    root: Path | None
    settings: Settings
    rules: RulesContext
    ts: TsServer
    forward_typescript: bool  # offer what tsc answers beyond diagnostics, hover, completion

    @property
    def diagnostics(self) -> Diagnostics: ...

    def document(self, uri: str) -> Document | None: ...

    def read_text(self, path: Path) -> str | None: ...

    def buffers(self) -> dict[Path, str]: ...

    def markup_kind(self) -> types.MarkupKind: ...

    def show_message(self, kind: types.MessageType, message: str) -> None: ...

    def text_document_publish_diagnostics(self, params: types.PublishDiagnosticsParams) -> None: ...

    def refresh_code_lenses(self) -> None: ...

    async def register_capabilities(self, registrations: list[types.Registration]) -> None: ...

    async def relay_from_tsc(self, method: str, params: object) -> None: ...

    def offer(self, method: str, options: object, handler: Callable[..., Any]) -> None:
        """Answer ``method`` with ``handler(server, params)`` (while answering ``initialize``)."""


Command = Callable[..., Awaitable[Any]]


class Feature:
    """One editor feature: its state, and the hooks it implements (every hook is optional).

    ``kinds``: the documents the feature serves; the document hooks are called only for those.
    ``commands()``: the ``workspace/executeCommand`` commands it answers.
    """

    kinds: ClassVar[frozenset[DocumentKind]] = frozenset()

    def __init__(self, server: Host) -> None:
        self.server = server

    def serves(self, document: Document) -> bool:
        return document.kind in self.kinds

    # --- life cycle -------------------------------------------------------------------------------

    def begin(self) -> None:
        """The server is starting (before any feature initialises): start background work that
        needs nothing from the client, so it runs beside the others' start-up."""

    async def initialize(self, params: types.InitializeParams) -> None:
        """The client's capabilities are known; nothing may be sent to it yet (a feature may
        :meth:`Host.offer` more methods now, before the server's capabilities are computed)."""

    async def initialized(self) -> None:
        """The client is ready."""

    async def shutdown(self) -> None:
        """The client asked to shut down: stop what runs."""

    def exit(self) -> None:
        """The process is ending: kill what is left."""

    # --- documents (synchronous: edits reach a child process in the order they were made) ----

    def opened(self, document: Document) -> None: ...

    def changed(self, document: Document) -> None: ...

    def closed(self, uri: str) -> None: ...

    # --- answers ------------------------------------------------------------------------------------

    async def diagnostics(self, document: Document) -> list[types.Diagnostic]:
        return []

    async def hover(self, document: Document, params: types.HoverParams) -> types.Hover | None:
        return None

    async def completion(self, document: Document, params: types.CompletionParams) -> Any:
        return None

    async def resolve_completion(self, item: types.CompletionItem) -> types.CompletionItem | None:
        """The item resolved, if it is one of this feature's (else None)."""
        return None

    async def code_lenses(
        self, document: Document, params: types.CodeLensParams
    ) -> list[types.CodeLens]:
        return []

    def resolves_code_lenses(self) -> bool:
        """Whether some of this feature's lenses are resolved later (``codeLens/resolve``)."""
        return False

    async def resolve_code_lens(self, lens: types.CodeLens) -> types.CodeLens | None:
        """The lens resolved, if it is one of this feature's (else None)."""
        return None

    async def code_actions(
        self, document: Document, params: types.CodeActionParams
    ) -> list[types.CodeAction]:
        return []

    def code_action_kinds(self) -> list[str]:
        """The kinds of code action this feature offers (the server offers their union)."""
        return []

    def commands(self) -> dict[str, Command]:
        return {}
