"""The project's backlog beside an agent session's plan.

In a repository with a project plan (``TODO.md``, the person's backlog), an agent
session keeps its own steps in its own plan (a session list: see
``storage.agent_sessions``). The two are connected by ownership: a backlog
task the agent takes (``todo --project claim TASK`` or ``start``: its owner is the
plan's name) is part of its plan until it is closed or given back, so the stop
gate and the plan put back after a compaction name it. The rest of the backlog is
not the agent's: nothing it sends may replace it or remove a task it did not take
(``refuse_agent_removal``).
"""

from __future__ import annotations

import os
from collections import Counter

from todocli.base import TYPE_CHECKING
from todocli.document.markdown import parse
from todocli.document.model import Status
from todocli.engine.ops import OpKind
from todocli.errors import InvalidParamError
from todocli.storage.paths import plan_outside, project_plan

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from todocli.document.model import Task, TodoList
    from todocli.engine.ops import Op


def held(plan: str, start: str, env: Mapping[str, str], home: str) -> list[Task]:
    """The open tasks of the backlog of the work tree around ``start`` that the
    agent session whose plan is ``plan`` holds (none when there is no backlog, or
    it cannot be read: the gate never fails on it)."""
    found = project_plan(start, env, home)
    if found is None or plan_outside(found) is not None or not os.path.isfile(found):
        return []
    try:
        with open(found, encoding="utf-8") as handle:
            todo = parse(handle.read(1 << 24)).model()
    except (OSError, UnicodeDecodeError):
        return []
    return [t for _, t in todo.tasks() if t.status.is_open and t.meta.owner == plan]


def refuse_replacing(ops: Sequence[Op]) -> None:
    """An agent session does not replace the project's backlog (``init``, a whole
    snapshot): the backlog is the person's."""
    if any(op.kind is OpKind.INIT or (op.kind is OpKind.WRITE and not op.merge) for op in ops):
        raise InvalidParamError(
            "the project's backlog (TODO.md) is the person's: an agent session adds to it "
            "and takes tasks from it (todo --project claim TASK), never replaces it; "
            "plan in your own list: todo init TASK..."
        )


def refuse_removal(before: TodoList, after: TodoList, agent: str) -> None:
    """Nor does it remove, drop or clear a backlog task it did not take."""

    def kept(todo: TodoList, *, only_theirs: bool) -> Counter[str]:
        return Counter(
            t.content
            for _, t in todo.tasks()
            if t.status is not Status.ABANDONED and not (only_theirs and t.meta.owner == agent)
        )

    gone = kept(before, only_theirs=True) - kept(after, only_theirs=False)
    if gone:
        names = "; ".join(sorted(gone))
        raise InvalidParamError(
            "the project's backlog (TODO.md) is the person's: an agent session may not "
            f"remove or drop a task it did not take ({names}); finish it, block it, or leave it"
        )
