"""Claude Code: hooks in ``.claude/settings.json`` (``~/.claude/settings.json``
with ``--user``), the instruction block in ``CLAUDE.md``. SessionStart brings the
plan back (``source``: startup, resume, clear, compact); Stop is the gate;
PostToolUse mirrors TodoWrite and the Task tools where they are on."""

from __future__ import annotations

import os

from todocli.app.wiring.setup.edits import Block, Edit, HookEntry, Member
from todocli.app.wiring.setup.instructions import hooked

LABEL = "Claude Code"
FOLDER = ".claude"
COMMAND = "todo hook claude"


def edits(base: str, user: bool) -> list[Edit]:
    folder = os.path.join(base, FOLDER)
    settings = os.path.join(folder, "settings.json")
    memory = os.path.join(folder, "CLAUDE.md") if user else os.path.join(base, "CLAUDE.md")
    return [
        HookEntry(settings, ["hooks", "SessionStart"], COMMAND, "startup|resume|clear|compact"),
        HookEntry(settings, ["hooks", "Stop"], COMMAND),
        HookEntry(settings, ["hooks", "PostToolUse"], COMMAND, "TodoWrite|TaskCreate|TaskUpdate"),
        Block(memory, hooked("TodoWrite, TaskCreate/TaskUpdate")),
    ]


def mcp(base: str, user: bool) -> list[Edit]:
    """``todo mcp`` registered: the project's ``.mcp.json``, or ``~/.claude.json``."""
    path = os.path.join(base, ".claude.json" if user else ".mcp.json")
    return [Member(path, ["mcpServers"], "todo", {"command": "todo", "args": ["mcp"]})]
