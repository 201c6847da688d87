"""Factory Droid's ``TodoWrite``: ``{"todos": "1. [completed] text\\n..."}``, a
numbered checklist in a string with status words (or the array as JSON, read as
Kilo's)."""

from __future__ import annotations

from todocli.agents.checklist import lines
from todocli.agents.common import BASIC, S, obj, tasks
from todocli.agents.parsed import Parsed
from todocli.agents.request import only
from todocli.base import TYPE_CHECKING
from todocli.document.model import Status

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "droid"
RANK = 20
PRIORITY = 20
STRINGS = ("todos",)

STATUSES = BASIC
MARKERS = {" ": Status.PENDING, "x": Status.COMPLETED, "X": Status.COMPLETED}
MARKERS |= {"-": Status.IN_PROGRESS, "~": Status.IN_PROGRESS}
WORDS = ("[pending]", "[in_progress]", "[completed]")


def detect(value: dict[str, Any], tool: str | None) -> Parsed | None:
    text = value.get("todos")
    if not isinstance(text, str) or not any(w in text for w in WORDS):
        return None
    only(value, {"todos"}, "todos")
    return lines(text, "todos", MARKERS, "droid")


def reply(todo: TodoList) -> dict[str, Any]:
    out = [f"{n}. [{STATUSES[t.status]}] {t.content}" for n, t in enumerate(tasks(todo), start=1)]
    return {"todos": "\n".join(out)}


def schema() -> dict[str, Any]:
    return obj({"todos": S}, ["todos"])


def score(value: dict[str, Any], tool: str | None) -> float:
    """A checklist with its status words."""
    text = value.get("todos")
    return 1.0 if isinstance(text, str) and any(w in text for w in WORDS) else 0.0
