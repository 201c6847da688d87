"""Claude Code's ``TodoWrite``: the whole list as ``todos``, each item with its
``content``, ``status`` and ``activeForm``. Its payload is todocli's own snapshot
shape, so nothing here reads it; its reply is the one every JSON answer carries
when no other tool sent the payload, so this module imports nothing else."""

from __future__ import annotations

from todocli.document.model import Status

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

STATUSES = {
    Status.PENDING: "pending",
    Status.IN_PROGRESS: "in_progress",
    Status.COMPLETED: "completed",
    Status.ABANDONED: "completed",
    Status.BLOCKED: "pending",
}


def reply(todo: TodoList) -> dict[str, Any]:
    return {
        "todos": [
            {
                "content": t.content,
                "status": STATUSES[t.status],
                "activeForm": t.active_form or t.content,
            }
            for _, t in todo.tasks()
        ]
    }


def schema() -> dict[str, Any]:
    text = {"type": "string"}
    status = {"type": "string", "enum": ["pending", "in_progress", "completed"]}
    item = {
        "type": "object",
        "properties": {"content": text, "status": status, "activeForm": text},
        "required": ["content", "status", "activeForm"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"todos": {"type": "array", "items": item}},
        "required": ["todos"],
        "additionalProperties": False,
    }
