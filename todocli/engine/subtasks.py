"""How a plan's tree and names bear on an op: the tasks a name other than a text
names (the plan's own id, a heading path), the refusal of a name several tasks
fit, and the parents a batch completes with their subtasks.

Loaded only for a name no single task's text matches, and for a plan whose tasks
may nest (``edits.parents``).
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING
from todocli.document.model import Status
from todocli.document.tree import plan_id, with_id
from todocli.escapes import quoted

if TYPE_CHECKING:
    from todocli.document.markdown import TaskNode
    from todocli.engine.ops import Engine


def by_name(engine: Engine, ref: str) -> list[TaskNode]:
    """The tasks a name other than a text names: the plan's own id (``T019``,
    ``1.1``), or a heading path, ``PHASE/TASK`` (the task by its text or its id)."""
    doc = engine.doc
    wanted = plan_id(ref + "." if ref.isascii() and ref.isdigit() else ref)  # "1" names "1."
    if wanted is not None and wanted == ref.rstrip(".):").strip("*_`"):
        found = with_id(doc.tasks(), wanted)
        if found:
            return found
    found = []
    cut = ref.find("/")
    while cut > 0 and not found:
        name, rest = ref[:cut].strip(), ref[cut + 1 :].strip()
        wanted = plan_id(rest)
        for phase in doc.phase_named(name):
            found += [
                t
                for t in phase.tasks
                if t.content == rest or (wanted is not None and plan_id(t.content) == wanted)
            ]
        cut = ref.find("/", cut + 1)
    return found


_CANDIDATES = 3  # how many tasks an ambiguous name's refusal lists


def ambiguous(engine: Engine, ref: str, nodes: list[TaskNode]) -> str:
    """One line: the tasks a name fits, the first few by number and heading."""
    number = {node: n for n, node in enumerate(engine.numbering, 1) if node is not None}
    shown = [
        f"#{number[t]}" + (f" ({_clip(t.phase.name)})" if t.phase is not None else "")
        for t in nodes[:_CANDIDATES]
        if t in number
    ]
    more = f" and {len(nodes) - len(shown)} more" if len(nodes) > len(shown) else ""
    return (
        f"{len(nodes)} tasks are named {quoted(_clip(ref.strip()))}: {', '.join(shown)}{more}; "
        "name one by #N or PHASE/TASK (see: todo show)"
    )


def _clip(name: str, most: int = 60) -> str:
    return name if len(name) <= most else name[: most - 1] + "…"


def roll_up(engine: Engine, nodes: list[TaskNode], above: list[int | None]) -> None:
    """A parent whose subtasks are all closed (one at least completed) by this
    batch is completed too, and so on up (the reply names it with the tasks completed)."""
    place = {node: i for i, node in enumerate(nodes)}
    children: dict[int, list[int]] = {}
    for k, of in enumerate(above):
        if of is not None:
            children.setdefault(of, []).append(k)
    for node in list(engine.closed):
        at = place.get(node)
        up = above[at] if at is not None else None
        while up is not None:
            parent, kids = nodes[up], [nodes[k] for k in children[up]]
            if parent.status not in (Status.PENDING, Status.IN_PROGRESS):
                break
            if any(k.status.is_open and not k.optional for k in kids):
                break
            if not any(k.status is Status.COMPLETED for k in kids):
                break
            engine.set_status(parent, Status.COMPLETED)
            up = above[up]
