"""A write of a whole text in place of the list (an undo, a redo, a person's edit,
the board's edit): ``read`` and ``settle`` of the write transaction
(``app.transaction``), then its own commit, under the list's lock. Only those
commands load it: an agent's write pays for none of it.
"""

from __future__ import annotations

from todocli.app import transaction
from todocli.base import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from todocli.app import Context
    from todocli.app.transaction import Read


class Replacement:
    """A plan that puts a whole text in place of the list (an undo, a redo, a
    person's edit) instead of the engine's batch: the text, and the state to write
    with it (None: the state stays as it is)."""

    __slots__ = ("state", "text")

    def __init__(self, text: str, state: dict[str, Any] | None = None) -> None:
        self.text = text
        self.state = state


def replace_text(ctx: Context, choose: Callable[[Read], Replacement]) -> tuple[Read, int]:
    """The write of a whole text: ``read``, ``settle`` and the commit under the lock,
    as every batch's, with the text ``choose`` makes of the list as read for its plan
    (it may refuse: its error leaves everything as it was). The list as read, edited
    by hand since todo's last write, becomes a revision of its own first. Returns the
    list as read and the new revision.

    A save that races the replace is not written over, and the text is not chosen
    again from it (an undo would then take back the person's save rather than what
    it was asked to): the replace is refused (``ListChangedError``, exit 4), the
    save left on disk."""
    with ctx.store.locked():
        # Through the module: its steps are the transaction's, as a batch's are.
        seen = transaction.settle(ctx, transaction.read(ctx), (), whole=True)
        return seen, commit_text(ctx, seen, choose(seen))


def commit_text(ctx: Context, seen: Read, chosen: Replacement) -> int:
    """Write a whole text over the list as read (see ``transaction.commit``): the list a person
    edited becomes a revision of its own first. Returns the new revision."""
    store = ctx.store
    hand = store.hand_edit(seen.text, seen.rev, seen.last)
    person_near = hand is not None or store.person_near()
    rev = store.commit(
        chosen.text, chosen.state, person_near=person_near, hand=hand, agent=ctx.agent
    )
    if hand is not None:
        store.saw_person()  # edited by hand: the person may save again at any moment
    return rev
