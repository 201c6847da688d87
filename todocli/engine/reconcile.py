"""A snapshot written over a list a person wrote: tasks the snapshot keeps keep
their lines (and their bullet, indentation and notes) and get only their marker,
active form or notes changed; tasks it drops lose their own lines; new tasks are
written next to the task before them in the snapshot, in that task's style.
``snapshot`` loads this module only for such a list (a list todo wrote is written
anew, or changed in place).
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from todocli.document.markdown import Document, TaskNode
    from todocli.engine.snapshot import Item


def reconcile(
    doc: Document, items: Sequence[Item], matched: list[TaskNode | None], names: list[str]
) -> None:
    """Make a document a person wrote hold exactly these items, each task in place:
    ``matched``, the task each item is (None: a new one), ``names``, the phase each
    goes to (see ``snapshot.matches``)."""
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
