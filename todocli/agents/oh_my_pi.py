"""oh-my-pi's ``todo_write``: todocli's own ops (``{"ops": [...]}``), read as
todocli reads its own shapes (``todocli.agents.request``); answered as ops, its
schema is ``ops``."""

from __future__ import annotations

from todocli.base import TYPE_CHECKING
from todocli.document.model import Status

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "oh-my-pi"
RANK = 21
SHARED = ("todo_write",)
KEYS = ("ops", "op")


def reply(todo: TodoList) -> dict[str, Any]:
    out: list[dict[str, Any]] = []
    if todo.phases:
        groups = [{"phase": p.name, "items": [t.content for t in p.tasks]} for p in todo.phases]
        init: dict[str, Any] = {"op": "init", "list": groups}
        if todo.summary:
            init["summary"] = todo.summary
        out.append(init)
    verbs = {Status.COMPLETED: "done", Status.ABANDONED: "drop", Status.BLOCKED: "block"}
    verbs |= {Status.IN_PROGRESS: "start"}
    every = [task for _, task in todo.tasks()]
    started = [t for t in every if t.status is Status.IN_PROGRESS]
    # init replaces the list: its notes come back as note ops (a block's reason is
    # one of them, so the block op carries none).
    out += [{"op": "note", "task": t.content, "text": n} for t in every for n in t.notes]
    for task in every:
        verb = verbs.get(task.status)
        if verb is not None and verb != "start":
            out.append({"op": verb, "task": task.content})
    out += [{"op": "start", "task": t.content} for t in started]
    if not out:
        return {"ops": [{"op": "init", "list": []}]}
    return {"ops": out}


def schema() -> dict[str, Any]:
    from todocli.engine.schema import ops_schema

    return ops_schema() | {"title": "oh-my-pi todo_write"}


def score(value: dict[str, Any], tool: str | None) -> float:
    """todocli's own ops, sent through its ``todo_write``."""
    return 1.0 if "ops" in value or "op" in value else 0.0
