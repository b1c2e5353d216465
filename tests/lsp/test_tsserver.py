"""Tier 2: the tsc child behind TsServer (real tsc, in-process), and the process life cycle of
the whole server: restarts, shutdown, and no orphan tsc whatever way the server ends."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.lsp.client import LanguageClient

from nova_tools.lsp.tsserver import TsServer, TsState, TsUnavailable
from nova_tools.toolchain.typecheck import COMPILER_OPTIONS, typings_path

BARE = "export default (): Action => ({ type: 'android.move', direction: 'up' });\n"


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead for our purposes.
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return True


async def gone(pid: int, within: float = 30.0) -> bool:
    for _ in range(int(within / 0.05)):
        if not alive(pid):
            return True
        await asyncio.sleep(0.05)
    return False


async def test_a_bare_file_is_checked_against_the_typings_and_edits_are_followed(tmp_path):
    ts = TsServer(typings=typings_path(), root=tmp_path)
    uri = (tmp_path / "main.ts").as_uri()
    try:
        ts.open(uri, BARE)
        [item] = [d for d in await ts.diagnostics(uri) if d["severity"] == 1]
        assert "Direction" in item["message"]
        ts.change(uri, BARE.replace("'up'", "'north'"))
        assert [d for d in await ts.diagnostics(uri) if d["severity"] == 1] == []
    finally:
        await ts.stop()
    assert ts.state is TsState.CLOSED


@pytest.mark.skipif(sys.platform != "linux", reason="tsc's cache is XDG_CACHE_HOME on Linux")
async def test_no_package_is_installed_for_a_bare_script_even_when_the_editor_asks(
    tmp_path, monkeypatch
):
    """tsc's automatic type acquisition ran npm in the user's cache at every start."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    (tmp_path / "work").mkdir()
    ts = TsServer(typings=typings_path(), root=tmp_path / "work")
    ts.configure({"js/ts": {"tsserver": {"automaticTypeAcquisition": {"enabled": True}}}})
    uri = (tmp_path / "work" / "main.ts").as_uri()
    try:
        ts.open(uri, "import _ from 'lodash';\n" + BARE)
        assert await ts.diagnostics(uri)
    finally:
        await ts.stop()
    assert not (cache / "typescript").exists()


async def test_the_child_is_restarted_after_it_dies_with_the_documents_as_they_are(tmp_path):
    ts = TsServer(typings=typings_path(), root=tmp_path)
    uri = (tmp_path / "main.ts").as_uri()
    try:
        ts.open(uri, BARE)
        await ts.diagnostics(uri)
        first = ts.pid
        os.kill(first, signal.SIGKILL)
        ts.change(uri, BARE.replace("'up'", "'east'"))  # an edit while it is down
        assert await gone(first)
        assert [d for d in await ts.diagnostics(uri) if d["severity"] == 1] == []
        assert ts.state is TsState.RUNNING and ts.starts == 2 and ts.pid != first
    finally:
        await ts.stop()


async def noticed_exit(ts: TsServer, within: float = 30.0) -> TsState:
    """The state once the server has read the child's end of output (asynchronously, so on a
    loaded machine some time after the child is gone)."""
    for _ in range(int(within / 0.02)):
        if ts.state is not TsState.RUNNING:
            break
        await asyncio.sleep(0.02)
    return ts.state


async def test_a_child_that_keeps_dying_is_given_up_with_a_reason(tmp_path):
    ts = TsServer(typings=typings_path(), root=tmp_path)
    # Four crashes "in a minute": on a loaded machine four tsc starts can take longer than that,
    # and what is tested here is giving up, not the length of the window.
    ts.CRASH_WINDOW = 3600.0
    uri = (tmp_path / "main.ts").as_uri()
    ts.open(uri, BARE)
    try:
        for crash in range(1, TsServer.MAX_CRASHES + 2):
            await ts.diagnostics(uri)
            pid = ts.pid
            os.kill(pid, signal.SIGKILL)
            assert await gone(pid)
            assert await noticed_exit(ts) is (
                TsState.CRASHED if crash <= TsServer.MAX_CRASHES else TsState.FAILED
            )
        assert ts.state is TsState.FAILED
        with pytest.raises(TsUnavailable, match="crashed"):
            await ts.diagnostics(uri)
    finally:
        await ts.stop()


async def test_a_missing_compiler_is_reported_not_raised(tmp_path):
    ts = TsServer(typings=typings_path(), root=tmp_path, tsc=tmp_path / "no-such-tsc")
    ts.open((tmp_path / "main.ts").as_uri(), BARE)
    with pytest.raises(TsUnavailable, match="cannot be started"):
        await ts.diagnostics((tmp_path / "main.ts").as_uri())
    assert ts.state is TsState.FAILED


async def test_a_project_tsconfig_is_respected(tmp_path):
    # The project's own options: here `noUnusedLocals`, which the bare check does not use.
    options = dict(COMPILER_OPTIONS, noUnusedLocals=True)
    (tmp_path / "tsconfig.json").write_text(
        json.dumps({"compilerOptions": options, "include": ["src", "nova.d.ts"]})
    )
    (tmp_path / "nova.d.ts").write_text(typings_path().read_text())
    (tmp_path / "src").mkdir()
    text = (
        "export default (): Action => { const unused = turn; return { type: 'android.wait' }; };\n"
    )
    (tmp_path / "src" / "main.ts").write_text(text)
    ts = TsServer(typings=typings_path(), root=tmp_path)
    project_uri, bare_uri = (
        (tmp_path / "src" / "main.ts").as_uri(),
        (tmp_path.parent / f"{tmp_path.name}-bare.ts").as_uri(),
    )
    try:
        ts.open(project_uri, text)
        ts.open(bare_uri, text)
        project = {d["code"]: d["severity"] for d in await ts.diagnostics(project_uri)}
        bare = {d["code"]: d["severity"] for d in await ts.diagnostics(bare_uri)}
        # "'unused' is declared but its value is never read.": a reported problem under the
        # project's noUnusedLocals (tsc's editor mode shows style checks as warnings), only a
        # fade-out hint in the inferred project of a bare file.
        assert project[6133] == 2
        assert bare[6133] == 4
    finally:
        await ts.stop()


# --- the whole server's process life cycle -------------------------------------------------------


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(p) for p in text]
    return found


async def start_server(
    tmp_path: Path, encodings: list[str] | None = None
) -> tuple[LanguageClient, int, types.InitializeResult]:
    client = LanguageClient("lifecycle-test", "0")
    await client.start_io(sys.executable, "-m", "nova_tools.lsp")
    general = types.GeneralClientCapabilities(position_encodings=encodings) if encodings else None
    result = await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(general=general), root_uri=tmp_path.as_uri()
        )
    )
    client.initialized(types.InitializedParams())
    uri = (tmp_path / "main.ts").as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "typescript", 1, BARE))
    )
    await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 40))
    )
    server_pid = client._server.pid
    return client, server_pid, result


async def tsc_child(server_pid: int) -> int:
    for _ in range(100):
        for kid in children(server_pid):  # the dry-run's process is a child too
            try:
                if b"--lsp" in Path(f"/proc/{kid}/cmdline").read_bytes():
                    return kid
            except OSError:
                pass
        await asyncio.sleep(0.05)
    raise AssertionError("the server has no tsc child")


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
async def test_shutdown_and_exit_end_the_tsc_child(tmp_path):
    client, server_pid, result = await start_server(tmp_path, ["utf-8", "utf-16"])
    assert (
        result.capabilities.position_encoding == types.PositionEncodingKind.Utf16
    )  # tsc speaks UTF-16 only
    tsc = await tsc_child(server_pid)
    await client.shutdown_async(None)
    client.exit(None)
    await client._server.wait()
    assert await gone(tsc)
    await client.stop()


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
async def test_a_killed_server_leaves_no_tsc_behind(tmp_path):
    client, server_pid, _ = await start_server(tmp_path)
    tsc = await tsc_child(server_pid)
    os.kill(server_pid, signal.SIGKILL)  # no shutdown, no exit, no atexit: tsc sees its stdin close
    assert await gone(tsc)
    await client.stop()
