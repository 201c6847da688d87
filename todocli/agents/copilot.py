"""VS Code Copilot's ``manage_todo_list``: ``{"operation", "todoList"}``, ids are
numbers, statuses ``not-started`` / ``in-progress`` / ``completed``."""

from __future__ import annotations

from todocli.agents.common import S, array, enum, ids, obj, tasks, words
from todocli.agents.parsed import Parsed
from todocli.agents.request import only, snapshot_items
from todocli.base import TYPE_CHECKING
from todocli.document.model import Status, id_number

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "copilot"
RANK = 8
PRIORITY = 100
CALLS = ("manage_todo_list",)
KEYS = ("todoList", "operation")
SETUP = 5
PROGRAM = "code"  # VS Code's command

STATUSES = words(pending="not-started", in_progress="in-progress", blocked="not-started")
STATUSES |= {Status.COMPLETED: "completed", Status.ABANDONED: "completed"}


def detect(value: dict[str, Any], tool: str | None) -> Parsed | None:
    if "todoList" not in value and "operation" not in value:
        return None
    only(value, {"todoList", "operation"}, "manage_todo_list")
    if value.get("operation") == "read" or "todoList" not in value:
        return Parsed("copilot")
    return Parsed("copilot", snapshot_items(value["todoList"], "todoList"))


def reply(todo: TodoList) -> dict[str, Any]:
    items = []
    for n, (i, t) in enumerate(zip(ids(todo), tasks(todo), strict=True), start=1):
        given = id_number(i)
        number = n if given is None else given
        items.append({"id": number, "title": t.content, "status": STATUSES[t.status]})
    return {"todoList": items}


def schema() -> dict[str, Any]:
    item = obj(
        {
            "id": {"type": "number"},
            "title": S,
            "description": S,
            "status": enum("not-started", "in-progress", "completed"),
        },
        ["id", "title", "status"],
    )
    return obj({"operation": enum("write", "read"), "todoList": array(item)}, [])


def score(value: dict[str, Any], tool: str | None) -> float:
    return 1.0 if "todoList" in value or "operation" in value else 0.0
