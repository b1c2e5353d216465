"""``python -m nova_tools.lsp``: the same as ``nova lsp``."""

from . import serve

serve()
