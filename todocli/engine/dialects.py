"""Input: JSON read with one-line errors, markdown on stdin, and the request
they become.

Which shape a JSON document has, and which agent tool sent it, is the agents'
knowledge (``todocli.agents``); this module knows none of them.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING, Value
from todocli.document.markdown import parse
from todocli.engine.ops import Op, OpKind, PhaseItems
from todocli.errors import InvalidParamError
from todocli.escapes import quoted

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Protocol

    from todocli.engine.snapshot import Item

    TodosReader = Callable[[object, str], list[Item]]

    class Hook(Protocol):
        """The hook a payload came through (``agents.envelope.Hook``, its only
        maker: named here for types only, as the engine knows no agent tool)."""

        @property
        def event(self) -> str: ...
        @property
        def session(self) -> str | None: ...


class Request(Value):
    """A parsed input: the ops to run and what the input was."""

    def __init__(
        self,
        ops: tuple[Op, ...],
        dialect: str,  # which shape it was: "ops", "snapshot", "markdown", or an agent tool's
        params: object = None,  # the input as parsed (JSON context.params_input)
        hook: Hook | None = None,  # the hook envelope it came in, if any
        ignored: bool = False,  # a hook envelope of a tool that is not a todo tool
        warnings: tuple[str, ...] = (),  # lines of a checklist string not read
        why: str = "",  # why the agent changed its plan (a tool may say so): told, not kept
    ) -> None:
        self.ops = ops
        self.dialect = dialect
        self.params = params
        self.hook = hook
        self.ignored = ignored
        self.warnings = warnings
        self.why = why

    @property
    def query(self) -> bool:
        return all(op.kind is OpKind.VIEW for op in self.ops)


class InputError(InvalidParamError):
    """Input that is not one of the dialects, with the JSON path of the problem."""


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
    except ValueError as exc:  # not JSON, or JSON todo refuses
        from todocli.engine.json_refusals import invalid_input

        raise invalid_input(exc, InputError) from None
    if "\\u" in text:  # only an escape can make a lone surrogate in valid UTF-8
        refuse_surrogates(value, "")
    return value


def input_too_big(limit: int) -> InputError:
    # The input is read up to one byte past the limit: its real size is not known.
    return InputError(f"input is over the limit of {limit} bytes (max_input_bytes)")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key given twice (``json`` would keep the last)."""
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                from todocli.engine.json_refusals import DuplicateKeyError

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


def too_deep(where: str = "") -> InputError:
    """JSON nested deeper than ``MAX_DEPTH``: refused before anything walks it (a
    reader that recurses would run out of stack). (A function, not a class of its
    own: a class costs every ``apply`` about 70,000 instructions to make.)"""
    return InputError(f"{where}JSON nested more than {MAX_DEPTH} levels deep")


def refuse_deep(value: object, where: str = "") -> None:
    """``too_deep`` raised when ``value`` nests arrays and objects past ``MAX_DEPTH``
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
            raise too_deep(where)
        pending.extend((v, depth + 1) for v in inner if isinstance(v, (dict, list)))


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        from todocli.engine.json_refusals import NotJSONError

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
        from todocli.engine.json_refusals import NotJSONError

        raise NotJSONError(f"{name} is not a JSON number")


def loads_json(text: str, where: str = "") -> object:
    """``json.loads(text)``, run through CPython's C scanner directly when it can;
    ``too_deep``'s error (``where`` says where the text was) for a document nested past
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
        except RecursionError:
            raise too_deep(where) from None
        except Exception as exc:  # json.loads below raises the error, worded as json words it
            from todocli.engine.json_refusals import is_refusal

            if is_refusal(exc):  # a key twice, NaN: todo's own refusal, as it is
                raise
        else:
            if not text[end:].strip(" \t\n\r"):
                if text.count("[") + text.count("{") > MAX_DEPTH:  # else it cannot be deep
                    refuse_deep(value, where)
                return value
    return _bounded(text, where)


def _nesting(text: str) -> int:
    """How deep arrays and objects nest in JSON ``text`` at the most (brackets inside
    strings do not count), read without recursion; a text that is not JSON gets
    a number all the same, and its reader says what is wrong with it."""
    deepest = depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


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
        raise too_deep(where) from None
    except ValueError:
        # How deep a recursing reader gets before it gives up differs between
        # Pythons (3.13's goes past an unclosed "[" * 3000 to the end of the text):
        # a text nested too deep is refused as such on every one of them.
        if text.count("[") + text.count("{") > MAX_DEPTH and _nesting(text) > MAX_DEPTH:
            raise too_deep(where) from None
        raise
    refuse_deep(value, where)
    return value


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
        # Never empty a list with text that holds no task ("[-] x" lines,
        # which have no bullet): an empty list is sent as an empty input.
        raise InputError(
            'the markdown holds no task item ("- [ ] task"), so nothing was written; '
            "to clear the list send an empty input"
        )
    op = Op(OpKind.WRITE, todos=items, summary=todo.summary)
    return Request((op,), "markdown", None, warnings=tuple(doc.warnings))


# -- JSON values, as an input's shape checks them ----------------------------------------


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


# -- todocli's own ops --------------------------------------------------------------------


def only_keys(value: dict[str, Any], allowed: tuple[str, ...], path: str) -> None:
    for key in value:
        if key not in allowed:
            where = f"{path}: " if path else ""
            raise InputError(
                f"{where}unexpected key {quoted(key)} here (expected: {', '.join(allowed)})"
            )


# Which fields each op takes (besides "op").
OP_FIELDS: dict[str, frozenset[str]] = {
    "init": frozenset({"list", "summary"}),
    "start": frozenset({"task"}),
    "done": frozenset({"task", "phase", "evidence"}),
    "drop": frozenset({"task", "phase"}),
    "rm": frozenset({"task", "phase"}),
    "append": frozenset({"phase", "items", "check"}),
    "note": frozenset({"task", "text"}),
    "block": frozenset({"task", "phase", "reason"}),
    "unblock": frozenset({"task", "phase"}),
    "view": frozenset(),
    "write": frozenset({"todos", "summary"}),
    "clear": frozenset({"all"}),
    "claim": frozenset({"task"}),
}


def read_ops(
    values: list[Any], name: str, root: str, todos_of: TodosReader | None = None
) -> tuple[Op, ...]:
    """Op objects → ops; ``root`` "single": one op object on its own. ``todos_of``
    reads a ``write`` op's task objects (the agents' reader: ``snapshot_items``)."""
    out = []
    for i, raw in enumerate(values):
        path = f"{name}[{i}]" if root != "single" else "op"
        expect(raw, "object", path)
        kind_name = raw.get("op")
        where = f"{path}.op" if root != "single" else "op"
        if not isinstance(kind_name, str):
            raise InputError(f"{where}: expected a string, got {kind_of(kind_name)}")
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
        out.append(_op(OpKind.of(kind_name), raw, prefix or "op", todos_of))
    return tuple(out)


def _op(kind: OpKind, raw: dict[str, Any], path: str, todos_of: TodosReader | None) -> Op:
    task = opt_str(raw, "task", path)
    phase = opt_str(raw, "phase", path)
    if kind is OpKind.INIT:
        groups = None
        if raw.get("list") is not None:
            expect(raw["list"], "array", f"{path}.list")
            groups = []
            for k, group in enumerate(raw["list"]):
                where = f"{path}.list[{k}]"
                expect(group, "object", where)
                only_keys(group, ("phase", "items"), where)
                name = opt_str(group, "phase", where) or ""
                items = group.get("items")
                groups.append(
                    PhaseItems(name, () if items is None else str_list(items, f"{where}.items"))
                )
        return Op(
            kind,
            phases=None if groups is None else tuple(groups),
            summary=opt_str(raw, "summary", path),
            path=path,
            summary_path=f"{path}.summary",
        )
    if kind is OpKind.APPEND:
        items = raw.get("items")
        return Op(
            kind,
            phase=phase,
            path=path,
            items=None if items is None else str_list(items, f"{path}.items"),
            check=opt_str(raw, "check", path),
        )
    if kind is OpKind.NOTE:
        return Op(kind, task=task, text=opt_str(raw, "text", path), path=path)
    if kind is OpKind.BLOCK:
        return Op(kind, task=task, phase=phase, text=opt_str(raw, "reason", path), path=path)
    if kind is OpKind.WRITE:
        if raw.get("todos") is None:
            return Op(kind, path=path)
        summary = opt_str(raw, "summary", path)
        assert todos_of is not None  # own_ops leaves a write op with todos to the agents
        todos = todos_of(raw["todos"], f"{path}.todos")
        return Op(
            kind,
            todos=tuple(todos),
            summary=summary,
            path=path,
            summary_path=f"{path}.summary",
        )
    if kind is OpKind.CLEAR:
        everything = raw.get("all", False)
        expect(everything, "boolean", f"{path}.all")
        return Op(kind, all=bool(everything), path=path)
    if kind is OpKind.DONE:
        evidence = opt_str(raw, "evidence", path)
        return Op(kind, task=task, phase=phase, path=path, evidence=evidence)
    return Op(kind, task=task, phase=phase, path=path)


def own_ops(value: object) -> Request | None:
    """todocli's own ops (``{"ops": [...]}``, one op object, an array of them) read
    into a request, as ``agents.request.request`` reads them; None for anything
    else (an agent tool's payload, a snapshot, a hook's envelope, ops that give a
    ``write`` its tasks, a shape with an error to word): the agents' reader takes
    those. An agent's everyday batch of ops loads no agent module."""
    if isinstance(value, list):
        ops = value if value and isinstance(value[0], dict) and "op" in value[0] else None
        root = ""
    elif isinstance(value, dict) and "tool_name" not in value and "tool_input" not in value:
        if "op" in value:
            ops, root = [value], "single"
        elif list(value) == ["ops"] and isinstance(value["ops"], list) and value["ops"]:
            ops, root = value["ops"], ""
        else:
            ops = None
    else:
        ops = None
    if ops is None or any(
        isinstance(op, dict) and op.get("op") == "write" and op.get("todos") is not None
        for op in ops
    ):
        return None
    return Request(read_ops(ops, "" if root == "single" else "ops", root), "ops", value)
