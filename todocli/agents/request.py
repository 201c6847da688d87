"""What an agent sends → a request: a hook's envelope, an agent tool's payload
(asked of the registry's readers, ``todocli.agents``), or one of todocli's own
shapes:

- ops: ``{"ops": [...]}``, a bare list of op objects, or one op object;
- snapshot: ``{"todos": [...], "summary": ...}`` (items carry their text as
  ``content``, ``title``, ``description``, ``text`` or ``step``);
  ``{"plan": [...], "explanation": ...}``; ``{"items": [...]}``; a bare list of
  todo items;
- a query: ``{}`` or ``{"todos": null}`` shows the list and writes nothing.

Errors name the JSON path: ``todos[2].status: unknown status "working"``.
"""

from __future__ import annotations

from todocli.agents import detect, is_todo_tool
from todocli.agents.reading import Parsed, expect, kind_of, opt_str, patch, snapshot_items, string
from todocli.document.model import Meta
from todocli.engine.dialects import Hook, InputError, Request
from todocli.engine.ops import Op, OpKind
from todocli.escapes import quoted

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from typing import Any

TOP_LEVEL_KEYS = ("ops", "todos", "summary", "plan", "explanation", "items")
TEXT_KEYS = ("content", "title", "subject", "name", "text", "step", "description")

# Every top-level key of a supported shape, with one example of that shape.
SHAPES = {
    "ops": '{"ops": [{"op": "done", "task": "x"}]}',
    "todos": '{"todos": [{"content": "x", "status": "pending"}]}',
    "summary": '{"summary": "s", "todos": [{"content": "x", "status": "pending"}]}',
    "plan": '{"plan": [{"step": "x", "status": "pending"}]}',
    "explanation": '{"explanation": "e", "plan": [{"step": "x", "status": "pending"}]}',
    "items": '{"items": [{"text": "x", "status": "pending"}]}',
    "todoList": '{"todoList": [{"id": 1, "title": "x", "status": "not-started"}]}',
    "operation": '{"operation": "read"}',
    "merge": '{"merge": true, "todos": [{"id": "a", "status": "completed"}]}',
    "steps": '{"steps": [{"title": "x", "status": "pending"}]}',
    "command": '{"command": "plan", "task_list": [{"title": "x", "status": "todo"}]}',
    "task_list": '{"command": "plan", "task_list": [{"title": "x", "status": "todo"}]}',
    "checklist": '{"checklist": "- [ ] x"}',
    "markdown": '{"markdown": "- [ ] x"}',
    "task_progress": '{"task_progress": "- [ ] x"}',
    "content": '{"content": "- [ ] x"}',
    "tasks": '{"tasks": [{"name": "x", "description": "d"}]}',
    "subject": '{"subject": "x", "description": "d"}',
    "taskId": '{"taskId": "1", "status": "completed"}',
    "tool_name": '{"tool_name": "TodoWrite", "tool_input": {"todos": []}}',
}


def request(value: object, tool: str | None = None) -> Request:
    """Detect the shape of a JSON value and turn it into ops. ``tool`` is the
    tool's name when a hook envelope gave it."""
    if isinstance(value, dict) and ("tool_name" in value or "tool_input" in value):
        return envelope(value)
    if isinstance(value, dict) and "op" not in value and "ops" not in value:
        parsed = detect(value, tool)
        if parsed is None:
            parsed = _id_only(value)
        if parsed is not None:
            return to_request(parsed, value)
    if isinstance(value, list):
        if value and isinstance(value[0], dict) and "op" in value[0]:
            from todocli.agents.oh_my_pi import ops

            return Request(ops(value, "ops", root=""), "ops", value)
        return Request((_snapshot(value, "", None),), "snapshot", value)
    if not isinstance(value, dict):
        raise InputError(f"expected a JSON object or array, got {kind_of(value)}")
    if "op" in value:
        from todocli.agents.oh_my_pi import ops

        return Request(ops([value], "", root="single"), "ops", value)
    for key in value:
        if key not in TOP_LEVEL_KEYS:
            raise InputError(_unknown_top(key))
    if "ops" in value:
        from todocli.agents.oh_my_pi import only_keys, ops

        only_keys(value, ("ops",), "")
        expect(value["ops"], "array", "ops")
        if not value["ops"]:
            raise InputError("ops: expected at least one op")
        return Request(ops(value["ops"], "ops", root=""), "ops", value)
    if "plan" in value:
        _only(value, ("plan", "explanation"))
        summary = opt_str(value, "explanation", "")
        return Request((_snapshot(value["plan"], "plan", summary, "explanation"),), "plan", value)
    if "items" in value:
        _only(value, ("items", "summary"))
        summary = opt_str(value, "summary", "")
        return Request((_snapshot(value["items"], "items", summary),), "items", value)
    if value.get("todos") is None:
        return Request((Op(OpKind.VIEW),), "query", value)
    summary = opt_str(value, "summary", "")
    return Request((_snapshot(value["todos"], "todos", summary),), "snapshot", value)


def _id_only(value: dict[str, Any]) -> Parsed | None:
    """``todos`` whose items give an id and no text: they update only the tasks
    they name."""
    todos = value.get("todos")
    if (
        isinstance(todos, list)
        and todos
        and set(value) <= {"todos", "summary"}
        and all(
            isinstance(t, dict) and "id" in t and not any(k in t for k in TEXT_KEYS) for t in todos
        )
    ):
        patches = [patch(raw, f"todos[{i}]") for i, raw in enumerate(todos)]
        return Parsed("snapshot", patches, string(value, "summary"), merge=True)
    return None


def _unknown_top(key: str) -> str:
    from difflib import get_close_matches

    near = get_close_matches(key, list(SHAPES), n=1, cutoff=0.6)
    if near:
        return f'unknown key {quoted(key)}: did you mean "{near[0]}"? (e.g. {SHAPES[near[0]]})'
    return f"unknown key {quoted(key)} (e.g. {SHAPES['todos']}; see: todo schema)"


def _only(value: dict[str, Any], allowed: tuple[str, ...]) -> None:
    for key in value:
        if key not in allowed:
            raise InputError(f"unexpected key {quoted(key)} here (expected: {', '.join(allowed)})")


def _snapshot(values: object, name: str, summary: str | None, summary_key: str = "summary") -> Op:
    items = snapshot_items(values, name)
    return Op(
        OpKind.WRITE, todos=tuple(items), summary=summary, path=name, summary_path=summary_key
    )


def to_request(parsed: Parsed, params: object) -> Request:
    if parsed.items is None:
        return Request((Op(OpKind.VIEW),), parsed.dialect, params, warnings=parsed.warnings)
    op = Op(
        OpKind.WRITE,
        todos=tuple(parsed.items),
        summary=parsed.summary,
        merge=parsed.merge,
        path="",
        summary_path="summary",
    )
    return Request((op,), parsed.dialect, params, warnings=parsed.warnings)


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
    if is_todo_tool(tool):
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
    return Request(ops, req.dialect, value, hook, req.ignored, warnings)


def envelope_target(value: dict[str, Any]) -> tuple[bool, str | None]:
    """Of a hook envelope ``envelope`` could not read: whether it is a todo tool's
    call (or Cline's ``task_progress``), and the session it names (made safe)."""
    tool = value.get("tool_name")
    arguments = value.get("tool_input")
    session = value.get("session_id", value.get("conversation_id"))
    todo_tool = is_todo_tool(tool) or (
        isinstance(arguments, dict) and isinstance(arguments.get("task_progress"), str)
    )
    return todo_tool, safe_session(session) if isinstance(session, str) else None


def with_result_ids(
    ops: tuple[Op, ...], tool: str, result: object
) -> tuple[tuple[Op, ...], list[str]]:
    """The ids a tool gave the tasks it created, read from its result (a hook's
    PostToolUse envelope carries it; the tool's module reads it), put on those
    tasks. Returns the ops and a warning for each new task the result does not name."""
    from todocli.agents import created as created_by

    found_ids = created_by(tool, result)
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


def unknown_id_hint(dialect: str) -> str:
    """What to add to "No task has id" for a tool whose ids todo cannot make up."""
    from todocli.agents import result_ids

    found = result_ids(dialect)
    if found is None:
        return ""
    maker, call, event = found
    return (
        f"; {maker} gives its tasks their ids, which todo learns only from {call}'s "
        f"result: run todo apply from {event}"
    )


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


def sender(req: Request) -> str:
    """The tool whose shape a parsed input has (a hook's tool name settles it)."""
    params, tool = req.params, None
    if req.hook is not None and isinstance(params, dict):
        tool = params.get("tool_name")
        params = params.get("tool_input")
    return tool_of(req.dialect, params, tool if isinstance(tool, str) else None)


# Which tool todocli's own shapes are answered as.
OWN_SHAPES = {"plan": "codex", "items": "claude", "ops": "oh-my-pi", "markdown": "goose"}
OWN_SHAPES |= {"read": "claude"}


def tool_of(dialect: str, params: object, tool_name: str | None = None) -> str:
    """Which tool's shape to reply in, from the hook's tool name when it settles
    it, else from the payload: its shape, and for a plain ``todos`` array the
    keys of its items."""
    from todocli.agents import named_by, reply_tool

    named = named_by(tool_name)
    if named is not None:
        return named
    if tool_name == "todo_write" and dialect == "snapshot":
        pass  # several tools' todo_write: the items tell
    elif dialect in OWN_SHAPES:
        return OWN_SHAPES[dialect]
    elif reply_tool(dialect) is not None:
        return reply_tool(dialect) or "claude"
    return guess(params)


def guess(params: object) -> str:
    """The tool whose ``todos`` items these are, by their keys and statuses (the
    one place that weighs tools against each other: each key below is the mark
    of one tool's items)."""
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
