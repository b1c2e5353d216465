"""The language server's protocol layer: how messages that do not fit the protocol are answered,
and what ``initialize`` offers (pygls 2)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, cast

from lsprotocol import types
from lsprotocol.types import ResponseError
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol, lsp_method

if TYPE_CHECKING:
    from .server import NovaServer

log = logging.getLogger("nova_tools.lsp.server")

# What stands in for a message that was refused here or skipped unread (lsp.BoundedInput): a
# notification the server ignores.
IGNORED = "$/nova/ignored"


class NovaProtocol(LanguageServerProtocol):
    """Positions are always UTF-16: the tsc child speaks nothing else, and every client must
    accept UTF-16 (the LSP default). So the client's other offers are not taken up.

    A request whose parameters do not fit the protocol (a position at line -1, say) gets an
    error reply (InvalidParams) with its id: pygls alone logs it and answers nothing, and the
    client waits for ever. The server's log gets one line for it, not pygls's traceback (a
    client sending such requests in a loop would fill an editor's log, or a pipe no one reads)."""

    def structure_message(self, data: dict):
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            method = str(data.get("method"))[:80] if isinstance(data, dict) else "?"
            msg_id = data.get("id") if isinstance(data, dict) else None
            reason = (
                "its parameters do not fit the protocol"
                if isinstance(error, JsonRpcInvalidParams)
                else "it could not be read"
            )
            if "method" in data and isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool):
                self._send_response(
                    msg_id,
                    error=ResponseError(code=error.code, message=f"{method} was refused: {reason}"),
                )
            log.warning(
                "%s was refused: %s (%s)",
                method,
                reason,
                " ".join(str(error.__cause__ or error).split())[:200],
            )
            return super().structure_message({"jsonrpc": "2.0", "method": IGNORED, "params": None})

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams):
        if params.capabilities.general is not None:
            params.capabilities.general.position_encodings = None
        result = yield from super().lsp_initialize(params)
        server = cast("NovaServer", self._server)  # the one server this protocol serves
        if not server.diagnostics.pull:
            # Offered pull diagnostics, a client pulls *instead of* taking pushes; one that cannot
            # be asked to pull again would never see a dry-run verdict. So it is not offered them.
            result.capabilities.diagnostic_provider = None
        return result


def _not_pygls_deserialize_trace(record: logging.LogRecord) -> bool:
    """pygls logs a message it cannot structure with a whole traceback before NovaProtocol gets
    to word it in one line; that traceback is dropped."""
    return not str(record.msg).startswith("Unable to deserialize message")


logging.getLogger("pygls.protocol.json_rpc").addFilter(_not_pygls_deserialize_trace)
