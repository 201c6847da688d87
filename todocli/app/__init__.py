"""The commands' bodies, shared by the command line and the MCP server."""
