"""Type diagnostics, completion and tsc's own hover for android scripts, from the warm tsc child.

Completion of action types, building types and directions comes from the typings through tsc
(string literal completions from the contextual type), so this feature forwards completion and
completion-item resolution as they are.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.protocol import default_converter

from ...toolchain.tstext import export_default_span
from ...toolchain.typecheck import (
    NO_DEFAULT_EXPORT_CODES,
    default_export_message,
    turn_check_source,
    typings_path,
)
from ..context import Document, DocumentKind, Feature
from ..textpos import LineIndex
from ..tsserver import TsUnavailable, path_to_uri, uri_to_path

if TYPE_CHECKING:
    from ..tsserver import TsServer

log = logging.getLogger(__name__)
CONVERTER = default_converter()


def to_json(value: object) -> Any:
    return CONVERTER.unstructure(value)


def structure_result(method: str, raw: object) -> Any:
    """tsc's raw JSON result of ``method`` as the lsprotocol type a pygls handler returns (Any:
    the type is the one ``METHOD_TO_TYPES`` names for the method)."""
    response_type = types.METHOD_TO_TYPES[method][1]
    return CONVERTER.structure({"jsonrpc": "2.0", "id": 0, "result": raw}, response_type).result


async def diagnostics(ts: TsServer, uri: str) -> list[types.Diagnostic]:
    try:
        raw = await ts.diagnostics(uri)
    except TsUnavailable as error:
        # One quiet line at the top instead of silence, so a missing toolchain is noticed.
        return [
            types.Diagnostic(
                range=types.Range(types.Position(0, 0), types.Position(0, 0)),
                message=f"Nova: {error}",
                severity=types.DiagnosticSeverity.Information,
                source="nova",
            )
        ]
    out = []
    for item in raw:
        try:
            out.append(CONVERTER.structure(item, types.Diagnostic))
        except Exception:  # one odd item must not hide the others
            log.warning("unreadable diagnostic from tsc: %r", item)
    return out


async def hover(ts: TsServer, params: types.HoverParams) -> types.Hover | None:
    try:
        raw = await ts.request(types.TEXT_DOCUMENT_HOVER, to_json(params))
    except TsUnavailable:
        return None
    return structure_result(types.TEXT_DOCUMENT_HOVER, raw) if raw else None


async def completion(ts: TsServer, params: types.CompletionParams):
    try:
        raw = await ts.request(types.TEXT_DOCUMENT_COMPLETION, to_json(params))
    except TsUnavailable:
        return None
    return structure_result(types.TEXT_DOCUMENT_COMPLETION, raw)


def is_tsc_item(item: types.CompletionItem) -> bool:
    return isinstance(item.data, dict) and "fileName" in item.data


async def resolve_completion(ts: TsServer, item: types.CompletionItem) -> types.CompletionItem:
    try:
        raw = await ts.request(types.COMPLETION_ITEM_RESOLVE, to_json(item))
    except TsUnavailable:
        return item
    return structure_result(types.COMPLETION_ITEM_RESOLVE, raw) if raw else item


def turn_check_uri(uri: str) -> str | None:
    """The unsaved companion that checks a script's default export, beside it (never on disk)."""
    path = uri_to_path(uri)
    return None if path is None else path_to_uri(path.with_name(f".nova-turn-check.{path.name}"))


def turn_check_text(uri: str) -> str:
    """The upload's check of the default export (toolchain/typecheck.py), importing the open
    script; it names the typings itself, as it may sit in an inferred project of its own."""
    path = uri_to_path(uri)
    name = path.stem if path is not None else "main"
    typings = typings_path().resolve().as_posix()
    return f'/// <reference path="{typings}" />\n' + turn_check_source("./" + name)


def default_export_diagnostics(text: str, raw: list[dict]) -> list[types.Diagnostic]:
    """tsc's errors in a script's turn check, shown at the script's own ``export default``."""
    span = export_default_span(text) or (0, 0)
    where = LineIndex(text).range(*span)
    return [
        types.Diagnostic(
            range=where,
            message=default_export_message(str(item.get("message", ""))),
            severity=types.DiagnosticSeverity.Error,
            code=item.get("code"),
            source="nova",
        )
        for item in raw
        if item.get("severity", 1) == 1 and f"TS{item.get('code')}" not in NO_DEFAULT_EXPORT_CODES
    ]


class TypeScriptFeature(Feature):
    """The warm tsc child: it follows every script and typings document, checks them, and
    answers completion (and hover in typings; a script's hover is the hover feature's, which
    adds tsc's own). tsc starts while the server answers ``initialize``, which does not wait for
    it (see :mod:`.forwarded` for how its other features are offered)."""

    kinds = frozenset({DocumentKind.SCRIPT, DocumentKind.TYPINGS})

    async def initialize(self, params: types.InitializeParams) -> None:
        server, ts = self.server, self.server.ts
        ts.root = server.root
        ts.client_capabilities = to_json(params.capabilities)
        ts.relay = server.relay_from_tsc
        if isinstance(params.initialization_options, dict):
            ts.configure(params.initialization_options)
        # not awaited: ``initialize`` is answered at once, tsc starts behind it (forwarded.py
        # registers what it answers once it has)
        asyncio.ensure_future(self._warm())

    async def initialized(self) -> None:
        asyncio.ensure_future(self._warm())  # the first script opened then finds tsc ready

    async def _warm(self) -> None:
        try:
            await self.server.ts.start()
        except Exception as error:  # reported again, as a diagnostic, when a script is checked
            log.warning("the TypeScript checker did not start: %s", error)

    async def shutdown(self) -> None:
        await self.server.ts.stop()

    def exit(self) -> None:
        self.server.ts.kill()

    def opened(self, document: Document) -> None:
        self.server.ts.open(document.uri, document.text)
        if document.kind is DocumentKind.SCRIPT and (check := turn_check_uri(document.uri)):
            self.server.ts.open(check, turn_check_text(document.uri))

    def changed(self, document: Document) -> None:
        self.server.ts.change(document.uri, document.text)

    def closed(self, uri: str) -> None:
        self.server.ts.close(uri)
        if (check := turn_check_uri(uri)) and self.server.ts.document_open(check):
            self.server.ts.close(check)

    async def diagnostics(self, document: Document) -> list[types.Diagnostic]:
        ts = self.server.ts
        # An editor with its own TypeScript server (VS Code) already shows tsc's errors of a
        # script in a project; only a bare script's (which that server cannot check) come from us.
        own = not self.server.forward_typescript and not ts.is_bare(document.uri)
        found = [] if own else await diagnostics(ts, document.uri)
        check = turn_check_uri(document.uri) if document.kind is DocumentKind.SCRIPT else None
        if check and ts.document_open(check):
            try:
                raw = await ts.diagnostics(check)
            except TsUnavailable:
                raw = []  # said once already, by the script's own diagnostics
            found += default_export_diagnostics(document.text, raw)
        return found

    async def hover(self, document: Document, params: types.HoverParams) -> types.Hover | None:
        if document.kind is not DocumentKind.TYPINGS:
            return None
        from .hover import in_format

        return in_format(await hover(self.server.ts, params), self.server.markup_kind())

    async def completion(self, document: Document, params: types.CompletionParams):
        return await completion(self.server.ts, params)

    async def resolve_completion(self, item: types.CompletionItem) -> types.CompletionItem | None:
        return await resolve_completion(self.server.ts, item) if is_tsc_item(item) else None
