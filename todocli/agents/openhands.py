"""OpenHands' ``task_tracker``: ``{"command": "plan" | "view", "task_list": [...]}``."""

from __future__ import annotations

from todocli.agents.common import S, array, enum, ids, obj, tasks, words
from todocli.agents.parsed import Parsed
from todocli.agents.request import only, snapshot_items
from todocli.base import TYPE_CHECKING
from todocli.engine.dialects import InputError
from todocli.escapes import quoted

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "openhands"
RANK = 14
PRIORITY = 90
CALLS = ("task_tracker",)
KEYS = ("command", "task_list")

STATUSES = words(pending="todo", completed="done", abandoned="done", blocked="todo")


def detect(value: dict[str, Any], tool: str | None) -> Parsed | None:
    if "command" not in value and "task_list" not in value:
        return None
    only(value, {"command", "task_list"}, "task_tracker")
    if value.get("command", "view") == "view" or value.get("task_list") is None:
        return Parsed("openhands")
    if value.get("command") != "plan":
        raise InputError(
            f"command: unknown command {quoted(value.get('command'))} (use plan or view)"
        )
    return Parsed("openhands", snapshot_items(value["task_list"], "task_list"))


def reply(todo: TodoList) -> dict[str, Any]:
    return {
        "command": "plan",
        "task_list": [
            {
                "id": i,
                "title": t.content,
                "status": STATUSES[t.status],
                "notes": "\n".join(t.notes),
            }
            for i, t in zip(ids(todo), tasks(todo), strict=True)
        ],
    }


def schema() -> dict[str, Any]:
    item = obj(
        {"id": S, "title": S, "status": enum("todo", "in_progress", "done"), "notes": S},
        ["title", "status"],
    )
    return obj({"command": enum("view", "plan"), "task_list": array(item)}, ["command"])


def score(value: dict[str, Any], tool: str | None) -> float:
    return 1.0 if "command" in value or "task_list" in value else 0.0
