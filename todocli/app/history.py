"""Revisions: every successful write is one. ``todo history`` lists them, ``todo
diff`` shows a change, ``todo undo`` restores the revision before (as a new one)."""

from __future__ import annotations

import difflib
import os
from datetime import datetime

from todocli.app.commands import Context, Outcome, expect_rev
from todocli.app.report import Report
from todocli.document.blocks import split_lines
from todocli.document.markdown import parse
from todocli.document.model import Diff, Result
from todocli.errors import ConflictError, InvalidParamError


def history(ctx: Context) -> Report:
    store = ctx.store
    text = store.read()
    current, last = store.last_written(text)
    revs = store.revisions()
    if current and current not in revs:
        revs.append(current)  # written, its copy still pending (its writer was stopped)
    edited = last is not None and last != text
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
        marker = "  (current)" if rev == current else ""
        lines.append(f"#{rev}  {when}  {recap}{marker}")
        rows.append({"rev": rev, "time": when, "recap": recap, "current": rev == current})
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
    """Restore the revision before the current one, as a new revision. Undo again
    to go further back. Refuses to discard hand edits made since the last write
    unless forced."""
    store = ctx.store
    with store.locked():
        state = store.state()
        text = store.read()
        store.recover(text)
        current = store.rev()
        expect_rev(ctx, current)
        last = store.revision(current) if current else None
        if last is not None and last != text and not force:
            raise ConflictError(
                "the list was edited by hand since the last write; undo would discard "
                "that edit (see: todo diff). Use todo undo --force to undo anyway"
            )
        base = state.get("undo_base")
        target = (base if isinstance(base, int) and state.get("undone") == current else current) - 1
        if target < 0:
            raise InvalidParamError("nothing to undo: this list has no earlier revision")
        restored = store.revision(target) if target > 0 else ""
        if restored is None:
            raise InvalidParamError(f"revision #{target} is no longer kept; nothing was undone")
        old, new = parse(text).model(), parse(restored).model()
        state["undo_base"], state["undone"] = target, current + 1
        rev = store.commit(restored, state)
    result = Result(old=old, new=new, written=True, diff=Diff.between(old, new))
    outcome = ctx.outcome(new, rev, result=result)
    outcome.notices.append(f"Restored revision #{target} (now #{rev}).")
    return outcome
