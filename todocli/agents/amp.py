"""Amp's ``todo_write``: ``todos`` with ids, statuses ``todo`` / ``in-progress`` /
``completed``, and a priority."""

from __future__ import annotations

from todocli.agents.common import S, array, enum, ids, marks, obj, tasks, words
from todocli.base import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "amp"
RANK = 9
SHARED = ("todo_write", "todo_read")
READS = ("todo_read",)
ITEM_STATUSES = ("todo", "in-progress")

STATUSES = words(pending="todo", in_progress="in-progress", blocked="todo")


def reply(todo: TodoList) -> dict[str, Any]:
    return {
        "todos": [
            {"id": i, "content": t.content, "status": STATUSES[t.status]}
            for i, t in zip(ids(todo), tasks(todo), strict=True)
        ]
    }


def schema() -> dict[str, Any]:
    item = obj(
        {
            "id": S,
            "content": S,
            "status": enum("completed", "in-progress", "todo"),
            "priority": enum("medium", "low", "high"),
        },
        ["id", "content", "status"],
    )
    return obj({"todos": array(item)}, ["todos"])


def score(value: dict[str, Any], tool: str | None) -> float:
    """Items in its status words (``todo``, ``in-progress``)."""
    return 0.6 if marks(value)[1] & {"todo", "in-progress"} else 0.0
