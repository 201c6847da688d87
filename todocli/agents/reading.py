"""What several agent tools share to read their payloads: their items (task
objects in any agent's words), updates by id, and checklists in a string.

A tool's own module (``todocli/agents/<tool>.py``) says how its payload is
recognised and read; what more than one of them needs lives here (their replies'
and schemas' shared pieces are in ``common``, which loads no reader).
"""

from __future__ import annotations

from todocli.document.model import Meta, Status
from todocli.engine.dialects import InputError
from todocli.escapes import quoted

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from typing import Any

    from todocli.engine.snapshot import Item


class Parsed:
    """What a tool's payload asks for: a query (``items`` None), a whole list, or
    updates (``merge``). Made once, never changed."""

    __slots__ = ("dialect", "items", "merge", "summary", "warnings")

    def __init__(
        self,
        dialect: str,
        items: list[Item] | None = None,
        summary: str | None = None,
        merge: bool = False,
        warnings: list[str] | None = None,
    ) -> None:
        self.dialect = dialect
        self.items = items  # None: a read
        self.summary = summary
        self.merge = merge
        self.warnings = tuple(warnings or ())


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
    "order",
    "completed",
}
STATUS_HELP = "use pending, in_progress, completed, abandoned or blocked"


def kind_of(value: object) -> str:
    """The JSON kind of a value, as error messages name it."""
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


def expect(value: object, kind: str, path: str) -> None:
    if kind_of(value) != kind:
        article = f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"
        raise InputError(f"{path}: expected {article}, got {kind_of(value)}")


def opt_str(data: dict[str, Any], key: str, path: str) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    expect(value, "string", f"{path}.{key}")
    return str(value)


def str_list(value: object, path: str) -> tuple[str, ...]:
    expect(value, "array", path)
    assert isinstance(value, list)
    for i, item in enumerate(value):
        expect(item, "string", f"{path}[{i}]")
    return tuple(value)


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
    expect(raw, "object", path)
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
    expect(content, "string", f"{path}.{key}")
    note_from: str | None = None
    for other in keys[1:]:
        expect(raw[other], "string", f"{path}.{other}")
        if other == "description":
            note_from = raw[other] or None  # a description beside the text: a note
        elif raw[other] != content:
            raise InputError(f'{path}: "{key}" and "{other}" differ; send one of them')
    status = Status.PENDING
    if raw.get("status") is not None:
        expect(raw["status"], "string", f"{path}.status")
        try:
            status = Status.parse(raw["status"])
        except ValueError:
            raise InputError(
                f"{path}.status: unknown status {quoted(raw['status'])} ({STATUS_HELP})"
            ) from None
    elif raw.get("completed") is not None:  # a boolean instead of a status
        expect(raw["completed"], "boolean", f"{path}.completed")
        status = Status.COMPLETED if raw["completed"] else Status.PENDING
    active_key = "activeForm" if "activeForm" in raw else "active_form"
    has_active = active_key in raw
    active = opt_str(raw, active_key, path) if has_active else None
    notes: tuple[str, ...] | None = None
    if raw.get("notes") is not None:
        value = raw["notes"]
        if isinstance(value, str):
            notes = (value,) if value else ()  # "" for none
        else:
            notes = str_list(value, f"{path}.notes")
    if note_from is not None:
        notes = (*(notes or ()), note_from)
    meta = _meta(raw, path) if {"id", "priority", "blockedBy"} & raw.keys() else None
    # Which of the metadata the item gives: what it leaves out is kept from the
    # task it names ("preserve omitted dependencies for existing IDs").
    given = frozenset(
        f for f, k in (("priority", "priority"), ("blocked_by", "blockedBy")) if k in raw
    )
    return Item(
        content=content,
        status=status,
        active_form=active,
        phase=opt_str(raw, "phase", path),
        notes=notes,
        keep_active_form=not has_active,
        path=path,
        key=key,
        active_key=active_key,
        meta=meta,
        given=given,
    )


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
    return Meta(task_id or None, priority or None, blocked)


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


# -- checklists in a string ------------------------------------------------------------------

# The markers most checklist tools share.
CHECKLIST = {" ": Status.PENDING, "": Status.PENDING, "x": Status.COMPLETED, "X": Status.COMPLETED}
CHECKLIST |= {"/": Status.IN_PROGRESS, ">": Status.IN_PROGRESS, "-": Status.ABANDONED}
CHECKLIST |= {"~": Status.ABANDONED, "!": Status.BLOCKED}


def lines(text: str, key: str, markers: dict[str, Status], dialect: str) -> Parsed:
    """A checklist in a string, read with its tool's markers: one task a line.
    Lines that hold no item are not kept, and each is reported as a warning. A
    fenced code block is code, as markdown reads it (``todo apply --markdown``):
    its lines are not read, and one warning says so."""
    from todocli.engine.snapshot import Item

    items: list[Item] = []
    warnings: list[str] = []
    in_comment = False
    fence = ""  # the open code fence (``` or ~~~, as long as it was), if any
    fenced_from = 0
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if fence:
            if line.startswith(fence) and not line.strip(fence[0]):
                fence = ""
                warnings.append(f"{key}: lines {fenced_from}-{n} are a code block, not read")
            continue
        opening = _fence_at(line)
        if opening and not in_comment:
            fence, fenced_from = opening, n
            continue
        if in_comment or line.startswith("<!--"):
            in_comment = "-->" not in line
            continue
        if not line:
            continue
        found = _checklist_line(line, markers)
        if found is None:
            warnings.append(f"{key}: line {n} is not a checklist item, ignored: {line[:60]}")
            continue
        status, content = found
        if status is None:
            warnings.append(f"{key}: line {n}: unknown status marker, read as pending")
            status = Status.PENDING
        items.append(Item(content, status, path=key, key=key, keep_active_form=True))
    if fence:  # never closed: code to the end, as markdown reads it
        warnings.append(f"{key}: lines {fenced_from}- are a code block (never closed), not read")
    if not items and text.strip():
        raise InputError(
            f'{key}: no checklist item in the text: send lines like "- [ ] task" '
            "(an empty list is cleared only by an empty string)"
        )
    return Parsed(dialect, items, warnings=warnings)


def _fence_at(line: str) -> str:
    """The code fence a (stripped) line opens: 3 or more backticks or tildes (a
    backtick fence's info string holds no backtick), else ""."""
    mark = line[:1]
    if mark not in ("`", "~"):
        return ""
    size = len(line) - len(line.lstrip(mark))
    if size < 3 or (mark == "`" and "`" in line[size:]):
        return ""
    return line[:size]


_WORDS = {"pending": Status.PENDING, "in_progress": Status.IN_PROGRESS}
_WORDS |= {"completed": Status.COMPLETED, "cancelled": Status.ABANDONED}


def _checklist_line(line: str, markers: dict[str, Status]) -> tuple[Status | None, str] | None:
    """``- [x] text``, ``[-] text``, ``1. [completed] text`` → status, text."""
    rest = line
    if rest[:1] in "-*+" and rest[1:2] in (" ", "["):
        rest = rest[1:].lstrip()
    else:
        digits = len(rest) - len(rest.lstrip("0123456789"))
        if digits and rest[digits : digits + 1] in (".", ")"):
            rest = rest[digits + 1 :].lstrip()
    if not rest.startswith("["):
        return None
    close = rest.find("]")
    if close < 0:
        return None
    inner, content = rest[1:close].strip(), rest[close + 1 :].strip()
    if not content:
        return None
    if inner in markers or (inner == "" and " " in markers):
        return markers.get(inner, Status.PENDING), content
    word = inner.lower().replace("-", "_")
    if word in _WORDS:
        return _WORDS[word], content
    return None, content
