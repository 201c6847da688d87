"""Input → operations: every agent's JSON payload shape, and markdown.

``todo apply`` reads one JSON document and detects its dialect:

- ops (seed 000): ``{"ops": [...]}``, a bare list of op objects, or one op object;
- snapshot: ``{"todos": [...], "summary": ...}`` whose items carry their text as
  ``content`` (Claude Code, nexo-rs, seed 004), ``title`` (Kimi), ``description``
  (Gemini), ``text`` (learn-claude-code) or ``step`` (Codex);
  ``{"plan": [...], "explanation": ...}`` (Codex ``update_plan``); ``{"items": [...]}``
  (learn-claude-code); a bare list of todo items;
- a query: ``{}`` or ``{"todos": null}`` shows the list and writes nothing.

Errors name the JSON path: ``todos[2].status: unknown status "working"``.
"""

from __future__ import annotations

from todocli.document.markdown import parse
from todocli.document.model import Status, Value
from todocli.engine.ops import Op, OpKind, PhaseItems
from todocli.errors import InvalidParamError
from todocli.escapes import quoted

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import Meta
    from todocli.engine.agents import Hook
    from todocli.engine.snapshot import Item

# The task's text, in the agents' words; "description" is the text only when no
# other text key is there (Gemini), else a note (VS Code, Augment, Claude Tasks).
TEXT_KEYS = ("content", "title", "subject", "name", "text", "step", "description")
ITEM_KEYS = frozenset(TEXT_KEYS) | {
    "status",
    "activeForm",
    "active_form",
    "phase",
    "notes",
    "id",  # Qwen, Cursor, Copilot (a number), Amp, OpenHands, Claude legacy
    "priority",  # OpenCode, Kilo, Amp 2025, Claude legacy
    "blockedBy",  # Qwen
    "order",  # Continue PR #11884
    "completed",  # Continue PR #11884
}
TOP_LEVEL_KEYS = ("ops", "todos", "summary", "plan", "explanation", "items")
STATUS_HELP = "use pending, in_progress, completed, abandoned or blocked"

# Which fields each op takes (besides "op").
OP_FIELDS: dict[str, frozenset[str]] = {
    "init": frozenset({"list", "summary"}),
    "start": frozenset({"task"}),
    "done": frozenset({"task", "phase"}),
    "drop": frozenset({"task", "phase"}),
    "rm": frozenset({"task", "phase"}),
    "append": frozenset({"phase", "items"}),
    "note": frozenset({"task", "text"}),
    "block": frozenset({"task", "phase", "reason"}),
    "unblock": frozenset({"task", "phase"}),
    "view": frozenset(),
    "write": frozenset({"todos", "summary"}),
    "clear": frozenset({"all"}),
    "claim": frozenset({"task"}),
}


class Request(Value):
    """A parsed input: the ops to run and what the input was."""

    ops: tuple[Op, ...]
    dialect: str  # which shape it was: "ops", "snapshot", "copilot", "roo"...
    params: object = None  # the input as parsed (JSON context.params_input)
    hook: Hook | None = None  # the hook envelope it came in, if any
    ignored: bool = False  # a hook envelope of a tool that is not a todo tool
    warnings: tuple[str, ...] = ()  # lines of a checklist string not read

    @property
    def query(self) -> bool:
        return all(op.kind is OpKind.VIEW for op in self.ops)


class InputError(InvalidParamError):
    """Input that is not one of the dialects, with the JSON path of the problem."""


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _expect(value: object, kind: str, path: str) -> None:
    if _kind(value) != kind:
        raise InputError(f"{path}: expected {_article(kind)}, got {_kind(value)}")


def _article(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def _opt_str(data: dict[str, Any], key: str, path: str) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    _expect(value, "string", f"{path}.{key}")
    return str(value)


def _str_list(value: object, path: str) -> tuple[str, ...]:
    _expect(value, "array", path)
    assert isinstance(value, list)
    for i, item in enumerate(value):
        _expect(item, "string", f"{path}[{i}]")
    return tuple(value)


def decode(data: bytes, limit: int) -> object:
    """Bytes from stdin or a file → a JSON value, with one-line errors."""
    if len(data) > limit:
        raise input_too_big(limit)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"input is not valid UTF-8 (byte {exc.start})") from None
    text = text.removeprefix("\ufeff")  # some Windows tools write one; RFC 8259 allows ignoring it
    if not text.strip():
        raise InputError("input is empty: send a JSON document (see: todo schema)")
    try:
        value = loads_json(text, "input: ")
    except NotJSONError as exc:
        raise InputError(f"invalid JSON: {exc}") from None
    except DuplicateKeyError as exc:
        raise InputError(
            f'duplicate key "{exc.key}" in a JSON object: each key may appear once '
            "(JSON parsers disagree on which one wins)"
        ) from None
    except ValueError as exc:  # json.JSONDecodeError, without importing json for it
        import json

        if isinstance(exc, json.JSONDecodeError):
            raise InputError(
                f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
            ) from None
        raise InputError(f"invalid JSON: {exc}") from None  # e.g. an over-long integer
    if "\\u" in text:  # only an escape can make a lone surrogate in valid UTF-8
        refuse_surrogates(value, "")
    return value


def input_too_big(limit: int) -> InputError:
    # The input is read up to one byte past the limit: its real size is not known.
    return InputError(f"input is over the limit of {limit} bytes (max_input_bytes)")


class DuplicateKeyError(ValueError):
    """A JSON object with the same key twice."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key given twice (``json`` would keep the last)."""
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKeyError(key)
            seen.add(key)
    return value


def _is_text(value: str) -> bool:
    if value.isascii():
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


LONE_SURROGATE = "a lone surrogate escape (\\ud800-\\udfff), which is not text"


def refuse_surrogates(value: object, path: str) -> None:
    """A ``\\ud800`` escape with no partner decodes to a lone surrogate: no text
    can hold it (it cannot be written as UTF-8), so it is refused, by its path."""
    if isinstance(value, str):
        if not _is_text(value):
            raise InputError(
                f"{path or 'input'}: a lone surrogate escape (\\ud800-\\udfff) is not text"
            )
    elif isinstance(value, list):
        for i, item in enumerate(value):
            refuse_surrogates(item, f"{path}[{i}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else key
            if not _is_text(key):
                raise InputError(
                    f"{path or 'input'}: a key holds a lone surrogate escape, which is not text"
                )
            refuse_surrogates(item, where)


MAX_DEPTH = 64  # levels of arrays and objects in JSON input: every agent's payload has < 10


class TooDeepError(InputError):
    """JSON nested deeper than ``MAX_DEPTH``: refused before anything walks it (a
    reader that recurses would run out of stack)."""

    def __init__(self, where: str = "") -> None:
        super().__init__(f"{where}JSON nested more than {MAX_DEPTH} levels deep")


def refuse_deep(value: object, where: str = "") -> None:
    """TooDeepError when ``value`` nests arrays and objects past ``MAX_DEPTH``
    (walked with a stack of its own, not by recursion)."""
    pending: list[tuple[object, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            inner: list[object] = list(item.values())
        elif isinstance(item, list):
            inner = item
        else:
            continue
        if depth > MAX_DEPTH:
            raise TooDeepError(where)
        pending.extend((v, depth + 1) for v in inner if isinstance(v, (dict, list)))


class NotJSONError(ValueError):
    """Python's reader takes NaN and Infinity; JSON has no such numbers, and echoing
    them back (context.params_input) would make the output invalid JSON too."""


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise NotJSONError(f"{text} is too large for a number")
    return value


class _ScannerContext:
    """What ``json.JSONDecoder`` hands its C scanner, with its defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = staticmethod(_object)
    parse_float = staticmethod(_finite)
    parse_int = int

    @staticmethod
    def parse_constant(name: str) -> float:
        raise NotJSONError(f"{name} is not a JSON number")


def loads_json(text: str, where: str = "") -> object:
    """``json.loads(text)``, run through CPython's C scanner directly when it can;
    TooDeepError (``where`` says where the text was) for a document nested past
    ``MAX_DEPTH``.

    ``json.loads`` is this same scanner behind the ``json`` package, whose import
    (with the regexes it compiles) costs a few milliseconds of every ``todo apply``.
    Whenever the shortcut is unavailable (no ``_json``) or the text is not a single
    valid document, ``json.loads`` itself runs: its results and its error messages
    are the reference (a property test compares the two).
    """
    try:
        import _json
    except ImportError:  # not CPython: json.loads below
        pass
    else:
        start = len(text) - len(text.lstrip(" \t\n\r"))
        try:
            # typeshed types the context as the scanner class; the C code reads the
            # attributes of any object (json.JSONDecoder passes itself).
            scan = _json.make_scanner(_ScannerContext())  # type: ignore[arg-type]
            value, end = scan(text, start)
        except (DuplicateKeyError, NotJSONError):
            raise
        except RecursionError:
            raise TooDeepError(where) from None
        except Exception:  # json.loads below raises the error, worded as json words it
            pass
        else:
            if not text[end:].strip(" \t\n\r"):
                if text.count("[") + text.count("{") > MAX_DEPTH:  # else it cannot be deep
                    refuse_deep(value, where)
                return value
    return _bounded(text, where)


def _bounded(text: str, where: str) -> object:
    """``json.loads`` with its results and messages, refusing a document nested past
    ``MAX_DEPTH`` (its reader recurses: thousands of ``[`` exhaust the stack)."""
    import json

    try:
        value = json.loads(
            text,
            object_pairs_hook=_object,
            parse_float=_finite,
            parse_constant=_ScannerContext.parse_constant,
        )
    except RecursionError:
        raise TooDeepError(where) from None
    refuse_deep(value, where)
    return value


def request(value: object, tool: str | None = None) -> Request:
    """Detect the dialect of a JSON value and turn it into ops. ``tool`` is the
    tool's name when a hook envelope gave it."""
    if isinstance(value, dict) and ("tool_name" in value or "tool_input" in value):
        from todocli.engine.agents import envelope

        return envelope(value)
    if isinstance(value, dict) and "op" not in value and "ops" not in value:
        from todocli.engine.agents import detect, to_request

        parsed = detect(value, tool)
        if parsed is not None:
            return to_request(parsed, value)
    if isinstance(value, list):
        if value and isinstance(value[0], dict) and "op" in value[0]:
            return Request(_ops(value, "ops", root=""), "ops", value)
        return Request((_snapshot(value, "", None),), "snapshot", value)
    if not isinstance(value, dict):
        raise InputError(f"expected a JSON object or array, got {_kind(value)}")
    if "op" in value:
        return Request(_ops([value], "", root="single"), "ops", value)
    for key in value:
        if key not in TOP_LEVEL_KEYS:
            raise InputError(_unknown_top(key))
    if "ops" in value:
        _only(value, ("ops",), "")
        _expect(value["ops"], "array", "ops")
        if not value["ops"]:
            raise InputError("ops: expected at least one op")
        return Request(_ops(value["ops"], "ops", root=""), "ops", value)
    if "plan" in value:
        _only(value, ("plan", "explanation"), "")
        summary = _opt_str(value, "explanation", "")
        return Request((_snapshot(value["plan"], "plan", summary, "explanation"),), "plan", value)
    if "items" in value:
        _only(value, ("items", "summary"), "")
        summary = _opt_str(value, "summary", "")
        return Request((_snapshot(value["items"], "items", summary),), "items", value)
    if value.get("todos") is None:
        return Request((Op(OpKind.VIEW),), "query", value)
    summary = _opt_str(value, "summary", "")
    return Request((_snapshot(value["todos"], "todos", summary),), "snapshot", value)


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


def _unknown_top(key: str) -> str:
    from difflib import get_close_matches

    near = get_close_matches(key, list(SHAPES), n=1, cutoff=0.6)
    if near:
        return f'unknown key {quoted(key)}: did you mean "{near[0]}"? (e.g. {SHAPES[near[0]]})'
    return f"unknown key {quoted(key)} (e.g. {SHAPES['todos']}; see: todo schema)"


def _only(value: dict[str, Any], allowed: tuple[str, ...], path: str) -> None:
    for key in value:
        if key not in allowed:
            where = f"{path}: " if path else ""
            raise InputError(
                f"{where}unexpected key {quoted(key)} here (expected: {', '.join(allowed)})"
            )


def _ops(values: list[Any], name: str, root: str) -> tuple[Op, ...]:
    ops = []
    for i, raw in enumerate(values):
        path = f"{name}[{i}]" if root != "single" else "op"
        _expect(raw, "object", path)
        kind_name = raw.get("op")
        where = f"{path}.op" if root != "single" else "op"
        if not isinstance(kind_name, str):
            raise InputError(f"{where}: expected a string, got {_kind(kind_name)}")
        if kind_name not in OP_FIELDS:
            known = ", ".join(OP_FIELDS)
            raise InputError(f"{where}: unknown op {quoted(kind_name)} (use {known})")
        prefix = path if root != "single" else ""
        for key in raw:
            if key != "op" and key not in OP_FIELDS[kind_name]:
                allowed = ", ".join(sorted(OP_FIELDS[kind_name])) or "no other fields"
                head = f"{prefix}: " if prefix else ""
                raise InputError(
                    f'{head}unknown key {quoted(key)} for op "{kind_name}" ({allowed})'
                )
        ops.append(_op(OpKind.of(kind_name), raw, prefix or "op"))
    return tuple(ops)


def _op(kind: OpKind, raw: dict[str, Any], path: str) -> Op:
    task = _opt_str(raw, "task", path)
    phase = _opt_str(raw, "phase", path)
    if kind is OpKind.INIT:
        groups = None
        if raw.get("list") is not None:
            _expect(raw["list"], "array", f"{path}.list")
            groups = []
            for k, group in enumerate(raw["list"]):
                where = f"{path}.list[{k}]"
                _expect(group, "object", where)
                _only(group, ("phase", "items"), where)
                name = _opt_str(group, "phase", where) or ""
                items = group.get("items")
                groups.append(
                    PhaseItems(name, () if items is None else _str_list(items, f"{where}.items"))
                )
        return Op(
            kind,
            phases=None if groups is None else tuple(groups),
            summary=_opt_str(raw, "summary", path),
            path=path,
            summary_path=f"{path}.summary",
        )
    if kind is OpKind.APPEND:
        items = raw.get("items")
        return Op(
            kind,
            phase=phase,
            path=path,
            items=None if items is None else _str_list(items, f"{path}.items"),
        )
    if kind is OpKind.NOTE:
        return Op(kind, task=task, text=_opt_str(raw, "text", path), path=path)
    if kind is OpKind.BLOCK:
        return Op(kind, task=task, phase=phase, text=_opt_str(raw, "reason", path), path=path)
    if kind is OpKind.WRITE:
        if raw.get("todos") is None:
            return Op(kind, path=path)
        snapshot = _snapshot(raw["todos"], f"{path}.todos", _opt_str(raw, "summary", path))
        return Op(
            kind,
            todos=snapshot.todos,
            summary=snapshot.summary,
            path=path,
            summary_path=f"{path}.summary",
        )
    if kind is OpKind.CLEAR:
        everything = raw.get("all", False)
        _expect(everything, "boolean", f"{path}.all")
        return Op(kind, all=bool(everything), path=path)
    return Op(kind, task=task, phase=phase, path=path)


def _snapshot(values: object, name: str, summary: str | None, summary_key: str = "summary") -> Op:
    items = _snapshot_items(values, name)
    return Op(
        OpKind.WRITE, todos=tuple(items), summary=summary, path=name, summary_path=summary_key
    )


def _snapshot_items(values: object, name: str) -> list[Item]:
    where = name or "input"
    _expect(values, "array", where)
    assert isinstance(values, list)
    items = []
    orders: list[float] = []
    for i, raw in enumerate(values):
        path = f"{name}[{i}]" if name else f"[{i}]"
        items.append(_item(raw, path))
        order = raw.get("order") if isinstance(raw, dict) else None
        if order is not None and _kind(order) != "number":
            raise InputError(f"{path}.order: expected a number, got {_kind(order)}")
        # As given: an integer too large for a float still sorts among the others.
        orders.append(order if order is not None else i)
    if any(isinstance(raw, dict) and "order" in raw for raw in values):
        items = [item for _, item in sorted(zip(orders, items, strict=True), key=lambda p: p[0])]
    return items


def _item(raw: object, path: str) -> Item:
    from todocli.engine.snapshot import Item  # snapshots only: op batches need none of it

    if isinstance(raw, str):  # a bare string is a pending task
        return Item(raw, path=path, key="", keep_active_form=True)
    _expect(raw, "object", path)
    assert isinstance(raw, dict)
    for key in raw:
        if key not in ITEM_KEYS:
            from difflib import get_close_matches

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
    _expect(content, "string", f"{path}.{key}")
    note_from: str | None = None
    for other in keys[1:]:
        _expect(raw[other], "string", f"{path}.{other}")
        if other == "description":
            note_from = raw[other] or None  # a description beside the text: a note
        elif raw[other] != content:
            raise InputError(f'{path}: "{key}" and "{other}" differ; send one of them')
    status = Status.PENDING
    if raw.get("status") is not None:
        _expect(raw["status"], "string", f"{path}.status")
        try:
            status = Status.parse(raw["status"])
        except ValueError:
            raise InputError(
                f"{path}.status: unknown status {quoted(raw['status'])} ({STATUS_HELP})"
            ) from None
    elif raw.get("completed") is not None:  # Continue PR #11884
        _expect(raw["completed"], "boolean", f"{path}.completed")
        status = Status.COMPLETED if raw["completed"] else Status.PENDING
    active_key = "activeForm" if "activeForm" in raw else "active_form"
    has_active = active_key in raw
    active = _opt_str(raw, active_key, path) if has_active else None
    notes: tuple[str, ...] | None = None
    if raw.get("notes") is not None:
        value = raw["notes"]
        if isinstance(value, str):
            notes = (value,) if value else ()  # OpenHands sends "" for none
        else:
            notes = _str_list(value, f"{path}.notes")
    if note_from is not None:
        notes = (*(notes or ()), note_from)
    meta = _meta(raw, path) if {"id", "priority", "blockedBy"} & raw.keys() else None
    # Which of the metadata the item gives: what it leaves out is kept from the
    # task it names (Qwen: "preserve omitted dependencies for existing IDs").
    given = frozenset(
        f for f, k in (("priority", "priority"), ("blocked_by", "blockedBy")) if k in raw
    )
    return Item(
        content=content,
        status=status,
        active_form=active,
        phase=_opt_str(raw, "phase", path),
        notes=notes,
        keep_active_form=not has_active,
        path=path,
        key=key,
        active_key=active_key,
        meta=meta,
        given=given,
    )


def _meta(raw: dict[str, Any], path: str) -> Meta:
    from todocli.document.model import Meta

    task_id = raw.get("id")
    if task_id is not None:
        if isinstance(task_id, int) and not isinstance(task_id, bool):
            task_id = str(task_id)  # VS Code's ids are numbers (a long one: too long below)
        elif isinstance(task_id, float) and task_id.is_integer():
            task_id = str(int(task_id))
        _expect(task_id, "string", f"{path}.id")
        if len(task_id.encode("utf-8")) > 500:
            raise InputError(f"{path}.id: over 500 bytes")
    priority = _opt_str(raw, "priority", path)
    if priority is not None and len(priority.encode("utf-8")) > 500:
        raise InputError(f"{path}.priority: over 500 bytes")
    blocked: tuple[str, ...] = ()
    if raw.get("blockedBy") is not None:
        blocked = _str_list(raw["blockedBy"], f"{path}.blockedBy")
        if len(blocked) > 100 or any(len(d.encode("utf-8")) > 500 for d in blocked):
            raise InputError(f"{path}.blockedBy: at most 100 ids of at most 500 bytes")
    return Meta(task_id or None, priority or None, blocked)


def from_markdown(text: str) -> Request:
    from todocli.engine.snapshot import Item

    """Markdown on stdin replaces the list like a snapshot."""
    doc = parse(text)
    todo = doc.model()
    items = tuple(
        Item(t.content, t.status, t.active_form, phase.name, t.notes, meta=t.meta)
        for phase, t in todo.tasks()
    )
    if not items and text.strip():
        # Never empty a list with text that holds no task (Roo's "[-] x" lines,
        # which have no bullet): an empty list is sent as an empty input.
        raise InputError(
            'the markdown holds no task item ("- [ ] task"), so nothing was written; '
            "to clear the list send an empty input"
        )
    op = Op(OpKind.WRITE, todos=items, summary=todo.summary)
    req = Request((op,), "markdown", None)
    req.warnings = tuple(doc.warnings)
    return req
