"""Rich output for a person at a terminal: a coloured tree with per-phase progress,
the active form of the task in progress and its notes.

Only imported when stdout is a terminal. Task text goes into ``Text`` objects (never
parsed as markup) after ``escapes.safe`` has turned every character that could drive
a terminal into an escape, so nothing in a task can style or drive the terminal.
"""

from __future__ import annotations

from typing import IO

from rich.console import Console, Group
from rich.text import Text
from rich.tree import Tree

from todocli.app.commands import Outcome
from todocli.app.render import change_lines, error_lines
from todocli.document.model import Status, TodoList, block_reason
from todocli.engine.claims import list_waiting
from todocli.escapes import one_line, safe

COLLAPSE = 8  # tasks shown per phase unless --all
STYLE = {
    Status.PENDING: ("[ ]", "default"),
    Status.IN_PROGRESS: ("[/]", "bold yellow"),
    Status.COMPLETED: ("[x]", "green"),
    Status.ABANDONED: ("[-]", "dim strike"),
    Status.BLOCKED: ("[!]", "red"),
}


def _visible(tasks: list[tuple[int, Status]], show_all: bool) -> set[int]:
    """Which tasks of a phase to show: all, or up to 8, open ones first."""
    if show_all or len(tasks) <= COLLAPSE:
        return {n for n, _ in tasks}
    open_first = sorted(tasks, key=lambda item: (not item[1].is_open, item[0]))
    return {n for n, _ in open_first[:COLLAPSE]}


def tree(todo: TodoList, show_all: bool, notes: bool = False) -> Group:
    parts: list[Text | Tree] = []
    if todo.summary:
        parts.append(Text(safe(todo.summary), style="bold"))
    n = 0
    waits = list_waiting(todo) if any(t.meta.blocked_by for _, t in todo.tasks()) else {}
    for phase in todo.phases:
        done = sum(1 for t in phase.tasks if not t.status.is_open)
        label = Text(safe(phase.name), style="bold cyan")
        label.append(f"  {done}/{len(phase.tasks)}", style="dim")
        node = Tree(label, guide_style="dim")
        numbered = [(n + i + 1, t.status) for i, t in enumerate(phase.tasks)]
        shown = _visible(numbered, show_all)
        for task in phase.tasks:
            n += 1
            if n not in shown:
                continue
            mark, style = STYLE[task.status]
            line = Text(f"#{n} ", style="dim")
            line.append(mark + " ", style=style)
            line.append(
                safe(task.content), style=style if task.status is not Status.PENDING else ""
            )
            if task.optional:
                line.append(" (optional)", style="dim")
            if task.meta.owner:
                line.append(f" (owner: {safe(task.meta.owner)})", style="magenta")
            if n in waits:
                on = ", ".join(f"#{d}" for d in waits[n])
                line.append(f" (waiting on {on})", style="dim")
            reason = block_reason(task) if task.status is Status.BLOCKED else None
            if reason is not None:
                line.append(f" (blocked: {safe(reason)})", style="red")
            if len(task.notes) > (reason is not None) and not notes:
                line.append(f" (+{len(task.notes) - (reason is not None)})", style="dim")
            if task.status is Status.IN_PROGRESS and task.active_form:
                line.append(f"  {safe(task.active_form)}…", style="italic yellow")
            branch = node.add(line)
            if task.status is Status.IN_PROGRESS or notes:
                for note in task.notes:
                    branch.add(Text(safe(note), style="italic"))
        hidden = len(phase.tasks) - len(shown)
        if hidden:
            node.add(Text(f"… {hidden} more (todo show --all)", style="dim"))
        parts.append(node)
    parts.append(Text(safe(todo.recap()), style="dim"))
    return Group(*parts)


def render(
    outcome: Outcome, stream: IO[str], *, show_all: bool, color: bool, notes: bool = False
) -> None:
    console = Console(
        file=stream,
        no_color=not color,
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=False,
    )
    result = outcome.result
    if outcome.error is not None:
        console.print(Text(f"Error: {one_line(outcome.error.message)}", style="bold red"))
        shown = getattr(outcome.error, "tail", "")
        if shown:
            console.print(Text(shown))  # a failed check's output, escaped, its lines kept
    elif result is not None and result.errors:
        for line in error_lines(result):
            console.print(Text(f"Error: {one_line(line)}", style="bold red"))
    for line in change_lines(outcome):
        style = "yellow" if line.startswith("Warning") else "green"
        console.print(Text(line, style=style))  # escaped by change_lines
    if outcome.todo.tasks():
        console.print(tree(outcome.todo, show_all, notes))
    elif result is not None and result.written and not result.query:
        console.print(Text("Todo list cleared.", style="dim"))
    else:
        console.print(Text('Todo list is empty. Add a task: todo add "..."', style="dim"))
