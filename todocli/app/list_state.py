"""What a write keeps in state.json besides the list itself: the completion log
(which closed tasks are logged, the log's name and count), the high-water mark of
task ids, and when each closed task closed (for ``clear_delay``). The write
transaction loads it only when a batch needs one of them: an everyday write of
one agent needs none."""

from __future__ import annotations

import os

from todocli.base import TYPE_CHECKING
from todocli.document.model import Phase, TodoList, id_number

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from datetime import datetime
    from typing import Any

    from todocli.app import Context
    from todocli.document.markdown import Document
    from todocli.document.model import Result
    from todocli.engine.ops import Op
    from todocli.storage.store import Store


LOGGED_KEY = "logged_closed"  # state.json: closed tasks of a finished list logged already


def to_log(state: dict[str, Any], result: Result) -> TodoList | None:
    """What this write adds to the completion log: the closed tasks a snapshot left
    out, unless the list they were in was logged when it finished (each is logged
    once), and the list, when this write finishes it. None: nothing."""
    logged = state.get(LOGGED_KEY)
    logged = {c for c in logged if isinstance(c, str)} if isinstance(logged, list) else set()
    left = result.left.phases if result.left is not None else ()
    if logged:
        left = tuple(
            Phase(p.name, tuple(t for t in p.tasks if t.content not in logged)) for p in left
        )
        left = tuple(p for p in left if p.tasks)
    finished = result.completed
    still = {t.content for _, t in result.new.tasks() if not t.status.is_open}
    if finished is not None and not result.wiped:
        logged = still  # the finished list stays: its tasks are in the log now
    if logged & still:
        state[LOGGED_KEY] = sorted(logged & still)
    else:
        state.pop(LOGGED_KEY, None)
    if not left and finished is None:
        return None
    phases = left + (finished.phases if finished is not None else ())
    summary = finished.summary if finished is not None else result.old.summary
    return TodoList(summary=summary, phases=phases)


def with_new_ids(
    store: Store, doc: Document, ops: Sequence[Op], state: dict[str, Any]
) -> tuple[Sequence[Op], dict[str, Any]]:
    """New tasks' ids above every id this list ever had: the high-water mark is
    kept in state.json, so it outlives a deleted task and a hand edit, and it is
    written (or taken back) with the list."""
    from todocli.agents.numbering import MARK_KEY, moves_the_mark, number_new_tasks

    if not moves_the_mark(ops):
        return ops, state
    state = state or store.state()
    mark = id_mark(state)
    numbered, top = number_new_tasks(ops, (n.meta.id for n in doc.tasks()), mark)
    if top != mark:
        state[MARK_KEY] = top
    return numbered, state


def id_mark(state: dict[str, Any]) -> int:
    from todocli.agents.numbering import MARK_KEY

    mark = state.get(MARK_KEY)
    if isinstance(mark, bool) or not isinstance(mark, int) or mark < 0:
        return 0  # missing or damaged: the list's own ids still count
    return mark


def raise_id_mark(state: dict[str, Any], todo: TodoList) -> None:
    """Ids ``--after`` gave count towards the high-water mark too."""
    from todocli.agents.numbering import MARK_KEY

    ids = [t.meta.id for _, t in todo.tasks() if t.meta.id]
    top = max([id_mark(state), *(n for n in map(id_number, ids) if n is not None)])
    if top:
        state[MARK_KEY] = top


def log_step(
    ctx: Context, state: dict[str, Any], completed: TodoList, now: datetime
) -> tuple[str, Callable[[], Callable[[], None]]]:
    """The completion log's path, and the step of the write that appends to it."""
    from todocli.storage.memory import append_block, completion_block, log_name

    name = state.get("log")
    # state.json may have been damaged: only a plain file name is a log's name, and
    # only a whole number a count (anything else starts afresh).
    if not isinstance(name, str) or not name or os.sep in name or name in (".", ".."):
        name = log_name(now)
    count = state.get("completions")
    number = (
        count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 0
    ) + 1
    path = os.path.join(ctx.loc.memory_dir, name)
    block = completion_block(number, now, completed)
    state["log"], state["completions"] = name, number
    ctx.store.journal_append(path)  # cut back to its length before if the list does not land
    return path, lambda: append_block(path, block)


def expired_tasks(state: dict[str, Any], delay: float, now: datetime) -> set[str]:
    if delay < 0:
        return set()
    closed = state.get("closed_at")
    if not isinstance(closed, dict):
        return set()
    from datetime import datetime

    expired = set()
    for content, stamp in closed.items():
        try:
            if (now - datetime.fromisoformat(stamp)).total_seconds() >= delay:
                expired.add(content)
        except (TypeError, ValueError):
            continue
    return expired


def track_closed(state: dict[str, Any], todo: TodoList, now: datetime) -> None:
    """Remember when each closed task closed, for ``clear_delay``."""
    before = state.get("closed_at")
    before = before if isinstance(before, dict) else {}
    state["closed_at"] = {
        t.content: before.get(t.content, now.isoformat())
        for _, t in todo.tasks()
        if not t.status.is_open
    }
