"""Every coding agent's own todo tool, read as its tool means it (issue 12).

``dialects.request`` hands a JSON object here first. A shape is recognised by its
keys (no flag), or by the tool's name when a hook envelope gives it; what each
field means follows the tool's source (docs/agent-tools.md). Checklists inside
JSON strings are read with the marker table of the tool that sends them, never
with todocli's own markdown reader: Roo's ``[-]`` is in progress, todocli's is
abandoned.
"""

from __future__ import annotations

from todocli.document.model import Meta, Status, id_number
from todocli.engine.ops import Op, OpKind
from todocli.escapes import quoted

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

    from todocli.engine.dialects import Request
    from todocli.engine.snapshot import Item

# Marker tables of the tools that send checklists as strings.
ROO = {" ": Status.PENDING, "x": Status.COMPLETED, "X": Status.COMPLETED}
ROO |= {"-": Status.IN_PROGRESS, "~": Status.IN_PROGRESS}
CONTINUE = {" ": Status.PENDING, "x": Status.COMPLETED, "X": Status.COMPLETED}
CONTINUE |= {"*": Status.IN_PROGRESS, "~": Status.ABANDONED}
AUGMENT = {" ": Status.PENDING, "x": Status.COMPLETED, "/": Status.IN_PROGRESS}
AUGMENT |= {"-": Status.ABANDONED}
CHECKLIST = {" ": Status.PENDING, "": Status.PENDING, "x": Status.COMPLETED, "X": Status.COMPLETED}
CHECKLIST |= {"/": Status.IN_PROGRESS, ">": Status.IN_PROGRESS, "-": Status.ABANDONED}
CHECKLIST |= {"~": Status.ABANDONED, "!": Status.BLOCKED}

# Tool names (as hooks report them) → the reader of their arguments.
TOOLS = {
    "TodoWrite": "claude",  # Claude Code; Factory Droid's TodoWrite sends a string
    "TodoRead": "read",
    "TaskCreate": "task_create",
    "TaskUpdate": "task_update",
    "TaskList": "read",
    "TaskGet": "read",
    "update_plan": "plan",  # Codex (plan) and Zed (steps)
    "write_todos": "generic",  # Gemini CLI
    "todo_write": "generic",  # Qwen, Cursor, Amp, Goose, Continue PR, oh-my-pi
    "todo_read": "read",
    "SetTodoList": "generic",
    "manage_todo_list": "generic",
    "todowrite": "generic",  # OpenCode, Kilo
    "todoread": "read",
    "update_todo_list": "generic",  # Roo
    "task_tracker": "generic",  # OpenHands
    "todos": "generic",  # Crush, Continue PR
    "Checklist": "generic",  # Continue cn
    "add_tasks": "generic",  # Augment
    "update_tasks": "generic",
    "view_tasklist": "read",
    "reorganize_tasklist": "generic",
    "tracker_create_task": "generic",  # Gemini CLI's tracker (experimental)
    "tracker_update_task": "generic",
    "tracker_add_dependency": "generic",
    "tracker_get_task": "read",
    "tracker_list_tasks": "read",
    "tracker_visualize": "read",
}

# Gemini CLI tracker statuses → ours (its own display maps them the same way).
TRACKER = {"open": "pending", "in_progress": "in_progress", "blocked": "blocked"}
TRACKER |= {"closed": "completed"}
TRACKER_CREATE = {"title", "description", "type", "parentId", "dependencies"}
TRACKER_UPDATE = {"id", "title", "description", "status", "dependencies"}


class Parsed:
    """What a tool's payload asks for: a query, a whole list, or updates."""

    __slots__ = ("dialect", "items", "merge", "summary", "warnings")

    def __init__(
        self,
        dialect: str,
        items: list[Item] | None = None,
        summary: str | None = None,
        merge: bool = False,
        warnings: list[str] | None = None,
    ) -> None:
        self.dialect = dialect
        self.items = items  # None: a read
        self.summary = summary
        self.merge = merge
        self.warnings = warnings or []


def _err(message: str) -> Exception:
    from todocli.engine.dialects import InputError

    return InputError(message)


def detect(value: dict[str, Any], tool: str | None = None) -> Parsed | None:
    """The payload of an agent's tool, or None when it is one of todocli's own
    shapes (ops, ``todos`` / ``plan`` / ``items`` snapshots) for ``dialects``."""
    from todocli.engine.dialects import _snapshot_items

    keys = set(value)
    reader = TOOLS.get(tool or "")
    if reader == "read":
        return Parsed(tool or "read")
    if tool == "tracker_create_task" or ({"title", "type"} <= keys <= TRACKER_CREATE):
        return _tracker_create(value)
    if tool == "tracker_update_task" or (
        "id" in keys and keys != {"id"} and keys <= TRACKER_UPDATE
    ):
        return _tracker_update(value)
    if tool == "tracker_add_dependency" or keys == {"taskId", "dependencyId"}:
        return _tracker_dependency(value)
    if keys == {"id"} or (keys and keys <= {"status", "type", "parentId"}):
        return Parsed("gemini-tracker")  # tracker_get_task, tracker_list_tasks: reads
    if tool == "TaskCreate" or (
        keys and keys <= {"subject", "description", "activeForm", "metadata"} and "subject" in keys
    ):
        return _task_create(value)
    if tool == "TaskUpdate" or ("taskId" in keys and keys != {"taskId"}):
        return _task_update(value)
    if keys == {"taskId"}:  # TaskGet
        return Parsed("claude-tasks")
    if "task_progress" in keys:  # Cline: a parameter of any tool
        text = value["task_progress"]
        if not isinstance(text, str):
            raise _err("task_progress: expected a string")
        return _lines(text, "task_progress", CHECKLIST, "cline")
    if "todoList" in keys or "operation" in keys:  # VS Code Copilot manage_todo_list
        _only(value, {"todoList", "operation"}, "manage_todo_list")
        if value.get("operation") == "read" or "todoList" not in keys:
            return Parsed("copilot")
        return Parsed("copilot", _snapshot_items(value["todoList"], "todoList"))
    if "command" in keys or "task_list" in keys:  # OpenHands task_tracker
        _only(value, {"command", "task_list"}, "task_tracker")
        if value.get("command", "view") == "view" or value.get("task_list") is None:
            return Parsed("openhands")
        if value.get("command") != "plan":
            raise _err(
                f"command: unknown command {quoted(value.get('command'))} (use plan or view)"
            )
        return Parsed("openhands", _snapshot_items(value["task_list"], "task_list"))
    if "steps" in keys:  # Zed update_plan
        _only(value, {"steps", "title"}, "update_plan")
        summary = _string(value, "title")
        return Parsed("zed", _snapshot_items(value["steps"], "steps"), summary)
    if "merge" in keys:  # Cursor todo_write
        _only(value, {"merge", "todos"}, "todo_write")
        if not isinstance(value["merge"], bool):
            raise _err("merge: expected a boolean")
        todos = value.get("todos")
        if not isinstance(todos, list):
            raise _err("todos: expected an array")
        if not value["merge"]:
            return Parsed("cursor", _snapshot_items(todos, "todos"))
        patches = [_patch(raw, f"todos[{i}]") for i, raw in enumerate(todos)]
        return Parsed("cursor", patches, merge=True)
    if "checklist" in keys:  # Continue cn Checklist
        _only(value, {"checklist"}, "Checklist")
        return _lines(_string(value, "checklist") or "", "checklist", CHECKLIST, "continue")
    if "markdown" in keys:  # Augment reorganize_tasklist, or Continue PR #6714 todo_write
        _only(value, {"markdown"}, "todo_write")
        text = _string(value, "markdown") or ""
        if tool == "reorganize_tasklist" or "UUID:" in text:
            return _augment_tree(text)
        return _lines(text, "markdown", CONTINUE, "continue")
    if keys == {"content"} and isinstance(value["content"], str):  # Goose todo_write
        return _lines(value["content"], "content", CHECKLIST, "goose")
    if "tasks" in keys:  # Augment add_tasks / update_tasks; Claude Code TaskList's output
        _only(value, {"tasks"}, "add_tasks")
        tasks = value["tasks"]
        if not isinstance(tasks, list):
            raise _err("tasks: expected an array")
        if tasks and all(isinstance(t, dict) and "subject" in t for t in tasks):
            return _task_list(tasks)
        if tasks and all(isinstance(t, dict) and "task_id" in t for t in tasks):
            patches = [_patch(raw, f"tasks[{i}]") for i, raw in enumerate(tasks)]
            return Parsed("augment", patches, merge=True)
        warnings = []
        bodies = []
        for i, raw in enumerate(tasks):
            body = dict(raw) if isinstance(raw, dict) else raw
            if isinstance(body, dict):
                if "state" in body:
                    body["status"] = body.pop("state")
                for key in ("parent_task_id", "after_task_id"):
                    if body.pop(key, None) is not None:
                        warnings.append(f"tasks[{i}].{key}: todocli keeps a flat list; ignored")
            bodies.append(body)
        items = _snapshot_items(bodies, "tasks")
        added = []
        for item in items:
            given = frozenset({"content", "status", "notes", "new_id"})
            added.append(item.replace(given=given))
        return Parsed("augment", added, merge=True, warnings=warnings)
    if isinstance(value.get("todos"), str):  # Roo, Droid, Kilo: one string
        text = value["todos"]
        _only(value, {"todos"}, "todos")
        if text.lstrip().startswith("["):  # Kilo (and Droid): the array as JSON
            from todocli.engine.dialects import loads_json

            try:
                parsed = loads_json(text, "todos: the array in the string: ")
            except ValueError:
                parsed = None
            if isinstance(parsed, list):
                return Parsed("kilo", _snapshot_items(parsed, "todos"))
        words = ("[pending]", "[in_progress]", "[completed]")
        dialect = "droid" if any(w in text for w in words) else "roo"
        return _lines(text, "todos", ROO, dialect)
    todos = value.get("todos")
    texts = ("content", "title", "subject", "name", "text", "step", "description")
    if (
        isinstance(todos, list)
        and todos
        and keys <= {"todos", "summary"}
        and all(isinstance(t, dict) and "id" in t and not any(k in t for k in texts) for t in todos)
    ):  # id-only items: they update only the tasks they name
        patches = [_patch(raw, f"todos[{i}]") for i, raw in enumerate(todos)]
        return Parsed("snapshot", patches, _string(value, "summary"), merge=True)
    return None  # todocli's own shapes (and the agents' "todos" arrays)


def _only(value: dict[str, Any], allowed: set[str], tool: str) -> None:
    for key in value:
        if key not in allowed:
            raise _err(
                f"unknown key {quoted(key)} for {tool} (it takes: {', '.join(sorted(allowed))})"
            )


def _string(value: dict[str, Any], key: str) -> str | None:
    got = value.get(key)
    if got is None:
        return None
    if not isinstance(got, str):
        raise _err(f"{key}: expected a string")
    return got


def _patch(raw: object, path: str) -> Item:
    """One update of a merge: only the fields it gives change."""
    from todocli.engine.dialects import _item
    from todocli.engine.snapshot import Item

    if not isinstance(raw, dict):
        raise _err(f"{path}: expected an object")
    given = set()
    texts = [k for k in ("content", "title", "name", "subject", "description") if k in raw]
    body = dict(raw)
    task_id = body.pop("task_id", None)
    if task_id is not None:
        body["id"] = augment_id(task_id) if isinstance(task_id, str) else task_id
    state = body.pop("state", None)
    if state is not None:
        body["status"] = state
    deleted = body.get("status") == "deleted"  # Claude Code TaskUpdate: remove it
    if deleted:
        del body["status"]
    if texts:
        given.add("content")
    if "status" in body:
        given.add("status")
    if "activeForm" in body or "active_form" in body:
        given.add("active_form")
    if "priority" in body:
        given.add("priority")
    if "blockedBy" in body:
        given.add("blocked_by")
    if not texts:
        body["content"] = ""
    item = _item(body, path)
    if item.notes is not None:
        given.add("notes")
    if deleted:
        given.add("delete")
    return item.replace(given=frozenset(given)) if isinstance(item, Item) else item


def _task_create(value: dict[str, Any]) -> Parsed:
    """Claude Code TaskCreate: a new task, id "1", "2", ... (the highest + 1)."""
    _only(value, {"subject", "description", "activeForm", "metadata"}, "TaskCreate")
    from todocli.engine.dialects import _item

    body = {k: v for k, v in value.items() if k != "metadata"}
    if "subject" not in body:
        raise _err("missing subject (TaskCreate takes subject, description, activeForm)")
    item = _item(body, "")
    given = {"content", "status", "notes", "new_id"}
    if "activeForm" in value:
        given.add("active_form")
    return Parsed("claude-tasks", [item.replace(given=frozenset(given))], merge=True)


def _task_update(value: dict[str, Any]) -> Parsed:
    """Claude Code TaskUpdate: change the given fields of one task, by id."""
    allowed = {"taskId", "subject", "description", "activeForm", "status"}
    allowed |= {"addBlocks", "addBlockedBy", "owner", "metadata"}
    _only(value, allowed, "TaskUpdate")
    task_id = value.get("taskId")
    if not isinstance(task_id, str):
        raise _err("taskId: expected a string")
    body: dict[str, Any] = {"id": task_id}
    for key in ("subject", "description", "activeForm", "status"):
        if key in value:
            body[key] = value[key]
    item = _patch(body, "")
    given = set(item.given or ())
    meta = item.meta or Meta(task_id)
    if "addBlockedBy" in value:
        deps = value["addBlockedBy"]
        if not isinstance(deps, list) or not all(isinstance(d, str) for d in deps):
            raise _err("addBlockedBy: expected an array of strings")
        meta = Meta(meta.id, meta.priority, tuple(deps), meta.owner)
        given.add("add_blocked_by")
    if isinstance(value.get("owner"), str):
        meta = Meta(meta.id, meta.priority, meta.blocked_by, value["owner"])
        given.add("owner")
    patches = [item.replace(meta=meta, given=frozenset(given))]
    for i, other in enumerate(value.get("addBlocks") or ()):
        if not isinstance(other, str):
            raise _err(f"addBlocks[{i}]: expected a string")
        from todocli.engine.snapshot import Item

        patches.append(
            Item("", meta=Meta(other, None, (task_id,)), given=frozenset({"add_blocked_by"}))
        )
    return Parsed("claude-tasks", patches, merge=True)


TASK_LIST_KEYS = {"id", "subject", "description", "activeForm", "status", "owner", "blockedBy"}


def _task_list(tasks: list[Any]) -> Parsed:
    """Claude Code's Task tasks, as ``TaskList`` gives them (``todo show --as
    claude-tasks``): each updates the task of its id, as ``TaskUpdate`` does, or is
    added when no task has that id."""
    patches = []
    for i, raw in enumerate(tasks):
        path = f"tasks[{i}]"
        for key in raw:
            if key not in TASK_LIST_KEYS:
                raise _err(
                    f"{path}: unknown key {quoted(key)} for a Claude Code task "
                    f"(it takes: {', '.join(sorted(TASK_LIST_KEYS))})"
                )
        owner = raw.get("owner")
        if owner is not None and not isinstance(owner, str):
            raise _err(f"{path}.owner: expected a string")
        item = _patch({k: v for k, v in raw.items() if k != "owner"}, path)
        if owner:
            meta = item.meta or Meta()
            meta = Meta(meta.id, meta.priority, meta.blocked_by, owner)
            item = item.replace(meta=meta, given=(item.given or frozenset()) | {"owner"})
        patches.append(item)
    return Parsed("claude-tasks", patches, merge=True)


# Where state.json keeps the highest task id todo ever gave or saw (per list).
MARK_KEY = "task_id_mark"


def _number(task_id: str | None) -> int | None:
    return id_number(task_id)


def number_new_tasks(
    ops: Sequence[Op], ids: Iterable[str | None], mark: int
) -> tuple[list[Op], int]:
    """Claude Code's ids: a new task gets the highest id ever used + 1, so an id is
    never given again once its task is deleted (its ``.highwatermark``). ``ids`` are
    the list's ids before the batch and ``mark`` the highest one seen until now;
    returns the ops with each new task's id filled in, and the new mark."""
    top = max([mark, *(n for n in map(_number, ids) if n is not None)])
    out: list[Op] = []
    for op in ops:
        if op.kind is not OpKind.WRITE or not op.merge or not op.todos:
            out.append(op)
            continue
        items = []
        for item in op.todos:
            given = item.given or frozenset()
            meta = item.meta or Meta()
            if "new_id" in given:
                top += 1
                meta = Meta(str(top), meta.priority, meta.blocked_by, meta.owner)
                item = item.replace(meta=meta, given=given - {"new_id"})
            elif "content" in given:  # created with the tool's own id (a hook's result)
                top = max(top, _number(meta.id) or 0)
            items.append(item)
        out.append(
            Op(
                op.kind,
                todos=tuple(items),
                summary=op.summary,
                merge=True,
                path=op.path,
                summary_path=op.summary_path,
            )
        )
    return out, top


def moves_the_mark(ops: Sequence[Op]) -> bool:
    """Whether a batch creates or deletes tasks by id, which may move the id
    high-water mark (state.json is read only then)."""
    for op in ops:
        for item in (op.todos or ()) if op.merge else ():
            given = item.given or frozenset()
            if "new_id" in given or "delete" in given:
                return True
            if "content" in given and _number(item.meta.id if item.meta else None) is not None:
                return True
    return False


def _tracker_create(value: dict[str, Any]) -> Parsed:
    """Gemini CLI ``tracker_create_task``: a new open task; the tracker makes its id
    (6 hex characters, known from the result only)."""
    from todocli.engine.dialects import _item

    _only(value, TRACKER_CREATE, "tracker_create_task")
    if "title" not in value:
        raise _err("missing title (tracker_create_task takes title, description, type)")
    body: dict[str, Any] = {"title": value["title"], "status": "pending"}
    if value.get("description"):
        body["notes"] = [value["description"]]
    if value.get("dependencies") is not None:
        body["blockedBy"] = value["dependencies"]
    item = _item(body, "")
    warnings = []
    kind = value.get("type")
    if kind is not None and kind != "task":
        warnings.append(f'tracker_create_task: type "{kind}" is not kept (todocli has no types)')
    if value.get("parentId") is not None:
        warnings.append("tracker_create_task.parentId: todocli keeps a flat list; ignored")
    given = {"content", "status", "notes", "new_id"} | (
        {"blocked_by"} if "blockedBy" in body else set()
    )
    return Parsed(
        "gemini-tracker", [item.replace(given=frozenset(given))], merge=True, warnings=warnings
    )


def _tracker_update(value: dict[str, Any]) -> Parsed:
    """Gemini CLI ``tracker_update_task``: the given fields of one task, by id;
    ``description`` replaces the task's note, ``dependencies`` its list."""
    _only(value, TRACKER_UPDATE, "tracker_update_task")
    task_id = value.get("id")
    if not isinstance(task_id, str):
        raise _err("id: expected a string")
    body: dict[str, Any] = {"id": task_id}
    if "title" in value:
        body["content"] = value["title"]
    if "description" in value:
        body["notes"] = [value["description"]] if value["description"] else []
    if "status" in value:
        status = value["status"]
        body["status"] = TRACKER.get(status, status) if isinstance(status, str) else status
    if "dependencies" in value:
        body["blockedBy"] = value["dependencies"]
    return Parsed("gemini-tracker", [_patch(body, "")], merge=True)


def _tracker_dependency(value: dict[str, Any]) -> Parsed:
    """Gemini CLI ``tracker_add_dependency``: ``taskId`` waits on ``dependencyId``."""
    from todocli.engine.snapshot import Item

    _only(value, {"taskId", "dependencyId"}, "tracker_add_dependency")
    task_id, dependency = value.get("taskId"), value.get("dependencyId")
    if not isinstance(task_id, str) or not isinstance(dependency, str):
        raise _err("taskId and dependencyId: expected strings")
    patch = Item("", meta=Meta(task_id, None, (dependency,)), given=frozenset({"add_blocked_by"}))
    return Parsed("gemini-tracker", [patch], merge=True)


def _lines(text: str, key: str, markers: dict[str, Status], dialect: str) -> Parsed:
    """A checklist in a string, read with its tool's markers: one task a line.
    Lines that hold no item are not kept, and each is reported as a warning. A
    fenced code block is code, as markdown reads it (``todo apply --markdown``):
    its lines are not read, and one warning says so."""
    from todocli.engine.snapshot import Item

    items: list[Item] = []
    warnings: list[str] = []
    in_comment = False
    fence = ""  # the open code fence (``` or ~~~, as long as it was), if any
    fenced_from = 0
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if fence:
            if line.startswith(fence) and not line.strip(fence[0]):
                fence = ""
                warnings.append(f"{key}: lines {fenced_from}-{n} are a code block, not read")
            continue
        opening = _fence_at(line)
        if opening and not in_comment:
            fence, fenced_from = opening, n
            continue
        if in_comment or line.startswith("<!--"):
            in_comment = "-->" not in line
            continue
        if not line:
            continue
        found = _checklist_line(line, markers)
        if found is None:
            warnings.append(f"{key}: line {n} is not a checklist item, ignored: {line[:60]}")
            continue
        status, content = found
        if status is None:
            warnings.append(f"{key}: line {n}: unknown status marker, read as pending")
            status = Status.PENDING
        items.append(Item(content, status, path=key, key=key, keep_active_form=True))
    if fence:  # never closed: code to the end, as markdown reads it
        warnings.append(f"{key}: lines {fenced_from}- are a code block (never closed), not read")
    if not items and text.strip():
        raise _err(
            f'{key}: no checklist item in the text: send lines like "- [ ] task" '
            "(an empty list is cleared only by an empty string)"
        )
    return Parsed(dialect, items, warnings=warnings)


def _fence_at(line: str) -> str:
    """The code fence a (stripped) line opens: 3 or more backticks or tildes (a
    backtick fence's info string holds no backtick), else ""."""
    mark = line[:1]
    if mark not in ("`", "~"):
        return ""
    size = len(line) - len(line.lstrip(mark))
    if size < 3 or (mark == "`" and "`" in line[size:]):
        return ""
    return line[:size]


_WORDS = {"pending": Status.PENDING, "in_progress": Status.IN_PROGRESS}
_WORDS |= {"completed": Status.COMPLETED, "cancelled": Status.ABANDONED}


def _checklist_line(line: str, markers: dict[str, Status]) -> tuple[Status | None, str] | None:
    """``- [x] text``, ``[-] text``, ``1. [completed] text`` (Droid) → status, text."""
    rest = line
    if rest[:1] in "-*+" and rest[1:2] in (" ", "["):
        rest = rest[1:].lstrip()
    else:
        digits = len(rest) - len(rest.lstrip("0123456789"))
        if digits and rest[digits : digits + 1] in (".", ")"):
            rest = rest[digits + 1 :].lstrip()
    if not rest.startswith("["):
        return None
    close = rest.find("]")
    if close < 0:
        return None
    inner, content = rest[1:close].strip(), rest[close + 1 :].strip()
    if not content:
        return None
    if inner in markers or (inner == "" and " " in markers):
        return markers.get(inner, Status.PENDING), content
    word = inner.lower().replace("-", "_")
    if word in _WORDS:
        return _WORDS[word], content
    return None, content


def _augment_tree(text: str) -> Parsed:
    """Augment reorganize_tasklist: ``-[x] UUID:u NAME:n DESCRIPTION:d`` lines; the
    root (no dash) is the conversation's, not a task."""
    from todocli.engine.snapshot import Item

    items: list[Item] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        depth = len(line) - len(line.lstrip("-"))
        body = line[depth:]
        if not body.startswith("[") or "]" not in body[:3]:
            raise _err(f"markdown: line {n}: expected [ ] UUID:... NAME:... DESCRIPTION:...")
        state, fields = body[1], body[3:].strip()
        if depth == 0:
            continue  # the root task: "Current Task List"
        uuid, _, rest = fields.partition(" NAME:")
        name, _, description = rest.partition(" DESCRIPTION:")
        uuid = augment_id(uuid.removeprefix("UUID:").strip())
        status = AUGMENT.get(state, Status.PENDING)
        meta = None if uuid in ("", "NEW_UUID") else Meta(uuid)
        notes = (description.strip(),) if description.strip() else ()
        # Only the id is given: a priority or dependencies the task has are kept.
        items.append(
            Item(
                name.strip(),
                status,
                None,
                None,
                notes,
                True,
                "markdown",
                "markdown",
                meta=meta,
                given=frozenset(),
            )
        )
    return Parsed("augment", items)


def envelope(value: dict[str, Any]) -> Request:
    """A harness hook's stdin: ``tool_name`` + ``tool_input`` (+ ``session_id``)."""
    from todocli.engine.dialects import Request, request

    tool = value.get("tool_name")
    arguments = value.get("tool_input")
    event = value.get("hook_event_name")
    session = value.get("session_id", value.get("conversation_id"))  # Augment: conversation_id
    hook = Hook(
        str(event) if isinstance(event, str) else "",
        safe_session(session) if isinstance(session, str) else None,
    )
    for key in ("tool_name", "tool_input"):
        if key not in value:
            raise _err(
                f'a hook envelope needs "tool_name" and "tool_input" (the tool\'s arguments); '
                f'"{key}" is missing (e.g. {{"tool_name": "TodoWrite", "tool_input": '
                '{"todos": []}})'
            )
    if not isinstance(tool, str) or not isinstance(arguments, dict):
        raise _err("tool_name and tool_input: expected a string and an object")
    response = value.get("tool_response")
    failed = value.get("tool_error")  # Augment; Gemini and Claude Code: tool_response.error
    if isinstance(response, dict) and response.get("error"):
        failed = response["error"]
    if failed:  # the call failed: the agent's list is as it was
        req = Request((Op(OpKind.VIEW),), "ignored", value)
        req.ignored = True
    elif tool in TOOLS or tool.startswith("mcp__"):
        if tool in TOOLS:
            req = request(arguments, tool)
            # PostToolUse: Claude Code's tool_response, Augment's tool_output
            result = value.get("tool_response", value.get("tool_output"))
            if result is not None and not req.query:
                req.ops, found = with_result_ids(req.ops, tool, result)
                req.warnings += tuple(found)
        else:
            req = Request((Op(OpKind.VIEW),), "ignored", value)
            req.ignored = True
    elif isinstance(arguments.get("task_progress"), str):  # Cline: any tool carries it
        req = request({"task_progress": arguments["task_progress"]}, tool)
    else:
        req = Request((Op(OpKind.VIEW),), "ignored", value)
        req.ignored = True
    req.hook = hook
    req.params = value
    return req


def envelope_target(value: dict[str, Any]) -> tuple[bool, str | None]:
    """Of a hook envelope ``envelope`` could not read: whether it is a todo tool's
    call (or Cline's ``task_progress``), and the session it names (made safe)."""
    tool = value.get("tool_name")
    arguments = value.get("tool_input")
    session = value.get("session_id", value.get("conversation_id"))
    todo_tool = tool in TOOLS or (
        isinstance(arguments, dict) and isinstance(arguments.get("task_progress"), str)
    )
    return todo_tool, safe_session(session) if isinstance(session, str) else None


def with_result_ids(
    ops: tuple[Op, ...], tool: str, result: object
) -> tuple[tuple[Op, ...], list[str]]:
    """The ids a tool gave the tasks it created, read from its result (a hook's
    PostToolUse envelope carries it), put on those tasks: Claude Code's
    ``TaskCreate`` answers ``{task: {id, ...}}``; Gemini CLI's ``tracker_create_task``
    ``{llmContent: "Created task <id>: <title>"}``; Augment's ``add_tasks`` and
    ``reorganize_tasklist`` answer text whose ``## Created Tasks`` section has a
    ``[ ] UUID:<id> NAME:<name> DESCRIPTION:<text>`` line per new task.
    Returns the ops and a warning for each new task the result does not name."""
    created: list[tuple[str, str]] = []  # (name, id) in the result's order
    if tool == "TaskCreate" and isinstance(result, dict):
        task = result.get("task")
        if isinstance(task, dict) and isinstance(task.get("id"), str):
            created.append((str(task.get("subject", "")), task["id"]))
    elif tool in ("add_tasks", "reorganize_tasklist") and isinstance(result, str):
        created = augment_created(result)
    elif tool == "tracker_create_task" and isinstance(result, dict):
        text = result.get("llmContent")
        if isinstance(text, str) and text.startswith("Created task "):
            task_id, _, title = text[len("Created task ") :].partition(": ")
            created.append((title, task_id))
    else:
        return ops, []
    warnings: list[str] = []
    out = []
    for op in ops:
        if op.kind is not OpKind.WRITE or not op.todos:
            out.append(op)
            continue
        items = []
        for item in op.todos:
            given = item.given or frozenset()
            new = "new_id" in given or (not given and item.meta is None)  # NEW_UUID
            if new:
                found = next(
                    (i for i, (name, _) in enumerate(created) if name == item.content), None
                )
                if found is None and tool in ("TaskCreate", "tracker_create_task") and created:
                    found = 0  # one task a call: its id, whatever the subject
                if found is None:
                    warnings.append(
                        f'{tool}: the tool\'s result gives no id for "{item.content}"; '
                        "todo numbered it"
                    )
                else:
                    meta = item.meta or Meta()
                    task_id = created.pop(found)[1]
                    meta = Meta(task_id, meta.priority, meta.blocked_by, meta.owner)
                    item = item.replace(
                        meta=meta, given=None if item.given is None else given - {"new_id"}
                    )
            items.append(item)
        out.append(
            Op(
                op.kind,
                todos=tuple(items),
                summary=op.summary,
                merge=op.merge,
                path=op.path,
                summary_path=op.summary_path,
            )
        )
    return tuple(out), warnings


def augment_created(text: str) -> list[tuple[str, str]]:
    """(name, id) of each task under ``## Created Tasks`` in an Augment result
    (``formatBulkUpdateResponse``): the root task is not one of ours."""
    created = []
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("## "):
            section = line
            continue
        if section != "## Created Tasks" or line[:1] != "[" or line[2:3] != "]":
            continue
        uuid, _, rest = line[3:].strip().partition(" NAME:")
        name, _, description = rest.partition(" DESCRIPTION:")
        if name.strip() == "Current Task List" and description.startswith(AUGMENT_ROOT):
            continue
        if uuid.startswith("UUID:") and uuid[5:].strip():
            created.append((name.strip(), augment_id(uuid[5:].strip())))
    return created


AUGMENT_ROOT = "Root task for conversation"
FLICKR58 = "123456789abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ"


def augment_id(task_id: str) -> str:
    """Augment shows a task's UUID shortened (short-uuid, flickrBase58, padded to
    22) and takes either form: the short one is the one kept."""
    digits = task_id.replace("-", "")
    shape = [len(part) for part in task_id.split("-")]
    if shape != [8, 4, 4, 4, 12] or not all(c in "0123456789abcdefABCDEF" for c in digits):
        return task_id
    number = int(digits, 16)
    short = ""
    while number:
        number, digit = divmod(number, 58)
        short = FLICKR58[digit] + short
    return short.rjust(22, FLICKR58[0])


# Tools whose ids todo cannot make up: (who makes them, the call whose result says
# them, the hook event that carries that result).
RESULT_IDS = {
    "augment": ("Augment", "add_tasks", "a PostToolUse hook (its tool_output)"),
    "gemini-tracker": ("Gemini CLI's tracker", "tracker_create_task", "an AfterTool hook"),
}


def unknown_id_hint(dialect: str) -> str:
    """What to add to "No task has id" for a tool whose ids todo cannot make up."""
    if dialect not in RESULT_IDS:
        return ""
    maker, call, event = RESULT_IDS[dialect]
    return (
        f"; {maker} gives its tasks their ids, which todo learns only from {call}'s "
        f"result: run todo apply from {event}"
    )


class Hook:
    """The hook a payload came through: its event and the session it names."""

    __slots__ = ("event", "session")

    def __init__(self, event: str, session: str | None) -> None:
        self.event = event
        self.session = session


SESSION_CHARS = 64  # the longest session name (paths.SESSION_RULE)


def safe_session(name: str) -> str | None:
    """A session id made into a session name (paths.SESSION_RULE): characters
    outside ``[A-Za-z0-9._-]`` become ``-``; starting alphanumeric; at most 64. A
    longer id keeps its first 47 characters and ends in 16 hex digits of its
    SHA-256: two ids that differ only past the 64th character get two lists."""
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "._-") else "-" for c in name)
    safe = safe.lstrip("._-")
    if len(safe) > SESSION_CHARS:
        import hashlib

        digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()
        safe = f"{safe[: SESSION_CHARS - 17]}-{digest[:16]}"
    return safe or None


def to_request(parsed: Parsed, params: object) -> Request:
    from todocli.engine.dialects import Request

    if parsed.items is None:
        req = Request((Op(OpKind.VIEW),), parsed.dialect, params)
    else:
        op = Op(
            OpKind.WRITE,
            todos=tuple(parsed.items),
            summary=parsed.summary,
            merge=parsed.merge,
            path="",
            summary_path="summary",
        )
        req = Request((op,), parsed.dialect, params)
    req.warnings = tuple(parsed.warnings)
    return req
