"""Files on disk with some of their texts replaced (an editor's unsaved buffers), for the tools.

esbuild and tsc resolve an android's imports themselves, reading the disk. To make them see an
editor's unsaved buffers instead, without resolving a single import here, :func:`shadowed`
builds a *shadow* of the file system in a private temporary folder: every folder on the way to a
replaced file is a real folder there, holding a symbolic link to each of its real entries except
the replaced file, which is written with its new text. Both tools run in the shadow with their
``preserveSymlinks`` option, so they work on the paths as written (``lib/../main.ts`` under the
shadow is the shadow's ``main.ts``, the buffer) and never follow a link back into the real tree:
whatever form an import takes (``./a/index``, ``../x``, ``./nav.js`` for ``nav.ts``,
``export * from``), the tools resolve it as they do on disk, and a replaced file wins.

A name the tools report is mapped back with :meth:`Shadow.outside`, so diagnostics, the bundle's
comments and its source map are what the same files saved would give.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     real = Path(tmp).resolve()
...     _ = (real / "nav.ts").write_text("disk", encoding="utf-8")
...     with shadowed({real / "main.ts": "buffer"}) as shadow:
...         inside = shadow.inside(real / "main.ts")
...         texts = (inside.read_text(), inside.with_name("nav.ts").read_text())
...         back = shadow.outside(inside.parent / "lib" / ".." / "nav.ts")
>>> texts, back == real / "nav.ts"
(('buffer', 'disk'), True)
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Shadow:
    """The shadow of ``/`` at ``root`` (a fresh private folder)."""

    root: Path

    def inside(self, path: Path) -> Path:
        """Where the real absolute ``path`` is in the shadow."""
        return self.root / Path(os.path.normpath(path)).relative_to(Path(path).anchor)

    def outside(self, path: Path | str) -> Path:
        """The real path of ``path`` in the shadow (as written: ``..`` taken lexically); a path
        outside the shadow is returned as it is (normalized)."""
        clean = Path(os.path.normpath(path))
        try:
            return Path(clean.anchor) / clean.relative_to(self.root)
        except ValueError:
            return clean


@contextmanager
def shadowed(overlay: Mapping[Path, str]) -> Iterator[Shadow]:
    """A shadow of the file system where each absolute path of ``overlay`` reads as its text
    (whether or not the file exists on disk); removed afterwards."""
    texts = {Path(os.path.normpath(p)): t for p, t in overlay.items()}
    with tempfile.TemporaryDirectory(prefix="nova-shadow-") as tmp:
        shadow = Shadow(Path(tmp).resolve())
        folders = {folder for path in texts for folder in path.parents}
        for folder in sorted(folders, key=lambda f: len(f.parts)):
            shadow.inside(folder).mkdir(exist_ok=True)
        for folder in folders:
            try:
                children = os.listdir(folder)
            except OSError:  # a folder the buffer names that is not on disk (or not readable)
                continue
            for name in children:
                real = folder / name
                if real in folders or real in texts or real == shadow.root:
                    continue
                os.symlink(real, shadow.inside(real))
        for path, text in texts.items():
            fd = os.open(shadow.inside(path), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        yield shadow
