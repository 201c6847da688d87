"""``todo schema``: the JSON Schema of ``todo apply``'s input, or of an agent's own
todo tool, ready to register as a tool's parameters."""

from __future__ import annotations

import json

from todocli.app.report import Report
from todocli.base import TYPE_CHECKING
from todocli.engine.schema import DRAFT
from todocli.errors import UsageError

if TYPE_CHECKING:
    from typing import Any


def schema(kind: str | None = None) -> Report:
    """``ops``, ``snapshot``, an agent's tool name, ``envelope`` (what ``--json``
    prints), or None (either of the first two)."""
    from todocli.agents import TOOLS, tool_schema
    from todocli.engine.schema import schema as build

    if kind in TOOLS:
        found = tool_schema(kind)
    elif kind in (None, "ops", "snapshot"):
        found = build(kind)
    elif kind == "envelope":
        found = envelope_schema()
    else:
        names = ", ".join(TOOLS)
        raise UsageError(
            f"schema: unknown schema {kind!r} (use ops, snapshot, envelope or {names})"
        )
    return Report({"schema": found}, json.dumps(found, indent=2) + "\n")


def _object(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {"type": "object", "properties": properties}
    if required is not None:
        found["required"] = required
    return found


_S: dict[str, Any] = {"type": "string"}
_STRINGS: dict[str, Any] = {"type": "array", "items": _S}


def envelope_schema() -> dict[str, Any]:
    """The ``--json`` envelope a command that shows or changes the list prints
    (a command that reports other data keeps the same keys, its data under
    ``data``, ``stats`` and ``changes`` null)."""
    return {
        "$schema": DRAFT,
        "title": "todo --json",
        "type": "object",
        "properties": {
            "version": {"const": 1},
            "status": {"enum": ["success", "error"]},
            "data": _data_schema(),
            "text": {"type": "string", "description": "What plain output prints."},
            "stats": {"type": ["object", "null"]},
            "changes": _changes_schema(),
            "context": {"type": ["object", "null"]},
            "warnings": _STRINGS,
            "error": {"type": ["object", "null"]},
            "instructions": _S,
        },
        "required": ["version", "status", "data", "text", "stats", "changes", "context", "error"],
    }


def _task_schema() -> dict[str, Any]:
    """One task of ``data.todos``."""
    task = _object(
        {
            "n": {"type": "integer", "description": "Its number in the list (#N)."},
            "content": _S,
            "status": {"enum": ["pending", "in_progress", "completed", "abandoned", "blocked"]},
            "phase": _S,
            "active_form": _S,
            "notes": _STRINGS,
            "id": _S,
            "priority": _S,
            "blocked_by": _STRINGS,
            "owner": _S,
            "waiting_on": {"type": "array", "items": {"type": "integer"}},
            "parent": {"type": "integer", "description": "A subtask: its parent's #N."},
            "optional": {
                "const": True,
                "description": "Kiro's optional task (- [ ]*): never required by the gate.",
            },
            "cycle": {"type": "array", "items": {"type": "integer"}},
        },
        ["n", "content", "status", "phase"],
    )
    task["description"] = (
        "A task: the fields it has (no null or empty ones): active_form, notes, and "
        "what an agent's tool keeps (id, priority, blocked_by, owner) only when set."
    )
    return task


def _data_schema() -> dict[str, Any]:
    """``data``: the list, and the list in an agent tool's shape when asked."""
    return _object(
        {
            "summary": _S,
            "todos": {"type": "array", "items": _task_schema(), "description": "The list, once."},
            "recap": _S,
            "phases": {
                "type": "array",
                "description": "The tree of phases: after a read (todo show), or "
                "after every write with reply = full.",
            },
            "reply": {
                "description": "The list in an agent tool's own shape: with --as "
                "TOOL, after a payload in a tool's shape, or with reply = full."
            },
            "reply_tool": _S,
            "task": {"description": "todo claim: the task taken."},
        },
        ["summary", "todos", "recap"],
    )


def _changes_schema() -> dict[str, Any]:
    """``changes``: what a write did."""
    brief = _object({"content": _S, "status": _S}, ["content", "status"])
    return {
        "type": ["object", "null"],
        "properties": {
            "old_todos": {"type": "array", "items": brief},
            "new_todos": {"type": "array", "items": brief},
            "completed_tasks": _STRINGS,
            "dropped_open": _STRINGS,
            "released": {"type": "array"},
            "renamed": {"type": "array"},
            "hand_edit": {
                "type": ["object", "null"],
                "description": "The person's edits since the last write: added, "
                "removed, changed (content, from, to), notes (content, note), "
                "overridden.",
            },
            "merged": {"type": "array"},
            "wiped_on_all_completed": {"type": "boolean"},
            "logged_to": {"type": ["string", "null"]},
            "reopened": {
                "type": "array",
                "description": "todo check --verify: each task its failed check reopened "
                "(content, reason).",
            },
        },
    }
