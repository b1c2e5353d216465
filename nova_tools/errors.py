"""One base for every mistake a user can make: :class:`NovaError`.

A front end catches ``NovaError`` and prints its message as one sentence (the CLI), returns it as
an error result (the MCP server) or shows it (the language server); anything else is a bug and
gets a traceback in the log. Each error class lives beside the code that raises it (a broken
rules file in ``rules``, a refused action in ``engine``, a compile error in ``toolchain``...) and
derives from this one, so listing the user errors imports nothing: this module is a leaf.
"""

from __future__ import annotations


class NovaError(Exception):
    """A request that cannot be carried out because of its input or the machine's set-up (not
    because of a bug); the message says what and where, in one sentence a user can act on."""


class ApiError(NovaError):
    """A request that cannot be carried out (a bad argument, an unknown id); the message says why."""


__all__ = ["ApiError", "NovaError"]
