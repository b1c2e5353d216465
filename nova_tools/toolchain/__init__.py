"""TypeScript android -> one bundled script: type checking (tsc 7), bundling (esbuild), typings.

Public API (plain functions; the CLI, LSP and MCP server call these):

* :func:`compile_android` / :func:`compile_sources` -> :class:`CompiledScript`, raising
  :class:`CompileError` (type-check + bundle);
* :func:`bundle_file` / :func:`bundle_sources` -> :class:`Bundle` (bundle only);
* :func:`typecheck_file` / :func:`typecheck_sources` / :func:`typecheck_project` -> a list of
  :class:`Diagnostic` (check only);
* :func:`render_typings` / :func:`write_typings` (``nova generate``), :func:`typings_path`;
* :func:`doctor` / :func:`format_report` (``nova doctor``), :func:`setup` (``nova setup``).
"""

from __future__ import annotations

from .bundle import Bundle, BundleError, bundle_file, bundle_sources
from .compile import CompiledScript, compile_android, compile_sources
from .diagnostics import CompileError, Diagnostic, format_diagnostics
from .doctor import Check, doctor, format_report
from .paths import ToolchainMissing
from .setup import SetupError, setup
from .typecheck import (
    COMPILER_OPTIONS,
    typecheck_file,
    typecheck_project,
    typecheck_sources,
    typings_path,
)

__all__ = [
    "COMPILER_OPTIONS",
    "Bundle",
    "BundleError",
    "Check",
    "CompileError",
    "CompiledScript",
    "Diagnostic",
    "SetupError",
    "ToolchainMissing",
    "bundle_file",
    "bundle_sources",
    "compile_android",
    "compile_sources",
    "doctor",
    "format_diagnostics",
    "format_report",
    "render_typings",
    "setup",
    "typecheck_file",
    "typecheck_project",
    "typecheck_sources",
    "typings_path",
    "write_typings",
]


def __getattr__(name: str):  # the typings generator imports the models: load it on first use
    if name in ("render_typings", "write_typings"):
        from . import typings

        return getattr(typings, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
