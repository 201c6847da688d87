"""OpenCode: the instruction block in ``AGENTS.md`` (the project's, or
``~/.config/opencode/AGENTS.md`` with ``--user``)."""

from __future__ import annotations

import os

from todocli.app.wiring.setup.edits import Block, Edit, Member
from todocli.app.wiring.setup.instructions import SHARED

LABEL = "OpenCode"
FOLDER = os.path.join(".config", "opencode")


def edits(base: str, user: bool) -> list[Edit]:
    return [Block(os.path.join(base, FOLDER if user else "", "AGENTS.md"), SHARED)]


def mcp(base: str, user: bool) -> list[Edit]:
    """``todo mcp`` registered in ``opencode.json`` (``mcp``, a local server)."""
    path = os.path.join(base, FOLDER if user else "", "opencode.json")
    return [Member(path, ["mcp"], "todo", {"type": "local", "command": ["todo", "mcp"]})]
