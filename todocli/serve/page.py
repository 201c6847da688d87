"""The board's HTML, rendered on the server: it reads without scripts (a
read-only view: the controls stay disabled until the script enables them), and
every text a list holds (tasks, notes, reasons, owners, file and phase names) is
escaped here, the one place text becomes HTML."""

from __future__ import annotations

import time
from html import escape
from urllib.parse import quote

from todocli.base import TYPE_CHECKING
from todocli.document.model import Status, block_reason

if TYPE_CHECKING:
    from collections.abc import Sequence

    from todocli.document.model import Task
    from todocli.serve.lists import Shown

LABEL = {
    Status.PENDING: "pending",
    Status.IN_PROGRESS: "in progress",
    Status.COMPLETED: "done",
    Status.ABANDONED: "dropped",
    Status.BLOCKED: "blocked",
}


MOST_DEPTH = 6  # subtasks deeper than this are set in as far as the sixth level


def anchor(key: str) -> str:
    """An element id for a list: its key in hex (any key, one safe id)."""
    return "l-" + key.encode().hex()


def page(token: str, sections: str) -> str:
    """The whole board: ``sections``, the lists' HTML (``section``, ``unreadable``)."""
    board = sections or _empty()
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light dark">'
        '<meta name="referrer" content="no-referrer">'
        f'<meta name="todo-token" content="{escape(token)}">'
        "<title>todo board</title>"
        '<link rel="stylesheet" href="/static/board.css"></head><body>'
        '<header><h1>todo board</h1><p id="live" role="status" aria-live="polite">'
        "Read-only view (scripts are off or still loading).</p></header>"
        f'<main id="board">{board}</main>'
        '<script src="/static/board.js" defer></script></body></html>\n'
    )


def _empty() -> str:
    return '<p class="empty">No lists yet: <code>todo init TASK</code> starts one.</p>'


def section(shown: Shown) -> str:
    """One list: its heading, who last wrote it, its phases and tasks, its controls."""
    key = escape(shown.key)
    aid = anchor(shown.key)
    tasks = [t for _, t in shown.todo.tasks()]
    blocked = any(t.status is Status.BLOCKED for t in tasks)
    needs = bool(shown.warnings or shown.stale) or blocked
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(shown.mtime)) if shown.mtime else ""
    by = f" by {escape(shown.by)}" if shown.by else ""
    if shown.agent:
        by += f" · the plan of {escape(shown.agent)}"
    parts = [
        f'<section class="list{" needs-you" if needs else ""}" id="{aid}" data-list="{key}" '
        f'data-rev="{shown.rev}" aria-labelledby="{aid}-h">'
        f'<h2 id="{aid}-h">{escape(shown.title)}</h2>'
        f'<p class="meta"><span class="file">{escape(shown.file)}</span> '
        f"· revision {shown.rev}{by}{' · ' + when if when else ''}</p>",
        f'<p class="recap">{escape(shown.todo.recap())}</p>',
    ]
    if blocked:
        parts.append('<p class="attention">A task here is blocked: it may need you.</p>')
    if shown.stale:
        parts.append('<p class="attention">A done task\'s check is stale: see todo check.</p>')
    parts.extend(f'<p class="warning">{escape(w)}</p>' for w in shown.warnings)
    if shown.todo.summary:
        parts.append(f'<p class="summary">{escape(shown.todo.summary)}</p>')
    number = 0
    depth: dict[int, int] = {}  # a task's show number: how many parents it has
    for phase in shown.todo.phases:
        parts.append(f'<h3>{escape(phase.name)}</h3><ul class="tasks">')
        for task in phase.tasks:
            number += 1
            depth[number] = depth.get(task.parent, -1) + 1 if task.parent else 0
            tid = f"{aid}-t{number}"
            parts.append(_task(task, tid, shown.stale.get(number - 1), depth[number]))
        parts.append("</ul>")
    title = escape(shown.title)
    parts.append(
        '<form class="add" data-act="add">'
        f'<input name="text" type="text" aria-label="New task in {title}" '
        'placeholder="New task" disabled> <button type="submit" disabled>Add</button></form>'
        '<p class="tools">'
        f'<button type="button" data-act="undo" aria-label="Undo the last change to {title}"'
        " disabled>Undo</button> "
        f'<button type="button" data-act="redo" aria-label="Redo in {title}" disabled>Redo</button>'
        f' <a class="history" href="history?list={quote(shown.key, safe="")}">History</a></p>'
        "</section>"
    )
    return "".join(parts)


def _task(task: Task, tid: str, stale: str | None = None, depth: int = 0) -> str:
    """A task's item; a subtask (``depth``: its parents) is set in under its parent."""
    status = task.status
    text = escape(task.content)
    done = status is Status.COMPLETED
    checked = " checked" if done else ""
    level = f' data-depth="{min(depth, MOST_DEPTH)}"' if depth else ""
    parts = [
        f'<li class="task {status.value}" data-task="{text}"{level}>'
        f'<input type="checkbox" id="{tid}" aria-label="{text}" '
        f'title="Alt+Up, Alt+Down: move it"{checked} disabled> '
        f'<label for="{tid}" class="text">{text}</label> '
        f'<span class="status">{LABEL[status]}</span>'
    ]
    meta = task.meta
    if meta.owner:
        parts.append(f' <span class="owner">@{escape(meta.owner)}</span>')
    if status is Status.BLOCKED:
        reason = block_reason(task)
        if reason:
            parts.append(f' <span class="reason">blocked: {escape(reason)}</span>')
    if meta.check:
        ran = f", {escape(meta.checked)}" if meta.checked else ", not run"
        parts.append(f' <span class="check">check <code>{escape(meta.check)}</code>{ran}</span>')
    if stale is not None:
        parts.append(f' <span class="stale">check stale: {escape(stale)}</span>')
    if meta.evidence:
        parts.append(f' <span class="evidence">evidence: {escape(meta.evidence)}</span>')
    notes = [n for n in task.notes if status is not Status.BLOCKED or not n.startswith("Blocked: ")]
    if notes:
        parts.append('<ul class="notes">')
        parts.extend(f"<li>{escape(n)}</li>" for n in notes)
        parts.append("</ul>")
    if status.is_open:
        parts.append(_buttons(task, text))
    parts.append("</li>")
    return "".join(parts)


def _buttons(task: Task, text: str) -> str:
    shown = [("note", "Note"), ("edit", "Edit")]
    if task.status is Status.BLOCKED:
        shown.insert(0, ("unblock", "Unblock"))
    else:
        shown.insert(0, ("block", "Block"))
    if task.status is Status.PENDING:
        shown.insert(0, ("start", "Start"))
    buttons = " ".join(
        f'<button type="button" data-act="{act}" aria-label="{label}: {text}" disabled>'
        f"{label}</button>"
        for act, label in shown
    )
    return f' <span class="actions">{buttons}</span>'


def history_page(title: str, rows: Sequence[dict[str, object]]) -> str:
    """A list's revisions: when, who wrote each (agent, command, by hand), what it
    changed, its recap."""
    items = []
    for row in rows:
        if row.get("by_hand"):
            who = "by hand"
        else:
            agent = row.get("agent")
            who = str(row.get("command") or "todo") + (f", agent {agent}" if agent else "")
        current = " (current)" if row.get("current") else ""
        items.append(
            f"<tr><td>#{escape(str(row.get('rev')))}{current}</td>"
            f"<td>{escape(str(row.get('time')))}</td><td>{escape(who)}</td>"
            f"<td>{escape(str(row.get('changed') or ''))}</td>"
            f"<td>{escape(str(row.get('recap')))}</td></tr>"
        )
    body = "".join(items) or '<tr><td colspan="5">No revisions yet.</td></tr>'
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light dark">'
        f"<title>History of {escape(title)}</title>"
        '<link rel="stylesheet" href="/static/board.css"></head><body>'
        f'<header><h1>History of {escape(title)}</h1><p><a href="./">Back to the board</a></p>'
        "</header><main><table><thead><tr><th>Revision</th><th>When</th><th>Who</th>"
        "<th>What changed</th>"
        f"<th>The list after it</th></tr></thead><tbody>{body}</tbody></table></main>"
        "</body></html>\n"
    )


def unreadable(key: str, title: str, message: str) -> str:
    """A list that cannot be read now: said so, in its place."""
    aid = anchor(key)
    return (
        f'<section class="list needs-you" id="{aid}" data-list="{escape(key)}" data-rev="0" '
        f'aria-labelledby="{aid}-h"><h2 id="{aid}-h">{escape(title)}</h2>'
        f'<p class="warning">Cannot be read: {escape(message)}</p></section>'
    )
