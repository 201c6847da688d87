"""What several agent tools share to answer: status words, ids, checklists of a
list, and the pieces of their published input schemas. It imports none of the
engine: a reply loads no payload reader (the readers they share are in
``request``).
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING
from todocli.document.model import Status

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import Task, TodoList


# -- replies: the list in a tool's words -------------------------------------------------------

BASIC = {
    Status.PENDING: "pending",
    Status.IN_PROGRESS: "in_progress",
    Status.COMPLETED: "completed",
    Status.ABANDONED: "completed",
    Status.BLOCKED: "pending",
}


def words(**changes: str) -> dict[Status, str]:
    """The basic status words, with some of them changed (``abandoned="cancelled"``)."""
    return BASIC | {Status.of(k): v for k, v in changes.items()}


CANCELLED = words(abandoned="cancelled")


def tasks(todo: TodoList) -> list[Task]:
    return [task for _, task in todo.tasks()]


def ids(todo: TodoList) -> list[str]:
    """Each task's id, or its position when it has none (unique either way)."""
    taken = {t.meta.id for t in tasks(todo) if t.meta.id}
    out = []
    n = 0
    for task in tasks(todo):
        if task.meta.id:
            out.append(task.meta.id)
            continue
        n += 1
        while str(n) in taken:
            n += 1
        taken.add(str(n))
        out.append(str(n))
    return out


def checklist(todo: TodoList, marks: dict[Status, str], bullet: str = "- ") -> str:
    return "\n".join(f"{bullet}[{marks[t.status]}] {t.content}" for t in tasks(todo))


# -- scores: the marks of a todos array --------------------------------------------------------


def marks(value: dict[str, Any]) -> tuple[set[str], set[str]]:
    """A ``todos`` array's marks: its first item's keys (none when that is not an
    object), and its items' statuses in lower case."""
    todos = value.get("todos")
    if not isinstance(todos, list) or not todos or not isinstance(todos[0], dict):
        return set(), set()
    statuses = {str(t.get("status", "")).lower() for t in todos if isinstance(t, dict)}
    return set(todos[0]), statuses


# -- schemas: the pieces of the tools' published input schemas ---------------------------------


def obj(properties: dict[str, Any], required: list[str], **extra: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    } | extra


def enum(*values: str) -> dict[str, Any]:
    return {"type": "string", "enum": list(values)}


def array(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


S = {"type": "string"}
BASIC3 = enum("pending", "in_progress", "completed")
STR_LIST = array(S)
