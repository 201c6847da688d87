"""The operation engine: apply a batch of operations to a document.

The operations (init, start, done, drop, rm, append, note) with their targeting
rules and error strings, plus block/unblock, view, clear and the full-snapshot
write. A batch runs in order and is then normalized (with no task in progress, the
first pending one starts; ``start`` keeps to the in-progress limit). It is atomic
unless asked to be partial. Every edit goes through the document's editing
primitives, so a hand-edited file keeps every line an operation does not touch.

Costs are linear: tasks are found through the document's content index, ``#N``
references are resolved against the numbering the batch started with, and the set
of in-progress tasks is kept up to date rather than searched for.
"""

from __future__ import annotations

from todocli.document.markdown import Document, TaskNode, parse
from todocli.document.model import (
    BLOCK_NOTE,
    DEFAULT_PHASE,
    NUMBER_DIGITS,
    Choice,
    Diff,
    Meta,
    OpError,
    Phase,
    Result,
    Status,
    Task,
    TodoList,
    Value,
    id_number,
    notes_added,
)
from todocli.engine import DropPolicy, Settings
from todocli.errors import CycleError, InternalError, InvalidParamError, NotFoundError
from todocli.escapes import first_unsafe, one_line, quoted

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Sequence
    from typing import ClassVar

    from todocli.document.model import Merged
    from todocli.engine.snapshot import Item

    # A write's items as its agent tool meant them: (the list as the agent last
    # saw it, the items, whether they are updates) → the items.
    Echo = Callable[[TodoList, Sequence[Item], bool], list[Item]]


class OpKind(Choice):
    __slots__ = ()
    ALL: ClassVar[tuple[OpKind, ...]]
    INIT: ClassVar[OpKind]
    START: ClassVar[OpKind]
    DONE: ClassVar[OpKind]
    DROP: ClassVar[OpKind]
    RM: ClassVar[OpKind]
    APPEND: ClassVar[OpKind]
    NOTE: ClassVar[OpKind]
    BLOCK: ClassVar[OpKind]
    UNBLOCK: ClassVar[OpKind]
    VIEW: ClassVar[OpKind]
    WRITE: ClassVar[OpKind]
    CLEAR: ClassVar[OpKind]
    CLAIM: ClassVar[OpKind]


class PhaseItems(Value):
    """One phase of an ``init`` list."""

    def __init__(
        self,
        phase: str,
        items: tuple[str, ...],
    ) -> None:
        self.phase = phase
        self.items = items


class Op(Value):
    """One operation. Which fields matter depends on ``kind`` (see ``Engine``)."""

    def __init__(
        self,
        kind: OpKind,
        task: str | None = None,
        phase: str | None = None,
        items: tuple[str, ...] | None = None,  # append
        phases: tuple[PhaseItems, ...] | None = None,  # init
        text: str | None = None,  # note text; block reason
        todos: tuple[Item, ...] | None = None,  # write
        summary: str | None = None,  # write / init; None keeps the summary
        all: bool = False,  # clear: every task, not only the closed ones
        default_phase: bool = False,  # append without a phase: the last phase
        current: bool = False,  # done/drop with no target (flag form): the task in progress
        path: str = "",  # where the op came from in the input, e.g. "ops[2]"
        summary_path: str = "",  # and its summary: "summary", "explanation"...
        merge: bool = False,  # write: the todos update the tasks they name (by id, else text)
        after: tuple[str, ...] = (),  # append: the tasks the new ones wait on (#N or text)
        taken: tuple[tuple[str, str], ...] = (),  # claim: (task key, agent) held in other worktrees
        check: str | None = None,  # append: the command that proves the new tasks done
        evidence: str | None = None,  # done: what shows the tasks done (kept with each)
        checked: str | None = None,  # done: the record that no check ran (--no-check)
    ) -> None:
        self.kind = kind
        self.task = task
        self.phase = phase
        self.items = items
        self.phases = phases
        self.text = text
        self.todos = todos
        self.summary = summary
        self.all = all
        self.default_phase = default_phase
        self.current = current
        self.path = path
        self.summary_path = summary_path
        self.merge = merge
        self.after = after
        self.taken = taken
        self.check = check
        self.evidence = evidence
        self.checked = checked


class OpFailure(Exception):
    """An operation that cannot be applied; the batch records it and goes on."""

    def __init__(self, message: str, code: str = InvalidParamError.code, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.path = path


_GROWING = {OpKind.INIT, OpKind.APPEND, OpKind.WRITE}
# Ops that change a task line in place and never add, move or remove lines.
_IN_PLACE = {
    OpKind.VIEW,
    OpKind.START,
    OpKind.DONE,
    OpKind.DROP,
    OpKind.UNBLOCK,
    OpKind.CLAIM,
}
# Ops that may complete a task (and so need its check run).
_COMPLETING = {OpKind.DONE, OpKind.WRITE}
# Ops that may add dependencies: the batch's dependency graph is checked after them.
_DEPENDING = {OpKind.INIT, OpKind.APPEND, OpKind.WRITE}
# Batches made only of these are not normalized: a snapshot is stored as sent.
_NOT_NORMALIZED = {OpKind.VIEW, OpKind.WRITE}
# How many ways an edit that adds or removes lines has of placing them (see the
# ``placement`` of Document.add_task, add_note and remove_task), and the ops that
# use them; the careful pass tries them in turn.
_PLACEMENTS = 4
_PLACED = {OpKind.APPEND, OpKind.NOTE, OpKind.BLOCK, OpKind.RM, OpKind.CLEAR}
_MISREAD = (
    "This edit would change how the rest of the file reads (an odd list structure, "
    "or unclosed code or HTML near the edit), so nothing was written. Edit the file "
    "by hand (todo edit)."
)


DEFAULT_SETTINGS = Settings()

# A task whose check a batch needs run: (its place in the list after the ops, from
# 0; its text; its check); and the run's result: the same and the record of a run
# that passed (None: the check did not pass, or did not run).
Wanted = tuple[int, str, str]
Proof = tuple[int, str, str, "str | None"]


class Batch(Value):
    """One batch for the engine: what to apply, for whom, with which settings, and
    what the list was before.

    ``baseline`` is the list as the tool last wrote it when the file differs from
    it (to detect hand edits); a full snapshot is merged against ``merge_base``
    (the revision ``--base`` names), else ``view`` (what the agent has seen: the
    last full snapshot it sent, ``Result.view`` of its last batch, and the lists
    it read since), else ``baseline``. ``unseen``: no view is on record, the agent
    has seen only the tasks it sends (as todo last wrote them), so a snapshot
    removes no other task;
    ``wipe`` clears a list this batch completes; ``expired`` names closed tasks
    whose auto-clear delay has passed. ``agent`` names the agent the batch is
    for (see ``claims``): its one-in-progress rule is its own; ``stale`` gives the
    agents whose claims a ``claim`` releases, with the seconds since each wrote;
    ``id_floor`` the highest id the list ever had (an id ``--after`` gives is above).
    ``echo``: for writes in an agent tool's shape, the items as the tool meant
    them: a value its reply shows for a task, sent back, reads as no change
    (``todocli.agents.echo``).
    """

    def __init__(
        self,
        ops: tuple[Op, ...],
        settings: Settings = DEFAULT_SETTINGS,
        partial: bool = False,
        baseline: TodoList | None = None,
        wipe: bool = False,
        expired: frozenset[str] = frozenset(),
        merge_base: TodoList | None = None,
        agent: str | None = None,
        stale: tuple[tuple[str, float], ...] = (),  # (agent, seconds since it wrote)
        id_floor: int = 0,
        view: TodoList | None = None,
        echo: Echo | None = None,  # the writes' items as their agent tool meant them
        unseen: bool = False,
        # The checks run for tasks this batch completes: (the task's place in the
        # list after the ops, from 0; its text; its check; the record of the run
        # that passed, or None: it did not pass, the task is not completed).
        proofs: tuple[Proof, ...] = (),
    ) -> None:
        self.ops = ops
        self.settings = settings
        self.partial = partial
        self.baseline = baseline
        self.wipe = wipe
        self.expired = expired
        self.merge_base = merge_base
        self.agent = agent
        self.stale = stale
        self.id_floor = id_floor
        self.view = view
        self.echo = echo
        self.unseen = unseen
        self.proofs = proofs


def apply(doc: Document, batch: Batch) -> tuple[Result, Document]:
    """Apply a batch. Returns the result and the document to store."""
    return Engine(doc, batch).run()


class Engine:
    """Runs one batch over one document."""

    def __init__(self, doc: Document, batch: Batch, careful: bool = False) -> None:
        self.doc = doc
        self.batch = batch
        self.id_floor = batch.id_floor
        self.echo = batch.echo  # the writes' items as their agent tool meant them
        self.settings = batch.settings
        self.agent = batch.agent  # the agent this batch is for (None: one agent, today's rules)
        self.stale = dict(batch.stale)  # agents whose claims lapsed: seconds since each wrote
        self.claimed: str | None = None  # the task a claim took
        self.released: list[tuple[str, str, float]] = []  # (task, agent, idle seconds)
        # The careful pass (see ``run``): every edit that adds or removes lines is
        # re-read at once, and undone and placed another way if it reads wrong.
        self.careful = careful
        self.placement = 0
        # What "#N" means for this whole batch: the numbering it started with.
        tasks = list(doc.tasks())
        self.numbering: list[TaskNode | None] = list(tasks)
        self.active = {t: None for t in tasks if t.status is Status.IN_PROGRESS}
        self.dropped_open: list[str] = []
        self.deleted: set[str] = set()  # tasks an update removed on purpose
        self.renamed: list[tuple[str, str]] = []  # (old, new) texts of tasks renamed by id
        self.structural = False  # whether lines were added, moved or removed
        # The list as todo last wrote it (or as --base names it): what a snapshot is
        # merged against, three ways (see ``merge``).
        self.merge_base: TodoList | None = None
        # The last full snapshot the agent sent: what its next one is merged
        # against (unless --base names a revision); the list as todo last wrote it.
        self.view_base: TodoList | None = None
        self.unseen = False  # no view on record: the agent has seen only what it sends
        self.last_written = TodoList()
        self.view: TodoList | None = None  # the snapshot this batch sent, for next time
        self.merged: list[Merged] = []
        self.left: list[tuple[Phase, Task]] = []  # closed tasks a snapshot left out
        # A text and the list it reads as, known without reading it again: the
        # last one ``_reads_as`` read, or one just parsed to make the document.
        self.read_back: tuple[str, TodoList] | None = None

    # -- the batch -----------------------------------------------------------------

    def run(self) -> tuple[Result, Document]:
        batch = self.batch
        ops, partial, baseline, wipe = batch.ops, batch.partial, batch.baseline, batch.wipe
        expired, merge_base, view, unseen = (
            batch.expired,
            batch.merge_base,
            batch.view,
            batch.unseen,
        )
        doc = self.doc
        self.merge_base = merge_base if merge_base is not None else baseline
        self.view_base = view if merge_base is None else None
        self.unseen = unseen and merge_base is None and view is None
        original_text = doc.text()
        old = doc.model()
        self.last_written = baseline if baseline is not None else old
        old_count = doc.task_count()
        warnings = tuple(doc.warnings)
        hand_edit = Diff.between(baseline, old) if baseline is not None else None
        hand_edit = hand_edit or None
        hand_notes = notes_added(baseline, old) if baseline is not None else ()
        if all(op.kind is OpKind.VIEW for op in ops):
            return Result(old, old, query=True, hand_edit=hand_edit, hand_notes=hand_notes), doc

        def again_carefully() -> tuple[Result, Document]:
            """The batch again from the start, each edit checked as it is made."""
            return Engine(parse(original_text), batch, careful=True).run()

        errors: list[OpError] = []
        last_growth = -1
        depending = [i for i, op in enumerate(ops) if op.kind in _DEPENDING]
        # Each task's dependencies as the batch began (read here: ``claims`` is
        # imported only when, after the batch, some task has any).
        deps_before = (
            {n.meta.id or n.content: n.meta.blocked_by for n in doc.tasks() if n.meta.blocked_by}
            if depending
            else {}
        )
        for i, op in enumerate(ops):
            try:
                self._apply(op)
            except OpFailure as failure:
                errors.append(OpError(i, failure.message, failure.code, failure.path or op.path))
            else:
                if op.kind in _GROWING:
                    last_growth = i
        if depending and any(n.meta.blocked_by for n in self.doc.tasks()):
            from todocli.engine import claims

            wrong = claims.dependency_error(self.doc, deps_before)
            if wrong is not None:
                errors.append(OpError(depending[-1], wrong))
        count = self.doc.task_count()
        if count > self.settings.max_tasks and count > old_count and last_growth >= 0:
            errors.append(
                OpError(
                    last_growth,
                    f"The list would have {count} tasks; the limit is "
                    f"{self.settings.max_tasks} (max_tasks)",
                )
            )
        too_big = self._over_file_limit(original_text)
        if too_big is not None:
            # Never partial: which ops to leave out for the rest to fit is not ours to guess.
            errors.append(OpError(len(ops) - 1, too_big))
            partial = False
        if self.dropped_open and self.settings.snapshot_drop is DropPolicy.REJECT:
            names = ", ".join(f'"{c}"' for c in self.dropped_open)
            errors.append(
                OpError(
                    0,
                    f"The snapshot drops open tasks {names}; send them too, or mark them "
                    "completed or abandoned (snapshot_drop = reject)",
                )
            )
        if errors and not partial:
            # Nothing of a rejected batch is kept: hand back the document as it was.
            failed = Result(
                old, old, errors=tuple(errors), hand_edit=hand_edit, hand_notes=hand_notes
            )
            return failed, parse(original_text)

        unproved = self._settle_proofs(batch.proofs, old)
        if not {op.kind for op in ops} <= _NOT_NORMALIZED:
            self._normalize()
        for content in expired:
            node = self.doc.find(content)
            if node is not None and not node.status.is_open:
                self.structural = True
                self._expire(content)
        if self.structural:
            self.doc.reindex()  # phases and summary follow from the lines as they now are
        new = self.doc.model()
        if self.structural and self.doc.text() != original_text and not self._reads_as(new):
            if not self.careful:
                # Some edit made the file read differently: do the batch again, each
                # edit checked on its own and placed another way where it must be.
                return again_carefully()
            raise InternalError(_MISREAD)  # the careful pass checked every edit
        completed = None
        wiped = False
        if _finished(new) and not _finished(old):
            completed = new
            if wipe:
                wiped = self._wipe()
                if wiped and not self._reads_as(self.doc.model()) and not self.careful:
                    return again_carefully()
                new = self.doc.model()
        diff = Diff.between(old, new if not wiped else completed or new, tuple(self.renamed))
        overridden = _overridden(hand_edit, baseline, old, new) if hand_edit and baseline else ()
        result = Result(
            old=old,
            new=new,
            errors=tuple(errors),
            warnings=warnings,
            written=self.doc.text() != original_text,
            diff=diff,
            dropped_open=tuple(self.dropped_open)
            if self.settings.snapshot_drop is DropPolicy.WARN
            else (),
            hand_edit=hand_edit,
            hand_notes=hand_notes,
            overridden=overridden,
            completed=completed,
            wiped=wiped,
            left=TodoList(phases=_grouped(self.left)) if self.left else None,
            merged=tuple(self.merged),
            claimed=self.claimed,
            released=tuple(self.released),
            view=self.view,
            unproved=unproved,
        )
        return result, self.doc

    def _apply(self, op: Op) -> None:
        handler = HANDLERS[op.kind]
        if op.kind in _IN_PLACE:
            handler(self, op)
            return
        self.structural = True
        self._edit(lambda: handler(self, op), _PLACEMENTS if op.kind in _PLACED else 1)

    # -- placing edits so that the file reads as meant ------------------------------
    #
    # An edit that adds, moves or removes lines can change how the lines around it
    # read: an open HTML block or code fence swallows a new line, a new item takes
    # in the indented lines after it, an item that may not interrupt a paragraph
    # joins it once the item before it is gone. So the document is re-read after
    # the batch and must read as the list meant (``_reads_as``). When it does not,
    # the batch is done again in a careful pass: each such edit is re-read at
    # once, and if it reads wrong it is undone and made with the next placement
    # its primitive offers; when none works the op fails with a clear error and
    # nothing of it is written. The first pass stays linear; only a file that
    # needs it pays for re-reading after each edit.

    def _over_file_limit(self, original_text: str) -> str | None:
        """Why the batch would make the file too big to read back, if it would.

        A list over ``max_file_bytes`` is refused by every later read (``show``,
        ``undo``, ``clear`` alike), so a write must never make one: the limit guards
        growth. A file already over it by hand may still shrink."""
        limit = self.settings.max_file_bytes
        text = self.doc.text()
        if len(text) * 4 <= limit:  # four bytes a character at most: surely within
            return None
        size = len(text.encode("utf-8", "surrogateescape"))
        if size <= limit or size <= len(original_text.encode("utf-8", "surrogateescape")):
            return None
        return (
            f"The list would be {size} bytes; the limit is {limit} (max_file_bytes): "
            "finish or remove tasks, or raise the limit"
        )

    def _reads_as(self, intended: TodoList) -> bool:
        text = self.doc.text()
        if self.read_back is None or self.read_back[0] != text:
            self.read_back = (text, parse(text).model())
        return self.read_back[1] == intended

    def _edit(self, edit: Callable[[], None], placements: int = _PLACEMENTS) -> None:
        """Make an edit; in the careful pass keep it only if the file reads as the
        edit meant, trying each placement in turn."""
        if not self.careful:
            edit()
            return
        for placement in range(placements):
            before = self._checkpoint()
            self.placement = placement
            try:
                edit()
            except OpFailure:
                self._rollback(before)
                raise
            finally:
                self.placement = 0
            self.doc.reindex()
            if self._reads_as(self.doc.model()):
                return
            self._rollback(before)
        raise OpFailure(_MISREAD)

    def _checkpoint(self) -> _Checkpoint:
        nodes = [s for s in self.doc.segments() if isinstance(s, TaskNode)]
        return _Checkpoint(
            self.doc.text(), nodes, list(self.numbering), list(self.active), len(self.dropped_open)
        )

    def _rollback(self, to: _Checkpoint) -> None:
        """Undo an edit: read the text back and follow the tasks to their new nodes."""
        self.doc = parse(to.text)
        nodes = [s for s in self.doc.segments() if isinstance(s, TaskNode)]
        if len(nodes) != len(to.nodes):
            raise InternalError("Undoing an edit lost track of the tasks")
        moved = dict(zip(to.nodes, nodes, strict=True))
        self.numbering = [None if n is None else moved.get(n) for n in to.numbering]
        self.active = {moved[n]: None for n in to.active if n in moved}
        del self.dropped_open[to.dropped :]

    # -- status bookkeeping ------------------------------------------------------------

    def _set(self, node: TaskNode, status: Status) -> None:
        self.doc.set_status(node, status)
        if status is Status.IN_PROGRESS:
            self.active[node] = None
        else:
            self.active.pop(node, None)

    def _remove(self, node: TaskNode) -> None:
        self.active.pop(node, None)
        self.doc.remove_task(node, placement=self.placement)

    def _expire(self, content: str) -> None:
        """Auto-clear a closed task; one that cannot be removed cleanly stays until
        a later write."""

        def remove() -> None:
            node = self.doc.find(content)
            if node is not None:
                self._remove(node)

        try:
            self._edit(remove)
        except OpFailure:
            return

    def _remove_first(self) -> None:
        first = next(self.doc.tasks(), None)
        if first is not None:
            self._remove(first)

    def _normalize(self) -> None:
        """The normalization after a batch, as far as it changes nothing the batch did
        not touch: with no task in progress, the first pending one starts (the file
        format allows that marker change; blocked tasks are never promoted).

        It demotes nothing. Keeping in-progress tasks within ``max_in_progress`` is
        the job of ``start`` (see ``_op_start``), the only op that starts a task in
        place; a snapshot ``write`` over the limit is rejected. So in-progress tasks
        over the limit can only have been written by hand, and a batch that does not
        start anything leaves them as they are (``done B`` never rewrites the line of
        an unrelated ``[/] C``).
        """
        if self.agent is not None:
            return  # an agent takes its next task with claim; nothing starts for it
        tasks = list(self.doc.tasks())
        if any(node.status is Status.IN_PROGRESS for node in tasks):
            return
        waits: Collection[int] = ()
        if any(node.meta.blocked_by for node in tasks):  # the everyday list has none
            from todocli.engine.claims import waiting_on

            waits = waiting_on(tasks)
        for i, node in enumerate(tasks):
            if node.status is Status.PENDING and i not in waits:
                self._set(node, Status.IN_PROGRESS)
                break

    def _wipe(self) -> bool:
        """Clear a finished list: a tool-made file becomes empty; a person's file
        loses its tasks and keeps the rest of its text. In the careful pass a task
        that cannot be removed cleanly keeps the whole list as it is (False)."""
        if self.doc.is_canonical():
            self.doc = parse("")
            return True
        if not self.careful:
            for node in list(self.doc.tasks()):
                self.doc.remove_task(node)
            return True
        before = self._checkpoint()
        try:
            while next(self.doc.tasks(), None) is not None:
                self._edit(self._remove_first)
        except OpFailure:
            self._rollback(before)
            return False
        return True

    # -- finding things ------------------------------------------------------------------

    def _task(self, ref: str | None) -> TaskNode:
        if ref is None or not ref.strip():
            raise OpFailure("Missing task content")
        node = self.doc.find(ref) or self.doc.find(ref.strip())
        if node is not None:
            return node
        number = task_number(ref)
        if number is not None:
            n = number
            if 1 <= n <= len(self.numbering):
                candidate = self.numbering[n - 1]
                if candidate is not None and candidate.prev is not None:  # still listed
                    return candidate
            raise OpFailure(
                f"Task {quoted(ref)} not found: the list has {len(self.numbering)} tasks "
                "(see: todo show)",
                NotFoundError.code,
            )
        raise OpFailure(self._not_found(ref), NotFoundError.code)

    def _not_found(self, ref: str) -> str:
        if not self.doc.index:
            return (
                f"Task {quoted(ref)} not found: the list is empty "
                "(add tasks first: todo add, or an init op)"
            )
        close = _closest(ref, list(self.doc.index))
        if close:
            return f"Task {quoted(ref)} not found. Did you mean {_or_list(close)}? (see: todo show)"
        return f"Task {quoted(ref)} not found (see: todo show)"

    def _targets(self, op: Op) -> list[TaskNode]:
        """One task, one phase, or (with neither) every task: the targeting rule.
        The flag form's ``todo done`` with no target means the task in progress."""
        if op.current:
            if self.agent is not None:
                own = [t for t in self.active if t.meta.owner == self.agent]
                if not own:
                    raise OpFailure(
                        f'Agent "{self.agent}" holds no task in progress: claim one '
                        f"(todo claim), or name one (todo {op.kind.value} TASK)"
                    )
                return own
            if not self.active:
                raise OpFailure(
                    f"No task is in progress: name one (todo {op.kind.value} TASK), "
                    "or use --phase P or --all"
                )
            return list(self.active)
        if op.task is not None:
            return [self._task(op.task)]
        if op.phase is not None:
            if not op.phase.strip():
                raise OpFailure("Missing phase name")
            phases = self.doc.phase_named(op.phase.strip())
            if not phases:
                close = _closest(op.phase, [p.name for p in self.doc.phases])
                hint = f" Did you mean {_or_list(close)}?" if close else ""
                raise OpFailure(f"Phase {quoted(op.phase)} not found.{hint}", NotFoundError.code)
            return [t for p in phases for t in p.tasks]
        return list(self.doc.tasks())

    # -- validation -------------------------------------------------------------------------

    def _text(self, value: str, field: str, limit: int, missing: str, path: str = "") -> str:
        """A single-line field: stripped, non-empty, no control characters, no
        comment markers, within its byte limit. ``path`` is where the input held it."""
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
            key = "max_note_bytes" if field == "Note" else "max_field_bytes"
            raise OpFailure(f"{field} is {size} bytes; the limit is {limit} ({key})", path=path)
        return value

    def _content(self, value: str, path: str = "") -> str:
        return self._text(
            value, "Task content", self.settings.max_field_bytes, "Missing task content", path
        )

    def _phase_name(self, value: str, missing: str = "Missing phase name", path: str = "") -> str:
        name = self._text(value, "Phase name", self.settings.max_field_bytes, missing, path)
        hashes = name.rstrip("#")
        if name.startswith("#") or (hashes != name and hashes[-1:] in (" ", "\t")):
            raise OpFailure(f'Phase name "{name}" cannot start or end with "#"', path=path)
        return name

    def _note(self, value: str, path: str = "") -> str:
        lines = [line.strip() for line in value.strip().split("\n")]
        if not lines[0]:
            raise OpFailure("Missing text for note operation", path=path)
        if not all(lines):
            raise OpFailure("Note text cannot contain a blank line", path=path)
        limit = self.settings.max_note_bytes
        for line in lines:
            self._text(line, "Note", limit, "Missing text for note operation", path)
        note = "\n".join(lines)
        size = len(note.encode("utf-8"))
        if size > limit:
            raise OpFailure(
                f"Note is {size} bytes; the limit is {limit} (max_note_bytes)", path=path
            )
        return note

    def _summary(self, op: Op) -> str | None:
        value = op.summary
        if value is None or not value.strip():
            return None if value is None else ""
        return self._text(value, "Summary", self.settings.max_field_bytes, "", op.summary_path)

    # -- the operations -------------------------------------------------------------------

    def _op_view(self, op: Op) -> None:
        pass

    def _op_start(self, op: Op) -> None:
        """Start a task, making room for it under ``max_in_progress``.

        With the default limit of 1 the task in progress goes back to pending,
        one task in progress at a time. With a higher limit only as many others go back as needed to
        respect it, the earliest first: the tasks in progress when the batch began,
        in document order, then those this batch started, in the order it started
        them. Unlimited (0) demotes nothing.
        """
        node = self._task(op.task)
        if self.agent is not None:
            self._refuse_held(node)
            self._refuse_waiting(node)
            self._take(node, self.agent)
            return
        limit = self.settings.max_in_progress
        if limit:
            others = [t for t in self.active if t is not node]
            for other in others[: max(0, len(others) - limit + 1)]:
                self._set(other, Status.PENDING)
        self._set(node, Status.IN_PROGRESS)

    # -- several agents (see ``claims``, imported by these alone) ------------------------

    def _take(self, node: TaskNode, agent: str) -> None:
        """Start a task for an agent: the one-in-progress rule is the agent's own,
        so only its own tasks make room, and the task is marked as its claim."""
        limit = self.settings.max_in_progress
        if limit:
            own = [t for t in self.active if t is not node and t.meta.owner == agent]
            for other in own[: max(0, len(own) - limit + 1)]:
                self._set(other, Status.PENDING)
                self._own(other, None)  # back in the pool, nobody's
        self._set(node, Status.IN_PROGRESS)
        self._own(node, agent)

    def _own(self, node: TaskNode, agent: str | None) -> None:
        meta = node.meta
        if meta.owner != agent:
            self.doc.set_meta(node, meta.replace(owner=agent))

    def _refuse_held(self, node: TaskNode) -> None:
        """Another agent's claim is not taken from it."""
        from todocli.engine import claims

        held = claims.holder(node)
        if held is not None and held != self.agent:
            raise OpFailure(
                f'Task "{node.content}" is claimed by agent "{held}" '
                "(a claim idle for claim_timeout is released by the next todo claim)"
            )

    def _refuse_waiting(
        self,
        node: TaskNode,
        tasks: list[TaskNode] | None = None,
        waits: dict[int, list[int]] | None = None,
    ) -> None:
        """A task whose dependencies are open is not started by an agent."""
        from todocli.engine import claims

        if tasks is None or waits is None:
            if not node.meta.blocked_by:
                return
            tasks = list(self.doc.tasks())
            waits = claims.waiting_on(tasks)
        on = waits.get(tasks.index(node))
        if on:
            names = ", ".join(f'#{d + 1} "{tasks[d].content}"' for d in on)
            raise OpFailure(f'Task "{node.content}" is waiting on {names}')

    def _op_claim(self, op: Op) -> None:
        """Take the first pending task that waits on nothing (or the one named) for
        this agent, after releasing the claims of agents idle too long."""
        from todocli.engine import claims

        agent = self.agent
        if agent is None:
            raise OpFailure("todo claim needs an agent name: --agent NAME or TODOCLI_AGENT")
        for node in list(self.active):
            owner = node.meta.owner
            if owner is not None and owner != agent and owner in self.stale:
                self._set(node, Status.PENDING)
                self._own(node, None)
                self.released.append((node.content, owner, self.stale[owner]))
        tasks = list(self.doc.tasks())
        waits = claims.waiting_on(tasks)
        held = [t for t in self.active if t.meta.owner == agent]
        limit = self.settings.max_in_progress
        if op.task is None and limit and len(held) >= limit:
            # Already holding all it may: the claim is given again (an agent that
            # lost track of its claim asks again and gets it back).
            self.claimed = held[0].content
            return
        elsewhere = dict(op.taken)
        if op.task is None:
            free = [i for i, t in enumerate(tasks) if t.status is Status.PENDING and i not in waits]
            found = next((i for i in free if claims.key(tasks[i]) not in elsewhere), None)
            if found is None and free:
                names = claims.named([tasks[i].content for i in free])
                raise OpFailure(f"Nothing to claim: claimed in other worktrees: {names}")
            if found is None:
                cycle = claims.dead_end(tasks, waits)
                if cycle is not None:  # the plan can never drain: a code of its own
                    words = claims.cycle_words(cycle, tasks)
                    raise OpFailure(f"Nothing to claim: {words}", CycleError.code)
                raise OpFailure(claims.nothing_to_claim(self.doc, waits))
            node = tasks[found]
        else:
            node = self._task(op.task)
            self._refuse_held(node)
            holder = elsewhere.get(claims.key(node))
            if holder is not None:
                raise OpFailure(
                    f'Task "{node.content}" is claimed by agent "{holder}" in another worktree'
                )
            if not node.status.is_open:
                raise OpFailure(f'Task "{node.content}" is {node.status.value}: nothing to claim')
            if node.status is Status.BLOCKED:
                raise OpFailure(f'Task "{node.content}" is blocked (todo unblock it first)')
            cycle = claims.stuck_cycle(tasks, waits, start=tasks.index(node)) if waits else None
            if cycle is not None:  # in a cycle or waiting on one
                words = claims.cycle_words(cycle, tasks)
                raise OpFailure(f'Task "{node.content}" cannot start: {words}', CycleError.code)
            self._refuse_waiting(node, tasks, waits)
        self._take(node, agent)
        self.claimed = node.content

    def _op_done(self, op: Op) -> None:
        evidence = None
        if op.evidence is not None:
            limit = self.settings.max_field_bytes
            evidence = self._text(op.evidence, "Evidence", limit, "Missing evidence")
        for node in self._targets(op):
            self._set(node, Status.COMPLETED)
            self._mark_doer(node)
            meta = node.meta
            if evidence is not None:
                meta = meta.replace(evidence=evidence)
            if op.checked is not None and meta.check:
                meta = meta.replace(checked=op.checked)
            self.doc.set_meta(node, meta)

    def _settle_proofs(self, proofs: tuple[Proof, ...], old: TodoList) -> tuple[Wanted, ...]:
        """After the ops: a task whose check passed keeps the record of the run; one
        whose check did not pass (or changed while it ran) is not completed (one
        completed before, whose check ``todo check --verify`` ran again, is reopened:
        pending). Returns
        the tasks this batch completes whose check has not run (see ``_completing``).

        A task is named by its place in the list as the ops left it, its text and its
        check, never by its text alone: two tasks of one text are two tasks, and each
        is proved by its own check."""
        if not proofs and not any(op.kind in _COMPLETING for op in self.batch.ops):
            return ()
        nodes = list(self.doc.tasks())
        ran = {(place, content, check): record for place, content, check, record in proofs}
        unproved: list[Wanted] = []
        before = [t for _, t in old.tasks()] if ran else []
        for place in self._completing(nodes, old, ran):
            node = nodes[place]
            check = node.meta.check or ""
            key = (place, node.content, check)
            if key not in ran:
                unproved.append(key)
                continue
            record = ran[key]
            if record is not None:
                self.doc.set_meta(node, node.meta.replace(checked=record))
                continue
            then = before[place] if place < len(before) else None
            was = then.status if then is not None and then.content == node.content else None
            if was is Status.COMPLETED:  # its check ran again and failed: reopened
                self._set(node, Status.PENDING)
            else:
                self._set(node, was if was is not None and was.is_open else Status.IN_PROGRESS)
        return tuple(unproved)

    def _completing(
        self, nodes: list[TaskNode], old: TodoList, ran: dict[Wanted, str | None]
    ) -> list[int]:
        """The places of the completed tasks with a check that this batch completes
        (or that a run of their check was given for: ``todo check --verify``).

        A completed task was already completed when the list held, before the batch,
        a completed task of the same text at the same place (with the same check, or
        one a snapshot or update of the batch changed: its record is gone and the
        gate says so), else a
        completed task of the same text, check and record that no other task took.
        Anything else is being completed now: its check must run."""
        if not any(n.meta.check and n.status is Status.COMPLETED for n in nodes):
            return []
        before = [t for _, t in old.tasks()]
        taken = [False] * len(before)
        candidates: list[int] = []
        # Only a snapshot or an update changes a check (and then drops its record).
        rewrites = any(op.kind is OpKind.WRITE for op in self.batch.ops)
        for place, node in enumerate(nodes):
            if node.status is not Status.COMPLETED:
                continue
            was = before[place] if place < len(before) else None
            if (
                (place, node.content, node.meta.check or "") not in ran
                and was is not None
                and was.status is Status.COMPLETED
                and was.content == node.content
                and (
                    was.meta.check == node.meta.check
                    or (rewrites and was.meta.check is not None and node.meta.checked is None)
                )
            ):
                taken[place] = True
                continue
            candidates.append(place)
        # What is left, matched whole (text, check, record) in any order: the
        # batch may have added or removed lines above it.
        left: dict[tuple[str, str | None, str | None], int] = {}
        for i, task in enumerate(before):
            if not taken[i] and task.status is Status.COMPLETED:
                key = (task.content, task.meta.check, task.meta.checked)
                left[key] = left.get(key, 0) + 1
        out = []
        for place in candidates:
            node = nodes[place]
            if not node.meta.check:
                continue
            key = (node.content, node.meta.check, node.meta.checked)
            if (place, node.content, node.meta.check) not in ran and left.get(key, 0) > 0:
                left[key] -= 1
                continue
            out.append(place)
        return out

    def _op_drop(self, op: Op) -> None:
        for node in self._targets(op):
            self._set(node, Status.ABANDONED)
            self._mark_doer(node)

    def _mark_doer(self, node: TaskNode) -> None:
        """A task an agent closes keeps an owner: who did it (its claimant, else it)."""
        if self.agent is not None and node.meta.owner is None:
            self._own(node, self.agent)

    def _op_rm(self, op: Op) -> None:
        for node in self._targets(op):
            self._remove(node)

    def _op_block(self, op: Op) -> None:
        reason = None if op.text is None else self._note(BLOCK_NOTE + op.text, _at(op, "reason"))
        for node in self._targets(op):
            self._set(node, Status.BLOCKED)
            if reason is not None:
                self.doc.add_note(node, reason, self.placement)

    def _op_unblock(self, op: Op) -> None:
        for node in self._targets(op):
            if node.status is Status.BLOCKED:
                self._set(node, Status.PENDING)

    def _op_note(self, op: Op) -> None:
        """A note on the task named, or (``current``: ``todo done --note X``) on the
        task in progress."""
        nodes = self._targets(op) if op.current else [self._task(op.task)]
        if op.text is None or not op.text.strip():
            raise OpFailure("Missing text for note operation")
        text = self._note(op.text, _at(op, "text"))
        for node in nodes:
            self.doc.add_note(node, text, self.placement)

    def _op_clear(self, op: Op) -> None:
        for node in list(self.doc.tasks()):
            if op.all or not node.status.is_open:
                self._remove(node)

    def _op_append(self, op: Op) -> None:
        if op.phase is None and op.default_phase:
            phase = self.doc.phases[-1].name if self.doc.phases else DEFAULT_PHASE
        else:
            phase = self._phase_name(
                op.phase or "", "Missing phase name for append operation", _at(op, "phase")
            )
        if not op.items:
            raise OpFailure("Missing items for append operation")
        contents = [self._content(item, _at(op, f"items[{i}]")) for i, item in enumerate(op.items)]
        seen: set[str] = set()
        for content in contents:
            if content in seen or self.doc.find(content) is not None:
                raise OpFailure(f'Task "{content}" already exists')
            seen.add(content)
        after = self._dependency_ids(op.after)
        check = None
        if op.check is not None:
            limit = self.settings.max_field_bytes
            check = self._text(op.check, "Check", limit, "Missing check command", _at(op, "check"))
        for content in contents:
            node = self.doc.add_task(phase, content, placement=self.placement)
            if after or check:
                self.doc.set_meta(node, Meta(blocked_by=after, check=check))

    def _dependency_ids(self, refs: Sequence[str]) -> tuple[str, ...]:
        """The ids of the tasks ``refs`` name; a task without an id gets the next
        free one, since a dependency is held by id."""
        ids: list[str] = []
        for ref in refs:
            node = self._task(ref)
            meta = node.meta
            task_id = meta.id
            if task_id is None:
                from todocli.engine.claims import next_free_id

                task_id = next_free_id(self.doc, self.id_floor)
                self.doc.set_meta(node, meta.replace(id=task_id))
            if task_id not in ids:
                ids.append(task_id)
        return tuple(ids)

    def _op_init(self, op: Op) -> None:
        from todocli.engine.snapshot import Item

        if not op.phases:
            raise OpFailure("Missing list for init operation")
        items: list[Item] = []
        names: set[str] = set()
        for k, group in enumerate(op.phases):
            where = f"list[{k}]"
            name = self._phase_name(group.phase, path=_at(op, f"{where}.phase"))
            if name in names:
                raise OpFailure(f'Duplicate phase "{name}"', path=f"{op.path}.list[{k}].phase")
            names.add(name)
            if not group.items:
                raise OpFailure(f'Missing items for phase "{name}"')
            items += [
                Item(self._content(c, _at(op, f"{where}.items[{j}]")), phase=name, notes=())
                for j, c in enumerate(group.items)
            ]
        self._check_duplicates(items)
        self._replace(items, self._summary(op))

    def _op_write(self, op: Op) -> None:
        from todocli.engine.snapshot import Item

        if op.todos is None:
            raise OpFailure("Missing todos for write operation")
        todos: Sequence[Item] = op.todos
        for item in todos:  # a check the payload gives is refused as an op's is
            check = item.meta.check if item.meta is not None else None
            if check is not None and (item.given is None or "check" in item.given):
                limit = self.settings.max_field_bytes
                self._text(check, "Check", limit, "Missing check", item.at("check"))
        if self.echo is not None:
            # The list as the agent last saw it: what todo last wrote (or --base).
            seen = self.merge_base if self.merge_base is not None else self.doc.model()
            todos = self.echo(seen, todos, op.merge)
        todos = self._merged(todos) if op.merge else self._kept_meta(todos)
        items: list[Item] = []
        for item in todos:
            content = self._content(item.content, item.at(item.key))
            active = item.active_form
            if active is not None:
                limit = self.settings.max_field_bytes
                active = self._text(active, "Active form", limit, "", item.at(item.active_key))
            phase = (
                None if item.phase is None else self._phase_name(item.phase, path=item.at("phase"))
            )
            notes = None
            if item.notes is not None:
                notes = tuple(
                    self._note(n, item.at(f"notes[{i}]")) for i, n in enumerate(item.notes)
                )
            items.append(
                Item(
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
            )
        self._check_duplicates(items)
        sent = list(items)
        limit = self.settings.max_in_progress
        # A full snapshot is the agent's whole view: it is merged against the last
        # one the agent sent, so that what others added since stays until the
        # agent's own snapshot holds it. An update (merge) names only what it changes.
        base = self.merge_base
        if self.view_base is not None and not op.merge:
            base = self.view_base
        elif self.unseen and not op.merge:
            # No view on record: the agent has seen the tasks it sends and no other,
            # each as todo last wrote it (a status set by hand since still stays).
            base = TodoList(phases=_grouped(_named_by(items, self.last_written)))
        if base is not None:
            from todocli.engine.merge import news, rebase

            before = self.doc.model()
            items, merged = rebase(items, base, before, limit)
            if base is not self.merge_base:  # what an earlier write told of already is no news
                merged = news(merged, self.last_written, before)
            self.merged += merged
            self._note_left(base, before, items)
        elif not op.merge:
            # The agent's view is the list as todo last wrote it, and the file: it
            # has seen every task there.
            kept = {item.content for item in items}
            if any(not n.status.is_open and n.content not in kept for n in self.doc.tasks()):
                before = self.doc.model()
                self._note_left(before, before, items)
        started = [i.content for i in items if i.status is Status.IN_PROGRESS]
        if self.agent is not None:
            # The rule is each agent's own: another agent's claim, carried in the
            # snapshot as it is in the file, does not count against this one.
            started = [c for c in started if self._holder(c) in (None, self.agent)]
        if limit and len(started) > limit:
            names = ", ".join(f'"{c}"' for c in started)
            what = "Only one task" if limit == 1 else f"At most {limit} tasks"
            raise OpFailure(f"{what} can be in_progress at a time (got {len(started)}: {names})")
        summary = given = self._summary(op)
        if base is not None and summary == base.summary:
            summary = None  # sent back as it was: a summary a person changed stays
        self._replace(items, summary)
        if not op.merge:
            from todocli.engine.snapshot import view_of

            self.view = view_of(sent, given, self.doc)

    def _note_left(self, base: TodoList, current: TodoList, items: Sequence[Item]) -> None:
        """Closed tasks the agent had seen (``base``) that its snapshot leaves out:
        they leave the list now, and go to the completion log."""
        seen = {t.content for _, t in base.tasks()}
        texts, ids = _names(items)
        self.left += [
            (p, t)
            for p, t in current.tasks()
            if not t.status.is_open
            and t.content in seen
            and t.content not in texts
            and t.meta.id not in ids
        ]

    def _holder(self, content: str) -> str | None:
        """The agent whose claim the task of this text is in the file, if any."""
        node = self.doc.find(content)
        if node is None or node.status is not Status.IN_PROGRESS:
            return None
        return node.meta.owner

    def _kept_meta(self, items: Sequence[Item]) -> Sequence[Item]:
        """Metadata an item leaves out is kept from the task it names (by id,
        else by text): a priority or dependencies are not lost by omission."""

        if not any(item.meta is not None for item in items):
            return items
        by_id = {n.meta.id: n for n in self.doc.tasks() if n.meta.id}
        out = []
        for item in items:
            meta = item.meta
            if meta is not None and item.given is not None:
                node = by_id.get(meta.id) if meta.id else None
                if node is None:
                    node = self.doc.find(item.content)
                    if node is not None and meta.id and node.meta.id not in (None, meta.id):
                        node = None  # the same text, but another task (as ``matches``)
                if node is not None and node.meta:
                    old = node.meta
                    meta = old.replace(
                        id=meta.id or old.id,
                        priority=meta.priority if "priority" in item.given else old.priority,
                        blocked_by=meta.blocked_by
                        if "blocked_by" in item.given
                        else old.blocked_by,
                        check=meta.check if "check" in item.given else old.check,
                    )
                    meta = _new_check_unproved(meta, old)
                    item = item.with_meta(meta)
            out.append(item)
        return out

    def _merged(self, patches: Sequence[Item]) -> list[Item]:
        """The whole list after these updates: each names a task by id (else by
        text) and changes only the fields it gives; an unknown one is added."""
        from todocli.engine.snapshot import Item

        nodes = list(self.doc.tasks())
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
                self.deleted.add(current.content)
                continue
            old = current.meta or Meta()
            blocked = meta.blocked_by if "blocked_by" in given else old.blocked_by
            if "add_blocked_by" in given:
                had = set(old.blocked_by)  # a tuple searched per new id was quadratic
                blocked = old.blocked_by + tuple(d for d in meta.blocked_by if d not in had)
            items[index] = Item(
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
        return [item for item in items if item is not None]

    def _check_duplicates(self, items: Sequence[Item]) -> None:
        """Texts are unique, but for tasks told apart by distinct ids."""
        seen: dict[str, set[str | None]] = {}
        for item in items:
            task_id = item.meta.id if item.meta is not None else None
            ids = seen.setdefault(item.content, set())
            if ids and (task_id is None or task_id in ids or None in ids):
                raise OpFailure(f'Duplicate task "{item.content}"', path=item.at(item.key))
            ids.add(task_id)

    def _replace(self, items: Sequence[Item], summary: str | None) -> None:
        from todocli.engine.snapshot import rename_by_id, write_snapshot

        for was, now in rename_by_id(self.doc, items):
            first = next((i for i, (_, n) in enumerate(self.renamed) if n == was), None)
            if first is None:
                self.renamed.append((was, now))
            else:  # renamed twice in one batch: from the first text to the last
                self.renamed[first] = (self.renamed[first][0], now)
        wanted = {item.content for item in items}
        for node in self.doc.tasks():
            if node.status.is_open and node.content not in wanted | self.deleted:
                self.dropped_open.append(node.content)

        written = write_snapshot(self.doc, items, summary)
        if written is not self.doc:  # a document read anew from its text, not edited since
            self.read_back = (written.text(), written.model())
        self.doc = written
        # The document may have been written anew: follow the numbered tasks by content.
        self.numbering = [
            self.doc.find(t.content) if t is not None else None for t in self.numbering
        ]
        self.active = {t: None for t in self.doc.tasks() if t.status is Status.IN_PROGRESS}


def _new_check_unproved(meta: Meta, old: Meta) -> Meta:
    """A task whose check a write changed has no record of a run of it."""
    return meta.replace(checked=None) if meta.check != old.check else meta


def _id_list(ids: Collection[str], most: int = 10) -> str:
    """The ids a list has, for an error that names one it has not."""
    if not ids:
        return "no task in this list has an id"
    shown = ", ".join(list(ids)[:most])
    return f"this list's ids: {shown}{', ...' if len(ids) > most else ''}"


# Which method carries out each kind of op (tests/test_ops.py: one for every kind).
HANDLERS: dict[OpKind, Callable[[Engine, Op], None]] = {
    OpKind.INIT: Engine._op_init,
    OpKind.START: Engine._op_start,
    OpKind.DONE: Engine._op_done,
    OpKind.DROP: Engine._op_drop,
    OpKind.RM: Engine._op_rm,
    OpKind.APPEND: Engine._op_append,
    OpKind.NOTE: Engine._op_note,
    OpKind.BLOCK: Engine._op_block,
    OpKind.UNBLOCK: Engine._op_unblock,
    OpKind.VIEW: Engine._op_view,
    OpKind.WRITE: Engine._op_write,
    OpKind.CLEAR: Engine._op_clear,
    OpKind.CLAIM: Engine._op_claim,
}


def _at(op: Op, key: str) -> str:
    """The input path of one of an op's fields (none for an op from flags)."""
    return f"{op.path}.{key}" if op.path else ""


class _Checkpoint:
    """What the careful pass needs to undo an edit."""

    __slots__ = ("active", "dropped", "nodes", "numbering", "text")

    def __init__(
        self,
        text: str,
        nodes: list[TaskNode],
        numbering: list[TaskNode | None],
        active: list[TaskNode],
        dropped: int,
    ) -> None:
        self.text = text
        self.nodes = nodes  # the document's task nodes in line order
        self.numbering = numbering
        self.active = active
        self.dropped = dropped


def task_number(ref: str) -> int | None:
    """N for a reference written ``#N`` (the pattern ``#([0-9]+)``), else None."""
    digits = ref.strip()[1:]
    if ref.strip()[:1] != "#" or not digits.isascii() or not digits.isdigit():
        return None
    digits = digits.lstrip("0") or "0"
    # int() refuses over 4,300 digits: a number that long is beyond any list
    return int(digits) if len(digits) <= NUMBER_DIGITS else 10**NUMBER_DIGITS


def _names(items: Sequence[Item]) -> tuple[set[str], set[str | None]]:
    """The texts and the ids snapshot items name tasks by."""
    ids: set[str | None] = {item.meta.id for item in items if item.meta and item.meta.id}
    return {item.content for item in items}, ids


def _named_by(items: Sequence[Item], todo: TodoList) -> list[tuple[Phase, Task]]:
    """The tasks of ``todo`` that snapshot items name: by text, or by id."""
    texts, ids = _names(items)
    return [(p, t) for p, t in todo.tasks() if t.content in texts or t.meta.id in ids]


def _grouped(tasks: Sequence[tuple[Phase, Task]]) -> tuple[Phase, ...]:
    """Tasks (each with its phase) as phases, in the order they come."""
    phases: dict[str, list[Task]] = {}
    for phase, task in tasks:
        phases.setdefault(phase.name, []).append(task)
    return tuple(Phase(name, tuple(group)) for name, group in phases.items())


def _finished(todo: TodoList) -> bool:
    tasks = todo.tasks()
    return bool(tasks) and not any(t.status.is_open for _, t in tasks)


def _overridden(
    hand_edit: Diff, baseline: TodoList, old: TodoList, new: TodoList
) -> tuple[str, ...]:
    """Tasks a person added or changed by hand whose state this batch changed again.

    A text held by several tasks is the first one's. The copies of a text a person
    added (past the number of its tasks at the last write) are the last tasks of
    that text, compared with the last tasks of that text after the batch."""
    known = _statuses(baseline)
    before, after = _statuses(old), _statuses(new)
    out: dict[str, None] = {}
    copied = [(c, True) for c in hand_edit.added if c in known]
    touched = [(c, False) for c in hand_edit.added if c not in known] + copied
    for content, copy in touched + [(c.content, False) for c in hand_edit.changed]:
        was, now = before.get(content), after.get(content, [])
        if was is None:
            continue
        if copy:
            copies = len(was) - len(known[content])
            if copies > 0 and now[-copies:] != was[-copies:]:
                out[content] = None
        elif not now or now[0] is not was[0]:
            out[content] = None
    return tuple(out)


def _statuses(todo: TodoList) -> dict[str, list[Status]]:
    """The statuses of the tasks of each text, in document order."""
    statuses: dict[str, list[Status]] = {}
    for _, task in todo.tasks():
        statuses.setdefault(task.content, []).append(task.status)
    return statuses


def _closest(word: str, candidates: list[str]) -> list[str]:
    import difflib

    lowered = word.lower()
    contains = [c for c in candidates if lowered in c.lower()][:3]
    return contains or difflib.get_close_matches(word, candidates, n=3, cutoff=0.6)


def _or_list(names: list[str]) -> str:
    quoted = [f'"{n}"' for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
