"""Crush's ``todos``: ``todos`` with ``content``, ``status`` and ``active_form``."""

from __future__ import annotations

from todocli.agents.common import BASIC, BASIC3, S, array, marks, obj, tasks
from todocli.base import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "crush"
RANK = 16
CALLS = ("todos",)
ITEM_KEYS = ("active_form",)


def reply(todo: TodoList) -> dict[str, Any]:
    return {
        "todos": [
            {
                "content": t.content,
                "status": BASIC[t.status],
                "active_form": t.active_form or t.content,
            }
            for t in tasks(todo)
        ]
    }


def schema() -> dict[str, Any]:
    item = obj(
        {"content": S, "status": BASIC3, "active_form": S}, ["content", "status", "active_form"]
    )
    return obj({"todos": array(item)}, ["todos"])


def score(value: dict[str, Any], tool: str | None) -> float:
    """Items with an ``active_form``."""
    return 0.7 if "active_form" in marks(value)[0] else 0.0
