"""When each agent last wrote a list, kept in the list's state (``state.json``,
written in the same transaction as the list): what tells a live claim from a stale
one. A claim whose agent has not written for ``claim_timeout`` is released by the
next ``todo claim`` of another agent.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING
from todocli.document.model import Status

if TYPE_CHECKING:
    from collections.abc import Sequence
    from datetime import datetime
    from typing import Any

    from todocli.document.markdown import Document
    from todocli.document.model import TodoList
    from todocli.engine.ops import Op

KEY = "agents"  # state.json: agent name -> ISO time of its last write


def _seen(state: dict[str, Any]) -> dict[str, Any]:
    seen = state.get(KEY)
    if not isinstance(seen, dict):
        seen = {}
        state[KEY] = seen
    return seen


def _idle(stamp: object, now: datetime) -> float | None:
    from datetime import datetime

    if not isinstance(stamp, str):
        return None
    try:
        return (now - datetime.fromisoformat(stamp)).total_seconds()
    except (TypeError, ValueError):
        return None  # damaged by hand: as if never seen


def stale_claims(
    state: dict[str, Any],
    doc: Document,
    agent: str,
    now: datetime,
    timeout: float,
    ops: Sequence[Op],
) -> dict[str, float]:
    """The agents holding tasks in progress whose claims have lapsed, with the
    seconds since each wrote; only a claim looks. An owner with no write on
    record (typed by hand, or its record damaged) is on record from now: its claim
    lapses ``claim_timeout`` later, not at once."""
    from todocli.engine.ops import OpKind

    if not any(op.kind is OpKind.CLAIM for op in ops):
        return {}
    seen = _seen(state)
    stale: dict[str, float] = {}
    for node in doc.tasks():
        owner = node.meta.owner
        if node.status is not Status.IN_PROGRESS or owner is None or owner == agent:
            continue
        idle = _idle(seen.get(owner), now)
        if idle is None:
            seen[owner] = now.isoformat()
        elif idle >= timeout:
            stale[owner] = idle
    return stale


def record_write(
    state: dict[str, Any], agent: str, now: datetime, todo: TodoList, timeout: float
) -> None:
    """Note this agent's write; forget agents that hold nothing and have been idle
    past the timeout (the state stays small on a plan many agents pass through)."""
    seen = _seen(state)
    holding = {t.meta.owner for _, t in todo.tasks() if t.status is Status.IN_PROGRESS}
    for name in list(seen):
        idle = _idle(seen[name], now)
        if name not in holding and (idle is None or idle >= timeout):
            del seen[name]
    seen[agent] = now.isoformat()
