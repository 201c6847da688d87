"""The MCP server: the same commands as tools over JSON-RPC."""
