"""The data model: a list is a summary and ordered phases of ordered tasks.

These are plain frozen values. The markdown document (``markdown.Document``) is the
mutable, lossless representation of a file; ``Document.model()`` gives one of these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

DEFAULT_PHASE = "Todos"


class Status(StrEnum):
    """A task's state. The value is the name used in JSON and plain output."""

    PENDING = "pending"
    IN_PROGRESS = "in_progress"
    COMPLETED = "completed"
    ABANDONED = "abandoned"
    BLOCKED = "blocked"

    @property
    def marker(self) -> str:
        """The character written between the brackets for this status."""
        return _MARKER_OF[self]

    @property
    def is_open(self) -> bool:
        """Open tasks still need work: pending, in progress or blocked."""
        return self in (Status.PENDING, Status.IN_PROGRESS, Status.BLOCKED)

    @classmethod
    def parse(cls, text: str) -> Status:
        """Read a status name or alias, case-insensitively; raise ValueError if unknown."""
        key = text.strip().lower().replace(" ", "_").replace("-", "_")
        try:
            return _ALIASES[key]
        except KeyError:
            raise ValueError(f'unknown status "{text}"') from None


_MARKER_OF = {
    Status.PENDING: " ",
    Status.IN_PROGRESS: "/",
    Status.COMPLETED: "x",
    Status.ABANDONED: "-",
    Status.BLOCKED: "!",
}

_ALIASES = {s.value: s for s in Status} | {
    "done": Status.COMPLETED,
    "complete": Status.COMPLETED,
    "cancelled": Status.ABANDONED,
    "canceled": Status.ABANDONED,
    "dropped": Status.ABANDONED,
}

# Every marker character the reader accepts, with the status it means. Markers
# are read as they are and never rewritten unless an operation changes the status.
MARKER_STATUS = {
    " ": Status.PENDING,
    "": Status.PENDING,
    "/": Status.IN_PROGRESS,
    ">": Status.IN_PROGRESS,
    "x": Status.COMPLETED,
    "X": Status.COMPLETED,
    "-": Status.ABANDONED,
    "~": Status.ABANDONED,
    "!": Status.BLOCKED,
}


@dataclass(frozen=True)
class Task:
    """One checklist item. Its content is its identity within a list."""

    content: str
    status: Status = Status.PENDING
    active_form: str | None = None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Phase:
    """A named group of tasks: a heading with tasks directly under it."""

    name: str
    tasks: tuple[Task, ...] = ()


@dataclass(frozen=True)
class TodoList:
    """A whole list: an optional summary and its phases in document order."""

    summary: str = ""
    phases: tuple[Phase, ...] = field(default_factory=tuple)

    def tasks(self) -> list[tuple[Phase, Task]]:
        """Every task with its phase, in the order ``todo show`` numbers them."""
        return [(phase, task) for phase in self.phases for task in phase.tasks]
