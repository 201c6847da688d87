"""The data model: a list is a summary and ordered phases of ordered tasks.

These are plain values. The markdown document (``markdown.Document``) is the
mutable, lossless representation of a file; ``Document.model()`` gives one of these.

Value classes here (and elsewhere in the package) are ``Value`` subclasses rather
than dataclasses: building a dataclass costs about half a millisecond of start-up
each (and ``dataclasses`` pulls in ``inspect``), and the tool starts once per agent
step. A ``Value`` writes its ``__init__`` by hand; its ``__slots__`` are made from
that ``__init__``'s parameters.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING, Choice, Value
from todocli.errors import InvalidParamError
from todocli.escapes import quoted

if TYPE_CHECKING:
    from typing import ClassVar, Protocol, Self

    # What a merge kept, as the rest of the package reads it: an
    # ``engine.merge.Merged``, made only there (every other call is spared the class).
    class Kept(Protocol):
        kind: str
        content: str
        status: Status | None
        note: str | None
        rev: int | None
        command: str | None
        agent: str | None

        def to_json(self) -> dict[str, object]: ...

        def replace(self, **changes: object) -> Self: ...


DEFAULT_PHASE = "Todos"


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
        return self in OPEN

    @classmethod
    def parse(cls, text: str) -> Status:
        """Read a status name or alias, case-insensitively; raise ValueError if unknown."""
        key = text.strip().lower().replace(" ", "_").replace("-", "_")
        try:
            return _ALIASES[key]
        except KeyError:
            raise ValueError(f"unknown status {quoted(text)}") from None


# The statuses of a task that still needs work (a loop over a large plan asks this
# set: ``is_open`` costs a call a task).
OPEN = frozenset((Status.PENDING, Status.IN_PROGRESS, Status.BLOCKED))

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


def _named(task: Task, width: int | None) -> str:
    """A task as the recap names it: a blocked one with its reason beside it."""
    name = _clip(task.content, width)
    reason = block_reason(task) if task.status is Status.BLOCKED else None
    return name if reason is None else f"{name} ({_clip(reason, width or 60)})"


BLOCK_NOTE = "Blocked: "  # how ``todo block TASK REASON`` writes the reason, as a note


def block_reason(task: Task) -> str | None:
    """The reason a task was blocked for (its last ``Blocked: ...`` note), on one line."""
    for note in reversed(task.notes):
        if note.startswith(BLOCK_NOTE):
            return " ".join(note[len(BLOCK_NOTE) :].split()) or None
    return None


def _clip(text: str, width: int | None) -> str:
    return text if width is None or len(text) <= width else text[: width - 1] + "…"


class Meta(Value):
    """What an agent's tool keeps about a task besides its text and state: its id
    (matched before the text), priority, the ids it waits on, and an owner; and
    what proves it done: a check (a command), its last run, other evidence. Held
    in the task line's trailing metadata comment, hidden in rendered markdown."""

    def __init__(
        self,
        id: str | None = None,
        priority: str | None = None,
        blocked_by: tuple[str, ...] = (),
        owner: str | None = None,
        check: str | None = None,  # a shell command that proves the task done
        checked: str | None = None,  # the last run of the check (see engine.evidence)
        evidence: str | None = None,  # what else shows it done: a commit, a test, a link
        # The status a file whose markers cannot show it keeps here (``state: in_progress``
        # on a ``[ ]`` task); read into the task's status, never part of its metadata.
        state: str | None = None,
    ) -> None:
        self.id = id
        self.priority = priority
        self.blocked_by = blocked_by
        self.owner = owner
        self.check = check
        self.checked = checked
        self.evidence = evidence
        self.state = state

    def __bool__(self) -> bool:
        return bool(
            self.id
            or self.priority
            or self.blocked_by
            or self.owner
            or self.check
            or self.checked
            or self.evidence
            or self.state
        )


NO_META = Meta()

NUMBER_DIGITS = 18  # the longest number an id or a reference is read as: int() refuses past 4300


def id_number(text: str | None) -> int | None:
    """The number an id (or a ``#N`` reference) spells in ASCII digits, or None.

    Anyone may edit a list, so an id may be ``²`` (a digit to ``str.isdigit``, not
    to ``int``) or 5,000 digits (over ``int``'s limit of 4,300): neither is a
    number here. No list gives out ids of more than 18 digits."""
    if not text or len(text) > NUMBER_DIGITS or not text.isascii() or not text.isdigit():
        return None
    return int(text)


class Task(Value):
    """One checklist item. Its content is its identity within a list, unless it
    carries an id (``meta.id``), which is matched first."""

    def __init__(
        self,
        content: str,
        status: Status = Status.PENDING,
        active_form: str | None = None,
        notes: tuple[str, ...] = (),
        meta: Meta = NO_META,
        parent: int | None = None,  # the number (#N) of the task it is a subtask of
        optional: bool = False,  # Kiro's ``- [ ]*``: shown, never required
    ) -> None:
        self.content = content
        self.status = status
        self.active_form = active_form
        self.notes = notes
        self.meta = meta
        self.parent = parent
        self.optional = optional

    @property
    def is_due(self) -> bool:  # open and required: what the gate holds an agent for
        return self.status.is_open and not self.optional


class Phase(Value):
    """A named group of tasks: a heading with tasks directly under it."""

    def __init__(
        self,
        name: str,
        tasks: tuple[Task, ...] = (),
    ) -> None:
        self.name = name
        self.tasks = tasks


class TodoList(Value):
    """A whole list: an optional summary and its phases in document order."""

    def __init__(
        self,
        summary: str = "",
        phases: tuple[Phase, ...] = (),
    ) -> None:
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
        """The one-line recap every reply ends with, under 300 characters.

        ``[done/total] In progress: A. Pending: B; C; D (+2 more). Blocked: E.
        Cancelled: F. Optional: G.`` with done = completed + abandoned; at most 3
        pending (optional ones apart), 2 blocked and 2 cancelled are named.
        """
        by: dict[Status | None, list[Task]] = {s: [] for s in Status.ALL}
        for phase in self.phases:  # not ``tasks()``: a pair a task, for a large plan
            for task in phase.tasks:
                by[task.status].append(task)
        total = sum(len(tasks) for tasks in by.values())
        if not total:
            return "[0/0] No tasks."
        done = len(by[Status.COMPLETED]) + len(by[Status.ABANDONED])
        by[None] = [t for t in by[Status.PENDING] if t.optional]
        if by[None]:  # named apart: nothing holds the agent for them
            by[Status.PENDING] = [t for t in by[Status.PENDING] if not t.optional]
        for width in (None, 60, 40, 24, 12):
            text = f"[{done}/{total}]"
            for label, status, most in _RECAP_PARTS:
                names = by[status]
                if names:
                    shown = [_named(t, width) for t in (names if most is None else names[:most])]
                    more = f" (+{len(names) - len(shown)} more)" if len(names) > len(shown) else ""
                    text += f" {label}: {'; '.join(shown)}{more}."
            if len(text) < 300:
                return text
        return text[:296] + "..."


class OpError(Value):
    """One failed operation of a batch: its 0-based index and the reason."""

    def __init__(
        self,
        index: int,
        message: str,
        code: str = InvalidParamError.code,
        path: str = "",  # where in the input, e.g. "todos[2].status"; empty for flag input
    ) -> None:
        self.index = index
        self.message = message
        self.code = code
        self.path = path


class StatusChange(Value):
    def __init__(
        self,
        content: str,
        old: Status,
        new: Status,
    ) -> None:
        self.content = content
        self.old = old
        self.new = new


class Diff(Value):
    """What differs between two lists, task by task (content is identity, except
    for the tasks ``renamed`` names: (old text, new text) pairs matched by id)."""

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
        """Tasks of one text are matched in order, the first with the first; a copy
        added or removed by hand counts as that text added or removed. ``renamed``:
        the batch's renames (old text, new text), made on the old list first."""
        if not renamed:
            in_place = _changed_in_place(old, new)
            if in_place is not None:
                return cls(changed=in_place)
        same = _old_by_text(old, new, renamed)
        before = {text: tasks[0] for text, tasks in same.items()}
        copies_before = {text: len(tasks) - 1 for text, tasks in same.items() if len(tasks) > 1}
        after, copies_after = _by_content(new)
        changed = [
            StatusChange(c, before[c].status, t.status)
            for c, t in after.items()
            if c in before and before[c].status is not t.status
        ]
        if copies_after:  # a later task of a shared text, named by #N or its heading
            changed += _copies_changed(same, new, copies_after, {ch.content for ch in changed})
        return cls(
            added=tuple(
                c
                for c in after
                if c not in before or copies_after.get(c, 0) > copies_before.get(c, 0)
            ),
            removed=tuple(
                c
                for c in before
                if c not in after or copies_before.get(c, 0) > copies_after.get(c, 0)
            ),
            changed=tuple(changed),
            renamed=renamed,
        )


def _copies_changed(
    old: dict[str, list[Task]], new: TodoList, copies: dict[str, int], known: set[str]
) -> list[StatusChange]:
    """The status changes of the later tasks of a text several tasks have, as many
    before (``old``: each text's tasks, ``_old_by_text``) as after (the first task's
    is ``Diff.changed``'s own)."""
    now: dict[str, list[Status]] = {}
    for _, task in new.tasks():
        if task.content in copies and task.content not in known:
            now.setdefault(task.content, []).append(task.status)
    found = []
    for content, after in now.items():
        before = [task.status for task in old.get(content, [])]
        if len(before) == len(after):
            found += [
                StatusChange(content, a, b)
                for a, b in zip(before, after, strict=True)
                if a is not b
            ]
    return found


def _changed_in_place(old: TodoList, new: TodoList) -> tuple[StatusChange, ...] | None:
    """The status changes between two lists of the same texts in the same order,
    each text once (a write that ticks or starts tasks), read task by task; None for
    any other pair, which ``Diff.between`` reads by text. On a plan of 1,500 tasks
    this is a fifth of the instructions of two tables of texts."""
    was = [task for phase in old.phases for task in phase.tasks]
    now = [task for phase in new.phases for task in phase.tasks]
    if len(was) != len(now):
        return None
    changed = []
    for a, b in zip(was, now, strict=True):
        if a.content != b.content:
            return None
        if a.status is not b.status:
            changed.append(StatusChange(a.content, a.status, b.status))
    if len({task.content for task in was}) != len(was):
        return None  # a text twice: its copies are matched by ``_copies_changed``
    return tuple(changed)


def _by_content(todo: TodoList) -> tuple[dict[str, Task], dict[str, int]]:
    """Each text's task (the first that has it), and how many more have it."""
    first: dict[str, Task] = {}
    copies: dict[str, int] = {}
    for _, task in todo.tasks():
        if task.content in first:
            copies[task.content] = copies.get(task.content, 0) + 1
        else:
            first[task.content] = task
    return first, copies


def _old_by_text(
    old: TodoList, new: TodoList, renamed: tuple[tuple[str, str], ...]
) -> dict[str, list[Task]]:
    """``old``'s tasks of each text, in order, with the batch's renames (old text,
    new text) made, all at once: two tasks may swap their texts (1: A -> B and 2: B
    -> A). A rename is by id, so where several tasks had the old text it is made on
    the one with the id of a new task of the new text (else on the first); the others
    keep the old text. A rename to a text the new list has not (its task went since)
    is not made."""
    tasks = [task for _, task in old.tasks()]
    texts = [task.content for task in tasks]
    if renamed:
        at: dict[str, list[int]] = {}  # each old text's tasks, in order
        for i, text in enumerate(texts):
            at.setdefault(text, []).append(i)
        ids: dict[str, set[str]] = {}  # each new text's tasks' ids
        for _, task in new.tasks():
            held = ids.setdefault(task.content, set())
            if task.meta.id is not None:
                held.add(task.meta.id)
        for was, now in renamed:
            left = [i for i in at.get(was, ()) if texts[i] == was]  # not renamed yet
            if left and now in ids:
                texts[next((i for i in left if tasks[i].meta.id in ids[now]), left[0])] = now
    found: dict[str, list[Task]] = {}
    for text, task in zip(texts, tasks, strict=True):
        found.setdefault(text, []).append(task)
    return found


NO_DIFF = Diff()


def notes_added(
    old: TodoList, new: TodoList, renamed: tuple[tuple[str, str], ...] = ()
) -> tuple[tuple[str, str], ...]:
    """The notes ``new`` has that ``old`` had not, under the same task: (task, note),
    in list order (a task ``old`` had not brings all its notes). Tasks of one text
    are matched in order, the first with the first; ``renamed``: the batch's renames
    (old text, new text), as ``Diff.between`` takes them."""
    same = _old_by_text(old, new, renamed)
    seen: dict[str, int] = {}  # the tasks of each text met so far
    found: list[tuple[str, str]] = []
    for _, task in new.tasks():
        k = seen[task.content] = seen.get(task.content, -1) + 1
        if not task.notes:
            continue
        copies = same.get(task.content, [])
        had = copies[k].notes if k < len(copies) else ()
        found += [(task.content, note) for note in task.notes if note not in had]
    return tuple(found)


class Result(Value):
    """What one batch did: the engine's answer, which every renderer draws from."""

    def __init__(
        self,
        old: TodoList,
        new: TodoList,
        errors: tuple[OpError, ...] = (),
        warnings: tuple[str, ...] = (),
        written: bool = False,  # the list's text changed and is to be stored
        query: bool = False,  # the batch only asked to see the list
        diff: Diff = NO_DIFF,
        dropped_open: tuple[str, ...] = (),  # open tasks a snapshot removed
        hand_edit: Diff | None = None,  # edits made by hand since the last write
        overridden: tuple[str, ...] = (),  # hand-edited tasks this batch changed again
        completed: TodoList | None = None,  # the finished list, when this batch finished it
        wiped: bool = False,  # the finished list was cleared
        left: TodoList | None = None,  # closed tasks a snapshot left out (seen by its agent)
        merged: tuple[Kept, ...] = (),  # a person's edits a snapshot did not know (see ``merge``)
        claimed: str | None = None,  # the task a claim took
        released: tuple[tuple[str, str, float], ...] = (),  # stale claims: (task, agent, idle s)
        # The list as the agent knows it after this batch: the last full snapshot it sent
        # (what its next snapshot is merged against); None when the batch sent none.
        view: TodoList | None = None,
        hand_notes: tuple[tuple[str, str], ...] = (),  # notes added by hand since: (task, note)
        # Tasks this batch completes whose check has not run: (place from 0, text, check).
        unproved: tuple[tuple[int, str, str], ...] = (),
    ) -> None:
        self.old = old
        self.new = new
        self.errors = errors
        self.warnings = warnings
        self.written = written
        self.query = query
        self.diff = diff
        self.dropped_open = dropped_open
        self.hand_edit = hand_edit
        self.overridden = overridden
        self.completed = completed
        self.wiped = wiped
        self.left = left
        self.merged = merged
        self.claimed = claimed
        self.released = released
        self.view = view
        self.hand_notes = hand_notes
        self.unproved = unproved

    @property
    def ok(self) -> bool:
        return not self.errors


# The recap's parts in order: label, status, how many are named at most (None: all);
# None for the status: Kiro's optional tasks not started.
_RECAP_PARTS = (
    ("In progress", Status.IN_PROGRESS, None),
    ("Pending", Status.PENDING, 3),
    ("Blocked", Status.BLOCKED, 2),
    ("Cancelled", Status.ABANDONED, 2),
    ("Optional", None, 2),
)
