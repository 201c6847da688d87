"""OpenCode's ``todowrite``: ``todos`` with ``content``, ``status`` and a ``priority``."""

from __future__ import annotations

from todocli.agents.common import CANCELLED, S, array, marks, obj, tasks
from todocli.base import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "opencode"
RANK = 10
CALLS = ("todowrite", "todoread")
READS = ("todoread",)
ITEM_KEYS = ("priority",)
SETUP = 7


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


def score(value: dict[str, Any], tool: str | None) -> float:
    """Items with a ``priority`` and no ``id`` (Amp's and Claude's carry ids)."""
    keys, _ = marks(value)
    return 0.5 if "priority" in keys and "id" not in keys else 0.0
