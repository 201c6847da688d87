"""Revisions: every successful write is one, and so is the list as a person left
it before a write replaced it. ``todo history`` lists them, ``todo diff`` shows a
change, ``todo undo`` restores the revision before (as a new one), ``todo redo``
takes an undo back."""

from __future__ import annotations

import difflib
import os
from datetime import datetime

from todocli.app.commands import Context, Outcome, expect_rev
from todocli.app.replacement import Replacement, replace_text
from todocli.app.report import Report
from todocli.base import TYPE_CHECKING
from todocli.document.blocks import split_lines
from todocli.document.markdown import parse
from todocli.document.model import Diff, Result
from todocli.errors import InvalidParamError

if TYPE_CHECKING:
    from typing import Any

    from todocli.app.transaction import Read


def history(ctx: Context) -> Report:
    store = ctx.store
    text = store.read()
    current, last = store.last_written(text)
    revs = store.revisions()
    if current and current not in revs:
        revs.append(current)  # written, its copy still pending (its writer was stopped)
    edited = last is not None and last != text
    hand = store.by_hand()
    rows: list[dict[str, object]] = []
    lines = []
    if revs and edited:
        lines.append(f"(edited by hand since #{current}; see: todo diff)")
    for rev in reversed(revs):
        body = (text if rev == current else store.revision(rev)) or ""
        try:
            stamp = os.path.getmtime(store.revision_path(rev))
            when = datetime.fromtimestamp(stamp).strftime("%Y-%m-%d %H:%M:%S")
        except OSError:
            when = "?"
        recap = parse(body).model().recap()
        # Who wrote it: a person, or the todo command (and its agent).
        command, agent = (None, None) if rev in hand else store.written_by(rev)
        by = "by hand" if command is None else command + (f", agent {agent}" if agent else "")
        marker = f"  ({by})" + ("  (current)" if rev == current else "")
        lines.append(f"#{rev}  {when}  {recap}{marker}")
        rows.append(
            {
                "rev": rev,
                "time": when,
                "recap": recap,
                "current": rev == current,
                "by_hand": rev in hand,
                "command": command,
                "agent": agent,
            }
        )
    out = "\n".join(lines) + "\n"
    if not revs:
        out = "No revisions yet: nothing has been written to this list.\n"
    data = {"revisions": rows, "edited_by_hand": bool(revs) and edited}
    return _about(ctx, data, out, current)


def _about(ctx: Context, data: dict[str, object], text: str, rev: int) -> Report:
    session = ctx.loc.session if ctx.loc.is_session else None
    return Report(data, text, session=session, file=ctx.loc.list_file, rev=rev)


def diff(ctx: Context, rev: int | None = None) -> Report:
    """``todo diff``: hand edits since the last write, else the last write's change;
    ``todo diff REV``: what revision REV changed."""
    store = ctx.store
    text = store.read()
    current, last = store.last_written(text)
    if rev is None:
        if last is not None and last != text:
            shown = _unified(last, text, f"#{current}", "the file now (edited by hand)")
            return _about(ctx, {"rev": None, "hand_edit": True, "diff": shown}, shown, current)
        rev = current
    if rev < 1 or rev > current:
        raise InvalidParamError(
            f"no revision #{rev} (this list is at #{current}; see: todo history)"
        )
    after = text if rev == current and last == text else store.revision(rev)
    before = store.revision(rev - 1) if rev > 1 else ""
    if after is None or before is None:
        raise InvalidParamError(f"revision #{rev} is no longer kept (see: todo history)")
    shown = _unified(before, after, f"#{rev - 1}", f"#{rev}")
    return _about(ctx, {"rev": rev, "hand_edit": False, "diff": shown}, shown, current)


def _unified(before: str, after: str, old: str, new: str) -> str:
    # Lines as the markdown reader splits them: str.splitlines would also break at
    # U+2028, form feeds, ... and show a false "No newline" in the middle of a line.
    lines = list(difflib.unified_diff(split_lines(before), split_lines(after), old, new))
    if not lines:
        return "No changes.\n"
    return "".join(line if line.endswith("\n") else _ended(line) for line in lines)


def _ended(line: str) -> str:
    """A diff line whose file line had no LF: ended by a lone CR (shown as \\r and
    ended here), or the last line of a file without a final newline."""
    return line + ("\n" if line.endswith("\r") else "\n\\ No newline at end of file\n")


def undo(ctx: Context, *, force: bool = False) -> Outcome:
    """Put back the list as it was before the last change (a write, or a hand edit
    since the last write), as a new revision. Undo again to go further back through
    every state. A hand edit is recorded as a revision first, so undo never discards
    it (``todo redo`` brings it back): ``force`` is accepted and changes nothing."""
    del force
    return _step(ctx, back=True)


def redo(ctx: Context) -> Outcome:
    """Take the last undo back, as a new revision; again: the undo before it. Any
    other change since (a write, a hand edit) ends what can be redone."""
    return _step(ctx, back=False)


def _step(ctx: Context, *, back: bool) -> Outcome:
    """Undo or redo. The undo chain lives in state.json: ``undone``, the revision
    the last undo or redo wrote (the chain goes on only while the list is still
    that); ``undo_base``, the revision whose list it put back; ``redo``, the
    revisions the undos left, newest last."""
    store = ctx.store
    chosen: dict[str, Any] = {}

    def choose(seen: Read) -> Replacement:
        state = store.state()
        text, current = seen.text, seen.rev
        expect_rev(ctx, current)
        last = seen.last if current else ""
        edited = text != last  # a change since the last revision: recorded as one
        base, redo = state.get("undo_base"), state.get("redo")
        chain = not edited and state.get("undone") == current and isinstance(base, int)
        left = [r for r in redo if isinstance(r, int)] if chain and isinstance(redo, list) else []
        if back:
            at = base if chain and isinstance(base, int) else current + 1 if edited else current
            target = at - 1
            if target < 0:
                raise InvalidParamError("nothing to undo: this list has no earlier revision")
            if target == 0 and ((current == 0 and text) or 1 in store.by_hand()):
                # Revision 0 is the list before todo's first write; a file todo
                # found already there (revision 1, by hand) was never that.
                raise InvalidParamError(
                    "nothing to undo: this is the list as todo first found it (see: todo history)"
                )
            left.append(at)
        else:
            if not left:
                raise InvalidParamError(
                    "nothing to redo: no undo since the last change (see: todo history)"
                )
            target = left.pop()
        restored = store.revision(target) if target else ""
        if restored is None:
            word = "undone" if back else "redone"
            raise InvalidParamError(f"revision #{target} is no longer kept; nothing was {word}")
        current += store.hand_edit(text, current, seen.last) is not None
        state["undo_base"], state["undone"], state["redo"] = target, current + 1, left
        chosen.update(restored=restored, target=target, edited=edited, current=current)
        return Replacement(restored, state)

    seen, rev = replace_text(ctx, choose)
    target, edited, current = chosen["target"], chosen["edited"], chosen["current"]
    old, new = parse(seen.text).model(), parse(chosen["restored"]).model()
    result = Result(old=old, new=new, written=True, diff=Diff.between(old, new))
    outcome = ctx.outcome(new, rev, result=result)
    if edited:  # only an undo gets here with one: a redo after it has nothing to redo
        outcome.notices.append(
            f"The hand edit is kept as revision #{current} "
            f"(get it back with: {outcome.command('redo')})."
        )
    outcome.notices.append(f"Restored revision #{target} (now #{rev}).")
    return outcome
