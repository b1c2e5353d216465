"""Nova tools: the engine, sandbox, CLI, language server and MCP server for Project: Nova."""

__version__ = "0.1.0"
