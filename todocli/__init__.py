"""todocli: a markdown todo checklist for coding agents and the people beside them.

The library API is small: ``loads`` reads markdown into a ``Document`` (lossless:
``dumps(loads(text)) == text`` for every string) and ``dumps`` writes a document,
or a plain ``TodoList`` in the canonical form, back to text.
"""

from __future__ import annotations

from todocli.document.markdown import Document, parse, render_canonical
from todocli.document.model import Phase, Status, Task, TodoList

__all__ = ["Document", "Phase", "Status", "Task", "TodoList", "dumps", "loads"]


def loads(text: str) -> Document:
    """Read a markdown checklist. Never fails: odd lines stay text, with warnings.

    The result's ``model()`` gives the summary, phases and tasks as plain values;
    ``warnings`` lists lines that look like tasks but are not.
    """
    return parse(text)


def dumps(todo_list: Document | TodoList) -> str:
    """Write a list as markdown.

    A ``Document`` is written back exactly as read, plus its edits; a ``TodoList``
    (a list made from data) is written in the canonical form.
    """
    if isinstance(todo_list, Document):
        return todo_list.text()
    return render_canonical(todo_list)
