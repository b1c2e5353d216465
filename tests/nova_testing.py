"""Shared test helpers: running the real `nova` command, and small TypeScript androids."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@dataclass
class Run:
    code: int
    out: str
    err: str


def nova(
    *args: object, cwd: Path | None = None, input: str | None = None, env: dict | None = None
) -> Run:
    """Run the real CLI in a separate process, as a user would."""
    proc = subprocess.run(
        [sys.executable, "-m", "nova_tools.cli", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        input=input,
        timeout=300,
        env={**os.environ, **(env or {})},
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def wanderer(folder: Path, name: str = "bot", memory: str = "", recording: str = "") -> Path:
    """A one-file android that walks about without ever leaving the map, writing the given
    memory and recording every turn."""
    path = folder / f"{name}.ts"
    path.write_text(
        f"""
const dirs = ['north', 'east', 'south', 'west'] as const;
const wander: AndroidTurn = () => {{
  const me = world.androids.find((a) => a.id === androidId)!;
  const x = me.position.x, y = me.position.y;
  const ok = dirs.filter((d) =>
    d === 'north' ? y > 0 : d === 'south' ? y < rules.world.height - 1 : d === 'west' ? x > 0 : x < rules.world.width - 1);
  return {{ type: 'android.move', direction: ok[turn % ok.length], memory: {memory!r}, recording: {recording!r} + ' round ' + turn }};
}};
export default wander;
""",
        encoding="utf-8",
    )
    return path


def listening_addresses(port: int) -> list[str] | None:
    """The local addresses of the TCP sockets listening on ``port``, read from the kernel's
    tables (/proc/net/tcp and tcp6); None where there are no such tables (not Linux)."""
    import ipaddress

    tables = [Path("/proc/net/tcp"), Path("/proc/net/tcp6")]
    if not any(table.exists() for table in tables):
        return None
    found = []
    for table in tables:
        if not table.exists():
            continue
        for line in table.read_text().splitlines()[1:]:
            fields = line.split()
            address, port_hex = fields[1].rsplit(":", 1)
            if fields[3] == "0A" and int(port_hex, 16) == port:  # 0A: LISTEN
                raw = bytes.fromhex(address)
                # the kernel prints each 32-bit word in host (little-endian) order
                words = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))
                found.append(str(ipaddress.ip_address(words)))
    return found


# A two-file android whose imported file throws on a known line (lib/nav.ts, line 4), called from
# the entry's line 4: where a failed turn is reported, in the files the player wrote.
THROWER_FILES = {
    "main.ts": """import { pick } from './lib/nav';

const act: AndroidTurn = () => {
  const direction = pick(turn);
  return { type: 'android.move', direction };
};

export default act;
""",
    "lib/nav.ts": """// Navigation helpers.
export function pick(round: number): Direction {
  if (round >= 1) {
    throw new Error(`no way north in round ${round}`);
  }
  return 'north';
}
""",
}
THROWN_AT = ("lib/nav.ts", 4)  # file and line of the throw
CALLED_AT = ("main.ts", 4)  # file and line of the call that led there


def write_files(folder: Path, files: dict[str, str]) -> Path:
    """Write an in-memory project to ``folder``; returns the folder."""
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def shown(holder: object) -> list[dict]:
    """The events ``holder`` carries (an api page or frame, a loaded game, a played result) as
    their JSON objects: what a game file, `nova events --json` or a tool's answer holds."""
    return [item.to_json() for item in holder.events]  # type: ignore[attr-defined]
