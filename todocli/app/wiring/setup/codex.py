"""Codex: hooks in ``.codex/hooks.json`` (``~/.codex/hooks.json`` with ``--user``;
the same shape as Claude Code's, on by default since the ``hooks`` feature),
the instruction block in ``AGENTS.md``. SessionStart (``source``: startup,
resume, clear) brings the plan back; Stop is the gate."""

from __future__ import annotations

import os

from todocli.app.wiring.setup.edits import Block, Edit, HookEntry
from todocli.app.wiring.setup.instructions import SHARED

LABEL = "Codex"
FOLDER = ".codex"
COMMAND = "todo hook codex"
# Codex runs a hook it did not install only once the person trusts it.
NOTE = "Codex runs new hooks once you trust them: open /hooks in Codex."


def edits(base: str, user: bool) -> list[Edit]:
    hooks = os.path.join(base, FOLDER, "hooks.json")
    agents = os.path.join(base, FOLDER if user else "", "AGENTS.md")
    return [
        HookEntry(hooks, ["hooks", "SessionStart"], COMMAND),  # every source, compact too
        HookEntry(hooks, ["hooks", "Stop"], COMMAND),
        # PostCompact takes no context: noted, and the next prompt restores the plan
        HookEntry(hooks, ["hooks", "PostCompact"], COMMAND),
        HookEntry(hooks, ["hooks", "UserPromptSubmit"], COMMAND),
        Block(agents, SHARED),
    ]


def mcp(base: str, user: bool) -> list[Edit]:
    """``todo mcp`` registered in ``config.toml`` (``[mcp_servers.todo]``)."""
    path = os.path.join(base, FOLDER, "config.toml")
    body = '[mcp_servers.todo]\ncommand = "todo"\nargs = ["mcp"]\n'
    return [Block(path, body, "toml", table=["mcp_servers", "todo"])]
