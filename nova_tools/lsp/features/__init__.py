"""One module per editor feature; the server (``nova_tools.lsp.server``) wires them to LSP methods."""
