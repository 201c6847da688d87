"""Cline's ``task_progress``: a checklist string, a parameter of any of its tools."""

from __future__ import annotations

from todocli.agents.checklist import CHECKLIST, lines
from todocli.agents.common import S, checklist, obj
from todocli.agents.parsed import Parsed
from todocli.base import TYPE_CHECKING
from todocli.document.model import Status
from todocli.engine.dialects import InputError

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "cline"
RANK = 13
PRIORITY = 110
KEYS = ("task_progress",)
SETUP = 8


def detect(value: dict[str, Any], tool: str | None) -> Parsed | None:
    if "task_progress" not in value:
        return None
    text = value["task_progress"]
    if not isinstance(text, str):
        raise InputError("task_progress: expected a string")
    return lines(text, "task_progress", CHECKLIST, "cline")


def reply(todo: TodoList) -> dict[str, Any]:
    marks = {Status.PENDING: " ", Status.IN_PROGRESS: " ", Status.COMPLETED: "x"}
    marks |= {Status.ABANDONED: "x", Status.BLOCKED: " "}
    return {"task_progress": checklist(todo, marks)}


def schema() -> dict[str, Any]:
    return obj({"task_progress": S}, ["task_progress"])


def score(value: dict[str, Any], tool: str | None) -> float:
    return 1.0 if "task_progress" in value else 0.0
