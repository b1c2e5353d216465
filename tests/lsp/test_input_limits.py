"""Issue 9, item 7: nothing a client sends stops `nova lsp`. The real server over stdio, fed raw
frames (the protocol's own bytes, which no well-behaved client library would write): a frame
whose Content-Length is beyond what the server reads whole is skipped and the next request is
answered; a header claiming a terabyte costs that one frame (it was a MemoryError): the
frames after it are read in step; an input that ends, whatever it ended in, ends the server
without a traceback; a request whose position does not fit the protocol (line -1) gets an error reply."""

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
            [sys.executable, "-m", "nova_tools.cli", "lsp"],
            cwd=root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.messages: dict[int, dict] = {}
        self.arrived = threading.Condition()
        self.log = (
            bytearray()
        )  # stderr, drained as an editor does (a full pipe would stall the server)
        self.reading = threading.Thread(target=self._read, daemon=True)
        self.reading.start()
        self.draining = threading.Thread(target=self._drain, daemon=True)
        self.draining.start()

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        while chunk := self.proc.stderr.read1(65536):
            self.log += chunk

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
            assert self.arrived.wait_for(
                lambda: msg_id in self.messages or self.proc.poll() is not None, timeout=60
            ), method
        assert msg_id in self.messages, f"the server exited: {self.stderr()}"
        return self.messages[msg_id]

    def start(self, root: Path) -> None:
        answer = self.request(
            1, "initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}
        )
        assert "result" in answer
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})

    def stderr(self) -> str:
        """What the server logged (all of it, once it has exited)."""
        if self.proc.poll() is not None:
            self.draining.join(timeout=10)
        return self.log.decode(errors="replace")

    def close(self) -> int:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=60)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            self.stderr()  # all of it, before the pipes close
            self.reading.join(timeout=10)
            for pipe in (self.proc.stdout, self.proc.stderr):
                if pipe:
                    pipe.close()


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
        client.send(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}
                },
            }
        )
        hover = client.request(
            2,
            "textDocument/hover",
            {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 5}},
        )
        assert "result" in hover, hover
        assert client.proc.poll() is None
    finally:
        client.close()


def test_a_frame_claiming_a_terabyte_costs_that_frame_and_the_next_request_is_answered(tmp_path):
    client = RawClient(tmp_path)
    try:
        client.start(tmp_path)
        uri = _rules_file(tmp_path)
        client.send_bytes(
            b"Content-Length: 1000000000000\r\n\r\n{}"
        )  # a header that lies: two bytes follow
        text = (tmp_path / "rules.json").read_text()
        client.send(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}
                },
            }
        )
        hover = client.request(
            2,
            "textDocument/hover",
            {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 5}},
        )
        assert "script" in json.dumps(hover["result"]), (
            hover
        )  # the frames after the lie were read in step
    finally:
        code = client.close()
    err = client.stderr()
    assert "a message of 1000000000000 bytes was skipped" in err
    assert "MemoryError" not in err and "Traceback" not in err, err
    assert code == 0, err


def test_a_frame_claiming_a_terabyte_then_the_end_of_input_ends_the_server_cleanly(tmp_path):
    client = RawClient(tmp_path)
    client.start(tmp_path)
    client.send_bytes(b"Content-Length: 1000000000000\r\n\r\n{}")
    code = client.close()  # the input ends inside the claimed body
    err = client.stderr()
    assert "MemoryError" not in err and "Traceback" not in err, err
    assert code == 0, err


def test_an_input_that_ends_without_shutdown_stops_the_server_without_a_traceback(tmp_path):
    client = RawClient(tmp_path)
    client.start(tmp_path)  # tsc is starting or running: its pipes are open when the input ends
    code = client.close()
    err = client.stderr()
    assert "Traceback" not in err and "Error" not in err.replace("ERROR", ""), err
    assert code == 0, err


def test_a_position_at_line_minus_one_gets_an_error_reply_and_the_server_answers_on(tmp_path):
    client = RawClient(tmp_path)
    try:
        client.start(tmp_path)
        uri = _rules_file(tmp_path)
        text = (tmp_path / "rules.json").read_text()
        client.send(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}
                },
            }
        )
        bad = client.request(
            2,
            "textDocument/hover",
            {"textDocument": {"uri": uri}, "position": {"line": -1, "character": 0}},
        )
        assert bad["error"]["code"] == -32602 and "textDocument/hover" in bad["error"]["message"], (
            bad
        )
        for n, position in enumerate(
            (
                {"line": 0, "character": -5},
                {"line": 2**31, "character": 0},
                {"line": 1e308, "character": 0},
            )
        ):
            refused = client.request(
                10 + n, "textDocument/hover", {"textDocument": {"uri": uri}, "position": position}
            )
            assert refused["error"]["code"] == -32602, refused
        good = client.request(
            3,
            "textDocument/hover",
            {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 5}},
        )
        assert "script" in json.dumps(good["result"]), good
    finally:
        code = client.close()
    err = client.stderr()
    assert (
        err.count("textDocument/hover was refused: its parameters do not fit the protocol") == 4
    ), err
    assert "Traceback" not in err, err  # one line each in the log, not pygls's traceback
    assert code == 0, err


def test_buffers_holding_a_lone_surrogate_are_served_like_any_other(tmp_path):
    """An editor may hand over text no file can hold: a lone UTF-16 surrogate ("\\ud800" in the
    protocol's JSON). Positions, completion and the dry-run treat it as the U+FFFD it becomes
    everywhere else (same length): completion failed with UnicodeEncodeError, and the dry-run
    answered "failed unexpectedly"."""
    client = RawClient(tmp_path)
    try:
        client.start(tmp_path)
        rules = (tmp_path / "rules.json").resolve().as_uri()
        script = (tmp_path / "main.ts").resolve().as_uri()
        source = "const s = '\ud800';\nconst t: AndroidTurn = () => ({ type: 'android.wait', memory: s });\nexport default t;\n"
        for uri, language, text in (
            (rules, "json", '{"\ud800": 1, "sc'),
            (script, "typescript", source),
        ):
            client.send(
                {
                    "jsonrpc": "2.0",
                    "method": "textDocument/didOpen",
                    "params": {
                        "textDocument": {
                            "uri": uri,
                            "languageId": language,
                            "version": 1,
                            "text": text,
                        }
                    },
                }
            )
        completion = client.request(
            2,
            "textDocument/completion",
            {"textDocument": {"uri": rules}, "position": {"line": 0, "character": 15}},
        )
        assert "script" in json.dumps(completion["result"]), completion
        dry = client.request(
            3, "workspace/executeCommand", {"command": "nova.dryRun", "arguments": [script]}
        )
        assert dry["result"]["ok"] is True and dry["result"]["action"]["memory"] == "\ufffd", dry
        # and a script whose output is hostile (issue 9, items 1 and 2), dry-run from the editor
        hostile = (tmp_path / "deep.ts").resolve().as_uri()
        deep = (
            "const t: AndroidTurn = () => { console.log('\\uD800 half'); let v: any = 1;\n"
            "  for (let i = 0; i < 3000; i++) v = [v];\n  return v;\n};\nexport default t;\n"
        )
        client.send(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {
                        "uri": hostile,
                        "languageId": "typescript",
                        "version": 1,
                        "text": deep,
                    }
                },
            }
        )
        verdict = client.request(
            4, "workspace/executeCommand", {"command": "nova.dryRun", "arguments": [hostile]}
        )["result"]
        assert (
            verdict["code"] == "not-an-action"
            and "nested more than 32 levels deep" in verdict["reason"]
        ), verdict
        assert verdict["logs"][0] == "\ufffd half", verdict
    finally:
        code = client.close()
    err = client.stderr()
    assert "Traceback" not in err and code == 0, err
