"""Continue: ``cn``'s ``Checklist`` (``{"checklist": "<markdown>"}``) and the
``todo_write`` of its PR #6714 (``{"markdown": "<markdown>"}``, where ``[*]`` is in
progress and ``[~]`` abandoned). (``continue`` is a Python keyword: the module is
``continue_``.)"""

from __future__ import annotations

from todocli.agents.checklist import CHECKLIST, lines
from todocli.agents.common import S, checklist, obj
from todocli.agents.parsed import Parsed
from todocli.agents.request import only, string
from todocli.base import TYPE_CHECKING
from todocli.document.model import Status

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "continue"
RANK = 18
PRIORITY = 60
CALLS = ("Checklist",)
SHARED = ("todo_write",)
KEYS = ("checklist", "markdown")

MARKERS = {" ": Status.PENDING, "x": Status.COMPLETED, "X": Status.COMPLETED}
MARKERS |= {"*": Status.IN_PROGRESS, "~": Status.ABANDONED}


def score(value: dict[str, Any], tool: str | None) -> float:
    return 1.0 if "checklist" in value or "markdown" in value else 0.0


def detect(value: dict[str, Any], tool: str | None) -> Parsed | None:
    """``{"checklist": ...}``, or ``{"markdown": ...}`` unless it is Augment's task
    tree (asked next)."""
    if "checklist" in value:
        only(value, {"checklist"}, "Checklist")
        return lines(string(value, "checklist") or "", "checklist", CHECKLIST, "continue")
    if "markdown" not in value:
        return None
    only(value, {"markdown"}, "todo_write")
    text = string(value, "markdown") or ""
    if tool == "reorganize_tasklist" or "UUID:" in text:
        return None
    return lines(text, "markdown", MARKERS, "continue")


def reply(todo: TodoList) -> dict[str, Any]:
    marks = {Status.PENDING: " ", Status.IN_PROGRESS: " ", Status.COMPLETED: "x"}
    marks |= {Status.ABANDONED: "x", Status.BLOCKED: " "}
    return {"checklist": checklist(todo, marks)}


def schema() -> dict[str, Any]:
    return obj({"checklist": S}, ["checklist"])
