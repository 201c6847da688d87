"""The simple ops (start, done, drop, rm, block, unblock, note, clear, append),
and what every op uses: the tasks and phases it names, and the texts it gives.

A task is named by its text or by ``#N``, its place in the numbering the batch
started with (so ``#3`` means the same task for every op of one batch); with no
task and no phase an op targets every task. A text an op gives (a task, a phase
name, a note, a summary) is one line without control characters or comment
markers, within its byte limit. A reference that names nothing fails with the
closest names the list has.

Each op is a function of the engine's working state (``ops.Engine``), which
takes it as its handler; an agent's ``start`` is ``claims``'s.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING
from todocli.document.model import BLOCK_NOTE, DEFAULT_PHASE, NUMBER_DIGITS, Meta, Status
from todocli.engine import OpFailure
from todocli.errors import NotFoundError
from todocli.escapes import first_unsafe, one_line, quoted

if TYPE_CHECKING:
    from collections.abc import Sequence

    from todocli.document.markdown import Document, TaskNode
    from todocli.engine import Settings
    from todocli.engine.ops import Engine, Op


# -- the tasks and phases an op names ---------------------------------------------------


def task_number(ref: str) -> int | None:
    """N for a reference written ``#N`` (the pattern ``#([0-9]+)``), else None."""
    digits = ref.strip()[1:]
    if ref.strip()[:1] != "#" or not digits.isascii() or not digits.isdigit():
        return None
    digits = digits.lstrip("0") or "0"
    # int() refuses over 4,300 digits: a number that long is beyond any list
    return int(digits) if len(digits) <= NUMBER_DIGITS else 10**NUMBER_DIGITS


def task(engine: Engine, ref: str | None) -> TaskNode:
    """The task a reference names: by its text, else ``#N`` in the batch's numbering."""
    if ref is None or not ref.strip():
        raise OpFailure("Missing task content")
    doc = engine.doc
    node = doc.find(ref) or doc.find(ref.strip())
    if node is not None:
        if node.content in doc.duplicates:
            from todocli.engine.subtasks import ambiguous

            raise OpFailure(
                ambiguous(
                    engine, ref, [t for t in doc.tasks() if t is node or t.content == node.content]
                )
            )
        return node
    number = task_number(ref)
    if number is not None:
        numbering = engine.numbering
        if 1 <= number <= len(numbering):
            candidate = numbering[number - 1]
            if candidate is not None and candidate.prev is not None:  # still listed
                return candidate
        raise OpFailure(
            f"Task {quoted(ref)} not found: the list has {len(numbering)} tasks (see: todo show)",
            NotFoundError.code,
        )
    from todocli.engine.subtasks import ambiguous, by_name

    named = by_name(engine, ref.strip())
    if len(named) == 1:
        return named[0]
    if named:
        raise OpFailure(ambiguous(engine, ref, named))
    raise OpFailure(not_found(doc, ref), NotFoundError.code)


def not_found(doc: Document, ref: str) -> str:
    if not doc.index:
        return (
            f"Task {quoted(ref)} not found: the list is empty "
            "(add tasks first: todo add, or an init op)"
        )
    close = closest(ref, list(doc.index))
    if close:
        return f"Task {quoted(ref)} not found. Did you mean {or_list(close)}? (see: todo show)"
    return f"Task {quoted(ref)} not found (see: todo show)"


def targets(engine: Engine, op: Op) -> list[TaskNode]:
    """One task, one phase, or (with neither) every task: the targeting rule.
    The flag form's ``todo done`` with no target means the task in progress."""
    doc = engine.doc
    if op.current:
        agent = engine.agent
        if agent is not None:
            own = [t for t in engine.active if t.meta.owner == agent]
            if not own:
                raise OpFailure(
                    f'Agent "{agent}" holds no task in progress: claim one '
                    f"(todo claim), or name one (todo {op.kind.value} TASK)"
                )
            return own
        if not engine.active:
            raise OpFailure(
                f"No task is in progress: name one (todo {op.kind.value} TASK), "
                "or use --phase P or --all"
            )
        return list(engine.active)
    if op.task is not None:
        return [task(engine, op.task)]
    if op.phase is not None:
        if not op.phase.strip():
            raise OpFailure("Missing phase name")
        phases = doc.phase_named(op.phase.strip())
        if not phases:
            close = closest(op.phase, [p.name for p in doc.phases])
            hint = f" Did you mean {or_list(close)}?" if close else ""
            raise OpFailure(f"Phase {quoted(op.phase)} not found.{hint}", NotFoundError.code)
        return [t for p in phases for t in p.tasks]
    return list(doc.tasks())


def closest(word: str, candidates: list[str]) -> list[str]:
    import difflib

    lowered = word.lower()
    contains = [c for c in candidates if lowered in c.lower()][:3]
    return contains or difflib.get_close_matches(word, candidates, n=3, cutoff=0.6)


def or_list(names: list[str]) -> str:
    quoted = [f'"{n}"' for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


# -- the texts an op gives ---------------------------------------------------------------


def text(value: str, field: str, limit: int, missing: str, path: str = "", key: str = "") -> str:
    """A single-line field: stripped, non-empty, no control characters, no
    comment markers, within its byte limit (``key``: the setting that gives it).
    ``path`` is where the input held it."""
    value = value.strip()
    if not value:
        raise OpFailure(missing, path=path)
    # What output would show as an escape (C0, DEL, C1, bidi and other format
    # characters, bytes that are not UTF-8: see escapes) never enters a list.
    bad = first_unsafe(value)
    if bad is not None:
        raise OpFailure(
            f"{field} contains a newline or control character ({one_line(bad)})", path=path
        )
    if "<!--" in value or "-->" in value:
        raise OpFailure(
            f'{field} contains "<!--" or "-->", which would break the markdown', path=path
        )
    size = len(value.encode("utf-8"))
    if size > limit:
        key = key or ("max_note_bytes" if field == "Note" else "max_field_bytes")
        raise OpFailure(f"{field} is {size} bytes; the limit is {limit} ({key})", path=path)
    return value


def content(settings: Settings, value: str, path: str = "") -> str:
    limit, key = settings.max_field_bytes, settings.key("max_field_bytes")
    return text(value, "Task content", limit, "Missing task content", path, key)


def phase_name(
    settings: Settings, value: str, missing: str = "Missing phase name", path: str = ""
) -> str:
    key = settings.key("max_field_bytes")
    name = text(value, "Phase name", settings.max_field_bytes, missing, path, key)
    hashes = name.rstrip("#")
    if name.startswith("#") or (hashes != name and hashes[-1:] in (" ", "\t")):
        raise OpFailure(f'Phase name "{name}" cannot start or end with "#"', path=path)
    return name


def note(settings: Settings, value: str, path: str = "") -> str:
    lines = [line.strip() for line in value.strip().split("\n")]
    if not lines[0]:
        raise OpFailure("Missing text for note operation", path=path)
    if not all(lines):
        raise OpFailure("Note text cannot contain a blank line", path=path)
    limit = settings.max_note_bytes
    for line in lines:
        text(line, "Note", limit, "Missing text for note operation", path)
    joined = "\n".join(lines)
    size = len(joined.encode("utf-8"))
    if size > limit:
        raise OpFailure(f"Note is {size} bytes; the limit is {limit} (max_note_bytes)", path=path)
    return joined


def summary(settings: Settings, op: Op) -> str | None:
    value = op.summary
    if value is None or not value.strip():
        return None if value is None else ""
    key = settings.key("max_field_bytes")
    return text(value, "Summary", settings.max_field_bytes, "", op.summary_path, key)


def at(op: Op, key: str) -> str:
    """The input path of one of an op's fields (none for an op from flags)."""
    return f"{op.path}.{key}" if op.path else ""


# -- the simple ops -------------------------------------------------------------------


def op_start(engine: Engine, op: Op) -> None:
    """Start a task, making room for it under ``max_in_progress``.

    With the default limit of 1 the task in progress goes back to pending,
    one task in progress at a time. With a higher limit only as many others go back as needed to
    respect it, the earliest first: the tasks in progress when the batch began,
    in document order, then those this batch started, in the order it started
    them. Unlimited (0) demotes nothing. An agent's start is its own (``claims``).
    """
    node = task(engine, op.task)
    if engine.agent is not None:
        from todocli.engine import claims

        claims.start(engine, node, engine.agent)
        return
    limit = engine.settings.max_in_progress
    if limit:
        others = [t for t in engine.active if t is not node]
        for other in others[: max(0, len(others) - limit + 1)]:
            engine.set_status(other, Status.PENDING)
    engine.set_status(node, Status.IN_PROGRESS)


def op_done(engine: Engine, op: Op) -> None:
    evidence = None
    if op.evidence is not None:
        limit = engine.settings.max_field_bytes
        key = engine.settings.key("max_field_bytes")
        evidence = text(op.evidence, "Evidence", limit, "Missing evidence", key=key)
    for node in targets(engine, op):
        engine.set_status(node, Status.COMPLETED)
        _mark_doer(engine, node)
        meta = node.meta
        if evidence is not None:
            meta = meta.replace(evidence=evidence)
        if op.checked is not None and meta.check:
            meta = meta.replace(checked=op.checked)
        engine.doc.set_meta(node, meta)


def op_drop(engine: Engine, op: Op) -> None:
    for node in targets(engine, op):
        engine.set_status(node, Status.ABANDONED)
        _mark_doer(engine, node)


def _mark_doer(engine: Engine, node: TaskNode) -> None:
    """A task an agent closes keeps an owner: who did it (its claimant, else it)."""
    if engine.agent is not None and node.meta.owner is None:
        from todocli.engine import claims

        claims.own(engine, node, engine.agent)


def op_rm(engine: Engine, op: Op) -> None:
    for node in targets(engine, op):
        engine.remove(node)


def op_block(engine: Engine, op: Op) -> None:
    reason = None
    if op.text is not None:
        reason = note(engine.settings, BLOCK_NOTE + op.text, at(op, "reason"))
    for node in targets(engine, op):
        engine.set_status(node, Status.BLOCKED)
        if reason is not None:
            engine.doc.add_note(node, reason, engine.placement)


def op_unblock(engine: Engine, op: Op) -> None:
    for node in targets(engine, op):
        if node.status is Status.BLOCKED:
            engine.set_status(node, Status.PENDING)


def op_note(engine: Engine, op: Op) -> None:
    """A note on the task named, or (``current``: ``todo done --note X``) on the
    task in progress."""
    nodes = targets(engine, op) if op.current else [task(engine, op.task)]
    if op.text is None or not op.text.strip():
        raise OpFailure("Missing text for note operation")
    body = note(engine.settings, op.text, at(op, "text"))
    for node in nodes:
        engine.doc.add_note(node, body, engine.placement)


def op_clear(engine: Engine, op: Op) -> None:
    for node in list(engine.doc.tasks()):
        if op.all or not node.status.is_open:
            engine.remove(node)


def op_append(engine: Engine, op: Op) -> None:
    settings = engine.settings
    if op.phase is None and op.default_phase:
        phase = engine.doc.phases[-1].name if engine.doc.phases else DEFAULT_PHASE
    else:
        missing = "Missing phase name for append operation"
        phase = phase_name(settings, op.phase or "", missing, at(op, "phase"))
    if not op.items:
        raise OpFailure("Missing items for append operation")
    contents = [content(settings, item, at(op, f"items[{i}]")) for i, item in enumerate(op.items)]
    seen: set[str] = set()
    for new in contents:
        if new in seen or engine.doc.find(new) is not None:
            raise OpFailure(f'Task "{new}" already exists')
        seen.add(new)
    after = _dependency_ids(engine, op.after)
    check = None
    if op.check is not None:
        limit = settings.max_field_bytes
        key = settings.key("max_field_bytes")
        check = text(op.check, "Check", limit, "Missing check command", at(op, "check"), key)
    for new in contents:
        node = engine.doc.add_task(phase, new, placement=engine.placement)
        if after or check:
            engine.doc.set_meta(node, Meta(blocked_by=after, check=check))


def _dependency_ids(engine: Engine, refs: Sequence[str]) -> tuple[str, ...]:
    """The ids of the tasks ``refs`` name; a task without an id gets the next
    free one, since a dependency is held by id."""
    ids: list[str] = []
    for ref in refs:
        node = task(engine, ref)
        meta = node.meta
        task_id = meta.id
        if task_id is None:
            from todocli.engine.claims import next_free_id

            task_id = next_free_id(engine.doc, engine.id_floor)
            engine.doc.set_meta(node, meta.replace(id=task_id))
        if task_id not in ids:
            ids.append(task_id)
    return tuple(ids)


def parents(doc: Document, nodes: Sequence[TaskNode]) -> list[int | None] | None:
    """Each task's parent's index (``document.tree``), None if no task is indented or
    starts with a number (``Document.nests``): none has one."""
    if not doc.nests:
        return None
    from todocli.document import tree

    return tree.parents(nodes)


def roll_up(engine: Engine) -> None:
    """Parents whose subtasks this batch closed (``subtasks``, loaded only for a
    plan that may have any)."""
    nodes = engine.doc.tasks()
    above = parents(engine.doc, nodes)
    if above is not None:
        from todocli.engine import subtasks

        subtasks.roll_up(engine, nodes, above)
