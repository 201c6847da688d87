"""A harness hook's stdin (``tool_name``, ``tool_input``, ``session_id``, and after
the call its result): the todo tool's call inside it read as a request, the ids
the tool gave new tasks put on them, and the session it names made safe."""

from __future__ import annotations

from todocli import agents as registry
from todocli.agents.request import request
from todocli.base import TYPE_CHECKING, Value, safe_session
from todocli.document.model import Meta
from todocli.engine.dialects import InputError, Request
from todocli.engine.ops import Op, OpKind

if TYPE_CHECKING:
    from typing import Any


class Hook(Value):
    """The hook a payload came through: its event and the session it names (a
    request's ``hook``; made only here, so no other input pays for the class)."""

    def __init__(
        self,
        event: str,
        session: str | None,
    ) -> None:
        self.event = event
        self.session = session


def envelope(value: dict[str, Any]) -> Request:
    """A harness hook's stdin: ``tool_name`` + ``tool_input`` (+ ``session_id``)."""
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
            raise InputError(
                f'a hook envelope needs "tool_name" and "tool_input" (the tool\'s arguments); '
                f'"{key}" is missing (e.g. {{"tool_name": "TodoWrite", "tool_input": '
                '{"todos": []}})'
            )
    if not isinstance(tool, str) or not isinstance(arguments, dict):
        raise InputError("tool_name and tool_input: expected a string and an object")
    ignored = Request((Op(OpKind.VIEW),), "ignored", value, hook, ignored=True)
    response = value.get("tool_response")
    failed = value.get("tool_error")  # Augment; Gemini and Claude Code: tool_response.error
    if isinstance(response, dict) and response.get("error"):
        failed = response["error"]
    if failed:  # the call failed: the agent's list is as it was
        return ignored
    if registry.is_todo_tool(tool):
        req = request(arguments, tool)
        ops, warnings = req.ops, req.warnings
        # PostToolUse: Claude Code's tool_response, Augment's tool_output
        result = value.get("tool_response", value.get("tool_output"))
        if result is not None and not req.query:
            ops, found = with_result_ids(req.ops, tool, result)
            warnings += tuple(found)
    elif tool.startswith("mcp__"):
        return ignored
    elif isinstance(arguments.get("task_progress"), str):  # Cline: any tool carries it
        req = request({"task_progress": arguments["task_progress"]}, tool)
        ops, warnings = req.ops, req.warnings
    else:
        return ignored
    return Request(ops, req.dialect, value, hook, req.ignored, warnings, why=req.why)


def envelope_target(value: dict[str, Any]) -> tuple[bool, str | None]:
    """Of a hook envelope ``envelope`` could not read: whether it is a todo tool's
    call (or Cline's ``task_progress``), and the session it names (made safe)."""
    tool = value.get("tool_name")
    arguments = value.get("tool_input")
    session = value.get("session_id", value.get("conversation_id"))
    todo_tool = registry.is_todo_tool(tool) or (
        isinstance(arguments, dict) and isinstance(arguments.get("task_progress"), str)
    )
    return todo_tool, safe_session(session) if isinstance(session, str) else None


def with_result_ids(
    ops: tuple[Op, ...], tool: str, result: object
) -> tuple[tuple[Op, ...], list[str]]:
    """The ids a tool gave the tasks it created, read from its result (a hook's
    PostToolUse envelope carries it; the tool's module reads it), put on those
    tasks. Returns the ops and a warning for each new task the result does not name."""
    found_ids = registry.created(tool, result)
    if found_ids is None:
        return ops, []
    created, one_a_call = found_ids
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
                if found is None and one_a_call and created:
                    found = 0  # one task a call: its id, whatever the subject
                if found is None:
                    warnings.append(
                        f'{tool}: the tool\'s result gives no id for "{item.content}"; '
                        "todo numbered it"
                    )
                else:
                    meta = item.meta or Meta()
                    task_id = created.pop(found)[1]
                    meta = meta.replace(id=task_id)
                    item = item.replace(
                        meta=meta, given=None if item.given is None else given - {"new_id"}
                    )
            items.append(item)
        out.append(op.replace(todos=tuple(items)))
    return tuple(out), warnings


def unknown_id_hint(dialect: str) -> str:
    """What to add to "No task has id" for a tool whose ids todo cannot make up."""
    found = registry.result_ids(dialect)
    if found is None:
        return ""
    maker, call, event = found
    return (
        f"; {maker} gives its tasks their ids, which todo learns only from {call}'s "
        f"result: run todo apply from {event}"
    )
