"""Cursor: the instruction block in the project's ``AGENTS.md`` (Cursor reads it),
or, with ``--user``, a rule file of its own under ``~/.cursor/rules``. Cursor's
hooks (``.cursor/hooks.json``) speak another protocol; not written."""

from __future__ import annotations

import os

from todocli.app.wiring.setup.edits import Block, Edit, Member
from todocli.app.wiring.setup.instructions import SHARED

LABEL = "Cursor"
FOLDER = ".cursor"


def edits(base: str, user: bool) -> list[Edit]:
    if user:
        return [Block(os.path.join(base, FOLDER, "rules", "todo.mdc"), SHARED)]
    return [Block(os.path.join(base, "AGENTS.md"), SHARED)]


def mcp(base: str, user: bool) -> list[Edit]:
    """``todo mcp`` registered in ``.cursor/mcp.json`` (``~/.cursor/mcp.json``)."""
    path = os.path.join(base, FOLDER, "mcp.json")
    return [Member(path, ["mcpServers"], "todo", {"command": "todo", "args": ["mcp"]})]
