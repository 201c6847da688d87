"""Claude Code's Task tools: ``TaskCreate`` (a new task, id "1", "2", ...),
``TaskUpdate`` (the given fields of one task, by id), ``TaskList`` and ``TaskGet``
(reads). There is no whole-list write: the reply is ``TaskList``'s output, which
``todo apply`` reads back as updates by id."""

from __future__ import annotations

from todocli.agents.common import BASIC, STR_LIST, S, enum, ids, obj
from todocli.agents.common import tasks as tasks_of
from todocli.agents.parsed import Parsed
from todocli.agents.request import item, only, patch
from todocli.base import TYPE_CHECKING
from todocli.document.model import Meta
from todocli.engine.dialects import InputError
from todocli.escapes import quoted

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "claude-tasks"
RANK = 2
PRIORITY = 120
CALLS = ("TaskCreate", "TaskUpdate", "TaskList", "TaskGet")
READS = ("TaskList", "TaskGet")
KEYS = ("subject", "description", "activeForm", "metadata", "taskId", "tasks")

CREATE = {"subject", "description", "activeForm", "metadata"}
UPDATE = CREATE | {"taskId", "status", "addBlocks", "addBlockedBy", "owner"}
TASK_LIST_KEYS = {"id", "subject", "description", "activeForm", "status", "owner", "blockedBy"}


def score(value: dict[str, Any], tool: str | None) -> float:
    """A call of its own, or a payload in the shape of one; TaskList's output
    (``tasks`` that all have a ``subject``) less surely: Augment's ``tasks``,
    which checks its shape, is asked first."""
    keys = set(value)
    if tool in ("TaskCreate", "TaskUpdate") or (keys and keys <= CREATE and "subject" in keys):
        return 1.0
    if "taskId" in keys:
        return 1.0
    return 0.5 if _is_task_list(value.get("tasks")) else 0.0


def detect(value: dict[str, Any], tool: str | None) -> Parsed | None:
    keys = set(value)
    if tool == "TaskCreate" or (keys and keys <= CREATE and "subject" in keys):
        return _create(value)
    if tool == "TaskUpdate" or ("taskId" in keys and keys != {"taskId"}):
        return _update(value)
    if keys == {"taskId"}:  # TaskGet
        return Parsed("claude-tasks")
    tasks = value.get("tasks")
    if _is_task_list(tasks):  # TaskList's output
        assert isinstance(tasks, list)
        return _task_list(tasks)
    return None


def _is_task_list(tasks: object) -> bool:
    return (
        isinstance(tasks, list)
        and bool(tasks)
        and all(isinstance(t, dict) and "subject" in t for t in tasks)
    )


def _create(value: dict[str, Any]) -> Parsed:
    only(value, CREATE, "TaskCreate")
    body = {k: v for k, v in value.items() if k != "metadata"}
    if "subject" not in body:
        raise InputError("missing subject (TaskCreate takes subject, description, activeForm)")
    new = item(body, "")
    given = {"content", "status", "notes", "new_id"}
    if "activeForm" in value:
        given.add("active_form")
    return Parsed("claude-tasks", [new.replace(given=frozenset(given))], merge=True)


def _update(value: dict[str, Any]) -> Parsed:
    only(value, UPDATE, "TaskUpdate")
    task_id = value.get("taskId")
    if not isinstance(task_id, str):
        raise InputError("taskId: expected a string")
    body: dict[str, Any] = {"id": task_id}
    for key in ("subject", "description", "activeForm", "status"):
        if key in value:
            body[key] = value[key]
    first = patch(body, "")
    given = set(first.given or ())
    meta = first.meta or Meta(task_id)
    if "addBlockedBy" in value:
        deps = value["addBlockedBy"]
        if not isinstance(deps, list) or not all(isinstance(d, str) for d in deps):
            raise InputError("addBlockedBy: expected an array of strings")
        meta = meta.replace(blocked_by=tuple(deps))
        given.add("add_blocked_by")
    if isinstance(value.get("owner"), str):
        meta = meta.replace(owner=value["owner"])
        given.add("owner")
    patches = [first.replace(meta=meta, given=frozenset(given))]
    for i, other in enumerate(value.get("addBlocks") or ()):
        if not isinstance(other, str):
            raise InputError(f"addBlocks[{i}]: expected a string")
        from todocli.engine.snapshot import Item

        patches.append(
            Item("", meta=Meta(other, None, (task_id,)), given=frozenset({"add_blocked_by"}))
        )
    return Parsed("claude-tasks", patches, merge=True)


def _task_list(tasks: list[Any]) -> Parsed:
    """Each task updates the task of its id, as ``TaskUpdate`` does, or is added
    when no task has that id."""
    patches = []
    for i, raw in enumerate(tasks):
        path = f"tasks[{i}]"
        for key in raw:
            if key not in TASK_LIST_KEYS:
                raise InputError(
                    f"{path}: unknown key {quoted(key)} for a Claude Code task "
                    f"(it takes: {', '.join(sorted(TASK_LIST_KEYS))})"
                )
        owner = raw.get("owner")
        if owner is not None and not isinstance(owner, str):
            raise InputError(f"{path}.owner: expected a string")
        one = patch({k: v for k, v in raw.items() if k != "owner"}, path)
        if owner:
            meta = one.meta or Meta()
            meta = meta.replace(owner=owner)
            one = one.replace(meta=meta, given=(one.given or frozenset()) | {"owner"})
        patches.append(one)
    return Parsed("claude-tasks", patches, merge=True)


def created(tool: str, result: object) -> list[tuple[str, str]] | None:
    """TaskCreate answers ``{task: {id, subject}}``: the id it gave (one a call)."""
    if tool != "TaskCreate" or not isinstance(result, dict):
        return None
    task = result.get("task")
    if isinstance(task, dict) and isinstance(task.get("id"), str):
        return [(str(task.get("subject", "")), task["id"])]
    return []


ONE_A_CALL = {"TaskCreate"}  # the call creates one task: the result's id is its own


def reply(todo: TodoList) -> dict[str, Any]:
    return {
        "tasks": [
            {"id": i, "subject": t.content, "status": BASIC[t.status]}
            | ({"owner": t.meta.owner} if t.meta.owner else {})
            | {"blockedBy": list(t.meta.blocked_by)}
            for i, t in zip(ids(todo), tasks_of(todo), strict=True)
        ]
    }


def schema() -> dict[str, Any]:
    return {
        "oneOf": [
            obj(
                {"subject": S, "description": S, "activeForm": S, "metadata": {}},
                ["subject", "description"],
                title="TaskCreate",
            ),
            obj(
                {
                    "taskId": S,
                    "subject": S,
                    "description": S,
                    "activeForm": S,
                    "status": enum("pending", "in_progress", "completed", "deleted"),
                    "addBlocks": STR_LIST,
                    "addBlockedBy": STR_LIST,
                    "owner": S,
                    "metadata": {},
                },
                ["taskId"],
                title="TaskUpdate",
            ),
            obj({}, [], title="TaskList"),
            obj({"taskId": S}, ["taskId"], title="TaskGet"),
        ]
    }
