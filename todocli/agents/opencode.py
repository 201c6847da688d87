"""OpenCode's ``todowrite``: ``todos`` with ``content``, ``status`` and a ``priority``."""

from __future__ import annotations

from todocli.agents.common import CANCELLED, S, array, obj, tasks

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList


def reply(todo: TodoList) -> dict[str, Any]:
    return {
        "todos": [
            {
                "content": t.content,
                "status": CANCELLED[t.status],
                "priority": t.meta.priority or "medium",
            }
            for t in tasks(todo)
        ]
    }


def schema() -> dict[str, Any]:
    item = obj({"content": S, "status": S, "priority": S}, ["content", "status", "priority"])
    return obj({"todos": array(item)}, ["todos"])
