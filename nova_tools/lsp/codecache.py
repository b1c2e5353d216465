"""The code attrs and cattrs generate, kept between runs of the language server.

Importing lsprotocol defines ~570 attrs classes, and attrs writes the methods of each as Python
source and compiles it: about a third of the import, the largest part of what the server does
before it can answer ``initialize``. cattrs does the same for each message type the first time
it converts one. The source is the same from one run to the next, so the compiled code objects
are kept in the machine cache (``$XDG_CACHE_HOME/nova-tools/lsp``, ``~/.cache`` by default),
each under a digest of what was compiled (the source, its file name, the compiler flags), the
whole file under Python's bytecode magic and a digest of its bytes: a file of another Python, a
damaged or a changed one is not used, and everything is compiled as it would have been. Only
the code a run used is written back, so the file holds one run's worth; and only when the run
compiled more than a few (a frozen attrs class's ``__hash__`` holds the randomised hash of its
name, so a class or two compile anew every run).

The cache is the user's own folder, as trusted as the ``__pycache__`` Python loads modules from.
"""

from __future__ import annotations
import __future__

import builtins
import hashlib
import marshal
import os
import sys
import tempfile
from collections.abc import Callable, Iterable
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType, ModuleType

#: The modules whose ``compile`` is the cache's: each calls ``compile(source, name, "exec")``.
GENERATORS = ("attr._make", "cattrs.gen", "cattrs.gen.typeddicts")

_DIGEST = 32  # bytes of sha256
#: The file is written again when more than this share of what a run used was compiled anew.
REWRITE_SHARE = 0.02


def cache_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    tag = sys.implementation.cache_tag or "python"
    return Path(base) / "nova-tools" / "lsp" / f"generated-code.{tag}.marshal"


def _inherited_flags(module: ModuleType) -> int:
    """The ``__future__`` flags a ``compile`` called in ``module`` inherits from it."""
    features = {name: getattr(__future__, name) for name in __future__.all_feature_names}
    flags = 0
    for name, value in vars(module).items():
        if name in features and value is features[name]:
            flags |= features[name].compiler_flag
    return flags


class CodeCache:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.known = self._read()
        self.used: dict[bytes, CodeType] = {}
        self.compiled = 0  # compiled in this run: not in the file

    def _read(self) -> dict[bytes, CodeType]:
        try:
            raw = self.path.read_bytes()
        except OSError:
            return {}
        head = len(MAGIC_NUMBER)
        digest, payload = raw[head : head + _DIGEST], raw[head + _DIGEST :]
        if raw[:head] != MAGIC_NUMBER or hashlib.sha256(payload).digest() != digest:
            return {}
        try:
            codes = marshal.loads(payload)
        except (EOFError, ValueError, TypeError):
            return {}
        if not isinstance(codes, dict):
            return {}
        return {k: v for k, v in codes.items() if isinstance(k, bytes) and type(v) is CodeType}

    def compiler(self, module: ModuleType) -> Callable[..., CodeType]:
        """``compile`` as ``module`` calls it, answered from the cache when it can be."""
        inherited = _inherited_flags(module)

        def cached_compile(source, filename, mode, flags=0, dont_inherit=False, optimize=-1):
            effective = flags if dont_inherit else flags | inherited
            if not isinstance(source, str) or flags:  # only the plain calls the generators make
                return builtins.compile(source, filename, mode, effective, True, optimize)
            level = sys.flags.optimize if optimize == -1 else optimize
            key = hashlib.blake2b(
                f"{mode}\0{effective}\0{level}\0{filename}\0{source}".encode(
                    "utf-8", "surrogatepass"
                ),
                digest_size=16,
            ).digest()
            code = self.used.get(key) or self.known.get(key)
            if code is None:
                code = builtins.compile(source, filename, mode, effective, True, optimize)
                self.compiled += 1
            self.used[key] = code
            return code

        return cached_compile

    def install(self, names: Iterable[str] = GENERATORS) -> None:
        """Give each module of ``names`` (imported now) this cache's ``compile``."""
        import importlib

        for name in names:
            module = importlib.import_module(name)
            module.compile = self.compiler(module)  # type: ignore[attr-defined]

    def save(self) -> None:
        """Write what this run used, if it compiled more than :data:`REWRITE_SHARE` of it anew
        (atomic; an unwritable cache is left as it is)."""
        if self.compiled <= REWRITE_SHARE * len(self.used):
            return
        payload = marshal.dumps(self.used)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as out:
                    out.write(MAGIC_NUMBER + hashlib.sha256(payload).digest() + payload)
                os.replace(tmp, self.path)
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError:
            return
        self.known.update(self.used)
        self.compiled = 0
