"""oh-my-pi's ``todo_write``: todocli's own ops (``{"ops": [...]}``), read as
todocli reads its own shapes (``todocli.agents.request``); answered as ops, its
schema is ``ops``."""

from __future__ import annotations

from todocli.base import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "oh-my-pi"
RANK = 21
SHARED = ("todo_write",)
KEYS = ("ops", "op")


def reply(todo: TodoList) -> dict[str, Any]:
    """The whole list as one ``write`` op, each task with its status, phase, notes
    and active form: sent back, it changes nothing (an ``init`` and a ``start`` a
    task could not hold two tasks in progress, nor an active form)."""
    items: list[dict[str, Any]] = []
    for phase, task in todo.tasks():
        item: dict[str, Any] = {
            "content": task.content,
            "status": task.status.value,
            "phase": phase.name,
        }
        if task.active_form is not None:
            item["active_form"] = task.active_form
        if task.notes:
            item["notes"] = list(task.notes)
        items.append(item)
    write: dict[str, Any] = {"op": "write", "todos": items}
    if todo.summary:
        write["summary"] = todo.summary
    return {"ops": [write]}


def schema() -> dict[str, Any]:
    from todocli.engine.schema import ops_schema

    return ops_schema() | {"title": "oh-my-pi todo_write"}


def score(value: dict[str, Any], tool: str | None) -> float:
    """todocli's own ops, sent through its ``todo_write``."""
    return 1.0 if "ops" in value or "op" in value else 0.0
