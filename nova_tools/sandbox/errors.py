"""Errors the sandbox raises to its caller (a failed *turn* is a TurnResult, never an exception)."""

from __future__ import annotations

from ..errors import NovaError


class SandboxUnavailable(NovaError, RuntimeError):
    """The sandbox cannot run at all (e.g. ``quickjs.wasm`` is missing); the message says why."""
