"""Write a full snapshot over a document, keeping every line it does not change.

Agents send their whole list on every call. A file the tool wrote itself (the
canonical form) holds nothing else, so it is written anew (or, when the snapshot
keeps every line where it is, its task lines are changed in place). A file a person
has edited is reconciled in place (``reconcile``).

The ops that write a whole list are here too (``op_write``: a full snapshot, or
updates that name the tasks they change; ``op_init``): a write's items are checked
as any op's texts are, merged with the list (an update changes only the fields it
gives; a snapshot keeps the metadata an item leaves out), rebased on what the agent
last saw so that what others added since stays (``merge``), then written over the
document. ``ops`` loads this module only for a batch with one of them.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING, Value
from todocli.document.markdown import Document, TaskNode, parse, render_canonical
from todocli.document.model import DEFAULT_PHASE, Meta, Phase, Status, Task, TodoList, id_number
from todocli.engine import OpFailure, edits
from todocli.errors import InvalidParamError

if TYPE_CHECKING:
    from collections.abc import Collection, Sequence

    from todocli.engine.ops import Engine, Op


class Item(Value):
    """One task of a snapshot, as the engine receives it."""

    def __init__(
        self,
        content: str,
        status: Status = Status.PENDING,
        active_form: str | None = None,
        phase: str | None = None,  # None: where it already is, or beside the item before it
        notes: tuple[str, ...] | None = None,  # None: keep the notes it has
        keep_active_form: bool = False,  # the input said nothing about it
        path: str = "",  # where it came from in the input, e.g. "todos[2]"
        key: str = "content",  # the input's name for its text: content, title, step...
        active_key: str = "activeForm",  # and for its active form
        meta: Meta | None = None,  # id, priority, dependencies; None: keep what the task has
        given: frozenset[str] | None = None,  # for an update (a merge): the fields it gives
        occurrence: int = 0,  # which task of its text in the file (a person's copy: 1, 2...)
    ) -> None:
        self.content = content
        self.status = status
        self.active_form = active_form
        self.phase = phase
        self.notes = notes
        self.keep_active_form = keep_active_form
        self.path = path
        self.key = key
        self.active_key = active_key
        self.meta = meta
        self.given = given
        self.occurrence = occurrence

    def replace(self, **changes: object) -> Item:
        """A copy with some fields changed (as ``Settings.replace``)."""
        copy = Item.__new__(Item)
        for name in self.__slots__:
            object.__setattr__(
                copy, name, changes[name] if name in changes else getattr(self, name)
            )
        return copy

    def with_meta(self, meta: Meta) -> Item:
        """This item as a whole new task with this metadata."""
        return self.replace(meta=meta, given=None)

    def at(self, key: str) -> str:
        """The JSON path of one of the item's fields ("" when it had no path)."""
        return f"{self.path}.{key}" if self.path and key else self.path


def write_snapshot(
    doc: Document, items: Sequence[Item], summary: str | None, canonical: bool | None = None
) -> Document:
    """Make the document hold exactly these tasks; return the document to keep.

    ``summary`` None keeps the summary the document has. ``canonical``: whether
    the document is (None: look).
    """
    if doc.is_canonical() if canonical is None else canonical:
        model = _model(doc, items, summary)
        if restated(doc, model) is not None:
            return doc
        return parse(render_canonical(model))
    from todocli.engine.reconcile import reconcile  # only a list a person wrote

    found = matches(doc, items)
    reconcile(doc, items, found, _resolved_phases(doc, items, found))
    if summary is not None:
        doc.set_summary(summary)
    return doc


def restated(doc: Document, model: TodoList) -> str | None:
    """The canonical document's text once it holds ``model``, its task lines changed
    in place (their markers and trailing comments, as ``done`` changes them): the
    everyday snapshot, which keeps every task, phase, note and the summary where
    they are, needs no reading of the text it would render. None, the document
    perhaps changed, when the snapshot moves, adds or removes lines."""
    if doc.summary != model.summary:
        return None
    nodes = list(doc.tasks())
    tasks = [task for _, task in model.tasks()]
    if len(nodes) != len(tasks) or [(p.name, len(p.tasks)) for p in doc.phases if p.tasks] != [
        (p.name, len(p.tasks)) for p in model.phases
    ]:
        return None
    for node, task in zip(nodes, tasks, strict=True):
        if node.content != task.content or tuple(node.notes) != task.notes:
            return None
    for node, task in zip(nodes, tasks, strict=True):
        doc.set_status(node, task.status)
        doc.set_active_form(node, task.active_form)
        if task.meta is not node.meta:  # most often the task's own, kept
            doc.set_meta(node, task.meta)
    text = doc.text()
    return text if text == render_canonical(model) else None


def rename_by_id(doc: Document, items: Sequence[Item]) -> list[tuple[str, str]]:
    """An item whose id a task already carries updates that task: when its text
    changed, the task is renamed in place (marker, notes and position kept).
    Returns the (old text, new text) of each task renamed."""
    renamed: list[tuple[str, str]] = []
    by_id = {node.meta.id: node for node in doc.tasks() if node.meta.id}
    if not by_id:
        return renamed
    for item in items:
        task_id = item.meta.id if item.meta is not None else None
        node = by_id.get(task_id) if task_id else None
        if node is None or node.content == item.content:
            continue
        holder = doc.find(item.content)
        if holder is not None and holder is not node and not holder.meta.id:
            continue  # another task, without an id, has that text: it is that one
        if holder is None or holder.meta.id != task_id:
            was = node.content
            if doc.set_content(node, item.content):
                renamed.append((was, item.content))
    return renamed


def matches(doc: Document, items: Sequence[Item]) -> list[TaskNode | None]:
    """The task each item is: the one with its id, else the one with its text
    (unless that task has another id), or the later task of that text its
    ``occurrence`` names; None for a new task. Two items with the same text and
    distinct ids are two tasks."""
    by_id: dict[str, TaskNode] = {}
    for task in doc.tasks():
        if task.meta.id:
            by_id.setdefault(task.meta.id, task)
    node: TaskNode | None
    out: list[TaskNode | None] = []
    taken: set[TaskNode] = set()
    copies: dict[str, list[TaskNode]] | None = None  # the tasks of each repeated text
    for item in items:
        task_id = item.meta.id if item.meta is not None else None
        node = by_id.get(task_id) if task_id else None
        if node is None and item.occurrence:
            if copies is None:
                copies = {}
                for task in doc.tasks():
                    if task.content in doc.duplicates:
                        copies.setdefault(task.content, []).append(task)
            same = copies.get(item.content, [])
            node = same[item.occurrence] if item.occurrence < len(same) else None
        elif node is None:
            node = doc.find(item.content)
            if node is not None and task_id and node.meta.id and node.meta.id != task_id:
                node = None
        if node is not None and node in taken:
            node = None
        if node is not None:
            taken.add(node)
        out.append(node)
    return out


def _resolved_phases(
    doc: Document, items: Sequence[Item], found: list[TaskNode | None]
) -> list[str]:
    """The phase each item goes to: its own, else the phase it is in, else that of
    the item before it, else the list's first phase."""
    names: list[str] = []
    previous = doc.phases[0].name if doc.phases else DEFAULT_PHASE
    for item, node in zip(items, found, strict=True):
        name = item.phase or (node.phase.name if node and node.phase else None) or previous
        names.append(name)
        previous = name
    return names


def _model(doc: Document, items: Sequence[Item], summary: str | None) -> TodoList:
    phases: dict[str, list[Task]] = {}
    found = matches(doc, items)
    for item, name, node in zip(items, _resolved_phases(doc, items, found), found, strict=True):
        notes = item.notes
        if notes is None:
            notes = tuple(node.notes) if node else ()
        active = item.active_form
        if item.keep_active_form:
            active = node.active_form if node else None
        meta = item.meta if item.meta is not None else node.meta if node else None
        if meta is None:
            task = Task(item.content, item.status, active, notes)
        else:
            task = Task(item.content, item.status, active, notes, meta)
        phases.setdefault(name, []).append(task)
    return TodoList(
        summary=doc.summary if summary is None else summary,
        phases=tuple(Phase(name, tuple(tasks)) for name, tasks in phases.items()),
    )


def view_of(items: Sequence[Item], summary: str | None, doc: Document) -> TodoList:
    """The list as the agent that sent these items knows it, for its next snapshot
    to be merged against: its tasks with the statuses, phases and notes it sent;
    where it sent none, the phase and notes each has in ``doc`` (the list written).
    ``summary`` None: the one ``doc`` has."""
    phases: dict[str, list[Task]] = {}
    previous = DEFAULT_PHASE
    for item in items:
        node = doc.find(item.content)
        name = item.phase or (node.phase.name if node and node.phase else None) or previous
        notes = item.notes
        if notes is None:
            notes = tuple(node.notes) if node else ()
        active = node.active_form if item.keep_active_form and node else item.active_form
        phases.setdefault(name, []).append(Task(item.content, item.status, active, notes))
        previous = name
    return TodoList(
        summary=doc.summary if summary is None else summary,
        phases=tuple(Phase(name, tuple(tasks)) for name, tasks in phases.items()),
    )


# -- the ops that write a whole list ------------------------------------------------


def op_init(engine: Engine, op: Op) -> None:
    """A new list of phases and their tasks over the old one."""
    if not op.phases:
        raise OpFailure("Missing list for init operation")
    settings = engine.settings
    items: list[Item] = []
    names: set[str] = set()
    for k, group in enumerate(op.phases):
        where = f"list[{k}]"
        name = edits.phase_name(settings, group.phase, path=edits.at(op, f"{where}.phase"))
        if name in names:
            raise OpFailure(f'Duplicate phase "{name}"', path=f"{op.path}.list[{k}].phase")
        names.add(name)
        if not group.items:
            raise OpFailure(f'Missing items for phase "{name}"')
        items += [
            Item(
                edits.content(settings, c, edits.at(op, f"{where}.items[{j}]")),
                phase=name,
                notes=(),
            )
            for j, c in enumerate(group.items)
        ]
    check_duplicates(items)
    replace(engine, items, edits.summary(settings, op))


def op_write(engine: Engine, op: Op) -> None:
    """A full snapshot (the agent's whole list), or updates (``op.merge``)."""
    if op.todos is None:
        raise OpFailure("Missing todos for write operation")
    settings = engine.settings
    todos: Sequence[Item] = op.todos
    for item in todos:  # a check the payload gives is refused as an op's is
        check = item.meta.check if item.meta is not None else None
        if check is not None and (item.given is None or "check" in item.given):
            limit, key = settings.max_field_bytes, settings.key("max_field_bytes")
            edits.text(check, "Check", limit, "Missing check", item.at("check"), key)
    if engine.echo is not None:
        # The list as the agent last saw it: what todo last wrote (or --base).
        seen = engine.merge_base
        if seen is None:  # the list as the batch found it, unless an op before changed it
            unchanged = engine.doc.text() == engine.original_text
            seen = engine.old if unchanged else engine.doc.model()
        todos = engine.echo(seen, todos, op.merge)
    todos = merged(engine, todos) if op.merge else kept_meta(engine, todos)
    items = _copies_numbered(engine.doc, [_checked(engine, item) for item in todos])
    check_duplicates(items)
    sent = list(items)
    base, items = _rebased(engine, op, items)
    _refuse_too_many_started(engine, items)
    held = op.summary is not None and op.summary.strip() == engine.doc.summary
    # The list's own summary, sent back, is taken as it is (as its task texts are).
    summary = given = engine.doc.summary if held else edits.summary(settings, op)
    if base is not None and summary == base.summary:
        summary = None  # sent back as it was: a summary a person changed stays
    replace(engine, items, summary)
    if not op.merge:
        engine.view = view_of(sent, given, engine.doc)


def _checked(engine: Engine, item: Item) -> Item:
    """An item with its texts checked as an op's are. A task text the list already
    holds is taken as it is, whatever its length or characters: what ``todo show``
    prints of a plan someone else wrote is accepted back unchanged."""
    settings = engine.settings
    content = item.content
    if engine.doc.find(content) is None:
        content = edits.content(settings, content, item.at(item.key))
    active = item.active_form
    if active is not None and active != content:
        limit, key = settings.max_field_bytes, settings.key("max_field_bytes")
        active = edits.text(active, "Active form", limit, "", item.at(item.active_key), key)
    phase = (
        None
        if item.phase is None
        else edits.phase_name(settings, item.phase, path=item.at("phase"))
    )
    notes = None
    if item.notes is not None:
        notes = tuple(
            edits.note(settings, n, item.at(f"notes[{i}]")) for i, n in enumerate(item.notes)
        )
    return Item(
        content,
        item.status,
        active or None,
        phase,
        notes,
        item.keep_active_form,
        item.path,
        item.key,
        meta=item.meta,
    )


def _rebased(engine: Engine, op: Op, items: list[Item]) -> tuple[TodoList | None, list[Item]]:
    """The items with what others changed since the agent's view put back in, and
    the list they were merged against (None: none).

    A full snapshot is the agent's whole view: it is merged against the last one
    the agent sent, so that what others added since stays until the agent's own
    snapshot holds it. An update (merge) names only what it changes."""
    base = engine.merge_base
    if engine.view_base is not None and not op.merge:
        base = engine.view_base
    elif engine.unseen and not op.merge:
        # No view on record: the agent has seen the tasks it sends and no other,
        # each as todo last wrote it (a status set by hand since still stays).
        base = TodoList(phases=grouped(_named_by(items, engine.last_written)))
    if base is not None:
        from todocli.engine.merge import news, noted, rebase

        before = engine.doc.model()
        items, added, changes = rebase(items, base, before, engine.settings.max_in_progress)
        items = _place(items, added, before)
        if base is not engine.merge_base:  # what an earlier write told of already is no news
            told = engine.batch.told
            changes = news(changes, told if told is not None else engine.last_written, before)
            if told is not None:
                changes += noted(told, engine.last_written, before)
        engine.merged += changes
        _note_left(engine, base, before, items)
    elif not op.merge:
        # The agent's view is the list as todo last wrote it, and the file: it
        # has seen every task there.
        kept = {item.content for item in items}
        if any(not n.status.is_open and n.content not in kept for n in engine.doc.tasks()):
            before = engine.doc.model()
            _note_left(engine, before, before, items)
    return base, items


def _refuse_too_many_started(engine: Engine, items: Sequence[Item]) -> None:
    """A snapshot over ``max_in_progress`` is refused (``start`` alone makes room)."""
    limit = engine.settings.max_in_progress
    started = [i.content for i in items if i.status is Status.IN_PROGRESS]
    # A snapshot that starts nothing the list has not in progress already (a plan
    # someone else wrote, sent back as it is) is kept whatever it holds.
    already = {t.content for t in engine.doc.tasks() if t.status is Status.IN_PROGRESS}
    if all(c in already for c in started):
        return
    if engine.agent is not None:
        # The rule is each agent's own: another agent's claim, carried in the
        # snapshot as it is in the file, does not count against this one.
        started = [c for c in started if _holder(engine, c) in (None, engine.agent)]
    if limit and len(started) > limit:
        names = ", ".join(f'"{c}"' for c in started)
        what = "Only one task" if limit == 1 else f"At most {limit} tasks"
        raise OpFailure(f"{what} can be in_progress at a time (got {len(started)}: {names})")


def _note_left(engine: Engine, base: TodoList, current: TodoList, items: Sequence[Item]) -> None:
    """Closed tasks the agent had seen (``base``) that its snapshot leaves out:
    they leave the list now, and go to the completion log."""
    seen = {t.content for _, t in base.tasks()}
    texts, ids = _names(items)
    engine.left += [
        (p, t)
        for p, t in current.tasks()
        if not t.status.is_open
        and t.content in seen
        and t.content not in texts
        and t.meta.id not in ids
    ]


def _holder(engine: Engine, content: str) -> str | None:
    """The agent whose claim the task of this text is in the file, if any."""
    node = engine.doc.find(content)
    if node is None or node.status is not Status.IN_PROGRESS:
        return None
    return node.meta.owner


def kept_meta(engine: Engine, items: Sequence[Item]) -> Sequence[Item]:
    """Metadata an item leaves out is kept from the task it names (by id,
    else by text): a priority or dependencies are not lost by omission."""

    if not any(item.meta is not None for item in items):
        return items
    doc = engine.doc
    by_id = {n.meta.id: n for n in doc.tasks() if n.meta.id}
    out = []
    for item in items:
        meta = item.meta
        if meta is not None and item.given is not None:
            node = by_id.get(meta.id) if meta.id else None
            if node is None:
                node = doc.find(item.content)
                if node is not None and meta.id and node.meta.id not in (None, meta.id):
                    node = None  # the same text, but another task (as ``matches``)
            if node is not None and node.meta:
                old = node.meta
                meta = old.replace(
                    id=meta.id or old.id,
                    priority=meta.priority if "priority" in item.given else old.priority,
                    blocked_by=meta.blocked_by if "blocked_by" in item.given else old.blocked_by,
                    check=meta.check if "check" in item.given else old.check,
                )
                meta = _new_check_unproved(meta, old)
                item = item.with_meta(meta)
        out.append(item)
    return out


def merged(engine: Engine, patches: Sequence[Item]) -> list[Item]:
    """The whole list after these updates: each names a task by id (else by
    text) and changes only the fields it gives; an unknown one is added."""
    nodes = list(engine.doc.tasks())
    items: list[Item | None] = [
        Item(n.content, n.status, n.active_form, None, None, True, meta=n.meta) for n in nodes
    ]
    by_id = {n.meta.id: i for i, n in enumerate(nodes) if n.meta.id}
    by_text = {n.content: i for i, n in enumerate(nodes)}
    numbers = [n for n in (id_number(t.meta.id) for t in nodes) if n is not None]
    for patch in patches:
        given = patch.given or frozenset()
        meta = patch.meta or Meta()
        if "new_id" in given:
            meta = meta.replace(id=str(max(numbers, default=0) + 1))
            numbers.append(int(meta.id or 0))
        index = by_id.get(meta.id) if meta.id else None
        if index is None and "content" in given and not meta.id:
            index = by_text.get(patch.content)
        if index is None:
            if "delete" in given or "content" not in given:
                raise OpFailure(
                    f'No task has id "{meta.id}" ({_id_list(by_id)})',
                    InvalidParamError.code,
                    patch.at("id"),
                )
            items.append(patch.with_meta(meta))
            if meta.id:
                by_id[meta.id] = len(items) - 1
            continue
        current = items[index]
        if current is None:
            continue
        if "delete" in given:
            items[index] = None
            engine.deleted.add(current.content)
            continue
        items[index] = _patched(current, patch, meta)
    return [item for item in items if item is not None]


def _patched(current: Item, patch: Item, meta: Meta) -> Item:
    """A task changed in the fields an update gives (``meta``: the update's)."""
    given = patch.given or frozenset()
    old = current.meta or Meta()
    blocked = meta.blocked_by if "blocked_by" in given else old.blocked_by
    if "add_blocked_by" in given:
        had = set(old.blocked_by)  # a tuple searched per new id was quadratic
        blocked = old.blocked_by + tuple(d for d in meta.blocked_by if d not in had)
    return Item(
        patch.content if "content" in given else current.content,
        patch.status if "status" in given else current.status,
        patch.active_form if "active_form" in given else current.active_form,
        patch.phase,
        patch.notes if "notes" in given else None,
        "active_form" not in given,
        patch.path,
        patch.key,
        meta=_new_check_unproved(
            old.replace(
                id=old.id or meta.id,
                priority=meta.priority if "priority" in given else old.priority,
                blocked_by=blocked,
                owner=meta.owner if "owner" in given else old.owner,
                check=meta.check if "check" in given else old.check,
            ),
            old,
        ),
    )


def _copies_numbered(doc: Document, items: list[Item]) -> list[Item]:
    """Items that repeat a text the list itself holds several times (a plan someone
    else wrote) name those tasks in order: the second item of that text is its
    second task, and so on, as many as the list has."""
    if not doc.duplicates:
        return items
    have: dict[str, int] = {}
    for task in doc.tasks():
        if task.content in doc.duplicates:
            have[task.content] = have.get(task.content, 0) + 1
    seen: dict[str, int] = {}
    out: list[Item] = []
    for item in items:
        k = seen.get(item.content, 0)
        seen[item.content] = k + 1
        if k and not item.occurrence and k < have.get(item.content, 0):
            item = item.replace(occurrence=k)
        out.append(item)
    return out


def check_duplicates(items: Sequence[Item]) -> None:
    """Texts are unique, but for tasks told apart by distinct ids, and the copies
    a list itself holds (``occurrence``)."""
    seen: dict[str, set[str | None]] = {}
    for item in items:
        if item.occurrence:
            continue
        task_id = item.meta.id if item.meta is not None else None
        ids = seen.setdefault(item.content, set())
        if ids and (task_id is None or task_id in ids or None in ids):
            raise OpFailure(f'Duplicate task "{item.content}"', path=item.at(item.key))
        ids.add(task_id)


def replace(engine: Engine, items: Sequence[Item], summary: str | None) -> None:
    """Write the items over the document, keeping the engine's books: renames,
    open tasks dropped, the numbering and the tasks in progress."""
    renamed = engine.renamed
    earlier = len(renamed)  # by the batch's ops before this one: this one renames each task once
    for was, now in rename_by_id(engine.doc, items):
        first = next((i for i, (_, n) in enumerate(renamed[:earlier]) if n == was), None)
        if first is None:
            renamed.append((was, now))
        else:  # renamed twice in one batch: from the first text to the last
            renamed[first] = (renamed[first][0], now)
    wanted = {item.content for item in items} | engine.deleted
    for node in engine.doc.tasks():
        if node.status.is_open and node.content not in wanted:
            engine.dropped_open.append(node.content)

    doc = engine.doc
    canonical = doc.is_canonical()
    # A document as read, or checked since (the careful pass), whose task lines a
    # snapshot changes in place needs no read-back, as after ``done``.
    if canonical and (engine.careful or doc.text() == engine.original_text):
        model = _model(doc, items, summary)
        text = restated(doc, model)
        if text is not None:
            engine.read_back = (text, model)
            engine.in_place = True
            written = doc
        else:
            written = parse(render_canonical(model))
            engine.read_back = (written.text(), written.model())
    else:
        written = write_snapshot(doc, items, summary, canonical)
        if written is not doc:  # a document read anew from its text, not edited since
            engine.read_back = (written.text(), written.model())
    engine.doc = doc = written
    # The document may have been written anew: follow the numbered tasks by content.
    engine.numbering = [doc.find(t.content) if t is not None else None for t in engine.numbering]
    engine.active = {t: None for t in doc.tasks() if t.status is Status.IN_PROGRESS}


def _new_check_unproved(meta: Meta, old: Meta) -> Meta:
    """A task whose check a write changed has no record of a run of it."""
    return meta.replace(checked=None) if meta.check != old.check else meta


def _id_list(ids: Collection[str], most: int = 10) -> str:
    """The ids a list has, for an error that names one it has not."""
    if not ids:
        return "no task in this list has an id"
    shown = ", ".join(list(ids)[:most])
    return f"this list's ids: {shown}{', ...' if len(ids) > most else ''}"


def _names(items: Sequence[Item]) -> tuple[set[str], set[str | None]]:
    """The texts and the ids snapshot items name tasks by."""
    ids: set[str | None] = {item.meta.id for item in items if item.meta and item.meta.id}
    return {item.content for item in items}, ids


def _named_by(items: Sequence[Item], todo: TodoList) -> list[tuple[Phase, Task]]:
    """The tasks of ``todo`` that snapshot items name: by text, or by id."""
    texts, ids = _names(items)
    return [(p, t) for p, t in todo.tasks() if t.content in texts or t.meta.id in ids]


def grouped(tasks: Sequence[tuple[Phase, Task]]) -> tuple[Phase, ...]:
    """Tasks (each with its phase) as phases, in the order they come."""
    phases: dict[str, list[Task]] = {}
    for phase, task in tasks:
        phases.setdefault(phase.name, []).append(task)
    return tuple(Phase(name, tuple(group)) for name, group in phases.items())


def _place(items: list[Item], added: list[tuple[int, Task, int]], current: TodoList) -> list[Item]:
    """Put each task added by hand where it stands in the file: before the first
    snapshot task that comes after it there (one pass over both). ``added`` holds
    (position in the file, task, occurrence of its text), in the file's order."""
    if not added:
        return items

    def kept(task: Task, occurrence: int) -> Item:
        return Item(task.content, task.status, keep_active_form=True, occurrence=occurrence)

    where: dict[tuple[str, int], int] = {}
    seen: dict[str, int] = {}
    for n, (_, task) in enumerate(current.tasks()):
        seen[task.content] = seen.get(task.content, -1) + 1
        where[task.content, seen[task.content]] = n
    out: list[Item] = []
    k = 0
    for item in items:
        at = where.get((item.content, item.occurrence))
        while at is not None and k < len(added) and added[k][0] < at:
            out.append(kept(added[k][1], added[k][2]))
            k += 1
        out.append(item)
    out += [kept(task, occurrence) for _, task, occurrence in added[k:]]
    return out
