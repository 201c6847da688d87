"""Zed's ``update_plan``: ``{"title", "steps": [{"title", "status"}]}``."""

from __future__ import annotations

from todocli.agents.common import BASIC, BASIC3, S, array, obj, tasks
from todocli.agents.parsed import Parsed
from todocli.agents.request import only, snapshot_items, string
from todocli.base import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "zed"
RANK = 17
PRIORITY = 80
SHARED = ("update_plan",)
KEYS = ("steps",)


def detect(value: dict[str, Any], tool: str | None) -> Parsed | None:
    if "steps" not in value:
        return None
    only(value, {"steps", "title"}, "update_plan")
    summary = string(value, "title")
    return Parsed("zed", snapshot_items(value["steps"], "steps"), summary)


def reply(todo: TodoList) -> dict[str, Any]:
    steps = [{"title": t.content, "status": BASIC[t.status]} for t in tasks(todo)]
    return ({"title": todo.summary} if todo.summary else {}) | {"steps": steps}


def schema() -> dict[str, Any]:
    step = obj({"title": S, "status": BASIC3}, ["title", "status"])
    return obj({"title": S, "steps": array(step)}, ["steps"])


def score(value: dict[str, Any], tool: str | None) -> float:
    return 1.0 if "steps" in value else 0.0
