"""Augment's task tools: ``add_tasks`` and ``update_tasks`` (``{"tasks": [...]}``
with ``name``, ``description``, ``state``, ``task_id``), ``reorganize_tasklist``
(the whole tree as ``-[x] UUID:u NAME:n DESCRIPTION:d`` lines) and
``view_tasklist``. Augment makes its tasks' ids (UUIDs, shown shortened)."""

from __future__ import annotations

from todocli.agents.common import S, array, enum, ids, obj, tasks
from todocli.agents.parsed import Parsed
from todocli.agents.request import only, patch, short_uuid, snapshot_items, string
from todocli.base import TYPE_CHECKING
from todocli.document.model import Meta, Status
from todocli.engine.dialects import InputError

if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

# What it is: read into the registry by tools/generate.py.
NAME = "augment"
RANK = 19
PRIORITY = 50
CALLS = ("add_tasks", "update_tasks", "view_tasklist", "reorganize_tasklist")
READS = ("view_tasklist",)
KEYS = ("markdown", "tasks")

MARKERS = {" ": Status.PENDING, "x": Status.COMPLETED, "/": Status.IN_PROGRESS}
MARKERS |= {"-": Status.ABANDONED}
ROOT = "Root task for conversation"


def score(value: dict[str, Any], tool: str | None) -> float:
    return 1.0 if "markdown" in value or "tasks" in value else 0.0


def detect(value: dict[str, Any], tool: str | None) -> Parsed | None:
    """Its task tree (``markdown``), or its ``tasks``."""
    if "markdown" in value:
        return _tree(value)
    return _tasks(value, tool)


def _tree(value: dict[str, Any]) -> Parsed | None:
    """``reorganize_tasklist``: the root (no dash) is the conversation's, not a task."""
    from todocli.engine.snapshot import Item

    only(value, {"markdown"}, "todo_write")
    text = string(value, "markdown") or ""
    items: list[Item] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        depth = len(line) - len(line.lstrip("-"))
        body = line[depth:]
        if not body.startswith("[") or "]" not in body[:3]:
            raise InputError(f"markdown: line {n}: expected [ ] UUID:... NAME:... DESCRIPTION:...")
        state, fields = body[1], body[3:].strip()
        if depth == 0:
            continue  # the root task: "Current Task List"
        uuid, _, rest = fields.partition(" NAME:")
        name, _, description = rest.partition(" DESCRIPTION:")
        uuid = short_uuid(uuid.removeprefix("UUID:").strip())
        status = MARKERS.get(state, Status.PENDING)
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


def _tasks(value: dict[str, Any], tool: str | None) -> Parsed | None:
    """``add_tasks`` / ``update_tasks``; tasks that all have a ``subject`` are
    Claude Code's TaskList output (not Augment's: asked next)."""
    if "tasks" not in value:
        return None
    only(value, {"tasks"}, "add_tasks")
    given_tasks = value["tasks"]
    if not isinstance(given_tasks, list):
        raise InputError("tasks: expected an array")
    if given_tasks and all(isinstance(t, dict) and "subject" in t for t in given_tasks):
        return None
    if given_tasks and all(isinstance(t, dict) and "task_id" in t for t in given_tasks):
        patches = [patch(raw, f"tasks[{i}]") for i, raw in enumerate(given_tasks)]
        return Parsed("augment", patches, merge=True)
    warnings = []
    bodies = []
    for i, raw in enumerate(given_tasks):
        body = dict(raw) if isinstance(raw, dict) else raw
        if isinstance(body, dict):
            if "state" in body:
                body["status"] = body.pop("state")
            for key in ("parent_task_id", "after_task_id"):
                if body.pop(key, None) is not None:
                    warnings.append(f"tasks[{i}].{key}: todocli keeps a flat list; ignored")
        bodies.append(body)
    given = frozenset({"content", "status", "notes", "new_id"})
    added = [one.replace(given=given) for one in snapshot_items(bodies, "tasks")]
    return Parsed("augment", added, merge=True, warnings=warnings)


def created(tool: str, result: object) -> list[tuple[str, str]] | None:
    """(name, id) of each task under ``## Created Tasks`` in the result of
    ``add_tasks`` or ``reorganize_tasklist`` (``formatBulkUpdateResponse``): the
    root task is not one of ours."""
    if tool not in ("add_tasks", "reorganize_tasklist") or not isinstance(result, str):
        return None
    found = []
    section = ""
    for raw in result.splitlines():
        line = raw.strip()
        if line.startswith("## "):
            section = line
            continue
        if section != "## Created Tasks" or line[:1] != "[" or line[2:3] != "]":
            continue
        uuid, _, rest = line[3:].strip().partition(" NAME:")
        name, _, description = rest.partition(" DESCRIPTION:")
        if name.strip() == "Current Task List" and description.startswith(ROOT):
            continue
        if uuid.startswith("UUID:") and uuid[5:].strip():
            found.append((name.strip(), short_uuid(uuid[5:].strip())))
    return found


ONE_A_CALL: set[str] = set()
# Ids todo cannot make up: who makes them, the call whose result says them, the
# hook event that carries that result.
RESULT_IDS = ("Augment", "add_tasks", "a PostToolUse hook (its tool_output)")


def reply(todo: TodoList) -> dict[str, Any]:
    marks = {Status.PENDING: " ", Status.IN_PROGRESS: "/", Status.COMPLETED: "x"}
    marks |= {Status.ABANDONED: "-", Status.BLOCKED: " "}
    out = ["[ ] UUID:root NAME:Current Task List DESCRIPTION:Root task for conversation"]
    depth: list[int] = []  # a subtask one dash deeper than its parent, as Augment nests
    for i, t in zip(ids(todo), tasks(todo), strict=True):
        depth.append(1 if t.parent is None else depth[t.parent - 1] + 1)
        description = " ".join(" ".join(t.notes).split())
        dashes = "-" * depth[-1]
        out.append(
            f"{dashes}[{marks[t.status]}] UUID:{i} NAME:{t.content} DESCRIPTION:{description}"
        )
    return {"markdown": "\n".join(out)}


def schema() -> dict[str, Any]:
    state = enum("NOT_STARTED", "IN_PROGRESS", "CANCELLED", "COMPLETE")
    add = {"name": S, "description": S, "parent_task_id": S, "after_task_id": S, "state": state}
    update = {"task_id": S, "state": state, "name": S, "description": S}
    return {
        "oneOf": [
            obj({"tasks": array(obj(add, ["name", "description"]))}, ["tasks"], title="add_tasks"),
            obj({"tasks": array(obj(update, ["task_id"]))}, ["tasks"], title="update_tasks"),
            obj({"markdown": S}, ["markdown"], title="reorganize_tasklist"),
            obj({}, [], title="view_tasklist"),
        ]
    }
