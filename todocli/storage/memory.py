"""The completion log (``todo log``): a block appended when a list is finished.

``<memory-dir>/todoList-YYYYMMDD-HHMMSS.md``, one file per session, named by the
time of its first completion and reused afterwards; each completion appends::

    # task3-20261121-174233

    Summary: Fix multi_edit overlap detection

    [3/4] Completed:
    - Reproduce the bug

    [1/4] Cancelled:
    - ~~Benchmark script~~

Earlier blocks are never rewritten.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING
from todocli.document.model import Status, TodoList
from todocli.storage.files import ENCODING_ERRORS, append

if TYPE_CHECKING:
    from collections.abc import Callable
    from datetime import datetime


def log_name(when: datetime) -> str:
    return f"todoList-{when:%Y%m%d-%H%M%S}.md"


def completion_block(number: int, when: datetime, todo: TodoList) -> str:
    """The markdown block for the ``number``-th completion in a session."""
    tasks = [t for _, t in todo.tasks()]
    total = len(tasks)
    lines = [f"# task{number}-{when:%Y%m%d-%H%M%S}", ""]
    if todo.summary:
        lines += [f"Summary: {todo.summary}", ""]
    completed = [t for t in tasks if t.status is Status.COMPLETED]
    cancelled = [t for t in tasks if t.status is Status.ABANDONED]
    if completed:
        lines.append(f"[{len(completed)}/{total}] Completed:")
        for task in completed:
            lines.append(f"- {task.content}")
            meta = task.meta
            if meta.check:  # what proves it done, as the task keeps it
                lines.append(f"  - check: `{meta.check}`: {meta.checked or 'never ran'}")
            if meta.evidence:
                lines.append(f"  - evidence: {meta.evidence}")
            for k, note in enumerate(task.notes):
                if k:
                    lines.append("  >")
                lines.extend(f"  > {part}" for part in note.split("\n"))
        lines.append("")
    if cancelled:
        lines.append(f"[{len(cancelled)}/{total}] Cancelled:")
        lines.extend(f"- ~~{task.content}~~" for task in cancelled)
        lines.append("")
    return "\n".join(lines)


def append_block(path: str, block: str) -> Callable[[], None]:
    """Append a block, with a blank line before it when the file has text already;
    return how to take the append back (a write that fails after it must leave the
    log as it was).

    Opened in append mode: earlier blocks are never rewritten.
    """
    return append(path, block.encode("utf-8", ENCODING_ERRORS), separator=b"\n")
