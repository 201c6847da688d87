"""Roo Code's ``update_todo_list``: ``{"todos": "<checklist>"}`` where ``[-]`` is
in progress (not abandoned, as in todocli's markdown)."""

from __future__ import annotations

from todocli.agents.checklist import lines
from todocli.agents.common import S, checklist, obj
from todocli.agents.parsed import Parsed
from todocli.agents.request import only
from todocli.base import TYPE_CHECKING
from todocli.document.model import Status

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "roo"
RANK = 12
PRIORITY = 10
CALLS = ("update_todo_list",)
STRINGS = ("todos",)

MARKERS = {" ": Status.PENDING, "x": Status.COMPLETED, "X": Status.COMPLETED}
MARKERS |= {"-": Status.IN_PROGRESS, "~": Status.IN_PROGRESS}


def detect(value: dict[str, Any], tool: str | None) -> Parsed | None:
    text = value.get("todos")
    if not isinstance(text, str):
        return None
    only(value, {"todos"}, "todos")
    return lines(text, "todos", MARKERS, "roo")


def reply(todo: TodoList) -> dict[str, Any]:
    marks = {Status.PENDING: " ", Status.IN_PROGRESS: "-", Status.COMPLETED: "x"}
    marks |= {Status.ABANDONED: "x", Status.BLOCKED: " "}
    return {"todos": checklist(todo, marks, bullet="")}


def schema() -> dict[str, Any]:
    return obj({"todos": S}, ["todos"])


def score(value: dict[str, Any], tool: str | None) -> float:
    """Any checklist in the string: Kilo's and Droid's are told apart first."""
    return 0.5 if isinstance(value.get("todos"), str) else 0.0
