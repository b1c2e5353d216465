"""Diagnostics shared by the bundler, the type checker and the compiler.

A :class:`Diagnostic` is one problem in one place. ``file`` is the path as the player knows it:
the name given to :func:`~nova_tools.toolchain.compile.compile_sources` for in-memory sources,
or an absolute path for files on disk (``format()`` shows those relative to the current
directory, like ``tsc`` does). ``line`` and ``col`` count from 1; a problem with no place (a
missing entry file, a bad option) has ``file == ""`` and ``line == col == 0``.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from typing import Literal

from ..errors import NovaError

Severity = Literal["error", "warning"]
Source = Literal["tsc", "esbuild", "nova"]


@dataclass(frozen=True)
class Diagnostic:
    file: str
    line: int
    col: int
    code: str  # "TS2322" for tsc, an esbuild warning id, or a short id of ours ("bare-import" ...)
    message: str
    severity: Severity = "error"
    source: Source = "tsc"

    @property
    def display_file(self) -> str:
        """``file`` relative to the current directory when it is an absolute path below it."""
        if not self.file or not os.path.isabs(self.file):
            return self.file
        try:
            rel = os.path.relpath(self.file)
        except ValueError:  # another drive on Windows
            return self.file
        return self.file if rel.startswith("..") else rel

    def format(self) -> str:
        """``file:line:col message`` (just the message when the problem has no place)."""
        if not self.file:
            return self.message
        if self.line <= 0:
            return f"{self.display_file} {self.message}"
        return f"{self.display_file}:{self.line}:{self.col} {self.message}"

    def __str__(self) -> str:
        return self.format()

    def to_json(self) -> dict:
        return asdict(self)


def format_diagnostics(diagnostics: list[Diagnostic] | tuple[Diagnostic, ...]) -> str:
    """One diagnostic a line, each ``file:line:col message``."""
    return "\n".join(d.format() for d in diagnostics)


class CompileError(NovaError):
    """The android could not be compiled: type errors, syntax errors or a refused import.

    ``diagnostics`` holds every problem found; ``str(error)`` is a readable summary that names
    each one as ``file:line:col message``.
    """

    def __init__(self, diagnostics: list[Diagnostic], summary: str | None = None):
        self.diagnostics = list(diagnostics)
        errors = [d for d in self.diagnostics if d.severity == "error"] or self.diagnostics
        if summary is None:
            n = len(errors)
            summary = f"the android does not compile ({n} error{'s' if n != 1 else ''})"
        self.summary = summary
        listing = format_diagnostics(errors)
        super().__init__(f"{summary}:\n{listing}" if listing and listing != summary else summary)

    @classmethod
    def single(
        cls, message: str, *, code: str = "nova", file: str = "", line: int = 0, col: int = 0
    ) -> CompileError:
        """An error that is one sentence, such as a missing entry file."""
        diag = Diagnostic(file=file, line=line, col=col, code=code, message=message, source="nova")
        return cls([diag], summary=diag.format())

    def __reduce__(self):  # keep it picklable (it crosses process boundaries in the lab)
        return (type(self), (self.diagnostics, self.summary))
