"""The lists a board shows, read and changed through the same commands as the
command line (``todocli.app``): nothing here writes a file itself.

A list is named on the page by a key, ``session:NAME`` or ``project``, looked up
among the lists found in the home and the current work tree: no path a request
carries reaches the file system."""

from __future__ import annotations

import os
import threading

from todocli.app import commands, history
from todocli.app.commands import Context, Options, Outcome
from todocli.app.replacement import Replacement, replace_text
from todocli.app.transaction import Read
from todocli.app.wiring.gate import stale_evidence
from todocli.base import TYPE_CHECKING, is_session_name
from todocli.document.markdown import parse
from todocli.document.model import Diff, Status
from todocli.document.segments import unmerged_lines
from todocli.engine import OpFailure
from todocli.engine.edits import content
from todocli.errors import ConflictError, TodoError, UsageError
from todocli.storage.store import running

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from todocli.document.model import TodoList

PROJECT = "project"
SESSION = "session:"
ACTIONS = ("done", "start", "block", "unblock", "add", "note", "edit", "move", "undo", "redo")


class Shown:
    """One list as the page shows it: its key, title, file, list and revision, and
    who wrote that revision."""

    __slots__ = (
        "agent", "by", "file", "key", "mtime", "rev", "stale", "title", "todo", "warnings",
    )  # fmt: skip

    def __init__(
        self,
        key: str,
        title: str,
        file: str,
        todo: TodoList,
        rev: int,
        by: str,
        mtime: float,
        warnings: list[str],
        stale: dict[int, str] | None = None,
    ) -> None:
        self.key = key
        self.title = title
        self.file = file
        self.todo = todo
        self.rev = rev
        self.by = by
        self.mtime = mtime
        self.warnings = warnings
        self.stale = stale or {}  # a completed task's check, by its place from 0: why stale
        self.agent = ""  # the agent sessions whose plan it is: "claude in repo"


class Refused(Exception):
    """An action the board did not take, and why (the page is brought up to date)."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


NO_STATE_CHANGE = "no task added, removed or changed state"  # a note, a text, an order


class Board:
    """The lists of one home (its sessions) and the plan of the work tree the
    server was started in; one write at a time from this process."""

    def __init__(self, options: Options, env: Mapping[str, str] | None = None) -> None:
        self.options = options.replace(if_rev=None, base=None, session=None, file=None)
        self.env = dict(os.environ if env is None else env)
        self.home = Context(self.options.replace(project=False), self.env).loc.home
        self._write = threading.Lock()

    # -- which lists --------------------------------------------------------------------

    def sessions_dir(self) -> str:
        return os.path.join(self.home, "sessions")

    def listed(self) -> list[str]:
        """Every list to show: the sessions of the home by name, then the project plan."""
        try:
            names = sorted(os.listdir(self.sessions_dir()))
        except OSError:
            names = []
        keys = [SESSION + n[:-3] for n in names if n.endswith(".md") and is_session_name(n[:-3])]
        if self._project() is not None:
            keys.append(PROJECT)
        return keys

    def _project(self) -> Context | None:
        try:
            ctx = Context(self.options.replace(project=True), self.env)
        except TodoError:
            return None
        return ctx

    def context(self, key: str, **changes: object) -> Context:
        """The context of the list ``key`` names (refused unless the board shows it)."""
        if key not in self.listed():
            raise Refused("no such list on this board", 404)
        if key == PROJECT:
            options = self.options.replace(project=True, **changes)
        else:
            options = self.options.replace(session=key[len(SESSION) :], **changes)
        return Context(options, self.env)

    def files(self) -> dict[str, str]:
        """Each list's file, by key: what the watcher stats."""
        return {key: self.context(key).loc.list_file for key in self.listed()}

    # -- reading ------------------------------------------------------------------------

    def read(self, key: str) -> Shown:
        """The list as it is on disk now, with its revision. Unlike ``todo show``, it
        does not wait for a person's save under way to end: a page shows each state
        the file passes through, and the save's end is one more change it is sent
        (so a save shows within the watcher's period, not after the save pause)."""
        ctx = self.context(key)
        store = ctx.store
        text, rev = store.consistent_read()
        doc = parse(text)
        by = ""
        if rev:
            written = store.revision(rev)
            if written is not None and written != text:
                by = "by hand"  # edited since todo's last write
            elif rev in store.by_hand():
                by = "by hand"
            else:
                command, agent = store.written_by(rev)
                by = command + (f", agent {agent}" if agent else "")
        try:
            mtime = os.stat(ctx.loc.list_file).st_mtime
        except OSError:
            mtime = 0.0
        if key == PROJECT:
            title = f"Project plan ({os.path.basename(os.path.dirname(ctx.loc.list_file))})"
        else:
            title = key[len(SESSION) :]
        warnings = list(doc.warnings)
        conflicts = unmerged_lines(text)
        if conflicts:  # a git merge left both sides: the person resolves them
            lines = ", ".join(map(str, conflicts[:5]))
            warnings.insert(0, f"git's conflict markers (lines {lines}): resolve them in the file")
        todo = doc.model()
        shown = Shown(
            key, title, ctx.loc.list_file, todo, rev, by, mtime, warnings, _stale(ctx, todo)
        )
        if key != PROJECT:
            shown.agent = self._agents(key[len(SESSION) :])
        return shown

    def _agents(self, name: str) -> str:
        """Which hooked agent sessions have this list as their plan (their records
        under the home): "claude in repo", "gemini in repo, claude in site"."""
        from todocli.app.hooks import records

        found = []
        for record in records(self.home).values():
            if record.get("list") == name and isinstance(record.get("agent"), str):
                project = record.get("project")
                where = f" in {os.path.basename(project)}" if isinstance(project, str) else ""
                said = f"{record['agent']}{where}"
                if said not in found:
                    found.append(said)
        return ", ".join(found)

    def history(self, key: str) -> list[dict[str, object]]:
        """The list's revisions (``todo history``'s rows), each with ``changed``: what
        it changed from the revision before it, in a line (as a reply tells a
        person's edit)."""
        ctx = self.context(key)
        rows = history.history(ctx).data.get("revisions", [])
        if not isinstance(rows, list):
            return []
        from todocli.app.render import describe_diff

        store, before = ctx.store, None
        for row in sorted(rows, key=lambda r: int(r.get("rev") or 0)):
            kept = store.revision(int(row.get("rev") or 0))
            now = parse(kept).model() if kept is not None else None
            if now is not None and before is not None:
                row["changed"] = describe_diff(Diff.between(before, now)) or NO_STATE_CHANGE
            elif now is not None:
                row["changed"] = "the list as first kept"
            before = now
        return rows

    # -- acting -------------------------------------------------------------------------

    def act(self, key: str, action: str, task: str, text: str, rev: int) -> Outcome:
        """One action of the page, through the command line's own bodies: an action
        on a task names it by its text as the page showed it, so it applies to the
        list as it stands now (what changed meanwhile stays); a task that is gone or
        renamed, and an undo or redo of a list that moved on, are refused."""
        if action not in ACTIONS:
            raise Refused(f"unknown action {action!r}", 400)
        with self._write:
            running(f"todo serve {action}")  # each revision it writes records it
            try:
                outcome = self._act(key, action, task, text, rev)
            except ConflictError as error:
                raise Refused(error.message) from None
            except UsageError as error:
                raise Refused(error.message, 400) from None
            except TodoError as error:
                raise Refused(error.message) from None
        if outcome.failed:
            errors = outcome.result.errors if outcome.result is not None else ()
            message = "; ".join(e.message for e in errors) or "the action failed"
            raise Refused(message)
        return outcome

    def _act(self, key: str, action: str, task: str, text: str, rev: int) -> Outcome:
        if action in ("undo", "redo"):
            # What the page showed is what it takes back: else refused (--if-rev).
            ctx = self.context(key, if_rev=rev)
            return history.undo(ctx) if action == "undo" else history.redo(ctx)
        ctx = self.context(key)
        if action == "add":
            return commands.add(ctx, [_line(text, "a task")])
        if not task:
            raise Refused("which task? (none named)", 400)
        if action == "done":
            return commands.done(ctx, [task])
        if action == "start":
            return commands.start(ctx, task)
        if action == "block":
            return commands.block(ctx, task, _line(text, "a reason") if text else None)
        if action == "unblock":
            return commands.unblock(ctx, task)
        if action == "note":
            return commands.note(ctx, task, _line(text, "a note"))
        if action == "edit":
            try:
                new = content(ctx.settings, " ".join(text.split()))
            except OpFailure as failure:
                raise Refused(failure.message, 400) from None
            return _rewrite(ctx, lambda seen: _renamed(seen, task, new))
        return _rewrite(ctx, lambda seen: _moved(seen, task, text))


def _rewrite(ctx: Context, change: Callable[[Read], str]) -> Outcome:
    """A change the engine has no op for (a task's new text, a new order), made on the
    list as it stands under the lock and written by the one write transaction as a
    whole text (``replace_text``, as ``todo edit``): a hand edit is kept as a revision
    first, and the change touches only its task's lines."""
    made: list[str] = []

    def choose(seen: Read) -> Replacement:
        made.append(change(seen))
        return Replacement(made[-1])

    rev = replace_text(ctx, choose)[1]
    return ctx.outcome(parse(made[-1]).model(), rev)


def _renamed(seen: Read, task: str, new: str) -> str:
    doc = parse(seen.text)
    node = doc.find(task)
    if node is None:
        raise Refused(f"Task {task!r} is not in the list now (renamed or removed meanwhile)")
    if doc.find(new) not in (None, node):
        raise Refused(f"the list has a task {new!r} already", 400)
    if not doc.set_content(node, new):
        raise Refused(f"Task {task!r} spans several lines: edit it in the file", 400)
    return doc.text()


def _moved(seen: Read, task: str, target: str) -> str:
    """The task moved to the place of ``target``: after it when it came from above,
    else before it (as it was dropped on the page)."""
    doc = parse(seen.text)
    node, onto = doc.find(task), doc.find(target)
    if node is None or onto is None:
        missing = task if node is None else target
        raise Refused(f"Task {missing!r} is not in the list now (renamed or removed meanwhile)")
    order = list(doc.tasks())
    anchor = onto if order.index(node) < order.index(onto) else onto.prev
    if anchor is None or anchor is node or node is onto:
        return seen.text
    doc.move_after(node, anchor)
    doc.reindex()
    return doc.text()


def _stale(ctx: Context, todo: TodoList) -> dict[int, str]:
    """The completed tasks whose check has not passed since the work tree changed
    (``todo check``'s gate, which asks git): only a list with such a task pays."""
    if not any(t.meta.check and t.status is Status.COMPLETED for _, t in todo.tasks()):
        return {}
    try:
        return {place: why for place, _, _, why in stale_evidence(ctx, todo)}
    except TodoError:
        return {}


def _line(text: str, what: str) -> str:
    text = " ".join(text.split())
    if not text:
        raise Refused(f"give {what}", 400)
    return text
