"""Gemini CLI: hooks in ``.gemini/settings.json`` (``~/.gemini/settings.json``
with ``--user``), the instruction block in ``GEMINI.md``. SessionStart
(``source``: startup, resume, clear) brings the plan back; AfterAgent is the
gate (``decision: deny`` asks for another turn); AfterTool mirrors
``write_todos`` and the tracker's calls. Its hooks' stdout must be JSON only."""

from __future__ import annotations

import os

from todocli.app.wiring.setup.edits import Block, Edit, HookEntry, Member
from todocli.app.wiring.setup.instructions import hooked

LABEL = "Gemini CLI"
FOLDER = ".gemini"
COMMAND = "todo hook gemini"
# Releases of early 2026 run hooks only when they are switched on.
NOTE = 'if /hooks panel says hooks are off: "hooksConfig": {"enabled": true} in settings.json.'


def edits(base: str, user: bool) -> list[Edit]:
    settings = os.path.join(base, FOLDER, "settings.json")
    memory = os.path.join(base, FOLDER if user else "", "GEMINI.md")
    return [
        HookEntry(settings, ["hooks", "SessionStart"], COMMAND),  # every source
        HookEntry(settings, ["hooks", "AfterAgent"], COMMAND),
        HookEntry(settings, ["hooks", "AfterTool"], COMMAND, "write_todos|tracker_.*"),
        # no SessionStart after a compaction: noted, and the next prompt restores the plan
        HookEntry(settings, ["hooks", "PreCompress"], COMMAND),
        HookEntry(settings, ["hooks", "BeforeAgent"], COMMAND),
        Block(memory, hooked("write_todos, the tracker tools")),
    ]


def mcp(base: str, user: bool) -> list[Edit]:
    """``todo mcp`` registered in the same ``settings.json`` (``mcpServers``)."""
    path = os.path.join(base, FOLDER, "settings.json")
    return [Member(path, ["mcpServers"], "todo", {"command": "todo", "args": ["mcp"]})]
