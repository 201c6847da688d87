"""JSON Schemas (draft 2020-12) of what ``todo apply`` reads, ready to register as an
agent tool's parameters: ``ops`` (batches of operations) and ``snapshot`` (a full list).
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
        "check": {"type": "string", "minLength": 1},
    },
    "anyOf": [{"required": [key]} for key in ("content", "title", "description", "text", "step")],
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
        "Complete a task, a phase, or (neither) everything. A task with a check is "
        "completed only when its check passes; evidence is kept with each task.",
        {"task": _TASK_REF, "phase": _PHASE, "evidence": {"type": "string", "minLength": 1}},
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
        "Add pending tasks to a phase (created if missing); check: a shell command that "
        "proves them done (done runs it first).",
        {
            "phase": _PHASE,
            "items": {"type": "array", "minItems": 1, "items": _TEXT},
            "check": {"type": "string", "minLength": 1},
        },
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
    _op(
        "write",
        "Write the whole list: every task with its status (tasks left out are removed).",
        {"todos": {"type": "array", "items": TODO_ITEM}, "summary": {"type": "string"}},
        ["todos"],
    ),
]


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
