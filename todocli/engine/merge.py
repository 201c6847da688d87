"""Three-way merge of a snapshot with a person's edits.

A snapshot (every dialect's full list) is the agent's view of the list as of a base
revision: by default the last one todo wrote, or the one ``--base N`` names. A
person may have edited the file since. Only what the agent changed between the base
and its snapshot is applied to the file as it is now:

- tasks a person added since the base stay, where they are;
- a status a person changed since the base stays, unless the snapshot changes that
  same task's status too (then the snapshot wins, and the conflict is reported);
- a task the person removed (or renamed) is not brought back by a snapshot that
  still carries it unchanged;
- notes, free text and order are the file's (the snapshot writer keeps them).

Tasks are matched by their text, the task's identity in the file.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING, Value
from todocli.document.model import BLOCK_NOTE, Status, Task, TodoList, notes_added

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from todocli.document.model import Kept
    from todocli.engine.snapshot import Item

    # Tasks a person added since the base: (position in the file, task, occurrence
    # of its text), in the file's order.
    Added = list[tuple[int, Task, int]]


class Merged(Value):
    """One thing the agent did not know, and what the merge made of it (here, not
    in ``document.model``: only a merge makes one, and every other call is spared
    the class). (The kinds'
    names say "by hand" for what is any change the agent did not make: ``command``
    says who made it.)"""

    ADDED = "added_by_hand"  # kept: another added it
    STATUS = "status_by_hand"  # kept: another set this status
    REMOVED = "removed_by_hand"  # not brought back: another removed it
    CONFLICT = "conflict"  # both changed its status: the snapshot's stands
    NOTED = "noted"  # kept: another wrote this note under the task

    def __init__(
        self,
        kind: str,
        content: str,
        status: Status | None = None,  # the status the task has after the merge (None: gone)
        # Who made the change: the revision that holds it (None: the file as it is
        # now, not a revision yet) and the todo command that wrote that revision
        # ("todo done"; "todo" when not on record; None: a person, by hand; "":
        # older than the revisions looked at), with the agent it wrote for.
        rev: int | None = None,
        command: str | None = None,
        agent: str | None = None,
        note: str | None = None,  # NOTED: the note
    ) -> None:
        self.kind = kind
        self.content = content
        self.status = status
        self.note = note
        self.rev = rev
        self.command = command
        self.agent = agent

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "content": self.content,
            "status": self.status.value if self.status is not None else None,
            **({"note": self.note} if self.note is not None else {}),
            "by": {
                "hand": self.command is None,
                "rev": self.rev,
                "command": self.command or None,
                "agent": self.agent,
            },
        }


def rebase(
    items: Sequence[Item], base: TodoList, current: TodoList, max_in_progress: int
) -> tuple[list[Item], Added, list[Merged]]:
    """The snapshot's items with the person's edits since ``base`` put back in, the
    tasks a person added (for ``snapshot`` to place among them), and what was
    merged. ``current`` is the list as it is in the file now.

    Where a person copied the line of a task since the base, the agent's task is
    the line most like the base's (see ``_agents_occurrence``); every other line of
    that text is a task added by hand and stays where it is, each named by its
    ``occurrence``."""
    before = _first(base)
    before_phase = {t.content: p.name for p, t in reversed(base.tasks())}
    now = _first(current)
    agents = _agents_occurrence(base, current)
    for content, (_, task) in agents.items():
        now[content] = task
    merged: list[Merged] = []
    out: list[Item] = []
    for item in items:
        if item.content in agents and not item.occurrence:
            item = item.replace(occurrence=agents[item.content][0])
        was, is_ = before.get(item.content), now.get(item.content)
        if was is not None and is_ is None:
            if item.status is was.status:
                merged.append(Merged(Merged.REMOVED, item.content))
                continue  # removed by hand; the agent only carried it along
            merged.append(Merged(Merged.CONFLICT, item.content, item.status))  # brought back
        if was is not None and is_ is not None:
            if is_.status is not was.status:
                if item.status is was.status:
                    item = item.replace(status=is_.status)
                    merged.append(Merged(Merged.STATUS, item.content, is_.status))
                elif item.status is not is_.status:
                    merged.append(Merged(Merged.CONFLICT, item.content, item.status))
            # What the agent sent back as it was at the base is the file's to keep:
            # notes a person added, a phase a person moved the task to.
            if item.notes is not None and tuple(item.notes) == tuple(was.notes):
                item = item.replace(notes=None)
            if item.phase is not None and item.phase == before_phase[item.content]:
                item = item.replace(phase=None)
        out.append(item)
    _keep_in_progress_within(out, merged, before, max_in_progress)
    _keep_the_files_order(out, base, current, agents)
    sent = {item.content for item in out} | {m.content for m in merged}
    in_base = _counts(t.content for _, t in base.tasks())
    in_out = _counts(item.content for item in out)
    seen: dict[str, int] = {}
    added: list[tuple[int, Task, int]] = []  # (position in the file, task, occurrence)
    for n, (_, task) in enumerate(current.tasks()):
        k = seen[task.content] = seen.get(task.content, -1) + 1
        if task.content in agents:
            if k == agents[task.content][0]:
                continue  # the agent's task; every other line of its text is a copy
        elif k == 0 and (task.content in before or task.content in sent):
            continue
        elif k and k < max(in_base.get(task.content, 0), in_out.get(task.content, 0)):
            continue  # a copy the agent knows of, or sends
        added.append((n, task, k))
        merged.append(Merged(Merged.ADDED, task.content, task.status))
    _keep_added_within(out, added, merged, max_in_progress)
    return out, added, merged


def _keep_added_within(
    items: list[Item], added: list[tuple[int, Task, int]], merged: list[Merged], limit: int
) -> None:
    """A task a person added already in progress stays, but not past
    ``max_in_progress`` beside what the agent started: there the agent's view wins,
    and the person's task waits, pending (a conflict)."""
    if not limit:
        return
    started = sum(item.status is Status.IN_PROGRESS for item in items)
    for n, (at, task, occurrence) in enumerate(added):
        if task.status is not Status.IN_PROGRESS:
            continue
        if started < limit:
            started += 1
            continue
        waiting = Task(task.content, Status.PENDING, task.active_form, task.notes, task.meta)
        added[n] = (at, waiting, occurrence)
        for m, entry in enumerate(merged):
            if entry.kind == Merged.ADDED and entry.content == task.content:
                merged[m] = Merged(Merged.CONFLICT, task.content, Status.PENDING)
                break


def _agents_occurrence(base: TodoList, current: TodoList) -> dict[str, tuple[int, Task]]:
    """Where a person copied the line of a task the base holds once, which line of
    that text in the file is the agent's task: the one most like the base's (its
    status, active form, metadata and notes), then the one still after the task it
    followed there, then the first. Only texts whose agent's task is not the first
    line are given (occurrence, task)."""
    once = {c for c, n in _counts(t.content for _, t in base.tasks()).items() if n == 1}
    lines: dict[str, list[tuple[Task, str | None]]] = {}  # each line's task, and the one before
    previous = None
    for _, task in current.tasks():
        if task.content in once:
            lines.setdefault(task.content, []).append((task, previous))
        previous = task.content
    before = _first(base)
    before_previous: dict[str, str | None] = {}
    previous = None
    for _, task in base.tasks():
        before_previous.setdefault(task.content, previous)
        previous = task.content
    out: dict[str, tuple[int, Task]] = {}
    for content, tasks in lines.items():
        if len(tasks) < 2:
            continue
        was = before[content]

        def likeness(
            k: int, was: Task = was, tasks: list[tuple[Task, str | None]] = tasks
        ) -> tuple[int, bool, int]:
            task, after = tasks[k]
            alike = (
                (task.status is was.status)
                + (task.active_form == was.active_form)
                + (task.meta == was.meta)
                + (task.notes == was.notes)
            )
            # Lines alike to the letter: the one still after the task it followed.
            return alike, after == before_previous[was.content], -k

        best = max(range(len(tasks)), key=likeness)
        if best:
            out[content] = (best, tasks[best][0])
    return out


def _first(todo: TodoList) -> dict[str, Task]:
    """Each text's task: the first that has it."""
    first: dict[str, Task] = {}
    for _, task in todo.tasks():
        first.setdefault(task.content, task)
    return first


def _positions(todo: TodoList, agents: dict[str, tuple[int, Task]] | None = None) -> dict[str, int]:
    """Where each text first comes in the list (0-based, in document order); for a
    text in ``agents``, where the line of the agent's task comes."""
    where: dict[str, int] = {}
    seen: dict[str, int] = {}
    for n, (_, task) in enumerate(todo.tasks()):
        k = seen[task.content] = seen.get(task.content, -1) + 1
        wanted = agents[task.content][0] if agents and task.content in agents else 0
        if k == wanted:
            where[task.content] = n
    return where


def _counts(contents: Iterable[str]) -> dict[str, int]:
    """How many times each text comes."""
    counts: dict[str, int] = {}
    for content in contents:
        counts[content] = counts.get(content, 0) + 1
    return counts


def _keep_the_files_order(
    items: list[Item], base: TodoList, current: TodoList, agents: dict[str, tuple[int, Task]]
) -> None:
    """When the agent kept the base's order, the tasks stay in the file's order (a
    person may have moved them): they take their slots in the order the file has.
    ``agents``: texts whose agent's task is a later line of that text."""
    order = _positions(base)
    sent = [item.content for item in items if item.content in order]
    if sent != sorted(sent, key=order.__getitem__):
        return  # the agent reordered: its order stands
    where = _positions(current, agents)
    slots = [k for k, item in enumerate(items) if item.content in where]
    in_file = sorted((items[k] for k in slots), key=lambda item: where[item.content])
    for k, item in zip(slots, in_file, strict=True):
        items[k] = item


def _keep_in_progress_within(
    items: list[Item], merged: list[Merged], before: dict[str, Task], limit: int
) -> None:
    """A task a person started, kept beside the one the agent started, must not take
    the list past ``max_in_progress``: there the agent's view wins (a conflict)."""
    if not limit:
        return
    started = [i for i, item in enumerate(items) if item.status is Status.IN_PROGRESS]
    by_hand = {m.content for m in merged if m.kind == Merged.STATUS}
    for i in reversed(started):
        if len(started) <= limit:
            break
        item = items[i]
        if item.content in by_hand:
            items[i] = item.replace(status=before[item.content].status)
            merged[:] = [m for m in merged if m.content != item.content]
            merged.append(Merged(Merged.CONFLICT, item.content, items[i].status))
            started.remove(i)


def news(merged: Sequence[Merged], last: TodoList, current: TodoList) -> list[Merged]:
    """What of a merge an earlier write did not already tell of: a task kept that
    the list ``last`` written held already (as many times), a status kept that it
    had. A conflict is always news, and so is a task left out because it was
    removed by hand: told on every snapshot that still carries it, so that the
    agent does not go on believing in a step the list no longer has."""
    had = _first(last)
    counts, now = _counts(t.content for _, t in last.tasks()), None
    out = []
    for m in merged:
        if m.kind == Merged.ADDED:
            if now is None:
                now = _counts(t.content for _, t in current.tasks())
            if now.get(m.content, 0) <= counts.get(m.content, 0):
                continue
        elif m.kind == Merged.STATUS:
            task = had.get(m.content)
            if task is not None and task.status is m.status:
                continue
        out.append(m)
    return out


def noted(told: TodoList, last: TodoList, current: TodoList) -> list[Merged]:
    """The notes written since the list ``told`` (as the agent's last write left
    it) by the writes after it, up to ``last`` (todo's last write), and still in
    the list: news the agent did not make. (Notes typed by hand since ``last``
    are told with the hand edit; a block's reason, with its block.)"""
    now, _ = _by_content(current)
    out = []
    for content, note in notes_added(told, last):
        task = now.get(content)
        if task is not None and note in task.notes and not note.startswith(BLOCK_NOTE):
            out.append(Merged(Merged.NOTED, content, task.status, note=note))
    return out


def touched(merged: Iterable[Kept], before: TodoList, after: TodoList) -> set[str]:
    """The changes of ``merged`` (by text) one write made, from ``before`` to
    ``after``: its task's count or status changed, or its note came."""
    was, had = _by_content(before)
    now, has = _by_content(after)
    out = set()
    for m in merged:
        c = m.content
        if m.kind == Merged.NOTED:
            changed = (c in now and m.note in now[c].notes) and not (
                c in was and m.note in was[c].notes
            )
        else:
            old, new = was.get(c), now.get(c)
            changed = had.get(c, 0) != has.get(c, 0) or (
                old is not None and new is not None and old.status is not new.status
            )
        if changed:
            out.add(key(m))
    return out


def key(m: Kept) -> str:
    """How ``touched`` names a change."""
    return m.content if m.kind != Merged.NOTED else f"{m.content}\n{m.note}"


def _by_content(todo: TodoList) -> tuple[dict[str, Task], dict[str, int]]:
    return _first(todo), _counts(t.content for _, t in todo.tasks())


def describe(merged: Sequence[Kept]) -> str:
    """The merge in one line, for the agent that sent the snapshot: who made what
    it did not know (each revision todo wrote, by its number, command and agent; a
    person's edits, by hand), then each change. Notes are quoted by the caller."""
    sources: list[str] = []
    hand = False
    for m in merged:
        if m.command is None:
            hand = True
        elif (source := _source(m)) not in sources:
            sources.append(source)
    who = ", ".join(sources)
    if hand:
        who = f"{who} and edits made by hand" if who else "edits made by hand"
    parts = []
    for m in merged:
        name = f'"{m.content}"'
        by, over = _told_as(m)
        if m.kind == Merged.ADDED:
            parts.append(f"kept {name} (added {by})")
        elif m.kind == Merged.STATUS:
            assert m.status is not None
            parts.append(f"kept {name} {m.status.value} (set {by})")
        elif m.kind == Merged.REMOVED:
            parts.append(f"left out {name} (removed {by})")
        elif m.kind == Merged.CONFLICT:
            assert m.status is not None
            parts.append(f"{name} is {m.status.value} as the snapshot says (over {over})")
    return f"Merged with {who}" + (": " + "; ".join(parts) if parts else ":")


def _told_as(m: Kept) -> tuple[str, str]:
    """Who made a change, after its verb (``by hand``, ``in #7``) and after "over"."""
    if m.command is None:
        return "by hand", "a hand edit"
    if m.command and m.rev is not None:
        return f"in #{m.rev}", f"#{m.rev}"
    return "earlier", "an earlier change"


def _source(m: Kept) -> str:
    """``#7 (todo done)``, ``#7 (todo done, agent b)``; a change older than the
    revisions looked at (``command`` empty): ``earlier changes``."""
    if not m.command or m.rev is None:
        return "earlier changes"
    agent = f", agent {m.agent}" if m.agent else ""
    return f"#{m.rev} ({m.command}{agent})"
