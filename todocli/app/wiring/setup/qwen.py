"""Qwen Code: Claude Code's hook shape in ``.qwen/settings.json``
(``~/.qwen/settings.json`` with ``--user``), the instruction block in
``QWEN.md``. PostToolUse mirrors ``todo_write`` where it is switched on."""

from __future__ import annotations

import os

from todocli.app.wiring.setup.edits import Block, Edit, HookEntry, Member
from todocli.app.wiring.setup.instructions import hooked

LABEL = "Qwen Code"
FOLDER = ".qwen"
COMMAND = "todo hook qwen"


def edits(base: str, user: bool) -> list[Edit]:
    settings = os.path.join(base, FOLDER, "settings.json")
    memory = os.path.join(base, FOLDER if user else "", "QWEN.md")
    return [
        HookEntry(settings, ["hooks", "SessionStart"], COMMAND, "startup|resume|clear|compact"),
        HookEntry(settings, ["hooks", "Stop"], COMMAND),
        HookEntry(settings, ["hooks", "PostToolUse"], COMMAND, "todo_write"),
        Block(memory, hooked("todo_write")),
    ]


def mcp(base: str, user: bool) -> list[Edit]:
    """``todo mcp`` registered in the same ``settings.json`` (``mcpServers``)."""
    path = os.path.join(base, FOLDER, "settings.json")
    return [Member(path, ["mcpServers"], "todo", {"command": "todo", "args": ["mcp"]})]
