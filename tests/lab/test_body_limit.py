"""A body larger than the lab takes is refused before the lab holds it: from its Content-Length
before a byte is read, or as soon as a chunked body streams past the limit. Measured by the lab
process's own peak resident memory (VmHWM), with 300 MiB sent at it both ways."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

from lab_testing import Lab, running_lab

from nova_tools.lab.guard import MAX_BODY

SENT = 300 * 1024 * 1024  # what the attack of issue 26 sent
GROWTH_BOUND = (
    40 * 1024 * 1024
)  # the lab's peak may grow by at most this much (it held 320 MiB before)
CHUNK = b"x" * (1024 * 1024)


def peak_rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM in /proc: not Linux?")


def send_and_read(lab: Lab, head: bytes, body_chunks: int, chunked: bool) -> tuple[int, dict]:
    """Send the head then up to ``body_chunks`` MiB (stopping when the lab closes), then read the
    answer: (status, JSON)."""
    with socket.create_connection(("127.0.0.1", lab.port), timeout=60) as sock:
        sock.sendall(head)
        started = time.monotonic()
        try:
            for _ in range(body_chunks):
                sock.sendall(
                    b"%x\r\n%s\r\n" % (len(CHUNK), CHUNK) if chunked else CHUNK
                )  # the lab answers (and stops reading) long before the last MiB
        except (BrokenPipeError, ConnectionResetError):
            pass
        assert time.monotonic() - started < 60
        sock.shutdown(socket.SHUT_WR)
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass
    status_line, _, rest = answer.partition(b"\r\n")
    assert status_line.startswith(b"HTTP/1.1 "), answer[:200]
    body = rest.split(b"\r\n\r\n", 1)[1]
    if b"transfer-encoding: chunked" in rest.lower().split(b"\r\n\r\n", 1)[0]:
        body = body.split(b"\r\n", 1)[1].rsplit(b"\r\n0\r\n", 1)[0]
    return int(status_line.split()[1]), json.loads(body)


def head(lab: Lab, framing: bytes) -> bytes:
    return (
        b"POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
        % lab.port
        + framing
        + b"\r\n"
    )


def test_a_300_mib_body_is_refused_from_its_length_or_as_it_streams_without_the_lab_holding_it(
    tmp_path: Path,
) -> None:
    with running_lab(tmp_path) as lab:
        assert lab.get("/api/games")[0] == 200
        before = peak_rss(lab.process.pid)
        told = head(lab, b"Content-Length: %d\r\n" % SENT)
        status, answer = send_and_read(lab, told, SENT // len(CHUNK), chunked=False)
        assert status == 413
        assert answer == {
            "error": f"the request is {SENT} bytes or more; the lab takes at most {MAX_BODY}"
        }
        streamed = head(lab, b"Transfer-Encoding: chunked\r\n")
        status, answer = send_and_read(lab, streamed, SENT // len(CHUNK), chunked=True)
        assert status == 413
        assert answer["error"].endswith(f"the lab takes at most {MAX_BODY}")
        grown = peak_rss(lab.process.pid) - before
        print(
            f"the lab's peak memory: {before / 2**20:.0f} MiB before, grew {grown / 2**20:.1f} MiB"
        )
        assert grown < GROWTH_BOUND, f"the lab's peak memory grew by {grown / 2**20:.0f} MiB"
        # and it still serves, and a body just under the limit is read (and judged on its content)
        status, answer = lab.post("/api/runs", b"{" + b" " * (MAX_BODY - 2) + b"}")
        assert status == 400 and "413" not in json.dumps(answer)
