"""What an agent sends → a request: a hook's envelope, an agent tool's payload
(asked of the registry's readers, ``todocli.agents``), or one of todocli's own
shapes; and the readers the tools' modules share (task objects in any agent's
words, updates by id). Read apart, each loaded only for its input: a hook's
envelope (``envelope``), checklists in a string (``checklist``).

todocli's own shapes:

- ops: ``{"ops": [...]}``, a bare list of op objects, or one op object;
- snapshot: ``{"todos": [...], "summary": ...}`` (items carry their text as
  ``content``, ``title``, ``description``, ``text`` or ``step``);
  ``{"plan": [...], "explanation": ...}``; ``{"items": [...]}``; a bare list of
  todo items;
- a query: ``{}`` or ``{"todos": null}`` shows the list and writes nothing.

Errors name the JSON path: ``todos[2].status: unknown status "working"``.
"""

from __future__ import annotations

from todocli import agents as registry
from todocli.base import TYPE_CHECKING
from todocli.document.model import Meta, Status
from todocli.engine.dialects import (
    InputError,
    Request,
    expect,
    kind_of,
    only_keys,
    opt_str,
    read_ops,
    str_list,
)
from todocli.engine.ops import Op, OpKind
from todocli.escapes import quoted

if TYPE_CHECKING:
    from typing import Any, TypeGuard

    from todocli.agents.parsed import Parsed
    from todocli.engine.snapshot import Item


def only(value: dict[str, Any], allowed: set[str], tool: str) -> None:
    """InputError for a key the tool does not take."""
    for key in value:
        if key not in allowed:
            raise InputError(
                f"unknown key {quoted(key)} for {tool} (it takes: {', '.join(sorted(allowed))})"
            )


def string(value: dict[str, Any], key: str) -> str | None:
    got = value.get(key)
    if got is None:
        return None
    if not isinstance(got, str):
        raise InputError(f"{key}: expected a string")
    return got


# -- items: the agents' task objects -------------------------------------------------------

# The task's text, in the agents' words; "description" is the text only when no
# other text key is there, else a note.
TEXT_KEYS = ("content", "title", "subject", "name", "text", "step", "description")
ITEM_KEYS = frozenset(TEXT_KEYS) | {
    "status",
    "activeForm",
    "active_form",
    "phase",
    "notes",
    "id",  # a string, or a number
    "priority",
    "blockedBy",
    "check",  # todocli's own: the command that proves the task done
    "order",
    "completed",
}
META_KEYS = frozenset({"id", "priority", "blockedBy", "check"})
GIVEN_KEYS = (("priority", "priority"), ("blocked_by", "blockedBy"), ("check", "check"))
STATUS_HELP = "use pending, in_progress, completed, abandoned or blocked"


def snapshot_items(values: object, name: str) -> list[Item]:
    """An array of task objects (or strings), in order (``order`` sorts them)."""
    where = name or "input"
    expect(values, "array", where)
    assert isinstance(values, list)
    items = []
    orders: list[float] = []
    for i, raw in enumerate(values):
        path = f"{name}[{i}]" if name else f"[{i}]"
        items.append(item(raw, path))
        order = raw.get("order") if isinstance(raw, dict) else None
        if order is not None and kind_of(order) != "number":
            raise InputError(f"{path}.order: expected a number, got {kind_of(order)}")
        # As given: an integer too large for a float still sorts among the others.
        orders.append(order if order is not None else i)
    if any(isinstance(raw, dict) and "order" in raw for raw in values):
        items = [item for _, item in sorted(zip(orders, items, strict=True), key=lambda p: p[0])]
    return items


def item(raw: object, path: str) -> Item:
    """One task object in any agent's words (or a bare string: a pending task)."""
    from todocli.engine.snapshot import Item

    if isinstance(raw, str):  # a bare string is a pending task
        return Item(raw, path=path, key="", keep_active_form=True)
    # Each check below words its error (and builds the path it names) only when it
    # fails: a TodoWrite of 20 tasks makes a hundred of them.
    if not isinstance(raw, dict):
        expect(raw, "object", path)
    assert isinstance(raw, dict)
    if not ITEM_KEYS.issuperset(raw):
        from difflib import get_close_matches

        key = next(key for key in raw if key not in ITEM_KEYS)
        near = get_close_matches(key, sorted(ITEM_KEYS), n=1, cutoff=0.6)
        hint = f': did you mean "{near[0]}"?' if near else ""
        raise InputError(
            f'{path}: unknown key "{key}"{hint} (e.g. {{"content": "x", "status": "pending"}})'
        )
    keys = [k for k in TEXT_KEYS if k in raw]
    if not keys:
        raise InputError(
            f"{path}: missing the task text (content, title, description, text or step)"
        )
    key = keys[0]
    content = raw[key]
    if not isinstance(content, str):
        expect(content, "string", f"{path}.{key}")
    note_from: str | None = None
    for other in keys[1:]:
        expect(raw[other], "string", f"{path}.{other}")
        if other == "description":
            note_from = raw[other] or None  # a description beside the text: a note
        elif raw[other] != content:
            raise InputError(f'{path}: "{key}" and "{other}" differ; send one of them')
    status = _status(raw, path)
    active_key = "activeForm" if "activeForm" in raw else "active_form"
    has_active = active_key in raw
    active = raw[active_key] if has_active else None
    if active is not None and not isinstance(active, str):
        expect(active, "string", f"{path}.{active_key}")
    notes: tuple[str, ...] | None = None
    if raw.get("notes") is not None:
        value = raw["notes"]
        if isinstance(value, str):
            notes = (value,) if value else ()  # "" for none
        else:
            notes = str_list(value, f"{path}.notes")
    if note_from is not None:
        notes = (*(notes or ()), note_from)
    meta = None
    given: frozenset[str] = frozenset()
    if not META_KEYS.isdisjoint(raw):
        meta = _meta(raw, path)
        # Which of the metadata the item gives: what it leaves out is kept from the
        # task it names ("preserve omitted dependencies for existing IDs").
        given = frozenset(field for field, key in GIVEN_KEYS if key in raw)
    phase = raw.get("phase")
    if phase is not None and not isinstance(phase, str):
        expect(phase, "string", f"{path}.phase")
    return Item(
        content=content,
        status=status,
        active_form=active,
        phase=phase,
        notes=notes,
        keep_active_form=not has_active,
        path=path,
        key=key,
        active_key=active_key,
        meta=meta,
        given=given,
    )


def _status(raw: dict[str, Any], path: str) -> Status:
    """A task object's status: its ``status`` word, else its ``completed`` flag."""
    word = raw.get("status")
    if word is not None:
        if not isinstance(word, str):
            expect(word, "string", f"{path}.status")
        try:
            return Status.parse(word)
        except ValueError:
            raise InputError(
                f"{path}.status: unknown status {quoted(word)} ({STATUS_HELP})"
            ) from None
    if raw.get("completed") is not None:  # a boolean instead of a status
        expect(raw["completed"], "boolean", f"{path}.completed")
        return Status.COMPLETED if raw["completed"] else Status.PENDING
    return Status.PENDING


def _meta(raw: dict[str, Any], path: str) -> Meta:
    task_id = raw.get("id")
    if task_id is not None:
        if isinstance(task_id, int) and not isinstance(task_id, bool):
            task_id = str(task_id)  # ids may be numbers (a long one: too long below)
        elif isinstance(task_id, float) and task_id.is_integer():
            task_id = str(int(task_id))
        expect(task_id, "string", f"{path}.id")
        if len(task_id.encode("utf-8")) > 500:
            raise InputError(f"{path}.id: over 500 bytes")
    priority = opt_str(raw, "priority", path)
    if priority is not None and len(priority.encode("utf-8")) > 500:
        raise InputError(f"{path}.priority: over 500 bytes")
    blocked: tuple[str, ...] = ()
    if raw.get("blockedBy") is not None:
        blocked = str_list(raw["blockedBy"], f"{path}.blockedBy")
        if len(blocked) > 100 or any(len(d.encode("utf-8")) > 500 for d in blocked):
            raise InputError(f"{path}.blockedBy: at most 100 ids of at most 500 bytes")
    check = opt_str(raw, "check", path)
    if check is not None and len(check.encode("utf-8")) > 500:
        raise InputError(f"{path}.check: over 500 bytes")
    return Meta(task_id or None, priority or None, blocked, check=check or None)


def patch(raw: object, path: str) -> Item:
    """One update of a merge: only the fields it gives change. ``task_id`` and
    ``state`` are the id and the status under other names."""
    if not isinstance(raw, dict):
        raise InputError(f"{path}: expected an object")
    given = set()
    texts = [k for k in ("content", "title", "name", "subject", "description") if k in raw]
    body = dict(raw)
    task_id = body.pop("task_id", None)
    if task_id is not None:
        body["id"] = short_uuid(task_id) if isinstance(task_id, str) else task_id
    state = body.pop("state", None)
    if state is not None:
        body["status"] = state
    deleted = body.get("status") == "deleted"  # a status that removes the task
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
    got = item(body, path)
    if got.notes is not None:
        given.add("notes")
    if deleted:
        given.add("delete")
    return got.replace(given=frozenset(given))


FLICKR58 = "123456789abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ"


def short_uuid(task_id: str) -> str:
    """A UUID shortened as short-uuid does (flickrBase58, padded to 22); any other
    id as it is. A tool that shows either form of an id is read in the short one."""
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


# -- todocli's own shapes ------------------------------------------------------------


TOP_LEVEL_KEYS = ("ops", "todos", "summary", "plan", "explanation", "items")

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


def is_envelope(value: object) -> TypeGuard[dict[str, Any]]:
    """Whether a JSON value is a harness hook's envelope (``agents.envelope``)."""
    return isinstance(value, dict) and ("tool_name" in value or "tool_input" in value)


def request(value: object, tool: str | None = None) -> Request:
    """Detect the shape of a JSON value (not a hook's envelope: see ``is_envelope``)
    and turn it into ops. ``tool`` is the tool's name when a hook envelope gave it."""
    if is_envelope(value):
        raise InputError("a hook's envelope is read by todocli.agents.envelope, not here")
    if isinstance(value, dict) and "op" not in value and "ops" not in value:
        parsed = detect(value, tool)
        if parsed is None:
            parsed = _id_only(value)
        if parsed is not None:
            return to_request(parsed, value)
    if isinstance(value, list):
        if value and isinstance(value[0], dict) and "op" in value[0]:
            return Request(read_ops(value, "ops", "", snapshot_items), "ops", value)
        return Request((_snapshot(value, "", None),), "snapshot", value)
    if not isinstance(value, dict):
        raise InputError(f"expected a JSON object or array, got {kind_of(value)}")
    if "op" in value:
        return Request(read_ops([value], "", "single", snapshot_items), "ops", value)
    for key in value:
        if key not in TOP_LEVEL_KEYS:
            raise InputError(_unknown_top(key))
    if "ops" in value:
        only_keys(value, ("ops",), "")
        expect(value["ops"], "array", "ops")
        if not value["ops"]:
            raise InputError("ops: expected at least one op")
        return Request(read_ops(value["ops"], "ops", "", snapshot_items), "ops", value)
    if "plan" in value:
        only_keys(value, ("plan", "explanation"), "")
        # Codex sends why it changed the plan with each call: told in the reply, not
        # made the list's heading (which would change on every call).
        why = opt_str(value, "explanation", "") or ""
        return Request((_snapshot(value["plan"], "plan", None),), "plan", value, why=why.strip())
    if "items" in value:
        only_keys(value, ("items", "summary"), "")
        summary = opt_str(value, "summary", "")
        return Request((_snapshot(value["items"], "items", summary),), "items", value)
    if value.get("todos") is None:
        return Request((Op(OpKind.VIEW),), "query", value)
    summary = opt_str(value, "summary", "")
    return Request((_snapshot(value["todos"], "todos", summary),), "snapshot", value)


def detect(value: dict[str, Any], tool: str | None = None) -> Parsed | None:
    """The payload of an agent's tool, read by the surest of the registry's readers
    that takes it; None when it is one of todocli's own shapes."""
    if tool in registry.READS:
        from todocli.agents.parsed import Parsed  # a tool's own payload

        return Parsed(tool)
    for found in registry.ranked(value, tool, readers=True):
        parsed: Parsed | None = found.detect(value, tool)
        if parsed is not None:
            return parsed
    return None


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
        from todocli.agents.parsed import Parsed  # updates by id: not todocli's own shape

        patches = [patch(raw, f"todos[{i}]") for i, raw in enumerate(todos)]
        return Parsed("snapshot", patches, string(value, "summary"), merge=True)
    return None


def _unknown_top(key: str) -> str:
    from difflib import get_close_matches

    near = get_close_matches(key, list(SHAPES), n=1, cutoff=0.6)
    if near:
        return f'unknown key {quoted(key)}: did you mean "{near[0]}"? (e.g. {SHAPES[near[0]]})'
    return f"unknown key {quoted(key)} (e.g. {SHAPES['todos']}; see: todo schema)"


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


def sender(req: Request) -> str:
    """The tool whose shape a parsed input has (a hook's tool name settles it)."""
    params, tool = req.params, None
    if req.hook is not None and isinstance(params, dict):
        tool = params.get("tool_name")
        params = params.get("tool_input")
    return tool_of(req.dialect, params, tool if isinstance(tool, str) else None)


def tool_of(dialect: str, params: object, tool_name: str | None = None) -> str:
    """Which tool's shape to reply in: the hook's tool name when it settles it,
    the reader's tool, else the tool whose payload scores surest (a bare array is
    a ``todos`` array), else the registry's default."""
    named = registry.named_by(tool_name)
    if named is not None:
        return named
    answer = registry.reply_tool(dialect)
    if answer is not None:
        return answer
    payload = {"todos": params} if isinstance(params, list) else params
    if isinstance(payload, dict):
        for found in registry.ranked(payload, tool_name, readers=False):
            name: str = found.NAME
            return name
    return registry.DEFAULT
