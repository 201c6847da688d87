"""Proofs: which tasks a batch completes whose check must pass, and what the runs
of those checks (``Batch.proofs``) make of them.

A task with a check is completed only with the record of a run of its check that
passed; ``ops`` loads this module only when, after the ops, some completed task
has a check.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING
from todocli.document.model import Status

if TYPE_CHECKING:
    from todocli.document.markdown import TaskNode
    from todocli.document.model import TodoList
    from todocli.engine.ops import Engine, Wanted


def settle(engine: Engine, old: TodoList, rewrites: bool) -> tuple[Wanted, ...]:
    """After the ops: a task whose check passed keeps the record of the run; one
    whose check did not pass (or changed while it ran) is not completed (one
    completed before, whose check ``todo check --verify`` ran again, is reopened:
    pending). Returns the tasks this batch completes whose check has not run (see
    ``completing``). ``rewrites``: the batch holds a snapshot or an update.

    A task is named by its place in the list as the ops left it, its text and its
    check, never by its text alone: two tasks of one text are two tasks, and each
    is proved by its own check."""
    proofs = engine.batch.proofs
    nodes = list(engine.doc.tasks())
    ran = {(place, content, check): record for place, content, check, record in proofs}
    unproved: list[Wanted] = []
    before = [t for _, t in old.tasks()] if ran else []
    for place in completing(nodes, old, ran, rewrites):
        node = nodes[place]
        check = node.meta.check or ""
        key = (place, node.content, check)
        if key not in ran:
            unproved.append(key)
            continue
        record = ran[key]
        if record is not None:
            engine.doc.set_meta(node, node.meta.replace(checked=record))
            continue
        then = before[place] if place < len(before) else None
        was = then.status if then is not None and then.content == node.content else None
        if was is Status.COMPLETED:  # its check ran again and failed: reopened
            engine.set_status(node, Status.PENDING)
        else:
            engine.set_status(node, was if was is not None and was.is_open else Status.IN_PROGRESS)
    return tuple(unproved)


def completing(
    nodes: list[TaskNode], old: TodoList, ran: dict[Wanted, str | None], rewrites: bool
) -> list[int]:
    """The places of the completed tasks with a check that this batch completes
    (or that a run of their check was given for: ``todo check --verify``).

    A completed task was already completed when the list held, before the batch,
    a completed task of the same text at the same place (with the same check, or
    one a snapshot or update of the batch changed: its record is gone and the
    gate says so), else a
    completed task of the same text, check and record that no other task took.
    Anything else is being completed now: its check must run."""
    if not any(n.meta.check and n.status is Status.COMPLETED for n in nodes):
        return []
    before = [t for _, t in old.tasks()]
    taken = [False] * len(before)
    candidates: list[int] = []
    # Only a snapshot or an update changes a check (and then drops its record).
    for place, node in enumerate(nodes):
        if node.status is not Status.COMPLETED:
            continue
        was = before[place] if place < len(before) else None
        if (
            (place, node.content, node.meta.check or "") not in ran
            and was is not None
            and was.status is Status.COMPLETED
            and was.content == node.content
            and (
                was.meta.check == node.meta.check
                or (rewrites and was.meta.check is not None and node.meta.checked is None)
            )
        ):
            taken[place] = True
            continue
        candidates.append(place)
    # What is left, matched whole (text, check, record) in any order: the
    # batch may have added or removed lines above it.
    left: dict[tuple[str, str | None, str | None], int] = {}
    for i, task in enumerate(before):
        if not taken[i] and task.status is Status.COMPLETED:
            key = (task.content, task.meta.check, task.meta.checked)
            left[key] = left.get(key, 0) + 1
    out = []
    for place in candidates:
        node = nodes[place]
        if not node.meta.check:
            continue
        key = (node.content, node.meta.check, node.meta.checked)
        if (place, node.content, node.meta.check) not in ran and left.get(key, 0) > 0:
            left[key] -= 1
            continue
        out.append(place)
    return out
