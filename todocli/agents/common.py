"""What several agent tools share: what a payload asks for (``Parsed``), status
words, ids, checklists of a list, and the pieces of their published input
schemas. It imports none of the engine: a reply (every JSON answer has one) loads
no payload reader. The readers they share are in ``request``.
"""

from __future__ import annotations

from todocli.document.model import Status

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import Task, TodoList
    from todocli.engine.snapshot import Item


class Parsed:
    """What a tool's payload asks for: a query (``items`` None), a whole list, or
    updates (``merge``). Made once, never changed."""

    __slots__ = ("dialect", "items", "merge", "summary", "warnings")

    def __init__(
        self,
        dialect: str,
        items: list[Item] | None = None,
        summary: str | None = None,
        merge: bool = False,
        warnings: list[str] | None = None,
    ) -> None:
        self.dialect = dialect
        self.items = items  # None: a read
        self.summary = summary
        self.merge = merge
        self.warnings = tuple(warnings or ())


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
