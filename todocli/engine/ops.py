"""The operation engine: apply a batch of operations to a document.

The operations (init, start, done, drop, rm, append, note) with their targeting
rules and error strings, plus block/unblock, view, clear, claim and the
full-snapshot write. A batch runs in order and is then normalized (with no task in
progress, the first pending one starts; ``start`` keeps to the in-progress limit).
It is atomic unless asked to be partial. Every edit goes through the document's
editing primitives, so a hand-edited file keeps every line an operation does not
touch.

This module holds the values (``Op``, ``Batch``), the batch loop and the books it
keeps (the numbering, the tasks in progress). Its rooms, each a set of functions
that take the engine's working state: ``edits`` (the simple ops, the targeting
rule and the text checks), ``snapshot`` (the snapshot write and merge, and
``init``), ``claims`` (several agents), ``proofs`` (checks) and ``careful`` (the
careful pass); each of the last four is loaded only by a batch that needs it.

Costs are linear: tasks are found through the document's content index, ``#N``
references are resolved against the numbering the batch started with, and the set
of in-progress tasks is kept up to date rather than searched for.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING, Choice, Value
from todocli.document.markdown import Document, TaskNode, parse
from todocli.document.model import Diff, OpError, Phase, Result, Status, Task, TodoList, notes_added
from todocli.engine import DropPolicy, OpFailure, Settings, edits
from todocli.engine.edits import task_number
from todocli.errors import InternalError

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Sequence
    from typing import ClassVar

    from todocli.engine.merge import Merged
    from todocli.engine.snapshot import Item

    # A write's items as its agent tool meant them: (the list as the agent last
    # saw it, the items, whether they are updates) → the items.
    Echo = Callable[[TodoList, Sequence[Item], bool], list[Item]]

# Names other packages import from here, whose home is now another room.
__all__ = [
    "HANDLERS",
    "Batch",
    "Engine",
    "Op",
    "OpFailure",
    "OpKind",
    "PhaseItems",
    "Proof",
    "Result",
    "Wanted",
    "apply",
    "task_number",
]


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
    ``told``: the list as the agent's last write left it (the merges it was told
    of then); what others wrote since is news to it (None: the list as todo last
    wrote it).
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
        told: TodoList | None = None,
        own: bool = False,  # todo's own session list: its markers, whatever the file uses
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
        self.told = told
        self.own = own


def apply(doc: Document, batch: Batch) -> tuple[Result, Document]:
    """Apply a batch. Returns the result and the document to store."""
    return Engine(doc, batch).run()


class Engine:
    """Runs one batch over one document: the batch's working state, which the
    engine's rooms (``edits``, ``snapshot``, ``claims``, ``proofs``, ``careful``)
    take as a value."""

    def __init__(
        self, doc: Document, batch: Batch, careful: bool = False, text: str | None = None
    ) -> None:
        doc.own = doc.own or batch.own
        self.doc = doc
        self.read_from = text  # what ``doc`` was read from, if the caller has it
        self.batch = batch
        self.id_floor = batch.id_floor
        self.echo = batch.echo  # the writes' items as their agent tool meant them
        self.settings = batch.settings
        self.agent = batch.agent  # the agent this batch is for (None: one agent, today's rules)
        self.stale = dict(batch.stale)  # agents whose claims lapsed: seconds since each wrote
        self.claimed: str | None = None  # the task a claim took
        self.released: list[tuple[str, str, float]] = []  # (task, agent, idle seconds)
        # The careful pass (see ``careful``): every edit that adds or removes lines is
        # re-read at once, and undone and placed another way if it reads wrong.
        self.careful = careful
        self.placement = 0
        # What "#N" means for this whole batch: the numbering it started with.
        tasks = doc.tasks()
        self.numbering: list[TaskNode | None] = list(tasks)
        self.active = {t: None for t in tasks if t.status is Status.IN_PROGRESS}
        self.dropped_open: list[str] = []
        self.closed: dict[TaskNode, None] = {}  # tasks this batch closed, in order
        self.deleted: set[str] = set()  # tasks an update removed on purpose
        self.renamed: list[tuple[str, str]] = []  # (old, new) texts of tasks renamed by id
        self.structural = False  # whether lines were added, moved or removed
        self.in_place = False  # the op just made (a snapshot) kept every line where it was
        # The list as todo last wrote it (or as --base names it): what a snapshot is
        # merged against, three ways (see ``merge``).
        self.merge_base: TodoList | None = None
        # The agent's last full snapshot: what its next one is merged against (unless
        # --base names a revision); the list as todo last wrote it.
        self.view_base: TodoList | None = None
        self.unseen = False  # no view on record: the agent has seen only what it sends
        self.last_written = TodoList()
        self.view: TodoList | None = None  # the snapshot this batch sent, for next time
        self.merged: list[Merged] = []
        self.left: list[tuple[Phase, Task]] = []  # closed tasks a snapshot left out
        # A text and the list it reads as, known without reading it again (the last
        # ``reads_as`` read, or one just parsed to make the document).
        self.read_back: tuple[str, TodoList] | None = None
        self.original_text = ""  # the document as the batch found it (set by ``run``)
        self.text: str | None = None  # and as ``_result`` found it
        self.old = TodoList()
        self.hand_edit: Diff | None = None
        self.hand_notes: tuple[tuple[str, str], ...] = ()
        self.warnings: tuple[str, ...] = ()

    # -- the batch -----------------------------------------------------------------
    #
    # run: read what the list was (and what a person changed by hand), apply the
    # ops, refuse the batch or settle it (proofs, normalization, auto-clear), check
    # that the file reads as meant (else the careful pass), then the result.

    def run(self) -> tuple[Result, Document]:
        batch = self.batch
        self._begin()
        old, hand_edit, hand_notes = self.old, self.hand_edit, self.hand_notes
        if all(op.kind is OpKind.VIEW for op in batch.ops):
            return Result(
                old, old, query=True, hand_edit=hand_edit, hand_notes=hand_notes
            ), self.doc
        errors, partial = self._apply_ops()
        if errors and not partial:
            # Nothing of a rejected batch is kept: hand back the document as it was.
            failed = Result(
                old, old, errors=tuple(errors), hand_edit=hand_edit, hand_notes=hand_notes
            )
            return failed, parse(self.original_text)
        unproved = self._settle_proofs()
        self._tidy()
        new = self.doc.model()
        if self.structural and self.doc.text() != self.original_text and not self.reads_as(new):
            # Some edit made the file read differently: do the batch again, each
            # edit checked on its own and placed another way where it must be.
            return self._again_carefully()
        completed = None
        wiped = False
        if _finished(new) and not _finished(old):
            completed = new
            if batch.wipe:
                wiped = self._wipe()
                if wiped and not self.reads_as(self.doc.model()) and not self.careful:
                    return self._again_carefully()
                new = self.doc.model()
        return self._result(new, errors, unproved, completed, wiped), self.doc

    def _begin(self) -> None:
        """What the batch starts from: the list as it is, as todo last wrote it, and
        what a person changed in between."""
        batch = self.batch
        baseline, merge_base, view = batch.baseline, batch.merge_base, batch.view
        self.merge_base = merge_base if merge_base is not None else baseline
        self.view_base = view if merge_base is None else None
        self.unseen = batch.unseen and merge_base is None and view is None
        text = self.read_from
        self.original_text = text if text is not None else self.doc.text()
        self.warnings = tuple(self.doc.warnings)
        if self.doc.duplicates:  # a write's warning only: a read is not told on every call
            from todocli.document.tree import duplicates_warning

            self.warnings += (duplicates_warning(self.doc),)
        self.old = old = self.doc.model()
        self.last_written = baseline if baseline is not None else old
        if baseline is not None:
            self.hand_edit = Diff.between(baseline, old) or None
            self.hand_notes = notes_added(baseline, old)

    def _again_carefully(self) -> tuple[Result, Document]:
        """The batch again from the start, each edit checked as it is made."""
        if self.careful:
            from todocli.engine.careful import MISREAD

            raise InternalError(MISREAD)  # the careful pass checked every edit
        return Engine(parse(self.original_text), self.batch, careful=True).run()

    def _apply_ops(self) -> tuple[list[OpError], bool]:
        """Each op in turn (one that fails is recorded and the rest go on), then
        what is wrong with the batch as a whole. Returns the errors, and whether
        the batch may still be kept in part."""
        ops, partial = self.batch.ops, self.batch.partial
        old_count = self.doc.task_count()
        errors: list[OpError] = []
        last_growth = -1
        depending = [i for i, op in enumerate(ops) if op.kind in _DEPENDING]
        # Each task's dependencies as the batch began (read here: ``claims`` is
        # imported only when, after the batch, some task has any).
        deps_before = (
            {
                n.meta.id or n.content: n.meta.blocked_by
                for n in self.doc.tasks()
                if n.meta.blocked_by
            }
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
                    f"{self.settings.max_tasks} ({self.settings.key('max_tasks')})",
                )
            )
        too_big = self._over_file_limit()
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
        return errors, partial

    def _tidy(self) -> None:
        """After the ops: the first pending task starts (see ``_normalize``), and the
        closed tasks whose auto-clear delay has passed go."""
        if not {op.kind for op in self.batch.ops} <= _NOT_NORMALIZED:
            if self.closed:
                edits.roll_up(self)
            self._normalize()
        for content in self.batch.expired:
            node = self.doc.find(content)
            if node is not None and not node.status.is_open:
                self.structural = True
                self._expire(content)
        if self.structural:
            self.doc.reindex()  # phases and summary follow from the lines as they now are

    def _result(
        self,
        new: TodoList,
        errors: list[OpError],
        unproved: tuple[Wanted, ...],
        completed: TodoList | None,
        wiped: bool,
    ) -> Result:
        old, baseline, hand_edit = self.old, self.batch.baseline, self.hand_edit
        self.text = text = self.doc.text()
        diff = Diff.between(old, new if not wiped else completed or new, tuple(self.renamed))
        overridden = _overridden(hand_edit, baseline, old, new) if hand_edit and baseline else ()
        left = None
        if self.left:
            from todocli.engine.snapshot import grouped

            left = TodoList(phases=grouped(self.left))
        return Result(
            old=old,
            new=new,
            errors=tuple(errors),
            warnings=self.warnings,
            written=text != self.original_text,
            diff=diff,
            dropped_open=tuple(self.dropped_open)
            if self.settings.snapshot_drop is DropPolicy.WARN
            else (),
            hand_edit=hand_edit,
            hand_notes=self.hand_notes,
            overridden=overridden,
            completed=completed,
            wiped=wiped,
            left=left,
            merged=tuple(self.merged),
            claimed=self.claimed,
            released=tuple(self.released),
            view=self.view,
            unproved=unproved,
        )

    def _apply(self, op: Op) -> None:
        handler = HANDLERS[op.kind]
        if op.kind in _IN_PLACE:
            handler(self, op)
            return
        before, self.structural, self.in_place = self.structural, True, False
        self.edit(lambda: handler(self, op), _PLACEMENTS if op.kind in _PLACED else 1)
        if self.in_place:  # it changed task lines in place only, as the ops above do
            self.structural = before

    def _over_file_limit(self) -> str | None:
        """Why the batch would make the file too big to read back, if it would.

        A list over ``max_file_bytes`` is refused by every later read (``show``,
        ``undo``, ``clear`` alike), so a write must never make one: the limit guards
        growth. A file already over it by hand may still shrink."""
        limit = self.settings.max_file_bytes
        text = self.doc.text()
        if len(text) * 4 <= limit:  # four bytes a character at most: surely within
            return None
        size = len(text.encode("utf-8", "surrogateescape"))
        if size <= limit or size <= len(self.original_text.encode("utf-8", "surrogateescape")):
            return None
        return (
            f"The list would be {size} bytes; the limit is {limit} (max_file_bytes): "
            "finish or remove tasks, or raise the limit"
        )

    def _settle_proofs(self) -> tuple[Wanted, ...]:
        """The tasks this batch completes whose check has not run; the runs given
        settled (see ``proofs``, loaded only when a completed task has a check)."""
        ops = self.batch.ops
        if not self.batch.proofs and not any(op.kind in _COMPLETING for op in ops):
            return ()
        if not any(n.meta.check and n.status is Status.COMPLETED for n in self.doc.tasks()):
            return ()
        from todocli.engine import proofs

        return proofs.settle(self, self.old, any(op.kind is OpKind.WRITE for op in ops))

    # -- placing edits so that the file reads as meant (see ``careful``) ---------------

    def reads_as(self, intended: TodoList) -> bool:
        text = self.doc.text()
        if self.read_back is None or self.read_back[0] != text:
            self.read_back = (text, parse(text).model())
        return self.read_back[1] == intended

    def edit(self, edit: Callable[[], None], placements: int = _PLACEMENTS) -> None:
        """Make an edit; in the careful pass keep it only if the file reads as the
        edit meant, trying each placement in turn."""
        if not self.careful:
            edit()
            return
        from todocli.engine import careful

        careful.edit(self, edit, placements)

    # -- status bookkeeping ------------------------------------------------------------

    def set_status(self, node: TaskNode, status: Status) -> None:
        self.doc.set_status(node, status)
        if node.status is Status.IN_PROGRESS:  # a file may not be able to show it (``set_status``)
            self.active[node] = None
        else:
            self.active.pop(node, None)
            if not status.is_open:
                self.closed[node] = None

    def remove(self, node: TaskNode) -> None:
        self.active.pop(node, None)
        self.doc.remove_task(node, placement=self.placement)

    def _expire(self, content: str) -> None:
        """Auto-clear a closed task; one that cannot be removed cleanly stays until
        a later write."""

        def remove() -> None:
            node = self.doc.find(content)
            if node is not None:
                self.remove(node)

        try:
            self.edit(remove)
        except OpFailure:
            return

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
        tasks = self.doc.tasks()
        if any(node.status is Status.IN_PROGRESS for node in tasks):
            return
        waits: Collection[int] = ()
        if any(node.meta.blocked_by for node in tasks):  # the everyday list has none
            from todocli.engine.claims import waiting_on

            waits = waiting_on(tasks)
        parents = edits.parents(self.doc, tasks)
        if parents is not None:  # a parent with open subtasks is done through them
            busy = {
                up
                for up, node in zip(parents, tasks, strict=True)
                if up is not None and node.status.is_open and not node.optional
            }
            waits = set(waits) | busy
        for i, node in enumerate(tasks):
            # An optional task is one a person chooses to do: never started for them.
            if node.status is Status.PENDING and i not in waits and not node.optional:
                self.set_status(node, Status.IN_PROGRESS)
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
        from todocli.engine import careful

        return careful.wipe(self, _PLACEMENTS)

    # -- the operations -------------------------------------------------------------------

    def _op_view(self, op: Op) -> None:
        pass

    def _op_claim(self, op: Op) -> None:
        from todocli.engine import claims

        claims.claim(self, op)

    # The simple ops are functions of the engine (``edits``); so is the targeting
    # rule, which ``claims`` reaches through the engine (it may not import ``edits``:
    # ``edits`` loads ``claims`` for an agent's start).
    task = edits.task
    _op_start = edits.op_start
    _op_done = edits.op_done
    _op_drop = edits.op_drop
    _op_rm = edits.op_rm
    _op_block = edits.op_block
    _op_unblock = edits.op_unblock
    _op_note = edits.op_note
    _op_clear = edits.op_clear
    _op_append = edits.op_append

    def _op_init(self, op: Op) -> None:
        from todocli.engine import snapshot

        snapshot.op_init(self, op)

    def _op_write(self, op: Op) -> None:
        from todocli.engine import snapshot

        snapshot.op_write(self, op)


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
