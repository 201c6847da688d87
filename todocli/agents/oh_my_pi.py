"""todocli's own ops (``{"ops": [...]}``, a bare list of ops, or one op), which
oh-my-pi's ``todo_write`` sends: read here, answered as ops, schema ``ops``."""

from __future__ import annotations

from todocli.agents.common import tasks
from todocli.agents.reading import expect, kind_of, opt_str, snapshot_items, str_list
from todocli.document.model import Status
from todocli.engine.dialects import InputError
from todocli.engine.ops import Op, OpKind, PhaseItems
from todocli.escapes import quoted

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from typing import Any

    from todocli.document.model import TodoList

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


def only_keys(value: dict[str, Any], allowed: tuple[str, ...], path: str) -> None:
    for key in value:
        if key not in allowed:
            where = f"{path}: " if path else ""
            raise InputError(
                f"{where}unexpected key {quoted(key)} here (expected: {', '.join(allowed)})"
            )


def ops(values: list[Any], name: str, root: str) -> tuple[Op, ...]:
    """Op objects → ops; ``root`` "single": one op object on its own."""
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
        out.append(_op(OpKind.of(kind_name), raw, prefix or "op"))
    return tuple(out)


def _op(kind: OpKind, raw: dict[str, Any], path: str) -> Op:
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
        )
    if kind is OpKind.NOTE:
        return Op(kind, task=task, text=opt_str(raw, "text", path), path=path)
    if kind is OpKind.BLOCK:
        return Op(kind, task=task, phase=phase, text=opt_str(raw, "reason", path), path=path)
    if kind is OpKind.WRITE:
        if raw.get("todos") is None:
            return Op(kind, path=path)
        summary = opt_str(raw, "summary", path)
        todos = snapshot_items(raw["todos"], f"{path}.todos")
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
    return Op(kind, task=task, phase=phase, path=path)


def reply(todo: TodoList) -> dict[str, Any]:
    out: list[dict[str, Any]] = []
    if todo.phases:
        groups = [{"phase": p.name, "items": [t.content for t in p.tasks]} for p in todo.phases]
        init: dict[str, Any] = {"op": "init", "list": groups}
        if todo.summary:
            init["summary"] = todo.summary
        out.append(init)
    verbs = {Status.COMPLETED: "done", Status.ABANDONED: "drop", Status.BLOCKED: "block"}
    verbs |= {Status.IN_PROGRESS: "start"}
    every = tasks(todo)
    started = [t for t in every if t.status is Status.IN_PROGRESS]
    # init replaces the list: its notes come back as note ops (a block's reason is
    # one of them, so the block op carries none).
    out += [{"op": "note", "task": t.content, "text": n} for t in every for n in t.notes]
    for task in every:
        verb = verbs.get(task.status)
        if verb is not None and verb != "start":
            out.append({"op": verb, "task": task.content})
    out += [{"op": "start", "task": t.content} for t in started]
    if not out:
        return {"ops": [{"op": "init", "list": []}]}
    return {"ops": out}


def schema() -> dict[str, Any]:
    from todocli.engine.schema import ops_schema

    return ops_schema() | {"title": "oh-my-pi todo_write"}
