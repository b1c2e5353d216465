"""A warm TypeScript 7 checker (``tsc --lsp --stdio``) in a child process, behind a small interface.

The language server never talks JSON-RPC to tsc anywhere else. :class:`TsServer` keeps the set
of open documents itself, so the child can be (re)started at any moment and brought up to date;
its :class:`TsState` says what it is doing.

Facts about typescript 7.0.2's server that shape this module (probed, see DESIGN section 6):

* it answers *pull* diagnostics (``textDocument/diagnostic``) only;
* it tailors its answers to the client capabilities it is given (hierarchical document symbols,
  the semantic token legend, snippets, markdown), so it is given the editor's own, and its own
  capabilities (:attr:`TsServer.capabilities`) say which features the server can pass on;
* it reads its preferences (inlay hints, formatting, code lenses) from
  ``workspace/didChangeConfiguration`` with the sections ``typescript``, ``js/ts``,
  ``javascript`` and ``editor``; it does not ask with ``workspace/configuration``;
* it may ask the client to refresh inlay hints, semantic tokens, code lenses or diagnostics;
  :attr:`TsServer.relay` passes those requests on;
* left to itself it acquires types for an inferred project (a bare script): at every start it
  ran ``npm install types-registry@latest`` in the user's cache (``~/.cache/typescript``), a
  download and a Node process competing with the editor's first requests. An android script
  imports no package, so :data:`FIXED_SETTINGS` turns that off whatever the editor's settings;
* a bare ``.ts`` file with no tsconfig lands in an inferred project; opening the game's typings
  (``nova.d.ts``) beside it puts both in the same inferred project, so the globals resolve. A file
  with a ``tsconfig.json`` above it belongs to that project and is left to it (a project made by
  ``nova new-android`` lists its own copy of the typings);
* ``shutdown`` and ``exit`` must be sent *without* ``params`` (it rejects ``null``);
* it exits by itself when its stdin closes, so it cannot outlive this process for long; ``kill``
  and ``stop`` end it sooner.

Known difference with the upload check: tsc's inferred project includes the DOM library, so a
bare file may use ``document`` without an error here while ``nova upload`` refuses it (the upload
checks with ``lib: ["es2022"]``); the ``host-global`` check (features/checks.py) warns about those
names instead. A project tsconfig with those options removes the difference.
"""

from __future__ import annotations

import asyncio
import enum
import json
import logging
import os
import signal
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from ..toolchain.paths import TSC, ToolchainMissing

log = logging.getLogger(__name__)


class TsState(enum.Enum):
    STOPPED = "stopped"  # not started yet (it starts on the first request)
    STARTING = "starting"
    RUNNING = "running"
    CRASHED = "crashed"  # died unexpectedly; the next request starts it again
    FAILED = "failed"  # missing, or crashed too often: no more attempts (see ``failure``)
    CLOSED = "closed"  # stopped on purpose


#: Requests tsc sends that the language server passes on to the editor (see ``TsServer.relay``).
RELAYED_REQUESTS = frozenset(
    {
        "workspace/inlayHint/refresh",
        "workspace/semanticTokens/refresh",
        "workspace/codeLens/refresh",
        "workspace/diagnostic/refresh",
    }
)
#: The ``workspace/didChangeConfiguration`` sections tsc reads its preferences from.
CONFIGURATION_SECTIONS = ("typescript", "js/ts", "javascript", "editor")
#: What tsc is always told, over the editor's own settings: no automatic type acquisition.
FIXED_SETTINGS: dict = {"js/ts": {"tsserver": {"automaticTypeAcquisition": {"enabled": False}}}}


def over(base: dict, fixed: dict) -> dict:
    """``base`` with every value of ``fixed`` put in, nested objects merged."""
    merged = dict(base)
    for key, value in fixed.items():
        inner = merged.get(key)
        merged[key] = (
            over(inner, value) if isinstance(value, dict) and isinstance(inner, dict) else value
        )
    return merged


def child_capabilities(client: dict | None) -> dict:
    """The capabilities to give tsc: the editor's own (so answers come in the shapes it reads),
    with pull diagnostics (the only kind tsc serves), UTF-16 positions, and nothing about
    windows, progress or file watching, which this server does not pass on."""
    client = client or {}
    text = {
        k: v
        for k, v in (client.get("textDocument") or {}).items()
        if k not in ("publishDiagnostics", "diagnostic")
    }
    text["diagnostic"] = {"dynamicRegistration": False}
    # tsc's hover always in Markdown: its plain text runs a signature into its docs
    # (`...: numberMost material...`); the hover feature makes plain text of it for such a client
    text["hover"] = {**(text.get("hover") or {}), "contentFormat": ["markdown"]}
    text.setdefault("completion", {})
    workspace = {
        k: v
        for k, v in (client.get("workspace") or {}).items()
        if k
        in (
            "workspaceEdit",
            "symbol",
            "semanticTokens",
            "inlayHint",
            "codeLens",
            "fileOperations",
            "applyEdit",
        )
    }
    workspace["diagnostics"] = {"refreshSupport": True}  # answered by the server: it re-checks
    return {
        "general": {"positionEncodings": ["utf-16"]},
        "textDocument": text,
        "workspace": workspace,
    }


class TsUnavailable(RuntimeError):
    """The checker cannot answer now; the message says why in words a user can act on."""


@dataclass
class _Doc:
    text: str
    bare: bool  # no tsconfig above it: needs the typings in its inferred project
    version: int = 1


def uri_to_path(uri: str) -> Path | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


def path_to_uri(path: Path) -> str:
    return path.resolve().as_uri()


def find_tsconfig(path: Path) -> Path | None:
    """The ``tsconfig.json`` of the nearest folder above ``path`` that has one."""
    for folder in path.parents:
        candidate = folder / "tsconfig.json"
        if candidate.is_file():
            return candidate
    return None


class TsServer:
    MAX_CRASHES = 3  # within CRASH_WINDOW seconds, then FAILED
    CRASH_WINDOW = 60.0
    START_TIMEOUT = 30.0
    REQUEST_TIMEOUT = 15.0

    def __init__(
        self,
        *,
        typings: Path,
        root: Path | None = None,
        tsc: Path | None = None,
        client_capabilities: dict | None = None,
    ) -> None:
        self.typings = typings
        self.typings_uri = path_to_uri(typings)
        self.root = root
        self._tsc = tsc
        self.client_capabilities = client_capabilities or {}  # the editor's, as LSP JSON
        self.capabilities: dict = {}  # tsc's own ServerCapabilities, once it has started
        self.settings: dict = {}  # its preferences, by section (CONFIGURATION_SECTIONS)
        # Passes a request tsc makes (RELAYED_REQUESTS) on to the editor; None: answered null.
        self.relay: Callable[[str, object], Awaitable[object]] | None = None
        self._docs: dict[str, _Doc] = {}
        self._state = TsState.STOPPED
        self.failure: str | None = None
        self._proc: asyncio.subprocess.Process | None = None
        self._tasks: list[asyncio.Task] = []
        self._pending: dict[int, asyncio.Future] = {}
        self._next_id = 0
        self._typings_open = False
        self._starting: asyncio.Future | None = None
        self._crashes: deque[float] = deque()
        self._stderr_tail: deque[str] = deque(maxlen=20)
        self.starts = 0  # how many children were started (for tests and the bench)

    # --- state ---------------------------------------------------------------------------------

    @property
    def state(self) -> TsState:
        return self._state

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None and self._proc.returncode is None else None

    # --- documents (synchronous, so edits reach the child in the order they were made) ----------

    def open(self, uri: str, text: str) -> None:
        if uri == self.typings_uri:
            return  # the typings are opened by this class when a bare file needs them
        path = uri_to_path(uri)
        doc = _Doc(text, bare=path is None or find_tsconfig(path) is None)
        self._docs[uri] = doc
        if self._state is TsState.RUNNING:
            self._send_open(uri, doc)

    def change(self, uri: str, text: str) -> None:
        doc = self._docs.get(uri)
        if doc is None:
            self.open(uri, text)
            return
        doc.text = text
        doc.version += 1
        if self._state is TsState.RUNNING:
            self._notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": doc.version},
                    "contentChanges": [{"text": text}],
                },
            )

    def close(self, uri: str) -> None:
        doc = self._docs.pop(uri, None)
        if doc is not None and self._state is TsState.RUNNING:
            self._notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    def _send_open(self, uri: str, doc: _Doc) -> None:
        if doc.bare and not self._typings_open:
            self._typings_open = True
            try:
                text = self.typings.read_text(encoding="utf-8")
            except OSError as error:
                log.error(
                    "the typings %s cannot be read (%s): the game's globals will not resolve",
                    self.typings,
                    error,
                )
            else:
                self._notify(
                    "textDocument/didOpen",
                    {
                        "textDocument": {
                            "uri": self.typings_uri,
                            "languageId": "typescript",
                            "version": 1,
                            "text": text,
                        }
                    },
                )
        self._notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": uri,
                    "languageId": "typescript",
                    "version": doc.version,
                    "text": doc.text,
                }
            },
        )

    # --- requests --------------------------------------------------------------------------------

    async def request(self, method: str, params: object) -> object:
        """Send a request (starting the child if needed) and return its ``result``."""
        for attempt in (1, 2):
            await self._ensure_running()
            try:
                return await asyncio.wait_for(
                    self._send_request(method, params), self.REQUEST_TIMEOUT
                )
            except TimeoutError:
                raise TsUnavailable(
                    f"the TypeScript checker did not answer {method} within {self.REQUEST_TIMEOUT:g} s"
                ) from None
            except TsUnavailable:
                if attempt == 2 or self._state is not TsState.CRASHED:
                    raise
                # It died under this request: the next attempt starts a fresh child.
        raise AssertionError("unreachable")

    def configure(self, settings: dict) -> None:
        """tsc's preferences (inlay hints, formatting...), by section; kept for a restarted child."""
        self.settings = {k: v for k, v in settings.items() if k in CONFIGURATION_SECTIONS}
        if self._state is TsState.RUNNING:
            self._send_settings()

    def _send_settings(self) -> None:
        self._notify(
            "workspace/didChangeConfiguration", {"settings": over(self.settings, FIXED_SETTINGS)}
        )

    def is_bare(self, uri: str) -> bool:
        """Whether an open document has no tsconfig above it (unknown documents count as bare)."""
        doc = self._docs.get(uri)
        return doc is None or doc.bare

    def document_open(self, uri: str) -> bool:
        return uri in self._docs or (uri == self.typings_uri and self._typings_open)

    async def diagnostics(self, uri: str) -> list[dict]:
        """tsc's diagnostics of an open document, as LSP JSON."""
        result = await self.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        if isinstance(result, dict):
            return list(result.get("items") or [])
        return []

    # --- life cycle ------------------------------------------------------------------------------

    async def start(self) -> None:
        await self._ensure_running()

    async def _ensure_running(self) -> None:
        if self._state is TsState.RUNNING:
            return
        if self._state is TsState.FAILED:
            raise TsUnavailable(self.failure or "the TypeScript checker is not available")
        if self._state is TsState.CLOSED:
            raise TsUnavailable("the TypeScript checker has been stopped")
        if self._starting is None:
            self._starting = asyncio.ensure_future(self._start())
            self._starting.add_done_callback(self._started)
        await asyncio.shield(self._starting)

    def _started(self, future: asyncio.Future) -> None:
        self._starting = None
        if not future.cancelled() and future.exception() is not None:
            future.exception()  # retrieved: the awaiting callers get it

    async def _start(self) -> None:
        self._state = TsState.STARTING
        try:
            tsc = self._tsc or TSC.require()
        except ToolchainMissing as error:
            self._fail(f"type checking is off: {error}")
            raise TsUnavailable(self.failure) from None
        try:
            proc = await asyncio.create_subprocess_exec(
                str(tsc),
                "--lsp",
                "--stdio",
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=str(self.root) if self.root and self.root.is_dir() else None,
                limit=1 << 22,
            )
        except OSError as error:
            self._fail(f"type checking is off: {tsc} cannot be started ({error})")
            raise TsUnavailable(self.failure) from None
        self.starts += 1
        self._proc = proc
        self._typings_open = False
        self._tasks = [
            asyncio.create_task(self._read_loop(proc)),
            asyncio.create_task(self._drain_stderr(proc)),
        ]
        root_uri = path_to_uri(self.root) if self.root else None
        params = {
            "processId": os.getpid(),
            "rootUri": root_uri,
            "workspaceFolders": [{"uri": root_uri, "name": self.root.name}]
            if root_uri and self.root
            else None,
            "capabilities": child_capabilities(self.client_capabilities),
            "initializationOptions": {"disablePushDiagnostics": True},
        }
        try:
            result = await asyncio.wait_for(
                self._send_request("initialize", params), self.START_TIMEOUT
            )
        except (TimeoutError, TsUnavailable) as error:
            self._kill(proc)
            if self._state is TsState.STARTING:
                self._crashed(f"the TypeScript checker did not start ({error or 'no answer'})")
            raise TsUnavailable(self.failure or "the TypeScript checker did not start") from None
        if self._state is TsState.CLOSED:  # stopped while it was starting
            self._kill(proc)
            raise TsUnavailable("the TypeScript checker has been stopped")
        self.capabilities = (result.get("capabilities") or {}) if isinstance(result, dict) else {}
        self._notify("initialized", {})
        self._send_settings()  # before any document: it acquires types once a project is made
        # Bring the new child up to date; nothing can interleave until the next await.
        for uri, doc in self._docs.items():
            self._send_open(uri, doc)
        self._state = TsState.RUNNING
        log.info("tsc --lsp started (pid %s), %d documents open", proc.pid, len(self._docs))

    async def stop(self) -> None:
        """Shut the child down politely (``shutdown``, ``exit``), or kill it after 2 s."""
        if self._state is TsState.CLOSED:
            return
        self._state = TsState.CLOSED
        proc = self._proc
        if proc is not None and proc.returncode is None:
            try:
                await asyncio.wait_for(self._send_request("shutdown", None), 2.0)
                self._notify("exit", None)
                await asyncio.wait_for(proc.wait(), 2.0)
            except (TimeoutError, TsUnavailable, ConnectionError):
                self._kill(proc)
        for task in self._tasks:
            task.cancel()
        self._fail_pending("the TypeScript checker has been stopped")

    def kill(self) -> None:
        """End the child now (for the exit path, where there is no time to be polite)."""
        self._state = TsState.CLOSED
        if self._proc is not None:
            self._kill(self._proc)

    @staticmethod
    def _kill(proc: asyncio.subprocess.Process) -> None:
        if proc.returncode is None:
            try:
                os.kill(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def _crashed(self, why: str) -> None:
        now = time.monotonic()
        self._crashes.append(now)
        while self._crashes and now - self._crashes[0] > self.CRASH_WINDOW:
            self._crashes.popleft()
        tail = " | ".join(list(self._stderr_tail)[-3:])
        if len(self._crashes) > self.MAX_CRASHES:
            self._fail(
                f"type checking is off: the TypeScript checker crashed {len(self._crashes)} times in a minute ({why}{'; ' + tail if tail else ''})"
            )
        else:
            self._state = TsState.CRASHED
            self.failure = why
            log.warning("tsc --lsp stopped unexpectedly (%s); it restarts on the next request", why)

    def _fail(self, why: str) -> None:
        self._state = TsState.FAILED
        self.failure = why
        log.error("%s", why)

    # --- JSON-RPC over the child's stdio -----------------------------------------------------------

    def _write(self, message: dict) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None or proc.returncode is not None:
            return
        body = json.dumps(message, separators=(",", ":")).encode("utf-8")
        try:
            proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        except (ConnectionError, RuntimeError) as error:  # the child is gone; the reader notices
            log.debug("write to tsc failed: %s", error)

    def _notify(self, method: str, params: object) -> None:
        message: dict = {"jsonrpc": "2.0", "method": method}
        if params is not None:  # tsc rejects "params": null
            message["params"] = params
        self._write(message)

    def _send_request(self, method: str, params: object) -> asyncio.Future:
        if self._proc is None or self._proc.returncode is not None:
            raise TsUnavailable("the TypeScript checker is not running")
        self._next_id += 1
        future = asyncio.get_running_loop().create_future()
        self._pending[self._next_id] = future
        message: dict = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            message["params"] = params
        self._write(message)
        return future

    def _fail_pending(self, why: str) -> None:
        pending, self._pending = self._pending, {}
        for future in pending.values():
            if not future.done():
                future.set_exception(TsUnavailable(why))

    async def _read_loop(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        try:
            while True:
                length = None
                while True:
                    line = await proc.stdout.readline()
                    if not line:
                        raise EOFError
                    line = line.strip()
                    if not line:
                        break
                    name, _, value = line.decode("ascii", "replace").partition(":")
                    if name.lower() == "content-length":
                        length = int(value.strip())
                if length is None:
                    continue
                self._dispatch(json.loads(await proc.stdout.readexactly(length)))
        except (EOFError, asyncio.IncompleteReadError, ConnectionError, ValueError):
            pass
        except asyncio.CancelledError:
            return
        await proc.wait()
        if proc is self._proc:
            self._proc = None
            code = proc.returncode
            self._fail_pending("the TypeScript checker stopped")
            if self._state not in (TsState.CLOSED, TsState.FAILED):
                self._crashed(f"it exited with code {code}")

    async def _drain_stderr(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stderr is not None
        try:
            while line := await proc.stderr.readline():
                text = line.decode("utf-8", "replace").rstrip()
                if text:
                    self._stderr_tail.append(text)
                    log.debug("tsc: %s", text)
        except (asyncio.CancelledError, ConnectionError):
            pass

    async def _relay(self, request_id: object, method: str, params: object) -> None:
        try:
            if self.relay is not None:
                await self.relay(method, params)
        except Exception as error:  # the editor declined: tsc only asked for a courtesy
            log.debug("relaying %s failed: %s", method, error)
        self._write({"jsonrpc": "2.0", "id": request_id, "result": None})

    def _dispatch(self, message: dict) -> None:
        if "id" in message and "method" not in message:  # a response to one of ours
            future = self._pending.pop(message["id"], None)
            if future is None or future.done():
                return
            if "error" in message:
                error = message["error"] or {}
                future.set_exception(TsUnavailable(f"tsc: {error.get('message', 'error')}"))
            else:
                future.set_result(message.get("result"))
        elif "id" in message:  # a request from tsc: answer what we can, politely
            method = message.get("method")
            if method == "workspace/configuration":
                items = (message.get("params") or {}).get("items") or []
                self._write(
                    {"jsonrpc": "2.0", "id": message["id"], "result": [None for _ in items]}
                )
            elif method in (
                "client/registerCapability",
                "client/unregisterCapability",
                "window/workDoneProgress/create",
            ):
                self._write({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif method in RELAYED_REQUESTS:
                task = asyncio.ensure_future(
                    self._relay(message["id"], method, message.get("params"))
                )
                self._tasks.append(task)
            else:
                self._write(
                    {
                        "jsonrpc": "2.0",
                        "id": message["id"],
                        "error": {"code": -32601, "message": f"{method} is not supported"},
                    }
                )
        elif message.get("method") == "window/logMessage":
            params = message.get("params") or {}
            if (
                params.get("type") == 1 and self._state is not TsState.CLOSED
            ):  # it complains while exiting
                log.warning("tsc: %s", params.get("message"))
