"""Mistakes a user can make, as one family of exceptions every front end turns into a sentence."""

from __future__ import annotations

from ..engine import Refusal
from ..rules import RulesError
from ..store import GameFileError
from ..toolchain.diagnostics import CompileError
from ..toolchain.paths import ToolchainMissing
from ..toolchain.setup import SetupError


class ApiError(Exception):
    """A request that cannot be carried out (a bad argument, an unknown id); the message says why."""


def _sandbox_unavailable() -> tuple[type[BaseException], ...]:
    try:
        from ..sandbox import SandboxUnavailable
    except ImportError:  # the sandbox package is optional at import time for tools that never run scripts
        return ()
    return (SandboxUnavailable,)


def _scaffold_error() -> tuple[type[BaseException], ...]:
    from ..starter import ScaffoldError

    return (ScaffoldError,)


# Everything a front end reports as one clear sentence instead of a traceback.
USER_ERRORS: tuple[type[BaseException], ...] = (
    ApiError,
    GameFileError,
    RulesError,
    Refusal,
    CompileError,
    ToolchainMissing,
    SetupError,
    *_scaffold_error(),
    *_sandbox_unavailable(),
)
