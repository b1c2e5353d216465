"""``nova lsp`` answers at once and warms up behind it: a dry-run asked the moment a script is
open, while the dry-run's own process is still importing the game, gets the answer the CLI gives;
that process, if it dies, is started again; and nothing the server started outlives it.

Each test launches a fresh server over real stdio (the warm-up only happens once per server).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

import pytest
from lsprotocol import types
from nova_testing import nova
from pygls.lsp.client import LanguageClient

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")

SCRIPT = """const turn: AndroidTurn = () => {
  console.log('au départ, round ' + world.round);
  return { type: 'android.move', direction: 'east' };
};
export default turn;
"""


def children(pid: int) -> dict[int, str]:
    """The processes ``pid`` started, by pid, with their command lines."""
    found = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            try:
                found[int(child)] = Path(f"/proc/{child}/cmdline").read_bytes().decode()
            except OSError:
                pass
    return found


def dry_run_process(server: int) -> int | None:
    hosts = [pid for pid, cmd in children(server).items() if "nova_tools.lsp.turnhost" in cmd]
    return hosts[0] if hosts else None


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


async def gone(pid: int, within: float = 30.0) -> bool:
    for _ in range(int(within / 0.05)):
        if not alive(pid):
            return True
        await asyncio.sleep(0.05)
    return False


async def launch(folder: Path) -> tuple[LanguageClient, int]:
    client = LanguageClient("start-order-test", "0")
    await client.start_io(sys.executable, "-m", "nova_tools.lsp", cwd=folder)
    await client.initialize_async(
        types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=folder.as_uri())
    )
    client.initialized(types.InitializedParams())
    return client, client._server.pid  # type: ignore[union-attr]  # set by start_io


def open_script(client: LanguageClient, path: Path, text: str = SCRIPT) -> str:
    path.write_text(text, encoding="utf-8")
    uri = path.resolve().as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "typescript", 1, text))
    )
    return uri


async def dry_run(client: LanguageClient, uri: str) -> dict:
    return await asyncio.wait_for(
        client.workspace_execute_command_async(types.ExecuteCommandParams("nova.dryRun", [uri])),
        60,
    )


async def stop(client: LanguageClient) -> None:
    await client.shutdown_async(None)
    client.exit(None)
    await client._server.wait()  # type: ignore[union-attr]
    await client.stop()


def the_clis(path: Path) -> dict:
    run = nova("dry-run", path, "--json")
    assert run.code == 0, run.err
    return json.loads(run.out)


async def test_a_dry_run_asked_as_soon_as_the_script_is_open_is_the_one_the_cli_gives(tmp_path):
    client, _ = await launch(tmp_path)
    try:
        result = await dry_run(client, open_script(client, tmp_path / "main.ts"))
    finally:
        await stop(client)
    assert result["ok"] and result["accepted"], result
    assert result["logs"] == ["au départ, round 1"]
    assert {k: v for k, v in result.items() if k not in ("ok", "message")} == the_clis(
        tmp_path / "main.ts"
    )


async def test_a_dry_run_process_that_died_is_started_again_for_the_next_dry_run(tmp_path):
    client, server = await launch(tmp_path)
    try:
        uri = open_script(client, tmp_path / "main.ts")
        first = await dry_run(client, uri)
        host = dry_run_process(server)
        assert host is not None
        os.kill(host, signal.SIGKILL)
        assert await gone(host)
        again = await dry_run(client, uri)
        assert dry_run_process(server) not in (None, host)
    finally:
        await stop(client)
    assert again == first


async def test_a_killed_server_leaves_no_dry_run_process_behind(tmp_path):
    client, server = await launch(tmp_path)
    await dry_run(client, open_script(client, tmp_path / "main.ts"))
    host = dry_run_process(server)
    assert host is not None
    os.kill(server, signal.SIGKILL)  # no shutdown, no exit: the host sees its input end
    assert await gone(host)
    await client.stop()


async def test_shutdown_and_exit_end_the_dry_run_process(tmp_path):
    client, server = await launch(tmp_path)
    await dry_run(client, open_script(client, tmp_path / "main.ts"))
    host = dry_run_process(server)
    assert host is not None
    await stop(client)
    assert await gone(host)
