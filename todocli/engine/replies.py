"""The list in each agent tool's own shape: ``data.reply`` and ``todo show --as TOOL``.

For a tool that writes the whole list, the reply is that tool's payload for the
list as it stands (what its own read or result gives: Copilot's ``todoList`` with
its ids and statuses, Codex's ``plan``, Claude Code's ``todos`` with
``activeForm``), so sending it back to ``todo apply`` gives the same list. A status
the tool has no word for is given as its nearest one (abandoned as completed, blocked
as pending, for tools without them); sent back unchanged, such a value, or one the
reply fills in (an active form, a priority, an id), changes nothing (see ``echo``).
Claude Code's Task tools have no whole-list
write: their reply is ``TaskList``'s output.
"""

from __future__ import annotations

from todocli.document.model import Status, Task, TodoList, id_number

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from todocli.engine.dialects import Request

# Which tool a detected dialect's reply is given for.
DIALECT_TOOL = {
    "snapshot": "claude",
    "plan": "codex",
    "items": "claude",
    "ops": "oh-my-pi",
    "markdown": "goose",
    "query": "claude",
    "read": "claude",
    "claude-tasks": "claude-tasks",
    "copilot": "copilot",
    "openhands": "openhands",
    "zed": "zed",
    "cursor": "cursor",
    "continue": "continue",
    "cline": "cline",
    "goose": "goose",
    "augment": "augment",
    "kilo": "kilo",
    "roo": "roo",
    "droid": "droid",
    "gemini-tracker": "gemini",  # the tracker shows its tasks as write_todos' todos
}

_BASIC = {
    Status.PENDING: "pending",
    Status.IN_PROGRESS: "in_progress",
    Status.COMPLETED: "completed",
    Status.ABANDONED: "completed",
    Status.BLOCKED: "pending",
}


def _words(**changes: str) -> dict[Status, str]:
    return _BASIC | {Status.of(k): v for k, v in changes.items()}


GEMINI = _words(abandoned="cancelled", blocked="blocked")
CANCELLED = _words(abandoned="cancelled")
KIMI = _words(completed="done", abandoned="done")
COPILOT = _words(pending="not-started", in_progress="in-progress", blocked="not-started")
COPILOT |= {Status.COMPLETED: "completed", Status.ABANDONED: "completed"}
AMP = _words(pending="todo", in_progress="in-progress", blocked="todo")
OPENHANDS = _words(pending="todo", completed="done", abandoned="done", blocked="todo")
DROID = _BASIC


def _tasks(todo: TodoList) -> list[Task]:
    return [task for _, task in todo.tasks()]


def _ids(todo: TodoList) -> list[str]:
    """Each task's id, or its position when it has none (unique either way)."""
    taken = {t.meta.id for t in _tasks(todo) if t.meta.id}
    out = []
    n = 0
    for task in _tasks(todo):
        if task.meta.id:
            out.append(task.meta.id)
            continue
        n += 1
        while str(n) in taken:
            n += 1
        taken.add(str(n))
        out.append(str(n))
    return out


def _checklist(todo: TodoList, marks: dict[Status, str], bullet: str = "- ") -> str:
    return "\n".join(f"{bullet}[{marks[t.status]}] {t.content}" for t in _tasks(todo))


def claude(todo: TodoList) -> dict[str, Any]:
    return {
        "todos": [
            {
                "content": t.content,
                "status": _BASIC[t.status],
                "activeForm": t.active_form or t.content,
            }
            for t in _tasks(todo)
        ]
    }


def claude_tasks(todo: TodoList) -> dict[str, Any]:
    ids = _ids(todo)
    return {
        "tasks": [
            {"id": i, "subject": t.content, "status": _BASIC[t.status]}
            | ({"owner": t.meta.owner} if t.meta.owner else {})
            | {"blockedBy": list(t.meta.blocked_by)}
            for i, t in zip(ids, _tasks(todo), strict=True)
        ]
    }


def codex(todo: TodoList) -> dict[str, Any]:
    plan = [{"step": t.content, "status": _BASIC[t.status]} for t in _tasks(todo)]
    return ({"explanation": todo.summary} if todo.summary else {}) | {"plan": plan}


def gemini(todo: TodoList) -> dict[str, Any]:
    return {"todos": [{"description": t.content, "status": GEMINI[t.status]} for t in _tasks(todo)]}


def qwen(todo: TodoList) -> dict[str, Any]:
    return {
        "todos": [
            {"id": i, "content": t.content, "status": _BASIC[t.status]}
            | ({"blockedBy": list(t.meta.blocked_by)} if t.meta.blocked_by else {})
            for i, t in zip(_ids(todo), _tasks(todo), strict=True)
        ]
    }


def kimi(todo: TodoList) -> dict[str, Any]:
    return {"todos": [{"title": t.content, "status": KIMI[t.status]} for t in _tasks(todo)]}


def cursor(todo: TodoList) -> dict[str, Any]:
    return {
        "merge": False,
        "todos": [
            {"id": i, "content": t.content, "status": CANCELLED[t.status]}
            for i, t in zip(_ids(todo), _tasks(todo), strict=True)
        ],
    }


def copilot(todo: TodoList) -> dict[str, Any]:
    items = []
    for n, (i, t) in enumerate(zip(_ids(todo), _tasks(todo), strict=True), start=1):
        given = id_number(i)
        number = n if given is None else given
        items.append({"id": number, "title": t.content, "status": COPILOT[t.status]})
    return {"todoList": items}


def amp(todo: TodoList) -> dict[str, Any]:
    return {
        "todos": [
            {"id": i, "content": t.content, "status": AMP[t.status]}
            for i, t in zip(_ids(todo), _tasks(todo), strict=True)
        ]
    }


def opencode(todo: TodoList) -> dict[str, Any]:
    return {
        "todos": [
            {
                "content": t.content,
                "status": CANCELLED[t.status],
                "priority": t.meta.priority or "medium",
            }
            for t in _tasks(todo)
        ]
    }


def roo(todo: TodoList) -> dict[str, Any]:
    marks = {Status.PENDING: " ", Status.IN_PROGRESS: "-", Status.COMPLETED: "x"}
    marks |= {Status.ABANDONED: "x", Status.BLOCKED: " "}
    return {"todos": _checklist(todo, marks, bullet="")}


def cline(todo: TodoList) -> dict[str, Any]:
    marks = {Status.PENDING: " ", Status.IN_PROGRESS: " ", Status.COMPLETED: "x"}
    marks |= {Status.ABANDONED: "x", Status.BLOCKED: " "}
    return {"task_progress": _checklist(todo, marks)}


def goose(todo: TodoList) -> dict[str, Any]:
    return {"content": _checklist(todo, {s: s.marker for s in Status.ALL})}


def openhands(todo: TodoList) -> dict[str, Any]:
    return {
        "command": "plan",
        "task_list": [
            {
                "id": i,
                "title": t.content,
                "status": OPENHANDS[t.status],
                "notes": "\n".join(t.notes),
            }
            for i, t in zip(_ids(todo), _tasks(todo), strict=True)
        ],
    }


def crush(todo: TodoList) -> dict[str, Any]:
    return {
        "todos": [
            {
                "content": t.content,
                "status": _BASIC[t.status],
                "active_form": t.active_form or t.content,
            }
            for t in _tasks(todo)
        ]
    }


def zed(todo: TodoList) -> dict[str, Any]:
    steps = [{"title": t.content, "status": _BASIC[t.status]} for t in _tasks(todo)]
    return ({"title": todo.summary} if todo.summary else {}) | {"steps": steps}


def continue_(todo: TodoList) -> dict[str, Any]:
    marks = {Status.PENDING: " ", Status.IN_PROGRESS: " ", Status.COMPLETED: "x"}
    marks |= {Status.ABANDONED: "x", Status.BLOCKED: " "}
    return {"checklist": _checklist(todo, marks)}


def augment(todo: TodoList) -> dict[str, Any]:
    marks = {Status.PENDING: " ", Status.IN_PROGRESS: "/", Status.COMPLETED: "x"}
    marks |= {Status.ABANDONED: "-", Status.BLOCKED: " "}
    lines = ["[ ] UUID:root NAME:Current Task List DESCRIPTION:Root task for conversation"]
    for i, t in zip(_ids(todo), _tasks(todo), strict=True):
        description = " ".join(" ".join(t.notes).split())
        lines.append(f"-[{marks[t.status]}] UUID:{i} NAME:{t.content} DESCRIPTION:{description}")
    return {"markdown": "\n".join(lines)}


def droid(todo: TodoList) -> dict[str, Any]:
    lines = [f"{n}. [{DROID[t.status]}] {t.content}" for n, t in enumerate(_tasks(todo), start=1)]
    return {"todos": "\n".join(lines)}


def oh_my_pi(todo: TodoList) -> dict[str, Any]:
    ops: list[dict[str, Any]] = []
    if todo.phases:
        groups = [{"phase": p.name, "items": [t.content for t in p.tasks]} for p in todo.phases]
        init: dict[str, Any] = {"op": "init", "list": groups}
        if todo.summary:
            init["summary"] = todo.summary
        ops.append(init)
    verbs = {Status.COMPLETED: "done", Status.ABANDONED: "drop", Status.BLOCKED: "block"}
    verbs |= {Status.IN_PROGRESS: "start"}
    started = [t for t in _tasks(todo) if t.status is Status.IN_PROGRESS]
    # init replaces the list: its notes come back as note ops (a block's reason is
    # one of them, so the block op carries none).
    ops += [{"op": "note", "task": t.content, "text": n} for t in _tasks(todo) for n in t.notes]
    for task in _tasks(todo):
        verb = verbs.get(task.status)
        if verb is not None and verb != "start":
            ops.append({"op": verb, "task": task.content})
    ops += [{"op": "start", "task": t.content} for t in started]
    if not ops:
        return {"ops": [{"op": "init", "list": []}]}
    return {"ops": ops}


TOOLS: dict[str, Callable[[TodoList], dict[str, Any]]] = {
    "claude": claude,
    "claude-tasks": claude_tasks,
    "codex": codex,
    "gemini": gemini,
    "qwen": qwen,
    "kimi": kimi,
    "cursor": cursor,
    "copilot": copilot,
    "amp": amp,
    "opencode": opencode,
    "kilo": opencode,
    "roo": roo,
    "cline": cline,
    "openhands": openhands,
    "goose": goose,
    "crush": crush,
    "zed": zed,
    "continue": continue_,
    "augment": augment,
    "droid": droid,
    "oh-my-pi": oh_my_pi,
}


def reply(tool: str, todo: TodoList) -> dict[str, Any]:
    """The list in this tool's shape (``tool`` a key of ``TOOLS``)."""
    return TOOLS[tool](todo)


# Tool names as hooks report them → the reply's tool, where the name settles it.
TOOL_NAMES = {
    "TodoWrite": "claude",
    "TodoRead": "claude",
    "TaskCreate": "claude-tasks",
    "TaskUpdate": "claude-tasks",
    "TaskList": "claude-tasks",
    "TaskGet": "claude-tasks",
    "write_todos": "gemini",
    "SetTodoList": "kimi",
    "manage_todo_list": "copilot",
    "todowrite": "opencode",
    "todoread": "opencode",
    "update_todo_list": "roo",
    "task_tracker": "openhands",
    "todos": "crush",
    "Checklist": "continue",
    "add_tasks": "augment",
    "update_tasks": "augment",
    "view_tasklist": "augment",
    "reorganize_tasklist": "augment",
    "tracker_create_task": "gemini",
    "tracker_update_task": "gemini",
    "tracker_add_dependency": "gemini",
    "tracker_get_task": "gemini",
    "tracker_list_tasks": "gemini",
    "tracker_visualize": "gemini",
}


def sender(req: Request) -> str:
    """The tool whose shape a parsed input has (a hook's tool name settles it)."""
    params, tool = req.params, None
    if req.hook is not None and isinstance(params, dict):
        tool = params.get("tool_name")
        params = params.get("tool_input")
    return tool_of(req.dialect, params, tool if isinstance(tool, str) else None)


def tool_of(dialect: str, params: object, tool_name: str | None = None) -> str:
    """Which tool's shape to reply in, from the hook's tool name when it settles
    it, else from the payload: its dialect, and for a plain ``todos`` array the
    keys of its items (``description``: Gemini; ``title``: Kimi; ...)."""
    if tool_name in TOOL_NAMES:
        return TOOL_NAMES[tool_name]
    if tool_name == "todo_write" and dialect == "snapshot":
        pass  # Qwen, Cursor or Amp: the items tell
    elif dialect in DIALECT_TOOL and dialect not in ("snapshot", "query"):
        return DIALECT_TOOL[dialect]
    todos = params.get("todos") if isinstance(params, dict) else params
    first = todos[0] if isinstance(todos, list) and todos else None
    if not isinstance(first, dict):
        return "claude"
    keys = set(first)
    assert isinstance(todos, list)
    statuses = {str(t.get("status", "")).lower() for t in todos if isinstance(t, dict)}
    if "description" in keys and "content" not in keys:
        return "gemini"
    if "title" in keys:
        return "kimi"
    if "active_form" in keys:
        return "crush"
    if statuses & {"todo", "in-progress"}:
        return "amp"
    if "priority" in keys:
        return "opencode" if "id" not in keys else "claude"
    if "id" in keys:
        return "qwen"
    return "claude"
