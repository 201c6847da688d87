"""Gemini CLI's ``write_todos``: ``todos`` whose items carry their text as
``description``, with ``cancelled`` and ``blocked`` statuses."""

from __future__ import annotations

from todocli.agents.common import S, array, enum, marks, obj, tasks, words
from todocli.base import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "gemini"
RANK = 4
CALLS = ("write_todos",)
ITEM_KEYS = ("description",)
SETUP = 3
HOOK = ("deny", "")  # its AfterAgent asks for another turn with "deny"
SHELL = ("", "GEMINI_CLI")  # its shell: no session id, only the marker GEMINI_CLI=1

STATUSES = words(abandoned="cancelled", blocked="blocked")


def reply(todo: TodoList) -> dict[str, Any]:
    return {
        "todos": [{"description": t.content, "status": STATUSES[t.status]} for t in tasks(todo)]
    }


def schema() -> dict[str, Any]:
    status = enum("pending", "in_progress", "completed", "cancelled", "blocked")
    item = obj({"description": S, "status": status}, ["description", "status"])
    return obj({"todos": array(item)}, ["todos"])


def score(value: dict[str, Any], tool: str | None) -> float:
    """Items whose text is a ``description`` (no ``content``)."""
    keys, _ = marks(value)
    return 0.9 if "description" in keys and "content" not in keys else 0.0
