"""Codex's ``update_plan``: ``{"plan": [{"step", "status"}], "explanation"}``, one
of todocli's own snapshot shapes (read by ``todocli.agents.request``)."""

from __future__ import annotations

from todocli.agents.common import BASIC, BASIC3, S, array, obj, tasks
from todocli.base import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "codex"
RANK = 3
SHARED = ("update_plan",)
KEYS = ("plan",)
SETUP = 2
HOOK = ("block", "reply")  # the session passed in the SessionStart reply's env
SHELL = ("CODEX_THREAD_ID", "CODEX_THREAD_ID")  # its shell: the thread (the hooks' session_id)


def reply(todo: TodoList) -> dict[str, Any]:
    plan = [{"step": t.content, "status": BASIC[t.status]} for t in tasks(todo)]
    return ({"explanation": todo.summary} if todo.summary else {}) | {"plan": plan}


def schema() -> dict[str, Any]:
    step = obj({"step": S, "status": BASIC3}, ["step", "status"])
    return obj({"explanation": S, "plan": array(step)}, ["plan"])


def score(value: dict[str, Any], tool: str | None) -> float:
    return 1.0 if "plan" in value else 0.0
