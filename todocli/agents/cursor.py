"""Cursor's ``todo_write``: ``{"merge": bool, "todos": [...]}``; with ``merge``
the items are updates by id, else the whole list."""

from __future__ import annotations

from todocli.agents.common import CANCELLED, S, array, enum, ids, obj, tasks
from todocli.agents.parsed import Parsed
from todocli.agents.request import only, patch, snapshot_items
from todocli.base import TYPE_CHECKING
from todocli.engine.dialects import InputError

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "cursor"
RANK = 7
PRIORITY = 70
SHARED = ("todo_write",)
KEYS = ("merge",)
SETUP = 4


def detect(value: dict[str, Any], tool: str | None) -> Parsed | None:
    if "merge" not in value:
        return None
    only(value, {"merge", "todos"}, "todo_write")
    if not isinstance(value["merge"], bool):
        raise InputError("merge: expected a boolean")
    todos = value.get("todos")
    if not isinstance(todos, list):
        raise InputError("todos: expected an array")
    if not value["merge"]:
        return Parsed("cursor", snapshot_items(todos, "todos"))
    patches = [patch(raw, f"todos[{i}]") for i, raw in enumerate(todos)]
    return Parsed("cursor", patches, merge=True)


def reply(todo: TodoList) -> dict[str, Any]:
    return {
        "merge": False,
        "todos": [
            {"id": i, "content": t.content, "status": CANCELLED[t.status]}
            for i, t in zip(ids(todo), tasks(todo), strict=True)
        ],
    }


def schema() -> dict[str, Any]:
    status = enum("pending", "in_progress", "completed", "cancelled")
    item = obj({"content": S, "status": status, "id": S}, ["id"])
    return obj({"merge": {"type": "boolean"}, "todos": array(item)}, ["merge", "todos"])


def score(value: dict[str, Any], tool: str | None) -> float:
    return 1.0 if "merge" in value else 0.0
