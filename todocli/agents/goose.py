"""Goose's ``todo_write``: ``{"content": "<markdown checklist>"}``."""

from __future__ import annotations

from todocli.agents.checklist import CHECKLIST, lines
from todocli.agents.common import S, checklist, obj
from todocli.agents.parsed import Parsed
from todocli.base import TYPE_CHECKING
from todocli.document.model import Status

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "goose"
RANK = 15
PRIORITY = 40
SHARED = ("todo_write",)
KEYS = ("content",)


def detect(value: dict[str, Any], tool: str | None) -> Parsed | None:
    if set(value) != {"content"} or not isinstance(value["content"], str):
        return None
    return lines(value["content"], "content", CHECKLIST, "goose")


def reply(todo: TodoList) -> dict[str, Any]:
    return {"content": checklist(todo, {s: s.marker for s in Status.ALL})}


def schema() -> dict[str, Any]:
    return obj({"content": S}, ["content"])


def score(value: dict[str, Any], tool: str | None) -> float:
    """A checklist as ``content`` and nothing else."""
    return 1.0 if set(value) == {"content"} and isinstance(value["content"], str) else 0.0
