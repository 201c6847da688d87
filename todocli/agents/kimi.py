"""Kimi CLI's ``SetTodoList``: ``todos`` with a ``title`` each; ``done`` for completed."""

from __future__ import annotations

from todocli.agents.common import array, enum, marks, obj, tasks, words
from todocli.base import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "kimi"
RANK = 6
CALLS = ("SetTodoList",)
ITEM_KEYS = ("title",)

STATUSES = words(completed="done", abandoned="done")


def reply(todo: TodoList) -> dict[str, Any]:
    return {"todos": [{"title": t.content, "status": STATUSES[t.status]} for t in tasks(todo)]}


def schema() -> dict[str, Any]:
    item = obj(
        {
            "title": {"type": "string", "minLength": 1},
            "status": enum("pending", "in_progress", "done"),
        },
        ["title", "status"],
    )
    return obj({"todos": {"anyOf": [array(item), {"type": "null"}]}}, [])


def score(value: dict[str, Any], tool: str | None) -> float:
    """Items with a ``title``."""
    return 0.8 if "title" in marks(value)[0] else 0.0
