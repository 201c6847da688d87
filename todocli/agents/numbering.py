"""Ids todo gives new tasks of tools that number them itself (Claude Code's
``TaskCreate``: the highest id ever used + 1, never given again once its task is
deleted, its ``.highwatermark``)."""

from __future__ import annotations

from todocli.base import TYPE_CHECKING
from todocli.document.model import Meta, id_number
from todocli.engine.ops import Op, OpKind

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

# Where state.json keeps the highest task id todo ever gave or saw (per list).
MARK_KEY = "task_id_mark"


def number_new_tasks(
    ops: Sequence[Op], ids: Iterable[str | None], mark: int
) -> tuple[list[Op], int]:
    """Claude Code's ids: a new task gets the highest id ever used + 1, so an id is
    never given again once its task is deleted (its ``.highwatermark``). ``ids`` are
    the list's ids before the batch and ``mark`` the highest one seen until now;
    returns the ops with each new task's id filled in, and the new mark."""
    top = max([mark, *(n for n in map(id_number, ids) if n is not None)])
    out: list[Op] = []
    for op in ops:
        if op.kind is not OpKind.WRITE or not op.merge or not op.todos:
            out.append(op)
            continue
        items = []
        for item in op.todos:
            given = item.given or frozenset()
            meta = item.meta or Meta()
            if "new_id" in given:
                top += 1
                meta = meta.replace(id=str(top))
                item = item.replace(meta=meta, given=given - {"new_id"})
            elif "content" in given:  # created with the tool's own id (a hook's result)
                top = max(top, id_number(meta.id) or 0)
            items.append(item)
        out.append(op.replace(todos=tuple(items), merge=True))
    return out, top


def moves_the_mark(ops: Sequence[Op]) -> bool:
    """Whether a batch creates or deletes tasks by id, which may move the id
    high-water mark (state.json is read only then)."""
    for op in ops:
        for item in (op.todos or ()) if op.merge else ():
            given = item.given or frozenset()
            if "new_id" in given or "delete" in given:
                return True
            if "content" in given and id_number(item.meta.id if item.meta else None) is not None:
                return True
    return False
