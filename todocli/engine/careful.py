"""The careful pass: each edit that adds, moves or removes lines is re-read at
once, and undone and placed another way when the file reads wrong.

An edit that adds, moves or removes lines can change how the lines around it
read: an open HTML block or code fence swallows a new line, a new item takes in
the indented lines after it, an item that may not interrupt a paragraph joins it
once the item before it is gone. So the document is re-read after the batch and
must read as the list meant (``Engine.reads_as``). When it does not, the batch is
done again in a careful pass: each such edit is re-read at once, and if it reads
wrong it is undone and made with the next placement its primitive offers; when
none works the op fails with a clear error and nothing of it is written. The
first pass stays linear; only a file that needs it pays for re-reading after each
edit, and only it loads this module.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING
from todocli.document.markdown import Document, TaskNode, parse
from todocli.engine import OpFailure
from todocli.errors import InternalError

if TYPE_CHECKING:
    from collections.abc import Callable

    from todocli.engine.ops import Engine

MISREAD = (
    "This edit would change how the rest of the file reads (an odd list structure, "
    "or unclosed code or HTML near the edit), so nothing was written. Edit the file "
    "by hand (todo edit)."
)


def edit(engine: Engine, change: Callable[[], None], placements: int) -> None:
    """Make an edit and keep it only if the file reads as the edit meant, trying
    each placement in turn."""
    for placement in range(placements):
        before = checkpoint(engine)
        engine.placement = placement
        try:
            change()
        except OpFailure:
            rollback(engine, before)
            raise
        finally:
            engine.placement = 0
        engine.doc.reindex()
        if engine.reads_as(engine.doc.model()):
            return
        rollback(engine, before)
    raise OpFailure(MISREAD)


def _first_task(doc: Document) -> TaskNode | None:
    """The first task, found without listing them all (a wipe asks once a removal)."""
    return next((task for phase in doc.phases for task in phase.tasks), None)


def wipe(engine: Engine, placements: int) -> bool:
    """Remove every task, each removal checked; a task that cannot be removed
    cleanly keeps the whole list as it is (False)."""
    before = checkpoint(engine)

    def remove_first() -> None:
        first = _first_task(engine.doc)
        if first is not None:
            engine.remove(first)

    try:
        while _first_task(engine.doc) is not None:
            edit(engine, remove_first, placements)
    except OpFailure:
        rollback(engine, before)
        return False
    return True


class Checkpoint:
    """What the careful pass needs to undo an edit."""

    __slots__ = ("active", "dropped", "nodes", "numbering", "text")

    def __init__(
        self,
        text: str,
        nodes: list[TaskNode],
        numbering: list[TaskNode | None],
        active: list[TaskNode],
        dropped: int,
    ) -> None:
        self.text = text
        self.nodes = nodes  # the document's task nodes in line order
        self.numbering = numbering
        self.active = active
        self.dropped = dropped


def checkpoint(engine: Engine) -> Checkpoint:
    nodes = [s for s in engine.doc.segments() if isinstance(s, TaskNode)]
    return Checkpoint(
        engine.doc.text(),
        nodes,
        list(engine.numbering),
        list(engine.active),
        len(engine.dropped_open),
    )


def rollback(engine: Engine, to: Checkpoint) -> None:
    """Undo an edit: read the text back and follow the tasks to their new nodes."""
    engine.doc = parse(to.text)
    engine.doc.own = engine.doc.own or engine.batch.own
    nodes = [s for s in engine.doc.segments() if isinstance(s, TaskNode)]
    if len(nodes) != len(to.nodes):
        raise InternalError("Undoing an edit lost track of the tasks")
    moved = dict(zip(to.nodes, nodes, strict=True))
    engine.numbering = [None if n is None else moved.get(n) for n in to.numbering]
    engine.active = {moved[n]: None for n in to.active if n in moved}
    del engine.dropped_open[to.dropped :]
