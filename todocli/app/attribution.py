"""Who made the changes a snapshot's merge kept (``Result.merged``): a person, or
another ``todo`` call, named by the revision it wrote, its command and its agent
(``Store.written_by``). Loaded only for a merge that kept something."""

from __future__ import annotations

from todocli.base import TYPE_CHECKING
from todocli.document.markdown import parse
from todocli.engine.merge import key, touched

if TYPE_CHECKING:
    from todocli.document.model import Result
    from todocli.storage.store import Store

LOOK_BACK = 20  # revisions read back at most for who made a change a merge kept


def attributed(
    store: Store, text: str, rev: int, last: str | None, result: Result, hand_rev: int | None
) -> Result:
    """The merge's changes, each with who made it: a person, when the list as read
    (``text``) differs from todo's last write there (``last``, revision ``rev``;
    recorded as revision ``hand_rev`` by this write, None: not recorded); else the
    latest revision that made it, by the command and agent that wrote it, or by
    hand (``Store.by_hand``). A change older than the revisions looked at is told
    as an earlier one."""
    merged = result.merged
    who: dict[str, tuple[int | None, str | None, str | None]] = {}
    after = result.old
    if last != text and (last is not None or not rev):
        before = parse(last or "").model()
        who = dict.fromkeys(touched(merged, before, after), (hand_rev, None, None))
        after = before
    hand = store.by_hand()
    at = rev if last is not None else 0
    wanted = {key(m) for m in merged}
    while at > max(0, rev - LOOK_BACK) and not wanted <= who.keys():
        kept = store.revision(at - 1) if at > 1 else ""
        if kept is None:
            break
        before = parse(kept).model()
        found = touched(merged, before, after) - who.keys()
        if found:
            by = (None, None) if at in hand else store.written_by(at)
            who.update(dict.fromkeys(found, (at, *by)))
        after, at = before, at - 1
    told = []
    for m in merged:
        made_in, command, agent = who.get(key(m), (None, "", None))
        told.append(m.replace(rev=made_in, command=command, agent=agent))
    return result.replace(merged=tuple(told))
