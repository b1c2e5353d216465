"""`nova status` without replaying a game it has already scored: standings remembered by the exact
bytes of the file they were computed from.

Reading a game means replaying its whole log under its rules, and importing what that takes (the
rules models, the engine) costs more than the replay itself. Most `nova status` calls follow a
`nova run` that has just scored the game, so :func:`remember` keeps the documented `nova status
--json` object under a key made of the file's bytes and the code that scored it, and
:func:`status_json` answers from it when both are unchanged. Any other file, any edit of the file,
any change of the code (a file of this package changed or added) is a miss, and a miss reads the
game in full, as without the cache. A cache that cannot be read or written is ignored.

Kept in ``$XDG_CACHE_HOME/nova-tools/status`` (``~/.cache`` by default; ``$NOVA_STATUS_CACHE``
overrides it), at most
:data:`KEEP` entries (the oldest go first). Stdlib only: the hit path imports nothing heavy.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path

KEEP = 256
PACKAGE = Path(__file__).resolve().parents[1]  # nova_tools/


def cache_dir() -> Path:
    """``$NOVA_STATUS_CACHE`` if set (benchmarks and tests keep their own), else
    ``$XDG_CACHE_HOME/nova-tools/status``."""
    if os.environ.get("NOVA_STATUS_CACHE"):
        return Path(os.environ["NOVA_STATUS_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "nova-tools" / "status"


@lru_cache(maxsize=1)
def code_identity() -> str:
    """A digest of this package's Python files (path, size, modification time): any change to the
    code that scores a game gives a new identity, so nothing it remembered before is used."""
    digest = hashlib.sha256()
    for folder, dirs, files in os.walk(PACKAGE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and d != "node_modules")
        for name in sorted(files):
            if name.endswith(".py"):
                stat = os.stat(os.path.join(folder, name))
                digest.update(
                    f"{os.path.relpath(os.path.join(folder, name), PACKAGE)}:{stat.st_size}:{stat.st_mtime_ns}\n".encode()
                )
    return digest.hexdigest()


def key_of(raw: bytes) -> str:
    return hashlib.sha256(code_identity().encode() + b"\0" + raw).hexdigest()


def recall(raw: bytes) -> dict | None:
    """The status remembered for a file holding exactly ``raw``, or None."""
    try:
        data = json.loads((cache_dir() / f"{key_of(raw)}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("players"), list) else None


def remember(raw: bytes, status: dict) -> None:
    """Keep ``status`` (the `nova status --json` object) for a file holding exactly ``raw``."""
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        import tempfile  # the miss path only: a hit imports nothing it does not use

        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(status, out, ensure_ascii=False, separators=(",", ":"))
        os.replace(tmp, folder / f"{key_of(raw)}.json")
        _prune(folder)
    except OSError:
        return  # a cache is a convenience: a read-only or full disk only makes status slower


def _prune(folder: Path) -> None:
    entries = list(os.scandir(folder))
    if len(entries) <= KEEP:
        return
    entries.sort(key=lambda e: e.stat().st_mtime_ns)
    for entry in entries[: len(entries) - KEEP]:
        try:
            os.unlink(entry.path)
        except OSError:
            pass


def status_json(path: str | Path) -> dict:
    """The `nova status --json` object of the game (or match record) at ``path``: remembered if
    this very file was scored by this very code before, else read in full (and remembered)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError:
        raw = None  # store.read gives the sentence for a missing or unreadable file
    if raw is not None and (known := recall(raw)) is not None:
        return known
    from .. import store
    from .reports import status

    game = store.read(path, raw=raw)
    data = status(game).to_json()
    if raw is not None:
        remember(raw, data)
    return data
