"""Issue 9, item 7: nothing a client sends stops `nova lsp`. The real server over stdio, fed raw
frames (the protocol's own bytes, which no well-behaved client library would write): a frame
whose Content-Length is beyond what the server reads whole is skipped and the next request is
answered; a header claiming a terabyte ends the server cleanly when the input ends (it was a
MemoryError); a request whose position does not fit the protocol (line -1) gets an error reply."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from nova_tools.lsp import MAX_MESSAGE_BYTES

REPO = Path(__file__).resolve().parents[2]


class RawClient:
    """`nova lsp` in its own process, spoken to in raw JSON-RPC frames."""

    def __init__(self, root: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "nova_tools.cli", "lsp"], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.messages: dict[int, dict] = {}
        self.arrived = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while (line := out.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if not line:
                return
            message = json.loads(out.read(length))
            with self.arrived:
                if "id" in message and "method" not in message:
                    self.messages[message["id"]] = message
                self.arrived.notify_all()

    def send_bytes(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        self.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def request(self, msg_id: int, method: str, params: dict) -> dict:
        self.send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        with self.arrived:
            assert self.arrived.wait_for(lambda: msg_id in self.messages or self.proc.poll() is not None, timeout=60), method
        assert msg_id in self.messages, f"the server exited: {self.stderr()}"
        return self.messages[msg_id]

    def start(self, root: Path) -> None:
        answer = self.request(1, "initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {}})
        assert "result" in answer
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})

    def stderr(self) -> str:
        if self.proc.poll() is None:
            return ""
        return self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""

    def close(self) -> int:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=60)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def _rules_file(root: Path) -> str:
    path = root / "rules.json"
    path.write_text('{ "script": { "fuel": 200 } }\n')
    return path.resolve().as_uri()


def test_an_oversized_frame_is_skipped_and_the_next_request_answered(tmp_path):
    client = RawClient(tmp_path)
    try:
        client.start(tmp_path)
        uri = _rules_file(tmp_path)
        filler = b" " * (MAX_MESSAGE_BYTES + 1 - 2)
        client.send_bytes(b"Content-Length: %d\r\n\r\n{%s}" % (MAX_MESSAGE_BYTES + 1, filler))
        text = (tmp_path / "rules.json").read_text()
        client.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                     "params": {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}})
        hover = client.request(2, "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 5}})
        assert "result" in hover, hover
        assert client.proc.poll() is None
    finally:
        client.close()


def test_a_frame_claiming_a_terabyte_ends_the_server_cleanly_not_with_memory_error(tmp_path):
    client = RawClient(tmp_path)
    client.start(tmp_path)
    client.send_bytes(b"Content-Length: 1000000000000\r\n\r\n{}")
    code = client.close()  # the input ends inside the claimed body
    err = client.proc.stderr.read().decode(errors="replace") if client.proc.stderr else ""
    assert "MemoryError" not in err and "Traceback" not in err, err
    assert code == 0, err


def test_a_position_at_line_minus_one_gets_an_error_reply_and_the_server_answers_on(tmp_path):
    client = RawClient(tmp_path)
    try:
        client.start(tmp_path)
        uri = _rules_file(tmp_path)
        text = (tmp_path / "rules.json").read_text()
        client.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                     "params": {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}})
        bad = client.request(2, "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": -1, "character": 0}})
        assert bad["error"]["code"] == -32602 and "textDocument/hover" in bad["error"]["message"], bad
        good = client.request(3, "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 5}})
        assert "result" in good, good
    finally:
        client.close()
