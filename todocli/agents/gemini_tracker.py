"""Gemini CLI's tracker tools (experimental): ``tracker_create_task`` (a new open
task; the tracker makes its id, 6 hex characters, known from the result only),
``tracker_update_task``, ``tracker_add_dependency``, and reads. The tracker shows
its tasks as ``write_todos``' todos: its reply is Gemini's."""

from __future__ import annotations

from todocli.agents.parsed import Parsed
from todocli.agents.request import item, only, patch
from todocli.base import TYPE_CHECKING
from todocli.document.model import Meta
from todocli.engine.dialects import InputError

if TYPE_CHECKING:
    from typing import Any

# What it is: read into the registry by tools/generate.py.
NAME = "gemini-tracker"
REPLY_AS = "gemini"  # the tracker shows its tasks as write_todos' todos
PRIORITY = 130
CALLS = (
    "tracker_create_task",
    "tracker_update_task",
    "tracker_add_dependency",
    "tracker_get_task",
    "tracker_list_tasks",
    "tracker_visualize",
)
READS = ("tracker_get_task", "tracker_list_tasks", "tracker_visualize")
KEYS = ("title", "type", "id", "taskId", "dependencyId", "status", "parentId")

# Its statuses → ours (its own display maps them the same way).
STATUSES = {"open": "pending", "in_progress": "in_progress", "blocked": "blocked"}
STATUSES |= {"closed": "completed"}
CREATE = {"title", "description", "type", "parentId", "dependencies"}
UPDATE = {"id", "title", "description", "status", "dependencies"}


WRITES = ("tracker_create_task", "tracker_update_task", "tracker_add_dependency")


def score(value: dict[str, Any], tool: str | None) -> float:
    """One of its calls by name, or a payload in the shape of one."""
    keys = set(value)
    if (
        tool in WRITES
        or ({"title", "type"} <= keys <= CREATE)
        or keys == {"taskId", "dependencyId"}
    ):
        return 1.0
    if "id" in keys and keys != {"id"} and keys <= UPDATE:
        return 1.0
    return 1.0 if keys == {"id"} or (keys and keys <= {"status", "type", "parentId"}) else 0.0


def detect(value: dict[str, Any], tool: str | None) -> Parsed | None:
    keys = set(value)
    if tool == "tracker_create_task" or ({"title", "type"} <= keys <= CREATE):
        return _create(value)
    if tool == "tracker_update_task" or ("id" in keys and keys != {"id"} and keys <= UPDATE):
        return _update(value)
    if tool == "tracker_add_dependency" or keys == {"taskId", "dependencyId"}:
        return _dependency(value)
    if keys == {"id"} or (keys and keys <= {"status", "type", "parentId"}):
        return Parsed("gemini-tracker")  # tracker_get_task, tracker_list_tasks: reads
    return None


def _create(value: dict[str, Any]) -> Parsed:
    only(value, CREATE, "tracker_create_task")
    if "title" not in value:
        raise InputError("missing title (tracker_create_task takes title, description, type)")
    body: dict[str, Any] = {"title": value["title"], "status": "pending"}
    if value.get("description"):
        body["notes"] = [value["description"]]
    if value.get("dependencies") is not None:
        body["blockedBy"] = value["dependencies"]
    new = item(body, "")
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
        "gemini-tracker", [new.replace(given=frozenset(given))], merge=True, warnings=warnings
    )


def _update(value: dict[str, Any]) -> Parsed:
    """The given fields of one task, by id; ``description`` replaces the task's
    note, ``dependencies`` its list."""
    only(value, UPDATE, "tracker_update_task")
    task_id = value.get("id")
    if not isinstance(task_id, str):
        raise InputError("id: expected a string")
    body: dict[str, Any] = {"id": task_id}
    if "title" in value:
        body["content"] = value["title"]
    if "description" in value:
        body["notes"] = [value["description"]] if value["description"] else []
    if "status" in value:
        status = value["status"]
        body["status"] = STATUSES.get(status, status) if isinstance(status, str) else status
    if "dependencies" in value:
        body["blockedBy"] = value["dependencies"]
    return Parsed("gemini-tracker", [patch(body, "")], merge=True)


def _dependency(value: dict[str, Any]) -> Parsed:
    """``taskId`` waits on ``dependencyId``."""
    from todocli.engine.snapshot import Item

    only(value, {"taskId", "dependencyId"}, "tracker_add_dependency")
    task_id, dependency = value.get("taskId"), value.get("dependencyId")
    if not isinstance(task_id, str) or not isinstance(dependency, str):
        raise InputError("taskId and dependencyId: expected strings")
    one = Item("", meta=Meta(task_id, None, (dependency,)), given=frozenset({"add_blocked_by"}))
    return Parsed("gemini-tracker", [one], merge=True)


def created(tool: str, result: object) -> list[tuple[str, str]] | None:
    """``{llmContent: "Created task <id>: <title>"}``: the id it gave (one a call)."""
    if tool != "tracker_create_task" or not isinstance(result, dict):
        return None
    text = result.get("llmContent")
    if isinstance(text, str) and text.startswith("Created task "):
        task_id, _, title = text[len("Created task ") :].partition(": ")
        return [(title, task_id)]
    return []


ONE_A_CALL = {"tracker_create_task"}
# Ids todo cannot make up: who makes them, the call whose result says them, the
# hook event that carries that result.
RESULT_IDS = ("Gemini CLI's tracker", "tracker_create_task", "an AfterTool hook")
