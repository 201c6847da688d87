"""VS Code Copilot: the instruction block in ``.github/copilot-instructions.md``
(the workspace's instructions file); with ``--user``, an instructions file of
its own in ``~/.copilot/instructions``."""

from __future__ import annotations

import os

from todocli.app.wiring.setup.edits import Block, Edit, Member
from todocli.app.wiring.setup.instructions import SHARED
from todocli.errors import UsageError

LABEL = "VS Code Copilot"
FOLDER = ".copilot"


def edits(base: str, user: bool) -> list[Edit]:
    if user:
        return [Block(os.path.join(base, FOLDER, "instructions", "todo.instructions.md"), SHARED)]
    return [Block(os.path.join(base, ".github", "copilot-instructions.md"), SHARED)]


def mcp(base: str, user: bool) -> list[Edit]:
    """``todo mcp`` registered in the workspace's ``.vscode/mcp.json`` (``servers``);
    VS Code keeps the user's in its profile folder: not written."""
    if user:
        raise UsageError(
            "todo setup copilot --mcp --user: VS Code keeps user MCP servers in its "
            "profile (command: MCP: Open User Configuration); use the workspace's"
        )
    server = {"type": "stdio", "command": "todo", "args": ["mcp"]}
    return [Member(os.path.join(base, ".vscode", "mcp.json"), ["servers"], "todo", server)]
