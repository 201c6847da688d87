"""Plain and JSON output of an outcome. (Rich output for a terminal is in
``render_rich``, imported only when stdout is one.)

Plain output is what an agent reads after every call: stable, short, never empty,
no ANSI. After a write it shows, in order: ``Errors: ...``; what changed, one line
a kind; warnings; the person's edits since the last write, their notes quoted; the
notes of the task in progress; and last the recap line. Nothing else: the whole
list is one ``todo show`` away (or after every write, with ``reply = full``). A
read (``todo show``) shows the open tasks, the current phase's progress, the tree
of phases, the notes of the task in progress, and the recap.
"""

from __future__ import annotations

from todocli.app.commands import Outcome
from todocli.base import TYPE_CHECKING
from todocli.document.model import (
    BLOCK_NOTE,
    NO_META,
    OPEN,
    Diff,
    Phase,
    Result,
    Status,
    Task,
    TodoList,
    block_reason,
    notes_added,
)
from todocli.escapes import Shown, all_shown, json_document, one_line, safe, safe_lines

if TYPE_CHECKING:
    from typing import Any

    from todocli.app.report import Report

JSON_VERSION = 1
# The reminder of the one-task-in-progress rule, returned with every non-empty list.
INSTRUCTIONS = (
    "Todos updated. Keep exactly one item `in_progress` at a time. Mark completed "
    "IMMEDIATELY after finishing each task; do not batch completions."
)
MARKS = {
    Status.PENDING: "[ ]",
    Status.IN_PROGRESS: "[/]",
    Status.COMPLETED: "[x]",
    Status.ABANDONED: "[-]",
    Status.BLOCKED: "[!]",
}
NAMES = {s: s.value for s in Status.ALL}  # looked up: ``value`` is a call, once a task
MOST_NAMED = 5  # names per change line before "(+N more)"
NOTE_CHARS = 200  # a note quoted after a write is cut to this many characters
MOST_NOTES = 3  # notes quoted after a write, of each kind, before "(+N more ...)"
# A write's reply stays short whatever the plan holds: each task named in it cut to
# TASK_CHARS, and its lines together (the recap's 300 included) under REPLY_CHARS.
TASK_CHARS = 80
REPLY_CHARS = 599


def _short(name: str) -> str:
    """A task's text as a reply names it: cut to ``TASK_CHARS`` with an ellipsis."""
    return _clip(name, TASK_CHARS)


def _fit(lines: list[str], tail: list[str]) -> list[str]:
    """A write's reply lines, ``tail`` (the recap) kept whole and the others cut
    with an ellipsis so that together they stay under ``REPLY_CHARS``: the room
    is shared out, short lines first, the long ones the rest in equal parts."""
    room = REPLY_CHARS - sum(len(line) + 1 for line in tail)
    caps: dict[int, int] = {}
    for k, i in enumerate(sorted(range(len(lines)), key=lambda i: len(lines[i]))):
        caps[i] = min(len(lines[i]), room // (len(lines) - k) - 1)
        room -= caps[i] + 1
    cut = [
        line if len(line) <= caps[i] else line[: caps[i] - 1] + "…" for i, line in enumerate(lines)
    ]
    return cut + tail


def _names(names: list[str] | tuple[str, ...]) -> str:
    shown = [safe(_short(n)) for n in names[:MOST_NAMED]]
    more = f" (+{len(names) - MOST_NAMED} more)" if len(names) > MOST_NAMED else ""
    return "; ".join(shown) + more


def _quoted(names: list[str] | tuple[str, ...]) -> str:
    shown = ", ".join(f'"{safe(_short(n))}"' for n in names[:MOST_NAMED])
    return shown + (f" (+{len(names) - MOST_NAMED} more)" if len(names) > MOST_NAMED else "")


def error_lines(result: Result) -> list[str]:
    """Each failed op as ``path: message`` (path only where the input had one)."""
    return [f"{e.path}: {e.message}" if e.path else e.message for e in result.errors]


def change_lines(outcome: Outcome, *, sent: bool = True) -> list[str]:
    """What the command changed, one kind of change a line, escaped for a terminal.
    Without ``sent``, not the changes an agent tool's snapshot made (it sent them)."""
    result = outcome.result
    lines: list[str] = []
    if result is None:
        return [safe(n) for n in outcome.notices]
    by: dict[str, list[str]] = {}
    for change in result.diff.changed if sent else ():
        label = _LABELS[change.new]
        if change.new is Status.PENDING and change.old is Status.IN_PROGRESS:
            label = "Back to pending"  # set aside for another task, not reopened
        by.setdefault(label, []).append(change.content)
    for label in _ORDER:
        if by.get(label):
            lines.append(f"{label}: {_names(by[label])}")
    lines += released_lines(result)
    noted = _own_notes(result)
    if noted:
        lines.append(f"Noted: {_names(noted)}")
    if result.diff.renamed and sent:
        pairs = "; ".join(
            f"{safe(_short(a))} -> {safe(_short(b))}" for a, b in result.diff.renamed[:MOST_NAMED]
        )
        lines.append(f"Renamed: {pairs}")
    if result.diff.added and sent:
        lines.append(f"Added: {_names(result.diff.added)}")
    if result.diff.removed and sent:
        lines.append(f"Removed: {_names(result.diff.removed)}")
    if result.dropped_open:
        count = len(result.dropped_open)
        lines.append(
            f"Warning: this snapshot dropped {count} open task{'s' if count > 1 else ''}: "
            f"{_quoted(result.dropped_open)} (get {'them' if count > 1 else 'it'} back with: "
            f"{safe(outcome.command('undo'))})"
        )
    if result.hand_edit or result.hand_notes:
        told = describe_diff(result.hand_edit) if result.hand_edit else ""
        lines.append(
            "Note: the file was edited by hand since the last write"
            + (f": {told}" if told else "")
            + (":" if result.hand_notes and not told else "")
        )
        lines += _quoted_notes(result.hand_notes, "  note on")
    if result.merged:
        from todocli.engine.merge import describe

        lines.append(safe(describe(result.merged)))
        kept = tuple((m.content, m.note) for m in result.merged if m.note is not None)
        lines += _quoted_notes(kept, "  note on")
    if result.overridden:
        lines.append(
            f"Warning: this write overrode hand edits to {_quoted(result.overridden)} "
            f"(get them back with: {safe(outcome.command('undo'))})"
        )
    why = outcome.request.why if outcome.request is not None else ""
    if why:
        lines.append(f"Why: {one_line(_clip(why))}")
    lines += [safe(n) for n in outcome.notices]
    if outcome.logged_to:
        finished = result is not None and result.completed is not None
        what = "All tasks closed" if finished else "Closed tasks left the list"
        lines.append(f"{what}: logged to {safe(outcome.logged_to)}")
    return lines


_LABELS = {
    Status.COMPLETED: "Completed",
    Status.IN_PROGRESS: "Started",
    Status.ABANDONED: "Abandoned",
    Status.BLOCKED: "Blocked",
    Status.PENDING: "Reopened",
}
_ORDER = ("Completed", "Started", "Abandoned", "Blocked", "Back to pending", "Reopened")


def _clip(text: str, most: int = NOTE_CHARS) -> str:
    """A note on one line (its lines joined by " / "), cut to ``most`` characters."""
    flat = " / ".join(part.strip() for part in text.split("\n") if part.strip())
    return flat if len(flat) <= most else flat[: most - 1] + "…"


def _quoted_notes(notes: tuple[tuple[str, str], ...], lead: str) -> list[str]:
    """``lead "Task": "note"``, one a line, at most ``MOST_NOTES`` of them."""
    lines = [
        f'{lead} "{safe(_short(task))}": "{safe(_clip(note))}"' for task, note in notes[:MOST_NOTES]
    ]
    if len(notes) > MOST_NOTES:
        lines.append(f"  (+{len(notes) - MOST_NOTES} more notes: todo show --notes)")
    return lines


def _own_notes(result: Result) -> list[str]:
    """The tasks this write added notes to (a block's reason is told as a block)."""
    if not result.written:
        return []
    named: list[str] = []
    for task, note in notes_added(result.old, result.new, result.diff.renamed):
        if not note.startswith(BLOCK_NOTE) and task not in named:
            named.append(task)
    return named


def describe_diff(edit: Diff) -> str:
    """A diff in one line: what was added, removed, and moved between states."""
    parts = []
    if edit.added:
        parts.append(f"added {_quoted(edit.added)}")
    if edit.removed:
        parts.append(f"removed {_quoted(edit.removed)}")
    changed = edit.changed
    parts += [f'"{safe(_short(c.content))}" {c.old.value} -> {c.new.value}' for c in changed[:3]]
    if len(changed) > 3:  # a plan regenerated or pulled: counted, not listed
        parts.append(f"{len(changed) - 3} more changed (see: todo diff)")
    return "; ".join(parts)


def current_phase(todo: TodoList) -> int:
    """Index of the phase being worked on: the one with the task in progress, else
    the first with an open task, else the last."""
    held = [{t.status for t in phase.tasks} for phase in todo.phases]  # one pass, no call a task
    for i, statuses in enumerate(held):
        if Status.IN_PROGRESS in statuses:
            return i
    for i, statuses in enumerate(held):
        if not OPEN.isdisjoint(statuses):
            return i
    return len(todo.phases) - 1


def list_lines(todo: TodoList, *, notes: bool = False) -> list[str]:
    """The state summary of a non-empty list (without the change lines), as ``safe``
    shows it; with ``notes``, every task's notes under it. Most of it is the tasks'
    texts, an open task's twice: those and the phases' names are looked at once,
    together (``_shown``); the rest (a tail, a note, the recap), part by part. Each
    walk of the tasks and each call a line is paid 1,500 times on a plan that long."""
    phases = _shown(todo.phases)
    remaining = [
        f"  - {t.content} [{NAMES[t.status]}{', optional' if t.optional else ''}] ({p.name})"
        for p in phases
        for t in p.tasks
        if t.status in OPEN
    ]
    lines = [f"Remaining items ({len(remaining)}):", *remaining]
    i = current_phase(todo)
    phase = phases[i]
    done, count = sum(1 for t in phase.tasks if t.status not in OPEN), len(phase.tasks)
    lines.append(f'Phase {i + 1}/{len(phases)} "{phase.name}" — {done}/{count} tasks complete')
    n, waits = 0, _waits(todo)
    started: list[Task] = []  # the tasks in progress that have notes, quoted below
    for phase in phases:
        lines.append(phase.name)
        for task in phase.tasks:
            n += 1
            rare = waits or task.notes or task.optional or task.meta is not NO_META  # else no tail
            tail = safe(task_tail(n, task, waits, notes=notes)) if rare else ""
            if task.notes and task.status is Status.IN_PROGRESS:
                started.append(task)
            lines.append(f"  #{n} {MARKS[task.status]} {task.content}{tail}")
            if notes and task.notes:
                lines += [safe(f"    > {part}") for note in task.notes for part in note.split("\n")]
    cycle = cycle_line(todo) if waits else None
    if cycle is not None:
        lines.append(safe(cycle))
    for task in started if not notes else ():
        lines.append(f'Notes on "{task.content}":')
        lines += [safe(f"  > {part}") for note in task.notes for part in note.split("\n")]
    lines.append(safe(todo.recap()))
    return lines


def _shown(phases: tuple[Phase, ...]) -> tuple[Phase, ...]:
    """The phases with their names and their tasks' texts as ``safe`` shows them: the
    same phases when none holds a character to escape (nearly every list)."""
    texts = [t.content for p in phases for t in p.tasks]
    texts += [p.name for p in phases]
    if all_shown(texts):
        return phases
    return tuple(
        Phase(safe(p.name), tuple([t.replace(content=safe(t.content)) for t in p.tasks]))
        for p in phases
    )


def lean_lines(outcome: Outcome) -> list[str]:
    """After a write, below its change lines: the notes of the task in progress
    (bounded; those just quoted as the person's are not repeated), a dependency
    cycle, and the recap. The list itself is not repeated."""
    todo = outcome.todo
    result = outcome.result
    told = set(result.hand_notes) if result is not None else set()
    lines: list[str] = []
    for _, task in todo.tasks():
        if task.status is Status.IN_PROGRESS and task.notes:
            fresh = [n for n in task.notes if (task.content, n) not in told]
            if fresh:
                lines.append(f'Notes on "{safe(_short(task.content))}" (in progress):')
                lines += [f'  > "{safe(_clip(n))}"' for n in fresh[-MOST_NOTES:]]
                if len(fresh) > MOST_NOTES:
                    lines.append(f"  (+{len(fresh) - MOST_NOTES} earlier: todo show --notes)")
    cycle = cycle_line(todo) if _waits(todo) else None
    if cycle is not None:
        lines.append(cycle)
    lines.append(safe(todo.recap()))
    return lines


def _waits(todo: TodoList) -> dict[int, list[int]]:
    """What each waiting task waits on, by show number (nothing to find when no
    task has dependencies: the everyday list pays one look per task)."""
    for phase in todo.phases:
        for task in phase.tasks:
            if task.meta.blocked_by:
                from todocli.engine.claims import list_waiting

                return list_waiting(todo)
    return {}


def _cycle(todo: TodoList) -> tuple[list[int], list[Task]] | None:
    """Pending tasks that wait on each other in a circle (written by hand), by
    position, with the list's tasks; None when there are none."""
    from todocli.engine.claims import stuck_cycle

    tasks = [t for _, t in todo.tasks()]
    cycle = stuck_cycle(tasks)
    return None if cycle is None else (cycle, tasks)


def cycle_line(todo: TodoList, lead: str = "Dependency cycle") -> str | None:
    """``Dependency cycle #1 "A" -> #2 "B" -> #1: ...``, or None."""
    from todocli.engine.claims import cycle_words

    found = _cycle(todo)
    return None if found is None else cycle_words(*found, lead=lead)


def task_line(n: int, task: Task, waits: dict[int, list[int]], *, notes: bool = False) -> str:
    """``#N [m] content``, then ``task_tail``. Not escaped: ``plain`` escapes it."""
    return f"#{n} {MARKS[task.status]} {task.content}{task_tail(n, task, waits, notes=notes)}"


def task_tail(n: int, task: Task, waits: dict[int, list[int]], *, notes: bool = False) -> str:
    """What follows a task's text: optional, its owner, what it waits on, why it is
    blocked, how many notes (unless ``notes``: they follow). Empty for most tasks."""
    tail = ""
    if task.optional:
        tail += " (optional)"
    if task.meta.owner:
        tail += f" (owner: {task.meta.owner})"
    if n in waits:
        tail += f" (waiting on {', '.join(f'#{d}' for d in waits[n])})"
    reason = block_reason(task) if task.status is Status.BLOCKED else None
    if reason is not None:
        tail += f" (blocked: {_clip(reason)})"
    count = len(task.notes) - (reason is not None)
    if count and not notes:
        tail += f" (+{count} note{'s' if count > 1 else ''})"
    return tail


def released_lines(result: Result) -> list[str]:
    """The stale claims a claim released, one a line."""
    return [
        f'Released: "{safe(task)}" (agent {safe(agent)} idle {_idle(idle)})'
        for task, agent, idle in result.released
    ]


def _idle(seconds: float) -> str:
    minutes = int(seconds // 60)
    if minutes < 1:
        return f"{int(seconds)} s"
    return f"{minutes} min" if minutes < 120 else f"{minutes // 60} h"


def claim_lines(outcome: Outcome) -> list[str] | None:
    """``todo claim``'s own output: the claims it released, then the task it took
    (None when the outcome is no successful claim on its own: a claim op in a
    batch is reported with the rest of the batch)."""
    result = outcome.result
    if not outcome.claim_alone or result is None or result.claimed is None or outcome.failed:
        return None
    lines = released_lines(result)
    waits = _waits(outcome.todo)
    for n, (_, task) in enumerate(outcome.todo.tasks(), start=1):
        if task.content == result.claimed:
            lines.append(task_line(n, task, waits))
            break
    return lines


def plain(outcome: Outcome, *, notes: bool = False, tail: bool = True, sent: bool = True) -> str:
    """The plain text an agent reads. Never empty. After a write: what changed and
    the recap (the whole list too with ``reply = full``); after a read, the list
    (with ``notes``, every task's notes). ``tail``: with a failed check's output
    (the JSON envelope carries it in ``error.details`` instead)."""
    return Shown("\n".join(plain_lines(outcome, notes=notes, tail=tail, sent=sent)) + "\n")


def plain_lines(
    outcome: Outcome, *, notes: bool = False, tail: bool = True, sent: bool = True
) -> list[str]:
    """``plain``'s lines, each as ``safe`` shows it (``escapes.safe_lines``)."""
    claimed = claim_lines(outcome)
    if claimed:
        return safe_lines(claimed)
    lines: list[str] = []
    checked: list[str] = []  # a failed check's output: its own bound (1,500), not the reply's
    result = outcome.result
    if outcome.error is not None:
        lines.append(f"Errors: {one_line(outcome.error.message)}")
        shown = getattr(outcome.error, "tail", "") if tail else ""
        if shown:
            checked.append(shown)  # with its own line breaks
    elif result is not None and result.errors:
        lines.append("Errors: " + "; ".join(one_line(e) for e in error_lines(result)))
    lines += change_lines(outcome, sent=sent)
    if outcome.todo.tasks():
        if is_write(outcome) and not outcome.full_reply:
            if not lines:
                written = outcome.result is not None and outcome.result.written
                lines.append("List updated." if written else "No change.")
            more = lean_lines(outcome)
            lines = _fit(lines + more[:-1], more[-1:])
            lines[1:1] = checked
        else:
            return safe_lines(lines + checked) + list_lines(outcome.todo, notes=notes)  # shown
    elif result is not None and not result.query and result.written:
        lines += [*checked, "Todo list cleared."]
    else:
        lines += [*checked, "Todo list is empty."]
    return safe_lines(lines)


def is_write(outcome: Outcome) -> bool:
    """Whether the outcome is a write's (a batch that did more than look)."""
    return outcome.result is not None and not outcome.result.query


# -- JSON -------------------------------------------------------------------------------------


def _task_json(task: Task) -> dict[str, Any]:
    """A task's fields, those it has: content and status always; its active form,
    notes, and what an agent's tool keeps (id, priority, blocked_by, owner) when set."""
    data: dict[str, Any] = {"content": task.content, "status": task.status.value}
    if task.optional:  # Kiro's "- [ ]*": never required
        data["optional"] = True
    if task.active_form is not None:
        data["active_form"] = task.active_form
    if task.notes:
        data["notes"] = list(task.notes)
    meta = task.meta
    if meta:  # kept from an agent's tool: its id first of all
        if meta.id is not None:
            data["id"] = meta.id
        if meta.priority is not None:
            data["priority"] = meta.priority
        if meta.blocked_by:
            data["blocked_by"] = list(meta.blocked_by)
        if meta.owner:
            data["owner"] = meta.owner
        for key, value in (
            ("check", meta.check),
            ("checked", meta.checked),  # its last run, or "no check ran ..."
            ("evidence", meta.evidence),
        ):
            if value:
                data[key] = value
    return data


def _brief(todo: TodoList) -> list[dict[str, str]]:
    """``changes.old_todos``/``new_todos``: each task as content and status only."""
    return [{"content": t.content, "status": t.status.value} for _, t in todo.tasks()]


def flat_todos(todo: TodoList) -> list[dict[str, Any]]:
    todos = [
        {"n": n, **_task_json(task), "phase": phase.name}
        for n, (phase, task) in enumerate(todo.tasks(), start=1)
    ]
    for entry, (_, task) in zip(todos, todo.tasks(), strict=True):
        if task.parent is not None:  # a subtask: the #N of the task it belongs to
            entry["parent"] = task.parent
    waits = _waits(todo)
    for n, on in waits.items():
        todos[n - 1]["waiting_on"] = on
    found = _cycle(todo) if waits else None
    if found is not None:  # each task of the circle names it, by show numbers
        numbers = [i + 1 for i in found[0]]
        for i in found[0]:
            todos[i]["cycle"] = numbers
    return todos


def _phase_json(phase: Phase) -> dict[str, Any]:
    return {"name": phase.name, "tasks": [_task_json(t) for t in phase.tasks]}


def envelope(outcome: Outcome) -> dict[str, Any]:
    """The versioned JSON object: the same keys for success and error."""
    todo = outcome.todo
    result = outcome.result
    error = None
    if outcome.failed:
        details: list[object]
        if outcome.error is not None:
            message, details = outcome.error.message, list(outcome.error.details)
        else:
            assert result is not None
            lines = error_lines(result)
            message = lines[0] + (f" (and {len(lines) - 1} more)" if len(lines) > 1 else "")
            details = [
                {"index": e.index, "path": e.path, "code": e.code, "message": e.message}
                for e in result.errors
            ]
        error = {"code": outcome.error_code, "message": message, "details": details}
    todos = flat_todos(todo)
    old = result.old if result is not None else todo
    new_todos = _brief(todo)
    body: dict[str, Any] = {"summary": todo.summary}
    if outcome.full_reply or not is_write(outcome):  # a read, or ``reply = full``
        body["phases"] = [_phase_json(p) for p in todo.phases]
    body |= {"todos": todos, "recap": todo.recap()}
    data: dict[str, Any] = {
        "version": JSON_VERSION,
        "status": "error" if outcome.failed else "success",
        "data": body,
        "text": plain(outcome, tail=False),
        "stats": todo.stats(),
        "changes": {
            "old_todos": new_todos if old is todo else _brief(old),
            "new_todos": new_todos,
            "completed_tasks": [
                c.content
                for c in (result.diff.changed if result else ())
                if c.new is Status.COMPLETED
            ]
            + [c for c in (result.diff.added if result else ()) if _status_in(todo, c, result)],
            "dropped_open": list(result.dropped_open) if result else [],
            "released": [
                {"content": c, "owner": a, "idle_seconds": round(i, 3)}
                for c, a, i in (result.released if result else ())
            ],
            "renamed": [{"from": a, "to": b} for a, b in result.diff.renamed] if result else [],
            "hand_edit": _hand_edit_json(result),
            "merged": [m.to_json() for m in result.merged] if result else [],
            "wiped_on_all_completed": bool(result and result.wiped),
            "logged_to": outcome.logged_to,
            "reopened": [{"content": c, "reason": r} for c, r in outcome.reopened],
        },
        "context": {
            "session": outcome.session,
            "file": outcome.file,
            "rev": outcome.rev,
            "params_input": outcome.params_input,
        },
        "warnings": list(outcome.warnings) + _change_warnings(outcome),
        "error": error,
    }
    # The list as an agent's own tool would give it back, when asked for: the tool
    # ``--as`` names, or the tool whose payload this was (``reply = full``: always,
    # Claude Code's TodoWrite unless either names another).
    tool = outcome.reply_as or _sender(outcome) or ("claude" if outcome.full_reply else None)
    if tool is not None:
        from todocli.agents import reply

        body["reply"] = reply(tool, todo)
        body["reply_tool"] = tool
    if result is not None and result.claimed is not None and not outcome.failed:
        data["data"]["task"] = next((t for t in todos if t["content"] == result.claimed), None)
    if todo.tasks():
        data["instructions"] = INSTRUCTIONS
    return data


_OWN = frozenset({"ops", "markdown", "read"})  # dialects of todocli's own input


def _sender(outcome: Outcome) -> str | None:
    """The agent tool whose payload ``todo apply`` read, if it names one (todocli's
    own ops, markdown or a bare read name none, unless a hook names the tool)."""
    req = outcome.request
    if req is None or (req.hook is None and req.dialect in _OWN):
        return None
    from todocli.agents.request import sender

    return sender(req)


def _change_warnings(outcome: Outcome) -> list[str]:
    """The text's warnings about this write (open tasks dropped, hand edits found or
    overridden), so that a script reading only ``warnings`` sees every one."""
    if outcome.result is None:
        return []
    return [
        line
        for line in change_lines(outcome)
        if line.startswith(("Warning: ", "Note: the file was edited by hand"))
    ]


def _status_in(todo: TodoList, content: str, result: Result | None) -> bool:
    """Whether a task added by this batch arrived completed (it completed here too)."""
    source = result.completed if result and result.completed else todo
    return any(t.content == content and t.status is Status.COMPLETED for _, t in source.tasks())


def _hand_edit_json(result: Result | None) -> dict[str, Any] | None:
    if result is None or not (result.hand_edit or result.hand_notes):
        return None
    edit = result.hand_edit or Diff()
    return {
        "added": list(edit.added),
        "removed": list(edit.removed),
        "changed": [
            {"content": c.content, "from": c.old.value, "to": c.new.value} for c in edit.changed
        ],
        "notes": [{"content": task, "note": note} for task, note in result.hand_notes],
        "overridden": list(result.overridden),
    }


def report_envelope(report: Report) -> dict[str, Any]:
    """The envelope of a command that answers with data rather than a list: the same
    keys, its data under ``data``; ``stats`` and ``changes`` are null (it counted
    and changed no task)."""
    about = report.file is not None
    return {
        "version": JSON_VERSION,
        "status": "success",
        "data": report.data,
        "text": report.text,
        "stats": None,
        "changes": None,
        "context": {
            "session": report.session,
            "file": report.file,
            "rev": report.rev,
            "params_input": None,
        }
        if about
        else None,
        "warnings": [],
        "error": None,
    }


# Hook events whose JSON reply can put text into the model's context.
CONTEXT_EVENTS = frozenset({"PostToolUse", "PreToolUse", "AfterTool"})


def hook_reply(outcome: Outcome, event: str, *, quiet: bool = False) -> str | None:
    """The hook's JSON reply: the text a plain write prints, in the model's context
    (a hook's plain stdout never reaches the model). With ``quiet``, only when the
    agent has something to learn: a refusal, a warning, a person's edits (hand
    edits, overridden or dropped tasks), notes under the task in progress (for an
    agent tool's snapshot, those it has not seen). None when the event takes no
    context, or there is nothing to tell."""
    if event not in CONTEXT_EVENTS:
        return None
    result = outcome.result
    learn = (
        outcome.failed
        or bool(outcome.warnings)
        or (
            result is not None
            and bool(result.hand_edit or result.overridden or result.dropped_open or result.merged)
        )
        or (
            bool(outcome.fresh_notes)
            if outcome.fresh_notes is not None
            else any(t.notes for _, t in outcome.todo.tasks() if t.status is Status.IN_PROGRESS)
        )
    )
    if quiet and not learn:
        return None
    # A mirrored snapshot's own changes are what the agent sent: not told back.
    text = plain(outcome, sent=not (quiet and outcome.fresh_notes is not None))
    reply = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
    # JSON's own escapes for what a terminal must not see: the terminal's (\x9b)
    # would make the reply invalid JSON.
    return json_text(reply)


def to_json(outcome: Outcome) -> str:
    """The envelope on one line. (An indent would take json's pure-Python encoder:
    seven times slower on a 10,000-task list. Pipe through ``jq`` to read.)"""
    return json_text(envelope(outcome))


def json_text(value: object) -> str:
    """A JSON document on one line, with the characters ``escapes`` guards against
    written as ``\\uXXXX`` escapes inside its strings (never raw: see ``json_safe``).
    Written without importing ``json`` (see ``jsontext``)."""
    from todocli.base.jsontext import dumps  # --json only: plain output needs none of it

    return Shown(json_document(dumps(value), value) + "\n")
