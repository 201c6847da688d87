"""``todo __complete KIND``: what a shell's TAB offers (session names, or the tasks
or phases of the list the command line names), for the completion scripts."""

from __future__ import annotations

import os

from todocli.app.commands import Context
from todocli.app.report import Report
from todocli.base import is_session_name
from todocli.document.markdown import parse
from todocli.escapes import one_line
from todocli.storage.files import kind_of


def candidates(ctx: Context, kind: str) -> Report:
    """``sessions``, ``phases`` or ``tasks`` (anything else: tasks)."""
    if kind == "sessions":
        found = _sessions(os.path.join(ctx.loc.home, "sessions"))
    else:
        todo = parse(ctx.store.read()).model()
        if kind == "phases":
            found = [p.name for p in todo.phases]
        else:  # tasks: open ones first, as an agent or a person most often wants them
            tasks = [t for _, t in todo.tasks()]
            ordered = [t for t in tasks if t.status.is_open] + [
                t for t in tasks if not t.status.is_open
            ]
            found = [t.content for t in ordered]
    # One candidate a line, each escaped as one line: a tab would split a candidate
    # in fish (candidate<TAB>description), and a shell must never get raw controls.
    return Report({"candidates": found}, "".join(f"{one_line(c)}\n" for c in found))


def _sessions(folder: str) -> list[str]:
    """The names ``todo sessions`` would list."""
    try:
        names = sorted(n[:-3] for n in os.listdir(folder) if n.endswith(".md"))
    except OSError:
        return []

    def is_list(name: str) -> bool:
        try:
            mode = os.stat(os.path.join(folder, name + ".md")).st_mode
        except OSError:
            return False
        return is_session_name(name) and kind_of(mode) is None

    return [n for n in names if is_list(n)]
