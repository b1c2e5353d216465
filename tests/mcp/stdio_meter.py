"""A relay between an MCP client and `nova mcp` over stdio that counts what crosses it:
``python stdio_meter.py COUNTS.json -- COMMAND ARGS...``. Every JSON-RPC line is passed on
unchanged; after each one, COUNTS.json holds the requests the client sent (lines with an id and
a method), the characters it sent and the characters it read (whole lines, as the wire has them)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path


def main() -> int:
    counts_path = Path(sys.argv[1])
    command = sys.argv[sys.argv.index("--") + 1 :]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    counts = {"requests": 0, "sent": 0, "read": 0, "methods": {}}
    lock = threading.Lock()

    def note(direction: str, line: bytes) -> None:
        text = line.decode("utf-8", "replace")
        with lock:
            counts[direction] += len(text)
            if direction == "sent":
                try:
                    message = json.loads(text)
                except ValueError:
                    message = {}
                if isinstance(message, dict) and "id" in message and "method" in message:
                    counts["requests"] += 1
                    method = message["method"]
                    counts["methods"][method] = counts["methods"].get(method, 0) + 1
            counts_path.write_text(json.dumps(counts), encoding="utf-8")

    def server_to_client() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            note("read", line)
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()

    pump = threading.Thread(target=server_to_client, daemon=True)
    pump.start()
    assert child.stdin is not None
    for line in sys.stdin.buffer:
        note("sent", line)
        child.stdin.write(line)
        child.stdin.flush()
    child.stdin.close()
    pump.join(timeout=10)
    return child.wait(timeout=10)


if __name__ == "__main__":
    raise SystemExit(main())
