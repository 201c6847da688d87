"""JSON Schemas (draft 2020-12) of what ``todo apply`` reads, ready to register as an
agent tool's parameters: ``ops`` (seed 000's batches) and ``snapshot`` (a full list).
"""

from __future__ import annotations

from typing import Any

DRAFT = "https://json-schema.org/draft/2020-12/schema"
STATUSES = [
    "pending",
    "in_progress",
    "completed",
    "abandoned",
    "blocked",
    "done",
    "complete",
    "cancelled",
    "canceled",
    "dropped",
]
_TEXT = {"type": "string", "minLength": 1, "maxLength": 200}
_TASK_REF = {"type": "string", "minLength": 1, "description": "Exact task content, or #N."}
_PHASE = {"type": "string", "minLength": 1, "description": "Exact phase name."}


def _op(
    name: str, description: str, properties: dict[str, Any], required: list[str]
) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description,
        "properties": {"op": {"const": name}, **properties},
        "required": ["op", *required],
        "additionalProperties": False,
    }


OP_SCHEMAS = [
    _op(
        "init",
        "Replace the whole list; every task starts pending.",
        {
            "list": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "properties": {
                        "phase": _PHASE,
                        "items": {"type": "array", "minItems": 1, "items": _TEXT},
                    },
                    "required": ["phase", "items"],
                    "additionalProperties": False,
                },
            },
            "summary": {"type": "string"},
        },
        ["list"],
    ),
    _op("start", "Mark one task in progress.", {"task": _TASK_REF}, ["task"]),
    _op(
        "claim",
        "For one of several agents (--agent): take the first pending task that no agent "
        "holds and that waits on nothing (or the task named); it goes in progress with "
        "the agent as its owner.",
        {"task": _TASK_REF},
        [],
    ),
    _op(
        "done",
        "Complete a task, a phase, or (neither) everything.",
        {"task": _TASK_REF, "phase": _PHASE},
        [],
    ),
    _op(
        "drop",
        "Abandon a task, a phase, or (neither) everything.",
        {"task": _TASK_REF, "phase": _PHASE},
        [],
    ),
    _op(
        "rm",
        "Remove a task, a phase's tasks, or (neither) every task.",
        {"task": _TASK_REF, "phase": _PHASE},
        [],
    ),
    _op(
        "append",
        "Add pending tasks to a phase (created if missing).",
        {"phase": _PHASE, "items": {"type": "array", "minItems": 1, "items": _TEXT}},
        ["phase", "items"],
    ),
    _op(
        "note",
        "Add a note to a task.",
        {"task": _TASK_REF, "text": {"type": "string", "minLength": 1}},
        ["task", "text"],
    ),
    _op(
        "block",
        "Mark a task or phase blocked; the reason is kept as a note.",
        {"task": _TASK_REF, "phase": _PHASE, "reason": {"type": "string"}},
        [],
    ),
    _op(
        "unblock",
        "Make a blocked task or phase pending again.",
        {"task": _TASK_REF, "phase": _PHASE},
        [],
    ),
    _op("view", "Show the list; change nothing.", {}, []),
    _op(
        "clear",
        "Remove completed and abandoned tasks (all: every task).",
        {"all": {"type": "boolean"}},
        [],
    ),
]

TODO_ITEM: dict[str, Any] = {
    "type": "object",
    "description": "One task. Its text comes as content, title, description, text or step.",
    "properties": {
        "content": _TEXT,
        "title": _TEXT,
        "description": _TEXT,
        "text": _TEXT,
        "step": _TEXT,
        "status": {"type": "string", "enum": STATUSES},
        "activeForm": {"type": "string", "maxLength": 200},
        "active_form": {"type": "string", "maxLength": 200},
        "phase": _PHASE,
        "notes": {"type": "array", "items": {"type": "string"}},
        "id": {},
        "priority": {},
    },
    "anyOf": [{"required": [key]} for key in ("content", "title", "description", "text", "step")],
    "additionalProperties": False,
}


def ops_schema() -> dict[str, Any]:
    return {
        "$schema": DRAFT,
        "title": "todo apply: ops",
        "description": "Ordered operations on the todo list, applied as one batch.",
        "type": "object",
        "properties": {
            "ops": {"type": "array", "minItems": 1, "items": {"oneOf": OP_SCHEMAS}},
        },
        "required": ["ops"],
        "additionalProperties": False,
    }


def snapshot_schema() -> dict[str, Any]:
    return {
        "$schema": DRAFT,
        "title": "todo apply: snapshot",
        "description": (
            "The complete current todo list; it replaces the stored one. At most one "
            "task in_progress. Tasks left out are removed."
        ),
        "type": "object",
        "properties": {
            "summary": {"type": "string", "maxLength": 200},
            "todos": {"type": "array", "items": TODO_ITEM},
        },
        "required": ["todos"],
        "additionalProperties": False,
    }


def schema(kind: str | None) -> dict[str, Any]:
    """One schema by name, or (None) either of them."""
    if kind == "ops":
        return ops_schema()
    if kind == "snapshot":
        return snapshot_schema()
    ops, snapshot = ops_schema(), snapshot_schema()
    del ops["$schema"], snapshot["$schema"]
    return {"$schema": DRAFT, "title": "todo apply", "oneOf": [ops, snapshot]}


# -- the agents' own tools (docs/agent-tools.md): their input schemas as published --


def _obj(properties: dict[str, Any], required: list[str], **extra: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    } | extra


def _enum(*values: str) -> dict[str, Any]:
    return {"type": "string", "enum": list(values)}


def _list(item: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": item}


_S = {"type": "string"}
_BASIC3 = _enum("pending", "in_progress", "completed")
_STR_LIST = _list(_S)


def _tool_schemas() -> dict[str, dict[str, Any]]:
    opencode = _obj(
        {
            "todos": _list(
                _obj(
                    {"content": _S, "status": _S, "priority": _S},
                    ["content", "status", "priority"],
                )
            )
        },
        ["todos"],
    )
    return {
        "claude": _obj(
            {
                "todos": _list(
                    _obj(
                        {"content": _S, "status": _BASIC3, "activeForm": _S},
                        ["content", "status", "activeForm"],
                    )
                )
            },
            ["todos"],
        ),
        "claude-tasks": {
            "oneOf": [
                _obj(
                    {"subject": _S, "description": _S, "activeForm": _S, "metadata": {}},
                    ["subject", "description"],
                    title="TaskCreate",
                ),
                _obj(
                    {
                        "taskId": _S,
                        "subject": _S,
                        "description": _S,
                        "activeForm": _S,
                        "status": _enum("pending", "in_progress", "completed", "deleted"),
                        "addBlocks": _STR_LIST,
                        "addBlockedBy": _STR_LIST,
                        "owner": _S,
                        "metadata": {},
                    },
                    ["taskId"],
                    title="TaskUpdate",
                ),
                _obj({}, [], title="TaskList"),
                _obj({"taskId": _S}, ["taskId"], title="TaskGet"),
            ]
        },
        "codex": _obj(
            {
                "explanation": _S,
                "plan": _list(_obj({"step": _S, "status": _BASIC3}, ["step", "status"])),
            },
            ["plan"],
        ),
        "gemini": _obj(
            {
                "todos": _list(
                    _obj(
                        {
                            "description": _S,
                            "status": _enum(
                                "pending", "in_progress", "completed", "cancelled", "blocked"
                            ),
                        },
                        ["description", "status"],
                    )
                )
            },
            ["todos"],
        ),
        "qwen": _obj(
            {
                "todos": _list(
                    _obj(
                        {
                            "content": {"type": "string", "minLength": 1},
                            "status": _BASIC3,
                            "id": {"type": "string", "maxLength": 500},
                            "blockedBy": {"type": "array", "items": _S, "uniqueItems": True},
                        },
                        ["content", "status", "id"],
                    )
                )
            },
            ["todos"],
        ),
        "kimi": _obj(
            {
                "todos": {
                    "anyOf": [
                        _list(
                            _obj(
                                {
                                    "title": {"type": "string", "minLength": 1},
                                    "status": _enum("pending", "in_progress", "done"),
                                },
                                ["title", "status"],
                            )
                        ),
                        {"type": "null"},
                    ]
                }
            },
            [],
        ),
        "cursor": _obj(
            {
                "merge": {"type": "boolean"},
                "todos": _list(
                    _obj(
                        {
                            "content": _S,
                            "status": _enum("pending", "in_progress", "completed", "cancelled"),
                            "id": _S,
                        },
                        ["id"],
                    )
                ),
            },
            ["merge", "todos"],
        ),
        "copilot": _obj(
            {
                "operation": _enum("write", "read"),
                "todoList": _list(
                    _obj(
                        {
                            "id": {"type": "number"},
                            "title": _S,
                            "description": _S,
                            "status": _enum("not-started", "in-progress", "completed"),
                        },
                        ["id", "title", "status"],
                    )
                ),
            },
            [],
        ),
        "amp": _obj(
            {
                "todos": _list(
                    _obj(
                        {
                            "id": _S,
                            "content": _S,
                            "status": _enum("completed", "in-progress", "todo"),
                            "priority": _enum("medium", "low", "high"),
                        },
                        ["id", "content", "status"],
                    )
                )
            },
            ["todos"],
        ),
        "opencode": opencode,
        "kilo": opencode
        | {"properties": {"todos": {"anyOf": [opencode["properties"]["todos"], _S]}}},
        "roo": _obj({"todos": _S}, ["todos"]),
        "cline": _obj({"task_progress": _S}, ["task_progress"]),
        "openhands": _obj(
            {
                "command": _enum("view", "plan"),
                "task_list": _list(
                    _obj(
                        {
                            "id": _S,
                            "title": _S,
                            "status": _enum("todo", "in_progress", "done"),
                            "notes": _S,
                        },
                        ["title", "status"],
                    )
                ),
            },
            ["command"],
        ),
        "goose": _obj({"content": _S}, ["content"]),
        "crush": _obj(
            {
                "todos": _list(
                    _obj(
                        {"content": _S, "status": _BASIC3, "active_form": _S},
                        ["content", "status", "active_form"],
                    )
                )
            },
            ["todos"],
        ),
        "zed": _obj(
            {
                "title": _S,
                "steps": _list(_obj({"title": _S, "status": _BASIC3}, ["title", "status"])),
            },
            ["steps"],
        ),
        "continue": _obj({"checklist": _S}, ["checklist"]),
        "augment": {
            "oneOf": [
                _obj(
                    {
                        "tasks": _list(
                            _obj(
                                {
                                    "name": _S,
                                    "description": _S,
                                    "parent_task_id": _S,
                                    "after_task_id": _S,
                                    "state": _enum(
                                        "NOT_STARTED", "IN_PROGRESS", "CANCELLED", "COMPLETE"
                                    ),
                                },
                                ["name", "description"],
                            )
                        )
                    },
                    ["tasks"],
                    title="add_tasks",
                ),
                _obj(
                    {
                        "tasks": _list(
                            _obj(
                                {
                                    "task_id": _S,
                                    "state": _enum(
                                        "NOT_STARTED", "IN_PROGRESS", "CANCELLED", "COMPLETE"
                                    ),
                                    "name": _S,
                                    "description": _S,
                                },
                                ["task_id"],
                            )
                        )
                    },
                    ["tasks"],
                    title="update_tasks",
                ),
                _obj({"markdown": _S}, ["markdown"], title="reorganize_tasklist"),
                _obj({}, [], title="view_tasklist"),
            ]
        },
        "droid": _obj({"todos": _S}, ["todos"]),
    }


TOOL_NAMES = (
    "claude", "claude-tasks", "codex", "gemini", "qwen", "kimi", "cursor", "copilot", "amp",
    "opencode", "kilo", "roo", "cline", "openhands", "goose", "crush", "zed", "continue",
    "augment", "droid", "oh-my-pi",
)  # fmt: skip


def tool_schema(tool: str) -> dict[str, Any]:
    """The input schema of an agent's own todo tool, as that tool publishes it."""
    if tool == "oh-my-pi":
        return ops_schema() | {"title": "oh-my-pi todo_write"}
    return {"$schema": DRAFT, "title": tool} | _tool_schemas()[tool]
