"""Dry-run the turn being written: a code lens on the default export, the ``nova.dryRun`` command.

The command compiles the script as ``nova dry-run`` of the saved files would, the toolchain
resolving its imports, with every open buffer read instead of its file (unsaved edits count:
``toolchain/overlay.py``), and asks :func:`nova_tools.api.dry_run` for one turn in the real
sandbox: against the configured game and android (settings ``gameFile``, ``androidId``), else a
fresh default world. The verdict is shown (``window/showMessage``) and returned; a turn that would
fail also becomes a diagnostic on the export, with the reason and what a failed turn costs, until
the document changes. A turn that throws (or fails to load) is also shown where it failed: a
diagnostic at that line and column of the file the player wrote (an imported file too, open or
not), mapped from the bundle by the game loop (``DryRun.stack``), until that file changes. A
script that does not compile (an import of a file that is not there) is refused in one sentence,
also shown as a diagnostic at the place it names.

The type check an upload makes runs beside the bundling and the sandboxed turn (two threads), so a
dry-run takes the longer of the two rather than their sum; a type error still makes the dry-run
"not possible", as it makes an upload fail. The turn is played in a process of its own
(:mod:`..turnhost`), launched before the server imports anything else: the game's imports and
the sandbox's first turn (its warm-up) run there on the other core while this process imports
the protocol's. Its verdict comes back as the api's :class:`~nova_tools.api.results.DryRun`, the
shape ``nova dry-run --json`` prints, whose module this process imports while the host plays the
first turn.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from ...limits import NOTES
from ...strictjson import well_formed
from ...toolchain.diagnostics import CompileError
from ...toolchain.diagnostics import Diagnostic as CompileDiagnostic
from ...toolchain.tstext import export_default_span
from .. import turnhost
from ..context import Command, Document, DocumentKind, Feature
from ..settings import resolve_path
from ..textpos import LineIndex
from ..tsserver import path_to_uri, uri_to_path

if TYPE_CHECKING:  # imported by the turn host's answer (turnhost.TurnHost.turn), not at start
    from ...api.results import DryRun

log = logging.getLogger(__name__)

COMMAND = "nova.dryRun"

UNTITLED = "untitled.ts"  # where a buffer that is not a file is taken to be, in the workspace


def overlay_of(buffers: dict[Path, str]) -> dict[Path, str]:
    """The open buffers as the toolchain's overlay (absolute path -> text). An editor's buffer may
    hold a lone UTF-16 surrogate that no file could: it becomes U+FFFD (the same length, so
    positions stay put), as a script's own output does."""
    return {path: well_formed(text) for path, text in buffers.items()}


# --- results --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LastRun:
    version: int  # the document version it ran on
    result: DryRun


def describe_action(action: object) -> str:
    if not isinstance(action, dict):
        return "no action"
    rest = {k: v for k, v in action.items() if k not in ("type", *NOTES)}
    detail = " ".join(
        str(v) if isinstance(v, (str, int, float)) else json.dumps(v, separators=(",", ":"))
        for v in rest.values()
    )
    return f"{action.get('type', '?')}{' ' + detail if detail else ''}"


def summary(result: DryRun) -> str:
    """One paragraph a player can act on."""
    who = f"Dry-run as {result.android_id} (round {result.round})"
    memory, recording, logs = result.memory_size, result.recording_size, result.logs
    sizes = [
        "memory unchanged" if memory is None else f"memory {memory} characters",
        "recording unchanged" if recording is None else f"recording {recording} characters",
    ]
    ticks = result.ticks
    spent = f"{ticks} tick{'s' if ticks != 1 else ''} spent, {', '.join(sizes)}"
    if logs:
        spent += (
            ". console.log: "
            + " | ".join(logs[:5])
            + (f" (+{len(logs) - 5} more)" if len(logs) > 5 else "")
        )
    action, code = describe_action(result.action), result.code
    if result.accepted:
        return f"{who}: {action} would be accepted. {spent}."
    cost = f"A failed turn costs the android {result.penalty:g} health (rules.android.failedTurnHealthPenalty)."
    if result.outcome == "refused":
        return f"{who}: {action} would be refused ({code}): {result.reason}. {cost} {spent}."
    return f"{who}: the turn would fail ({result.outcome}{', ' + code if code else ''}): {result.reason}. {cost} {spent}."


def refusal_diagnostic(text: str, result: DryRun) -> types.Diagnostic | None:
    if result.accepted:
        return None
    span = export_default_span(text) or (0, 0)
    code = result.code
    what = "refused" if result.outcome == "refused" else f"a failed turn ({result.outcome})"
    return types.Diagnostic(
        range=LineIndex(text).range(*span),
        message=(
            f"Dry-run: {describe_action(result.action)} would be {what}"
            f"{' (' + code + ')' if code else ''}: {result.reason}. "
            f"A failed turn costs {result.penalty:g} health."
        ),
        severity=types.DiagnosticSeverity.Warning,
        source="nova dry-run",
        code=code or result.outcome,
    )


# --- LSP ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FailurePlace:
    """Where the last dry-run of ``entry_uri`` failed: a diagnostic for the file at that place,
    shown while the file's text is still ``text`` (what the dry-run bundled)."""

    entry_uri: str
    text: str
    diagnostic: types.Diagnostic


def _range_at(text: str, line: int, column: int) -> types.Range:
    """From ``line``:``column`` (from 1) over the word or string literal there (at least one
    character)."""
    index = LineIndex(text)
    offset = index.offset(types.Position(line=max(0, line - 1), character=max(0, column - 1)))
    end = offset
    if end < len(text) and text[end] in "'\"`":
        closing = text.find(text[end], end + 1)
        end = closing + 1 if closing > 0 and "\n" not in text[end:closing] else end
    while end < len(text) and (text[end].isalnum() or text[end] in "_$"):
        end += 1
    return types.Range(start=index.position(offset), end=index.position(max(end, offset + 1)))


def place_diagnostic(text: str, result: DryRun) -> types.Diagnostic:
    """The failure of ``result`` at its place (its stack's first entry) in ``text``, the file
    there."""
    place, code, outcome = result.stack[0], result.code, result.outcome
    return types.Diagnostic(
        range=_range_at(text, place.line, place.column),
        message=(
            f"Dry-run: the turn would fail here ({outcome}{', ' + code if code else ''}): {result.reason}. "
            f"A failed turn costs {result.penalty:g} health."
        ),
        severity=types.DiagnosticSeverity.Error,
        source="nova dry-run",
        code=code or outcome,
    )


def refusal_sentence(error: CompileError, folder: Path) -> tuple[str, CompileDiagnostic | None]:
    """The one sentence a dry-run that cannot compile says: its first error at its place (the
    file named from the entry's ``folder``); and that error if it has a place in a file."""
    errors = [d for d in error.diagnostics if d.severity == "error"] or error.diagnostics
    first = errors[0] if errors else None
    if first is None or not os.path.isabs(first.file) or first.line <= 0:
        return f"Dry-run not possible: {' '.join(str(error).split())}", None
    shown = Path(os.path.relpath(first.file, folder)).as_posix()
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    reason = " ".join(first.message.split()).rstrip(".")
    return f"Dry-run not possible: {shown}:{first.line}:{first.col} {reason}{more}.", first


def _uri_argument(arguments: tuple) -> str | None:
    first = arguments[0] if arguments else None
    if isinstance(first, dict):
        first = first.get("uri") or (first.get("textDocument") or {}).get("uri")
    return first if isinstance(first, str) else None


class DryRunFeature(Feature):
    """The ``nova.dryRun`` command, its code lens on the default export, and the last verdict of
    each script (shown in the lens title, and as a diagnostic until the document changes)."""

    kinds = frozenset({DocumentKind.SCRIPT})

    def __init__(self, server) -> None:
        super().__init__(server)
        self.last: dict[str, LastRun] = {}  # uri -> the last dry-run of that document
        self.places: dict[
            str, FailurePlace
        ] = {}  # uri of a file where a last dry-run failed -> where
        self.lock = asyncio.Lock()  # one sandboxed turn at a time

    def commands(self) -> dict[str, Command]:
        return {COMMAND: self.run}

    def begin(self) -> None:
        # `nova lsp` launched it before anything else; a server made otherwise launches it now
        turnhost.shared().start()

    async def shutdown(self) -> None:
        await asyncio.to_thread(turnhost.shared().stop)

    def exit(self) -> None:
        turnhost.shared().kill()

    def closed(self, uri: str) -> None:
        self.last.pop(uri, None)

    async def code_lenses(
        self, document: Document, params: types.CodeLensParams
    ) -> list[types.CodeLens]:
        span = export_default_span(document.text)
        if span is None:
            return []
        title = "▶ Dry-run this turn"
        last = self.last.get(document.uri)
        if last is not None:
            verdict = (
                "accepted" if last.result.accepted else (last.result.code or last.result.outcome)
            )
            title += f" (last: {describe_action(last.result.action)} — {verdict})"
        command = types.Command(title=title, command=COMMAND, arguments=[document.uri])
        return [types.CodeLens(range=LineIndex(document.text).range(*span), command=command)]

    async def diagnostics(self, document: Document) -> list[types.Diagnostic]:
        found = []
        place = self.places.get(document.uri)
        if place is not None and place.text == document.text:
            found.append(place.diagnostic)
        last = self.last.get(document.uri)
        if (
            last is not None
            and last.version == document.version
            and (place is None or place.entry_uri != document.uri)
        ):
            refusal = refusal_diagnostic(document.text, last.result)
            found += [refusal] if refusal else []
        return found

    async def _place(self, entry_uri: str, where: FailurePlace | None, path: Path | None) -> None:
        """Show where the dry-run of ``entry_uri`` failed (``where``, in the file at ``path``),
        and no longer where its last one did."""
        server = self.server
        stale = [uri for uri, place in self.places.items() if place.entry_uri == entry_uri]
        for uri in stale:
            del self.places[uri]
        fresh = None
        if where is not None and path is not None:
            fresh = path_to_uri(path)
            self.places[fresh] = where
        for uri in {*stale, *([fresh] if fresh else [])} - {entry_uri}:
            if server.document(uri) is not None:
                await server.diagnostics.publish_now(uri)
            else:  # a file the editor does not have open still gets its diagnostic (or loses it)
                shown = [self.places[uri].diagnostic] if uri in self.places else []
                server.text_document_publish_diagnostics(
                    types.PublishDiagnosticsParams(uri=uri, diagnostics=shown)
                )

    def _text_of(self, path: Path, overlay: dict[Path, str]) -> str | None:
        """The text of ``path`` the dry-run read: its buffer, else the file."""
        return overlay[path] if path in overlay else self.server.read_text(path)

    async def run(self, *arguments) -> dict:
        """``[uri]`` -> the verdict (also shown to the user)."""
        server = self.server
        uri = _uri_argument(arguments)
        document = server.document(uri) if uri else None
        if uri is None or document is None:
            return self._failed(
                "Dry-run needs an open android script: pass its URI as the command's argument."
            )
        path = (uri_to_path(uri) or (server.root or Path.cwd()) / UNTITLED).resolve()
        overlay = overlay_of({**server.buffers(), path: document.text})
        game = resolve_path(server.settings.game_file, server.root)
        request = turnhost.TurnRequest(
            str(path),
            {str(p): text for p, text in overlay.items()},
            str(game) if game is not None else None,
            server.settings.android_id,
        )
        asked = time.perf_counter()
        try:
            async with self.lock:
                began = time.perf_counter()
                result = await asyncio.to_thread(turnhost.shared().turn, request)
                log.info(
                    "dry-run of %s: %.0f ms (after %.0f ms waiting for another)",
                    uri,
                    1000 * (time.perf_counter() - began),
                    1000 * (began - asked),
                )
        except CompileError as error:
            return await self._refused(uri, path, overlay, error)
        except turnhost.TurnRefused as error:
            return self._failed(f"Dry-run not possible: {error}")
        except turnhost.TurnFailed as error:
            return self._failed(f"Dry-run failed unexpectedly ({error.kind}: {error.message}).")
        except (
            Exception
        ) as error:  # the outer edge: say it in one sentence, keep the details in the log
            log.exception("dry-run of %s failed", uri)
            return self._failed(f"Dry-run failed unexpectedly ({type(error).__name__}: {error}).")
        self.last[uri] = LastRun(document.version or 0, result)
        where, failed_in = None, None
        if result.stack:  # named from the entry's folder, as in the bundle's source map
            failed_in = (path.parent / result.stack[0].file).resolve()
            if (text := self._text_of(failed_in, overlay)) is not None:
                where = FailurePlace(uri, text, place_diagnostic(text, result))
        await self._place(uri, where, failed_in)
        await server.diagnostics.publish_now(uri)
        server.refresh_code_lenses()  # their title shows the last verdict
        text_summary = summary(result)
        server.show_message(
            types.MessageType.Info if result.accepted else types.MessageType.Warning,
            text_summary,
        )
        return {"ok": True, "message": text_summary, **result.to_json()}

    async def _refused(
        self, uri: str, path: Path, overlay: dict[Path, str], error: CompileError
    ) -> dict:
        """The script does not compile: one sentence, and a diagnostic at the place it names
        (an import of a file that is not there: that import) until that file changes."""
        sentence, first = refusal_sentence(error, path.parent)
        where, at = None, None
        if first is not None:
            at = Path(first.file)
            if (text := self._text_of(at, overlay)) is not None:
                diagnostic = types.Diagnostic(
                    range=_range_at(text, first.line, first.col),
                    message=sentence,
                    severity=types.DiagnosticSeverity.Error,
                    source="nova dry-run",
                    code=first.code,
                )
                where = FailurePlace(uri, text, diagnostic)
        await self._place(uri, where, at)
        await self.server.diagnostics.publish_now(uri)
        failed = self._failed(sentence)
        if first is not None:
            failed["place"] = {"file": str(at), "line": first.line, "column": first.col}
        return failed

    def _failed(self, message: str) -> dict:
        """The dry-run could not run at all (not: the turn would fail)."""
        self.server.show_message(types.MessageType.Error, message)
        return {"ok": False, "message": message}
