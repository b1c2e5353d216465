"""Mistakes a user can make: every one derives from :class:`~nova_tools.errors.NovaError`.

``USER_ERRORS`` is kept for callers written before the one base existed; new code catches
``NovaError``.
"""

from __future__ import annotations

from ..errors import ApiError, NovaError

# Everything a front end reports as one clear sentence instead of a traceback.
USER_ERRORS: tuple[type[BaseException], ...] = (NovaError,)

__all__ = ["USER_ERRORS", "ApiError", "NovaError"]
