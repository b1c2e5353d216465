"""The lab's door: only this machine's pages may use it, and every refusal is one JSON sentence.

The lab listens on 127.0.0.1 only, but a page from anywhere on the web, open in the same browser,
could still send it requests. So:

* the ``Host`` header must name the lab itself (127.0.0.1:PORT or localhost:PORT), which defeats
  DNS rebinding;
* a request that changes something (POST) must carry JSON (``Content-Type: application/json``,
  which a cross-site form cannot send without a preflight the lab never answers) and, when the
  browser says where it comes from (``Origin``), come from the lab's own page;
* a body is at most :data:`MAX_BODY` bytes: one whose ``Content-Length`` says more is refused
  before a byte of it is read (and ``app.body_of`` stops reading one that streams past it).
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = ("127.0.0.1", "localhost")
MAX_BODY = (
    64 * 1024
)  # bytes of a request body (the largest request, a run with its script, is far less)


def too_big(size: int) -> str:
    return f"the request is {size} bytes or more; the lab takes at most {MAX_BODY}"


def problem_body(sentence: str) -> bytes:
    return json.dumps({"error": sentence}, ensure_ascii=False).encode("utf-8")


class Guard:
    def __init__(self, app: ASGIApp, port: int | None = None) -> None:
        self.app = app
        self.port = port  # set once the socket is bound

    def allowed_hosts(self) -> set[str]:
        return {f"{name}:{self.port}" for name in LOOPBACK_NAMES}

    def allowed_origins(self) -> set[str]:
        return {f"http://{host}" for host in self.allowed_hosts()}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self.refusal(scope["method"], headers)
        if refusal is not None:
            status, sentence = refusal
            body = problem_body(sentence)
            await send(
                {
                    "type": "http.response.start",
                    "status": status,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)

    def refusal(self, method: str, headers: dict[str, str]) -> tuple[int, str] | None:
        if self.port is not None and headers.get("host") not in self.allowed_hosts():
            return (
                403,
                f"this lab answers only requests addressed to 127.0.0.1:{self.port} or localhost:{self.port}",
            )
        if method in ("GET", "HEAD"):
            return None
        if method != "POST":
            return 405, f"the lab does not take {method} requests"
        if headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return 415, "send the request as JSON (Content-Type: application/json)"
        length = headers.get("content-length", "0").strip()
        if not length.isdigit():
            return 400, "the request's Content-Length is not a number of bytes"
        if int(length) > MAX_BODY:
            return 413, too_big(int(length))
        origin = headers.get("origin")
        if origin is not None and self.port is not None and origin not in self.allowed_origins():
            return 403, f"a page from {origin} may not use this lab; open the lab's own page"
        return None
