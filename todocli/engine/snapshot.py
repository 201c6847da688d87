"""Write a full snapshot over a document, keeping every line it does not change.

Agents send their whole list on every call. A file the tool wrote itself (the
canonical form) holds nothing else, so it is simply written anew. A file a person
has edited is reconciled in place: tasks the snapshot keeps keep their lines (and
their bullet, indentation and notes) and get only their marker, active form or
notes changed; tasks it drops lose their own lines; new tasks are written next to
the task before them in the snapshot, in that task's style.
"""

from __future__ import annotations

from todocli.document.markdown import Document, TaskNode, parse, render_canonical
from todocli.document.model import DEFAULT_PHASE, Meta, Phase, Status, Task, TodoList, Value

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from collections.abc import Sequence


class Item(Value):
    """One task of a snapshot, as the engine receives it."""

    def __init__(
        self,
        content: str,
        status: Status = Status.PENDING,
        active_form: str | None = None,
        phase: str | None = None,  # None: where it already is, or beside the item before it
        notes: tuple[str, ...] | None = None,  # None: keep the notes it has
        keep_active_form: bool = False,  # the input said nothing about it
        path: str = "",  # where it came from in the input, e.g. "todos[2]"
        key: str = "content",  # the input's name for its text: content, title, step...
        active_key: str = "activeForm",  # and for its active form
        meta: Meta | None = None,  # id, priority, dependencies; None: keep what the task has
        given: frozenset[str] | None = None,  # for an update (a merge): the fields it gives
        occurrence: int = 0,  # which task of its text in the file (a person's copy: 1, 2...)
    ) -> None:
        self.content = content
        self.status = status
        self.active_form = active_form
        self.phase = phase
        self.notes = notes
        self.keep_active_form = keep_active_form
        self.path = path
        self.key = key
        self.active_key = active_key
        self.meta = meta
        self.given = given
        self.occurrence = occurrence

    def replace(self, **changes: object) -> Item:
        """A copy with some fields changed (as ``Settings.replace``)."""
        copy = Item.__new__(Item)
        for name in self.__slots__:
            object.__setattr__(
                copy, name, changes[name] if name in changes else getattr(self, name)
            )
        return copy

    def with_meta(self, meta: Meta) -> Item:
        """This item as a whole new task with this metadata."""
        return self.replace(meta=meta, given=None)

    def at(self, key: str) -> str:
        """The JSON path of one of the item's fields ("" when it had no path)."""
        return f"{self.path}.{key}" if self.path and key else self.path


def write_snapshot(doc: Document, items: Sequence[Item], summary: str | None) -> Document:
    """Make the document hold exactly these tasks; return the document to keep.

    ``summary`` None keeps the summary the document has.
    """
    if doc.is_canonical():
        return parse(render_canonical(_model(doc, items, summary)))
    _reconcile(doc, items)
    if summary is not None:
        doc.set_summary(summary)
    return doc


def rename_by_id(doc: Document, items: Sequence[Item]) -> list[tuple[str, str]]:
    """An item whose id a task already carries updates that task: when its text
    changed, the task is renamed in place (marker, notes and position kept).
    Returns the (old text, new text) of each task renamed."""
    renamed: list[tuple[str, str]] = []
    by_id = {node.meta.id: node for node in doc.tasks() if node.meta.id}
    if not by_id:
        return renamed
    for item in items:
        task_id = item.meta.id if item.meta is not None else None
        node = by_id.get(task_id) if task_id else None
        if node is None or node.content == item.content:
            continue
        holder = doc.find(item.content)
        if holder is not None and holder is not node and not holder.meta.id:
            continue  # another task, without an id, has that text: it is that one
        if holder is None or holder.meta.id != task_id:
            was = node.content
            if doc.set_content(node, item.content):
                renamed.append((was, item.content))
    return renamed


def matches(doc: Document, items: Sequence[Item]) -> list[TaskNode | None]:
    """The task each item is: the one with its id, else the one with its text
    (unless that task has another id), or the later task of that text its
    ``occurrence`` names; None for a new task. Two items with the same text and
    distinct ids are two tasks."""
    by_id: dict[str, TaskNode] = {}
    for task in doc.tasks():
        if task.meta.id:
            by_id.setdefault(task.meta.id, task)
    node: TaskNode | None
    out: list[TaskNode | None] = []
    taken: set[TaskNode] = set()
    copies: dict[str, list[TaskNode]] | None = None  # the tasks of each repeated text
    for item in items:
        task_id = item.meta.id if item.meta is not None else None
        node = by_id.get(task_id) if task_id else None
        if node is None and item.occurrence:
            if copies is None:
                copies = {}
                for task in doc.tasks():
                    if task.content in doc.duplicates:
                        copies.setdefault(task.content, []).append(task)
            same = copies.get(item.content, [])
            node = same[item.occurrence] if item.occurrence < len(same) else None
        elif node is None:
            node = doc.find(item.content)
            if node is not None and task_id and node.meta.id and node.meta.id != task_id:
                node = None
        if node is not None and node in taken:
            node = None
        if node is not None:
            taken.add(node)
        out.append(node)
    return out


def _resolved_phases(
    doc: Document, items: Sequence[Item], found: list[TaskNode | None]
) -> list[str]:
    """The phase each item goes to: its own, else the phase it is in, else that of
    the item before it, else the list's first phase."""
    names: list[str] = []
    previous = doc.phases[0].name if doc.phases else DEFAULT_PHASE
    for item, node in zip(items, found, strict=True):
        name = item.phase or (node.phase.name if node and node.phase else None) or previous
        names.append(name)
        previous = name
    return names


def _model(doc: Document, items: Sequence[Item], summary: str | None) -> TodoList:
    phases: dict[str, list[Task]] = {}
    found = matches(doc, items)
    for item, name, node in zip(items, _resolved_phases(doc, items, found), found, strict=True):
        notes = item.notes
        if notes is None:
            notes = tuple(node.notes) if node else ()
        active = item.active_form
        if item.keep_active_form:
            active = node.active_form if node else None
        meta = item.meta if item.meta is not None else node.meta if node else None
        if meta is None:
            task = Task(item.content, item.status, active, notes)
        else:
            task = Task(item.content, item.status, active, notes, meta)
        phases.setdefault(name, []).append(task)
    return TodoList(
        summary=doc.summary if summary is None else summary,
        phases=tuple(Phase(name, tuple(tasks)) for name, tasks in phases.items()),
    )


def _reconcile(doc: Document, items: Sequence[Item]) -> None:
    matched = matches(doc, items)
    names = _resolved_phases(doc, items, matched)
    kept = {node for node in matched if node is not None}
    old_headings = [p.heading for p in doc.phases if p.heading is not None]
    for task in list(doc.tasks()):
        if task not in kept:
            doc.remove_task(task, drop_heading=False)
    position = {task: i for i, task in enumerate(doc.tasks())}

    groups: dict[str, list[tuple[Item, TaskNode | None]]] = {}
    for item, name, match in zip(items, names, matched, strict=True):
        groups.setdefault(name, []).append((item, match))
    for name, members in groups.items():
        previous: TaskNode | None = None
        furthest = -1  # the latest original position among tasks placed so far
        for item, found in members:
            if found is None:
                node = _insert(doc, name, previous, item)
            else:
                node = found
                _update(doc, node, item)
                in_place = node.phase is not None and node.phase.name == name
                if in_place and position.get(node, -1) > furthest:
                    furthest = position[node]
                elif previous is not None:
                    doc.move_after(node, previous)
                else:
                    first = _first_in(doc, name)
                    if first is not None and first is not node:
                        assert first.prev is not None
                        doc.move_after(node, first.prev)
                    elif first is None:
                        doc.move_to_phase(node, name)
            previous = node
    doc.reindex()
    for heading in old_headings:
        doc.drop_empty_heading(heading)
    doc.reindex()


def _first_in(doc: Document, name: str) -> TaskNode | None:
    for phase in doc.phase_named(name):
        first = phase.first()
        if first is not None:
            return first
    return None


def _insert(doc: Document, name: str, previous: TaskNode | None, item: Item) -> TaskNode:
    notes = item.notes or ()
    active = None if item.keep_active_form else item.active_form
    if previous is not None:
        node = doc.insert_task_beside(previous, item.content, item.status, active, notes)
    else:
        first = _first_in(doc, name)
        if first is not None:
            node = doc.insert_task_beside(
                first, item.content, item.status, active, notes, before=True
            )
        else:
            node = doc.add_task(name, item.content, item.status, active, notes)
    if item.meta is not None:
        doc.set_meta(node, item.meta)
    return node


def _update(doc: Document, node: TaskNode, item: Item) -> None:
    doc.set_status(node, item.status)
    if not item.keep_active_form:
        doc.set_active_form(node, item.active_form)
    if item.meta is not None:
        doc.set_meta(node, item.meta)
    if item.notes is not None:
        doc.set_notes(node, item.notes)


def view_of(items: Sequence[Item], summary: str | None, doc: Document) -> TodoList:
    """The list as the agent that sent these items knows it, for its next snapshot
    to be merged against: its tasks with the statuses, phases and notes it sent;
    where it sent none, the phase and notes each has in ``doc`` (the list written).
    ``summary`` None: the one ``doc`` has."""
    phases: dict[str, list[Task]] = {}
    previous = DEFAULT_PHASE
    for item in items:
        node = doc.find(item.content)
        name = item.phase or (node.phase.name if node and node.phase else None) or previous
        notes = item.notes
        if notes is None:
            notes = tuple(node.notes) if node else ()
        active = node.active_form if item.keep_active_form and node else item.active_form
        phases.setdefault(name, []).append(Task(item.content, item.status, active, notes))
        previous = name
    return TodoList(
        summary=doc.summary if summary is None else summary,
        phases=tuple(Phase(name, tuple(tasks)) for name, tasks in phases.items()),
    )
