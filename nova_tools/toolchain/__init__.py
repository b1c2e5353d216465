"""TypeScript android -> one bundled script: type checking (tsc 7), bundling (esbuild), typings.

Public API (plain functions; the CLI, LSP and MCP server call these):

* :func:`compile_android` / :func:`compile_sources` -> :class:`CompiledScript`, raising
  :class:`CompileError` (type-check + bundle);
* :func:`bundle_file` / :func:`bundle_sources` -> :class:`Bundle` (bundle only);
* :func:`typecheck_file` / :func:`typecheck_sources` / :func:`typecheck_project` -> a list of
  :class:`Diagnostic` (check only);
* :func:`render_typings` / :func:`write_typings` (``nova generate``), :func:`typings_path`;
* :func:`doctor` / :func:`format_report` (``nova doctor``), :func:`setup` (``nova setup``).

Importing the package is cheap: each name is loaded from its module on first use
(:mod:`nova_tools.lazy`), so the language server reads the typings' path or a script's default
export without the compiler's imports (the rules' models, pydantic).
"""

from __future__ import annotations

from ..lazy import TYPE_CHECKING, lazy_names

if TYPE_CHECKING:  # what the names are, for readers and type checkers
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
    from .typings import render_typings, write_typings

__getattr__, __dir__ = lazy_names(__name__, __file__, globals())
