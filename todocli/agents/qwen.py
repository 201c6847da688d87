"""Qwen Code's ``todo_write``: ``todos`` with an ``id`` each and ``blockedBy``."""

from __future__ import annotations

from todocli.agents.common import BASIC, BASIC3, S, array, ids, marks, obj, tasks
from todocli.base import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "qwen"
RANK = 5
SHARED = ("todo_write",)
ITEM_KEYS = ("id",)
SETUP = 6
HOOK = ("block", "")
SHELL = ("QWEN_CODE_SESSION_ID", "QWEN_CODE")  # its shell: the session id, the marker


def reply(todo: TodoList) -> dict[str, Any]:
    return {
        "todos": [
            {"id": i, "content": t.content, "status": BASIC[t.status]}
            | ({"blockedBy": list(t.meta.blocked_by)} if t.meta.blocked_by else {})
            for i, t in zip(ids(todo), tasks(todo), strict=True)
        ]
    }


def schema() -> dict[str, Any]:
    item = obj(
        {
            "content": {"type": "string", "minLength": 1},
            "status": BASIC3,
            "id": {"type": "string", "maxLength": 500},
            "blockedBy": {"type": "array", "items": S, "uniqueItems": True},
        },
        ["content", "status", "id"],
    )
    return obj({"todos": array(item)}, ["todos"])


def score(value: dict[str, Any], tool: str | None) -> float:
    """Items with an ``id`` and no ``priority``."""
    keys, _ = marks(value)
    return 0.4 if "id" in keys and "priority" not in keys else 0.0
