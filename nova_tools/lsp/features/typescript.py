"""Type diagnostics, completion and tsc's own hover for android scripts, from the warm tsc child.

Completion of action types, building types and directions comes from the typings through tsc
(string literal completions from the contextual type), so this feature forwards completion and
completion-item resolution as they are.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.protocol import default_converter

from ..tsserver import TsUnavailable

if TYPE_CHECKING:
    from ..server import NovaServer

log = logging.getLogger(__name__)
CONVERTER = default_converter()


def to_json(value: object) -> object:
    return CONVERTER.unstructure(value)


def structure_result(method: str, raw: object) -> object:
    """tsc's raw JSON result of ``method`` as the lsprotocol type a pygls handler returns."""
    response_type = types.METHOD_TO_TYPES[method][1]
    return CONVERTER.structure({"jsonrpc": "2.0", "id": 0, "result": raw}, response_type).result


async def diagnostics(server: "NovaServer", uri: str) -> list[types.Diagnostic]:
    try:
        raw = await server.ts.diagnostics(uri)
    except TsUnavailable as error:
        # One quiet line at the top instead of silence, so a missing toolchain is noticed.
        return [types.Diagnostic(
            range=types.Range(types.Position(0, 0), types.Position(0, 0)),
            message=f"Nova: {error}",
            severity=types.DiagnosticSeverity.Information,
            source="nova",
        )]
    out = []
    for item in raw:
        try:
            out.append(CONVERTER.structure(item, types.Diagnostic))
        except Exception:  # one odd item must not hide the others
            log.warning("unreadable diagnostic from tsc: %r", item)
    return out


async def hover(server: "NovaServer", params: types.HoverParams) -> types.Hover | None:
    try:
        raw = await server.ts.request(types.TEXT_DOCUMENT_HOVER, to_json(params))
    except TsUnavailable:
        return None
    return structure_result(types.TEXT_DOCUMENT_HOVER, raw) if raw else None


async def completion(server: "NovaServer", params: types.CompletionParams):
    try:
        raw = await server.ts.request(types.TEXT_DOCUMENT_COMPLETION, to_json(params))
    except TsUnavailable:
        return None
    return structure_result(types.TEXT_DOCUMENT_COMPLETION, raw)


def is_tsc_item(item: types.CompletionItem) -> bool:
    return isinstance(item.data, dict) and "fileName" in item.data


async def resolve_completion(server: "NovaServer", item: types.CompletionItem) -> types.CompletionItem:
    try:
        raw = await server.ts.request(types.COMPLETION_ITEM_RESOLVE, to_json(item))
    except TsUnavailable:
        return item
    return structure_result(types.COMPLETION_ITEM_RESOLVE, raw) if raw else item
