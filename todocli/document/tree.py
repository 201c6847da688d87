"""A plan's own shape: the ids its tasks carry and which task is whose subtask.

A task's id is the leading token of its text when that token has the shape plans
give ids: letters then a number with dotted or dashed parts (``T019``, ``P11-5``,
``US1``), a dotted number (``1.1``, ``17.2.3``), or a number closed by ``.`` or
``)`` (Kiro's ``1.``, read as ``1``); bold or code marks around it are not part of
it. A subtask is a task inside the item of the task above it (indented to its
content, in the same phase, as GitHub nests list items), or
one whose dotted id extends the id of a task above it (``17.1`` under ``17.``),
which is how flat numbering nests.

Loaded only for a plan whose tasks are indented or numbered, and for a name that
no task's text matches.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING
from todocli.document.model import Phase, TodoList
from todocli.document.segments import TaskNode

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from todocli.document.markdown import Document

_MARKS = "*_`"
_LETTERS = 4  # the most letters an id's prefix has (``T``, ``US``, ``TASK``)
_ID_CHARS = 24  # the longest token read as an id


def plan_id(content: str) -> str | None:
    """The id the plan gives a task in the leading token of its text, or None."""
    token = content.split(None, 1)[0] if content and not content[0].isspace() else ""
    token = token.strip(_MARKS)
    closed = token[-1:] in (".", ")", ":")
    token = token.rstrip(".):").strip(_MARKS)
    if not token or len(token) > _ID_CHARS or not token.isascii():
        return None
    letters = len(token) - len(token.lstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    number = token[letters:]
    if letters > _LETTERS or not number[:1].isdigit():
        return None
    parts = number.replace("-", ".").split(".")
    if not all(p.isdigit() for p in parts):
        return None
    if letters == 0 and len(parts) == 1 and not closed:
        return None  # "3 files to move": a count, not an id
    if letters == 0 and "-" in number:
        return None  # a date or a range, not an id
    return token


def with_id(nodes: Iterable[TaskNode], wanted: str) -> list[TaskNode]:
    """The tasks whose text starts with the plan's id ``wanted``: each first looked
    at with one string method (a name on a plan of thousands of tasks asks
    ``plan_id`` of the few that may have it, not of all)."""
    return [
        node
        for node in nodes
        if node.content.lstrip(_MARKS).startswith(wanted) and plan_id(node.content) == wanted
    ]


def parents(nodes: Sequence[TaskNode]) -> list[int | None]:
    """Each task's parent as its index in ``nodes`` (None: a top-level task)."""
    found: list[int | None] = []
    stack: list[tuple[int, int]] = []  # (content column, index) of the items still open above
    ids: dict[str, int] = {}  # the last task of each id in this phase
    phase = None
    for i, node in enumerate(nodes):
        if node.phase is not phase:
            phase, stack, ids = node.phase, [], {}
        width = min(
            len(node.indent.expandtabs(4)), _least_indent(node, nodes[i - 1] if i else None)
        )
        while stack and stack[-1][0] > width:  # not in that item's content: not its subtask
            stack.pop()
        width = len(node.indent.expandtabs(4))
        parent = stack[-1][1] if stack else None
        own = plan_id(node.content)
        if own is not None and "." in own:
            above = ids.get(own.rsplit(".", 1)[0])
            if above is not None and (parent is None or above > parent):
                parent = above
        found.append(parent)
        stack.append((width + node.width(), i))
        if own is not None:
            ids[own] = i
    return found


def _least_indent(node: TaskNode, before: TaskNode | None) -> int:
    """The least indentation of the other lines between two tasks (a line that is
    not indented to an item's content ends that item)."""
    least = 1 << 30
    seg = node.prev
    while seg is not None and seg is not before:
        if not isinstance(seg, TaskNode):
            for line in seg.lines:
                text = line.expandtabs(4)
                body = text.lstrip(" ")
                if body.strip():
                    least = min(least, len(text) - len(body))
        seg = seg.prev
    return least


def nested_model(doc: Document) -> TodoList:
    """``Document.model`` for a plan with subtasks: each task knows its parent's #N."""
    nodes = list(doc.tasks())
    up = {node: n + 1 for node, n in zip(nodes, parents(nodes), strict=True) if n is not None}
    return TodoList(
        summary=doc.summary,
        phases=tuple(
            Phase(
                p.name,
                tuple(t.task() if t not in up else t.task().replace(parent=up[t]) for t in p.tasks),
            )
            for p in doc.phases
            if p.tasks
        ),
    )


_COPIES_NAMED = 3  # how many duplicate texts the warning names


def duplicates_warning(doc: Document) -> str:
    """One line, however many tasks repeat a text: how many, the first few (a plan
    may repeat "Commit" in every part; a text names none of them, see ``edits.task``)."""
    seen: set[str] = set()
    copies = []
    for node in doc.tasks():
        if node.content in seen:
            copies.append(node)
        seen.add(node.content)
    named = [
        f'"{t.content if len(t.content) <= 40 else t.content[:39] + "…"}" (line {t.line_no})'
        for t in copies[:_COPIES_NAMED]
    ]
    more = f" and {len(copies) - len(named)} more" if len(copies) > len(named) else ""
    return (
        f"{len(copies)} {'task repeats' if len(copies) == 1 else 'tasks repeat'} the text "
        f"of a task above: {', '.join(named)}{more}; "
        "name such a task by #N, its plan's id or PHASE/TASK"
    )
