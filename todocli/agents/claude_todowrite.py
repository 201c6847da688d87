"""Claude Code's ``TodoWrite``: the whole list as ``todos``, each item with its
``content``, ``status`` and ``activeForm``. Its payload is todocli's own snapshot
shape, so nothing here reads it; its reply is the one every JSON answer carries
when no other tool sent the payload."""

from __future__ import annotations

from todocli.agents.common import BASIC, BASIC3, S, array, obj, tasks
from todocli.base import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import Task, TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "claude"
RANK = 1
CALLS = ("TodoWrite", "TodoRead")
READS = ("TodoRead",)
DEFAULT = True  # the reply of a payload no other tool claims
SETUP = 1
HOOK = ("block", "CLAUDE_ENV_FILE")  # its stop answer; the file its shell runs first
SHELL = ("CLAUDE_CODE_SESSION_ID", "CLAUDECODE")  # its shell: the session id, the marker


def reply(todo: TodoList) -> dict[str, Any]:
    return {"todos": [entry(t) for t in tasks(todo)]}


def entry(task: Task) -> dict[str, Any]:
    """One task as the reply shows it: of that task alone, read back by todocli's own
    reader (so the echo reads one task's entry without building the whole reply)."""
    return {
        "content": task.content,
        "status": BASIC[task.status],
        "activeForm": task.active_form or task.content,
    }


def schema() -> dict[str, Any]:
    item = obj(
        {"content": S, "status": BASIC3, "activeForm": S}, ["content", "status", "activeForm"]
    )
    return obj({"todos": array(item)}, ["todos"])
