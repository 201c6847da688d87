"""A reply sent back changes nothing: what a tool's reply had to approximate or
fill in reads, when it comes back unchanged, as the task's own value.

A reply (each tool's ``reply``) gives the list in a tool's own words, and some tools have
fewer words than todocli: Codex shows an abandoned task as completed and a blocked
one as pending, Continue's checklist an in-progress one as ``[ ]``; Claude Code's
reply fills in ``activeForm`` with the task's text, OpenCode's a ``medium``
priority, and a tool with ids numbers the tasks that have none. An agent sends
such values back on its next write without meaning any of them: a person's
``todo drop`` or ``todo block`` must not become "completed" or "pending" then.

So, for a write in a tool's shape, each item that names a task already in the
list is compared, field by field, with what reading that tool's reply of the list
gives for the task (the reply, read back through ``agents.request``: one
mechanism for every tool, with no table of its own). A field equal to it is the
task's own value; a field that differs is a change the agent made, and applies.
A tool whose reply is one entry per task, each of that task alone (its module's
``entry``), has only the entries of the tasks the items change read back: the
list's whole reply is built once, for the answer.
"""

from __future__ import annotations

from todocli.agents import entry_of
from todocli.base import TYPE_CHECKING
from todocli.document.model import Meta

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from todocli.document.model import Task, TodoList
    from todocli.engine.snapshot import Item


def for_tool(tool: str) -> Callable[[TodoList, Sequence[Item], bool], list[Item]]:
    """The engine's ``echo`` for writes in ``tool``'s shape (see ``as_sent``)."""

    def echo(todo: TodoList, items: Sequence[Item], merge: bool) -> list[Item]:
        return as_sent(tool, todo, items, merge)

    return echo


def as_sent(tool: str, todo: TodoList, items: Sequence[Item], merge: bool) -> list[Item]:
    """The items of a write in ``tool``'s shape, each field that its reply of
    ``todo`` (the list as the agent last saw it) shows for the task the item names
    replaced by the task's own value. ``merge``: the items are updates, which give
    only the fields in ``given``."""
    tasks = [task for _, task in todo.tasks()]
    # An item that gives each task's own values back changes nothing whatever the
    # reply showed: only the others need the reply (the costly part) at all.
    # A text a plan holds several times: its n-th item is its n-th task.
    copies: dict[str, list[int]] = {}
    for k, task in enumerate(tasks):
        copies.setdefault(task.content, []).append(k)
    named = _named(items, copies, merge)
    differ = [
        n
        for n, (item, k) in enumerate(zip(items, named, strict=True))
        if merge or not _as_own(item, None if k is None else tasks[k])
    ]
    if not tasks or not differ:
        return list(items)
    entry = entry_of(tool)
    shown: list[Item | None] | _Entries
    if entry is not None:
        shown, whole = _Entries(entry, tasks), True
    else:
        reply = _shown(tool, todo, tasks)
        if reply is None:
            return list(items)
        shown, whole = reply
    by_id = {t.meta.id: k for k, t in enumerate(tasks) if t.meta.id}
    made_up: dict[str, int] | None = None  # ids the reply gave tasks that have none
    out = list(items)
    for n in differ:
        item = items[n]
        task_id = item.meta.id if item.meta is not None else None
        if made_up is None and task_id and task_id not in by_id:
            made_up = _made_up(tasks, shown)
        which = _which(item, tasks, by_id, made_up or {}, named[n])
        seen = shown[which] if which is not None else None
        if which is not None and seen is not None:
            shows = _given(seen) if whole else seen.given or frozenset()
            out[n] = _unchanged(item, tasks[which], seen, shows, merge)
    return out


def _named(items: Sequence[Item], copies: dict[str, list[int]], merge: bool) -> list[int | None]:
    """The task each item's text names: the first of that text, or for a whole
    list the n-th of a text the list holds n times or more."""
    seen: dict[str, int] = {}
    out: list[int | None] = []
    for item in items:
        same = copies.get(item.content)
        nth = 0 if merge else seen.get(item.content, 0)
        seen[item.content] = nth + 1
        out.append(None if not same else same[nth] if nth < len(same) else same[0])
    return out


def _made_up(tasks: list[Task], shown: list[Item | None] | _Entries) -> dict[str, int]:
    """The ids the reply gave tasks that have none, each to its (first) task."""
    made_up: dict[str, int] = {}
    for k, task in enumerate(tasks):
        seen = shown[k]
        shown_id = seen.meta.id if seen is not None and seen.meta is not None else None
        if shown_id and not task.meta.id:
            made_up.setdefault(shown_id, k)
    return made_up


class _Entries:
    """Each task as a reply made of one entry per task reads back, each entry read
    when it is first asked for: a write that changes two tasks reads two entries,
    not the whole reply."""

    def __init__(self, entry: Callable[[Task], dict[str, Any]], tasks: list[Task]) -> None:
        self.entry = entry
        self.tasks = tasks
        self.read: dict[int, Item] = {}

    def __len__(self) -> int:
        return len(self.tasks)

    def __getitem__(self, k: int) -> Item:
        if k not in self.read:
            from todocli.agents.request import item

            self.read[k] = item(self.entry(self.tasks[k]), f"todos[{k}]")
        return self.read[k]


def _as_own(item: Item, task: Task | None) -> bool:
    """Whether a whole-list item gives exactly what the task its text names
    has: its status, active form, notes and metadata, where it gives them."""
    if task is None or item.status is not task.status:
        return False
    if not item.keep_active_form and item.active_form != task.active_form:
        return False
    if item.notes is not None and tuple(item.notes) != task.notes:
        return False
    meta = item.meta
    return meta is None or (
        meta.id in (None, task.meta.id)
        and meta.priority in (None, task.meta.priority)
        and (not meta.blocked_by or meta.blocked_by == task.meta.blocked_by)
    )


def _shown(tool: str, todo: TodoList, tasks: list[Task]) -> tuple[list[Item | None], bool] | None:
    """Each task as the tool's reply of the list reads back (None for a task it
    does not show as itself), and whether the reply is a whole list (not
    updates); None when the reply is not one item per task (an ops reply)."""
    from todocli.agents import reply
    from todocli.agents.request import request
    from todocli.engine.dialects import InputError
    from todocli.engine.ops import OpKind

    try:
        req = request(reply(tool, todo))
    except InputError:
        return None
    if len(req.ops) != 1 or req.ops[0].kind is not OpKind.WRITE:
        return None
    op = req.ops[0]
    read = list(op.todos or ())
    if len(read) != len(tasks):
        return None
    shown = [
        item if item.content == task.content else None
        for task, item in zip(tasks, read, strict=True)
    ]
    return shown, not op.merge


def _given(item: Item) -> frozenset[str]:
    """The fields a whole-list item gives (it always gives its text and status)."""
    given = {"content", "status"} | (item.given or frozenset())
    if not item.keep_active_form:
        given.add("active_form")
    if item.notes is not None:
        given.add("notes")
    return frozenset(given)


def _which(
    item: Item,
    tasks: list[Task],
    by_id: dict[str, int],
    made_up: dict[str, int],
    by_text: int | None,
) -> int | None:
    """The task an item names: by its id, by an id the reply made up, else by its
    text (``by_text``, unless that task has another id)."""
    task_id = item.meta.id if item.meta is not None else None
    if task_id:
        if task_id in by_id:
            return by_id[task_id]
        if task_id in made_up:
            named = made_up[task_id]
            renamed = item.content and item.content != tasks[named].content
            return None if renamed else named
    k = by_text
    if k is None or (task_id and tasks[k].meta.id and tasks[k].meta.id != task_id):
        return None
    return k


def _unchanged(item: Item, task: Task, seen: Item, shows: frozenset[str], merge: bool) -> Item:
    """The item with each field it gives that equals the reply's (``seen``, which
    gives the fields ``shows``) given as the task has it: its status as the agent
    saw it (a person's edit since is the three-way merge's to keep), the rest as
    the list has it now."""
    given = set(item.given or ()) if merge else set(_given(item))
    same = {f for f in given & shows - {"content"} if _value(item, f) == _value(seen, f)}
    task_id = _value(item, "id")
    if task_id and not task.meta.id and task_id == _value(seen, "id"):
        same.add("id")  # an id the reply made up names the task, and is not its own
    if not same:
        return item
    changes: dict[str, object] = {}
    meta = item.meta
    if meta is not None and same & {"id", "priority", "blocked_by"}:
        changes["meta"] = meta.replace(
            id=None if "id" in same else meta.id,
            priority=None if "priority" in same else meta.priority,
            blocked_by=() if "blocked_by" in same else meta.blocked_by,
        )
    left = given - same
    if merge and "id" in same and "content" not in left:
        # Named by an id the reply made up: by its text, which the task has.
        changes["content"] = task.content
        left.add("content")
    if "status" in same and not merge:
        changes["status"] = task.status
        left.add("status")
    if "active_form" in same:
        changes["keep_active_form"] = True
    if "notes" in same:
        changes["notes"] = None
    # What the item no longer gives is kept from the task (``Engine._merged``,
    # ``Engine._kept_meta``).
    changes["given"] = frozenset(left if merge else left & (item.given or frozenset()))
    return item.replace(**changes)


def _value(item: Item, field: str) -> object:
    meta = item.meta or Meta()
    if field == "id":
        return meta.id
    if field == "priority":
        return meta.priority
    if field == "blocked_by":
        return meta.blocked_by
    return getattr(item, field, None)
