"""The data model: a list is a summary and ordered phases of ordered tasks.

These are plain values. The markdown document (``markdown.Document``) is the
mutable, lossless representation of a file; ``Document.model()`` gives one of these.

Value classes here (and elsewhere in the package) are hand-written slotted classes
on ``Value`` rather than dataclasses: building a dataclass costs about half a
millisecond of start-up each (and ``dataclasses`` pulls in ``inspect``), and the
tool starts once per agent step.
"""

from __future__ import annotations

from todocli.errors import InvalidParamError

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from typing import ClassVar, Self


DEFAULT_PHASE = "Todos"


class Choice(str):
    """One of a closed set of named string values: a light stand-in for
    ``enum.StrEnum``, whose import (with ``functools`` and ``collections``) costs
    about 4 ms of every call. Members are canonical instances, compared with ``is``
    or ``==``; ``ALL`` lists them in order; ``of`` looks one up by value."""

    __slots__ = ()
    ALL: ClassVar[tuple[Choice, ...]] = ()
    _by_value: ClassVar[dict[str, Choice]] = {}
    _names: ClassVar[dict[str, str]] = {}

    @property
    def value(self) -> str:
        return str.__str__(self)

    @property
    def name(self) -> str:
        return type(self)._names[self]

    def __repr__(self) -> str:
        return f"<{type(self).__name__}.{self.name}: {str.__repr__(self)}>"

    @classmethod
    def of(cls, value: str) -> Self:
        """The member with this value; ValueError if there is none."""
        member = cls._by_value.get(value)
        if member is None:
            raise ValueError(f"{value!r} is not a valid {cls.__name__}")
        return member  # type: ignore[return-value]  # _by_value holds cls's members

    @classmethod
    def _define(cls, **members: str) -> None:
        made = [str.__new__(cls, value) for value in members.values()]
        for name, member in zip(members, made, strict=True):
            setattr(cls, name, member)
        cls.ALL = tuple(made)
        cls._by_value = {m.value: m for m in made}
        cls._names = {m.value: name for name, m in zip(members, made, strict=True)}


class Value:
    """Equality, hashing and repr from a class's ``__slots__`` (its fields)."""

    __slots__ = ()

    def _fields(self) -> tuple[object, ...]:
        names: tuple[str, ...] = self.__slots__
        return tuple(getattr(self, name) for name in names)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Value)
            and type(other) is type(self)
            and self._fields() == other._fields()
        )

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        names: tuple[str, ...] = self.__slots__
        pairs = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{type(self).__name__}({pairs})"


class Status(Choice):
    """A task's state. The value is the name used in JSON and plain output."""

    __slots__ = ()
    ALL: ClassVar[tuple[Status, ...]]
    PENDING: ClassVar[Status]
    IN_PROGRESS: ClassVar[Status]
    COMPLETED: ClassVar[Status]
    ABANDONED: ClassVar[Status]
    BLOCKED: ClassVar[Status]

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


Status._define(
    PENDING="pending",
    IN_PROGRESS="in_progress",
    COMPLETED="completed",
    ABANDONED="abandoned",
    BLOCKED="blocked",
)

_MARKER_OF = {
    Status.PENDING: " ",
    Status.IN_PROGRESS: "/",
    Status.COMPLETED: "x",
    Status.ABANDONED: "-",
    Status.BLOCKED: "!",
}

_ALIASES = {s.value: s for s in Status.ALL} | {
    "done": Status.COMPLETED,
    "complete": Status.COMPLETED,
    "cancelled": Status.ABANDONED,
    "canceled": Status.ABANDONED,
    "dropped": Status.ABANDONED,
    # The agents' own words (docs/agent-tools.md): Amp and OpenHands "todo",
    # VS Code "not-started", Augment "NOT_STARTED".
    "todo": Status.PENDING,
    "not_started": Status.PENDING,
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


def _clip(text: str, width: int | None) -> str:
    return text if width is None or len(text) <= width else text[: width - 1] + "…"


class Meta(Value):
    """What an agent's tool keeps about a task besides its text and state: its id
    (matched before the text), priority, the ids it waits on, and an owner. Held
    in the task line's trailing metadata comment, hidden in rendered markdown."""

    __slots__ = ("blocked_by", "id", "owner", "priority")

    def __init__(
        self,
        id: str | None = None,
        priority: str | None = None,
        blocked_by: tuple[str, ...] = (),
        owner: str | None = None,
    ) -> None:
        self.id = id
        self.priority = priority
        self.blocked_by = blocked_by
        self.owner = owner

    def __bool__(self) -> bool:
        return bool(self.id or self.priority or self.blocked_by or self.owner)


NO_META = Meta()


class Task(Value):
    """One checklist item. Its content is its identity within a list, unless it
    carries an id (``meta.id``), which is matched first."""

    __slots__ = ("active_form", "content", "meta", "notes", "status")

    def __init__(
        self,
        content: str,
        status: Status = Status.PENDING,
        active_form: str | None = None,
        notes: tuple[str, ...] = (),
        meta: Meta = NO_META,
    ) -> None:
        self.content = content
        self.status = status
        self.active_form = active_form
        self.notes = notes
        self.meta = meta


class Phase(Value):
    """A named group of tasks: a heading with tasks directly under it."""

    __slots__ = ("name", "tasks")

    def __init__(self, name: str, tasks: tuple[Task, ...] = ()) -> None:
        self.name = name
        self.tasks = tasks


class TodoList(Value):
    """A whole list: an optional summary and its phases in document order."""

    __slots__ = ("phases", "summary")

    def __init__(self, summary: str = "", phases: tuple[Phase, ...] = ()) -> None:
        self.summary = summary
        self.phases = phases

    def tasks(self) -> list[tuple[Phase, Task]]:
        """Every task with its phase, in the order ``todo show`` numbers them."""
        return [(phase, task) for phase in self.phases for task in phase.tasks]

    def stats(self) -> dict[str, int]:
        """Counts by status, plus the total."""
        counts = {"total": 0} | {s.value: 0 for s in Status.ALL}
        for _, task in self.tasks():
            counts["total"] += 1
            counts[task.status.value] += 1
        return counts

    def recap(self) -> str:
        """Seed 004's one-line recap, under 300 characters.

        ``[done/total] In progress: A. Pending: B; C; D (+2 more). Blocked: E.
        Cancelled: F.`` with done = completed + abandoned; at most 3 pending, 2
        blocked and 2 cancelled are named; completed tasks are not.
        """
        tasks = [t for _, t in self.tasks()]
        if not tasks:
            return "[0/0] No tasks."
        done = sum(1 for t in tasks if not t.status.is_open)
        by = {s: [t.content for t in tasks if t.status is s] for s in Status.ALL}
        for width in (None, 60, 40, 24, 12):
            text = f"[{done}/{len(tasks)}]"
            for label, status, most in _RECAP_PARTS:
                names = by[status]
                if names:
                    shown = [_clip(n, width) for n in (names if most is None else names[:most])]
                    more = f" (+{len(names) - len(shown)} more)" if len(names) > len(shown) else ""
                    text += f" {label}: {'; '.join(shown)}{more}."
            if len(text) < 300:
                return text
        return text[:296] + "..."


class OpError(Value):
    """One failed operation of a batch: its 0-based index and the reason."""

    __slots__ = ("code", "index", "message", "path")

    def __init__(
        self, index: int, message: str, code: str = InvalidParamError.code, path: str = ""
    ) -> None:
        self.index = index
        self.message = message
        self.code = code
        self.path = path  # where in the input, e.g. "todos[2].status"; empty for flag input


class StatusChange(Value):
    __slots__ = ("content", "new", "old")

    def __init__(self, content: str, old: Status, new: Status) -> None:
        self.content = content
        self.old = old
        self.new = new


class Diff(Value):
    """What differs between two lists, task by task (content is identity, except
    for the tasks ``renamed`` names: (old text, new text) pairs matched by id)."""

    __slots__ = ("added", "changed", "removed", "renamed")

    def __init__(
        self,
        added: tuple[str, ...] = (),
        removed: tuple[str, ...] = (),
        changed: tuple[StatusChange, ...] = (),
        renamed: tuple[tuple[str, str], ...] = (),
    ) -> None:
        self.added = added
        self.removed = removed
        self.changed = changed
        self.renamed = renamed

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.changed or self.renamed)

    @classmethod
    def between(
        cls, old: TodoList, new: TodoList, renamed: tuple[tuple[str, str], ...] = ()
    ) -> Diff:
        before = {t.content: t for _, t in old.tasks()}
        after = {t.content: t for _, t in new.tasks()}
        for was, now in renamed:
            if was in before and now in after:
                before[now] = before.pop(was)
        return cls(
            added=tuple(c for c in after if c not in before),
            removed=tuple(c for c in before if c not in after),
            changed=tuple(
                StatusChange(c, before[c].status, t.status)
                for c, t in after.items()
                if c in before and before[c].status is not t.status
            ),
            renamed=renamed,
        )


class Merged(Value):
    """One thing the agent did not know, and what the merge made of it."""

    __slots__ = ("content", "kind", "status")

    ADDED = "added_by_hand"  # kept: the person added it
    STATUS = "status_by_hand"  # kept: the person set this status
    REMOVED = "removed_by_hand"  # not brought back: the person removed it
    CONFLICT = "conflict"  # both changed its status: the snapshot's stands

    def __init__(self, kind: str, content: str, status: Status | None = None) -> None:
        self.kind = kind
        self.content = content
        self.status = status  # the status the task has after the merge (None: gone)

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "content": self.content,
            "status": self.status.value if self.status is not None else None,
        }


class Result(Value):
    """What one batch did: the engine's answer, which every renderer draws from."""

    __slots__ = (
        "completed",
        "diff",
        "dropped_open",
        "errors",
        "hand_edit",
        "merged",
        "new",
        "old",
        "overridden",
        "query",
        "warnings",
        "wiped",
        "written",
    )

    def __init__(
        self,
        old: TodoList,
        new: TodoList,
        errors: tuple[OpError, ...] = (),
        warnings: tuple[str, ...] = (),
        written: bool = False,
        query: bool = False,
        diff: Diff | None = None,
        dropped_open: tuple[str, ...] = (),
        hand_edit: Diff | None = None,
        overridden: tuple[str, ...] = (),
        completed: TodoList | None = None,
        wiped: bool = False,
        merged: tuple[Merged, ...] = (),
    ) -> None:
        self.old = old
        self.new = new
        self.errors = errors
        self.warnings = warnings
        self.written = written  # the list's text changed and is to be stored
        self.query = query  # the batch only asked to see the list
        self.diff = diff if diff is not None else Diff()
        self.dropped_open = dropped_open  # open tasks a snapshot removed
        self.hand_edit = hand_edit  # edits made by hand since the last write
        self.overridden = overridden  # hand-edited tasks this batch changed again
        self.completed = completed  # the finished list, when this batch finished it
        self.wiped = wiped  # the finished list was cleared
        self.merged = merged  # a person's edits a snapshot did not know (see ``merge``)

    @property
    def ok(self) -> bool:
        return not self.errors


# The recap's parts in order: label, status, how many are named at most (None: all).
_RECAP_PARTS = (
    ("In progress", Status.IN_PROGRESS, None),
    ("Pending", Status.PENDING, 3),
    ("Blocked", Status.BLOCKED, 2),
    ("Cancelled", Status.ABANDONED, 2),
)
