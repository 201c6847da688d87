"""The commands as plain functions over one invocation's context.

Each takes parsed arguments, does its work through the core (store, engine,
memory) and returns an ``Outcome`` for the renderers. Nothing here parses a
command line or prints. Modules a command alone needs are imported inside it: the
process starts once per agent step, and ``todo show`` should not pay for the engine.
"""

from __future__ import annotations

import os

from todocli.document.markdown import parse, render_canonical
from todocli.document.model import Phase, Result, TodoList, id_number
from todocli.errors import (
    BusyError,
    ConflictError,
    CycleError,
    InvalidParamError,
    TodoError,
    UsageError,
)
from todocli.storage import config, paths
from todocli.storage.store import ListChangedError, Store

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from datetime import datetime
    from typing import Any

    from todocli.document.markdown import Document
    from todocli.engine.dialects import Request
    from todocli.engine.ops import Op, Proof, Wanted


class Outcome:
    """What one command did, for the renderers: the list, the engine's result, where.
    (A command that answers with something else gives a ``report.Report``. Here, not
    in a module of its own: every call makes one, and a module costs ~0.1 ms.)"""

    __slots__ = (
        "claim_alone",
        "error",
        "file",
        "full_reply",
        "logged_to",
        "notices",
        "params_input",
        "reply_as",
        "request",
        "result",
        "rev",
        "session",
        "todo",
        "warnings",
    )

    def __init__(
        self,
        todo: TodoList,
        result: Result | None = None,
        error: TodoError | None = None,
        session: str | None = None,
        file: str = "",
        rev: int = 0,
        params_input: object = None,
        logged_to: str | None = None,
        notices: list[str] | None = None,
        warnings: list[str] | None = None,
    ) -> None:
        self.todo = todo  # the list to show: after the command, or as it stands on error
        self.result = result  # the engine's answer, for commands that ran a batch
        self.error = error  # a failure of the whole command
        self.session = session  # None for a --file list
        self.file = file
        self.rev = rev
        self.params_input = params_input
        self.logged_to = logged_to
        self.notices = notices if notices is not None else []  # lines shown before the list
        self.warnings = warnings if warnings is not None else []  # about the file
        self.request: Request | None = None  # apply: the parsed input
        self.reply_as: str | None = None  # the tool whose shape data.reply has
        self.claim_alone = False  # `todo claim`: the task taken is the whole answer
        self.full_reply = False  # the ``reply = full`` setting: a write shows the whole list

    def command(self, words: str) -> str:
        """``todo WORDS`` for this very list as a person types it in a shell of their
        own: with ``--file`` or ``--session`` unless the list is the default session
        (a hint such as "get them back with: todo undo" is then true as typed)."""
        if self.session is None:
            import shlex

            return f"todo --file {shlex.quote(self.file)} {words}"
        if self.session != paths.DEFAULT_SESSION:
            return f"todo --session {self.session} {words}"
        return f"todo {words}"

    @property
    def failed(self) -> bool:
        return self.error is not None or (self.result is not None and not self.result.ok)

    @property
    def exit_code(self) -> int:
        if self.error is not None:
            return self.error.exit_code
        if not self.failed:
            return 0
        return CycleError.exit_code if self.error_code == CycleError.code else 1

    @property
    def error_code(self) -> str | None:
        if self.error is not None:
            return self.error.code
        if self.result is not None and self.result.errors:
            codes = {e.code for e in self.result.errors}
            return codes.pop() if len(codes) == 1 else InvalidParamError.code
        return None


class Options:
    """Which list one invocation works on, and how a write treats it.

    How the result is printed (``--json``, ``--plain``, ``--quiet``, ``--no-color``)
    is the front end's business and never reaches the commands. Keyword arguments
    only: two booleans swapped by position would pass unnoticed.
    """

    __slots__ = (
        "agent",
        "base",
        "file",
        "home",
        "if_rev",
        "keep",
        "memory_dir",
        "partial",
        "session",
    )

    def __init__(
        self,
        *,
        session: str | None = None,
        file: str | None = None,
        home: str | None = None,
        memory_dir: str | None = None,
        if_rev: int | None = None,
        base: int | None = None,
        partial: bool = False,
        keep: bool = False,
        agent: str | None = None,
    ) -> None:
        self.session = session
        self.file = file
        self.home = home
        self.memory_dir = memory_dir
        self.if_rev = if_rev
        self.base = base  # the revision a snapshot was made from (see ``merge``)
        self.partial = partial
        self.keep = keep
        self.agent = agent  # --agent; TODOCLI_AGENT is read with the other locations

    def replace(self, **changes: object) -> Options:
        """A copy with some options changed (every other one kept)."""
        values: dict[str, object] = {name: getattr(self, name) for name in self.__slots__}
        values.update(changes)
        return Options(**values)  # type: ignore[arg-type]


class Context:
    """Settings, locations and storage for one invocation."""

    def __init__(self, options: Options, env: Mapping[str, str] | None = None) -> None:
        self.options = options
        self.env = os.environ if env is None else env
        cfg = config.load(paths.default_config_file(self.env), self.env)
        self.config = cfg
        self.settings = cfg.settings
        self.loc = paths.resolve(
            home=options.home,
            session=options.session,
            file=options.file,
            memory_dir=options.memory_dir,
            env=self.env,
            config=cfg.locations,
        )
        self.store = Store(
            self.loc,
            self.settings.lock_timeout,
            self.settings.max_file_bytes,
            self.settings.save_pause,
        )
        self.agent = paths.agent_name(options.agent, self.env)

    def now(self) -> datetime:
        """The time; ``TODOCLI_NOW`` (ISO 8601) fixes it, for tests and replays."""
        from datetime import datetime

        fixed = self.env.get("TODOCLI_NOW")
        if fixed:
            try:
                return datetime.fromisoformat(fixed)
            except ValueError:
                raise UsageError(f"TODOCLI_NOW is not an ISO 8601 time: {fixed!r}") from None
        return datetime.now()

    def outcome(
        self,
        todo: TodoList,
        rev: int,
        result: Result | None = None,
        params_input: object = None,
        logged_to: str | None = None,
        warnings: list[str] | None = None,
    ) -> Outcome:
        outcome = Outcome(
            todo=todo,
            result=result,
            session=self.loc.session if self.loc.is_session else None,
            file=self.loc.list_file,
            rev=rev,
            params_input=params_input,
            logged_to=logged_to,
            warnings=warnings or [],
        )
        outcome.full_reply = self.settings.reply == "full"
        return outcome


def show(
    ctx: Context, *, with_rev: bool = False, params_input: object = None, seen: bool = True
) -> Outcome:
    """The list as it stands. ``with_rev`` also reads its revision (JSON shows it;
    plain output need not look it up), from the same moment as the list, so a
    snapshot built on them can use --if-rev. A read that lands while an editor
    saves waits for the save, as a write does (see ``Store.settle``). For a named
    agent (unless ``seen`` is false: a hook's read, whose answer the model never
    sees) the list shown is what it has seen: its next snapshot may remove those
    tasks."""
    store = ctx.store
    record = seen and ctx.agent is not None
    text, rev = store.consistent_read() if with_rev or record else (store.read(), 0)
    notes: list[str] = []
    if store.may_be_saving(text):
        text, rev, notes = _settled_read(ctx, text, rev, with_rev=with_rev or record)
    doc = parse(text)
    shown = doc.model()
    if record:
        _record_read(store, ctx.agent, text, rev, shown)
    rev = rev if with_rev else 0
    return ctx.outcome(shown, rev, params_input=params_input, warnings=notes + doc.warnings)


def _settled_read(
    ctx: Context, text: str, rev: int, *, with_rev: bool
) -> tuple[str, int, list[str]]:
    """The list (and its revision) once a save that may be under way is done, and
    what to say when the list stayed empty where todo had written it."""
    store = ctx.store
    written, last = store.last_written(text)
    if last == text:
        return text, rev, []
    store.settle(text, last)
    text, rev = store.consistent_read() if with_rev else (store.read(), 0)
    if last is None or not emptied(text, last):
        return text, rev, []
    story = _emptied_story(ctx, last, written)
    return (
        text,
        rev,
        [f"{story}; read it again in a moment, or if it was emptied on purpose, {_AFRESH}"],
    )


def emptied(text: str, last: str | None) -> bool:
    """Whether the list is empty or gone where todo last wrote something (once
    ``Store.settle`` has waited for it to fill)."""
    return not text.strip() and bool(last and last.strip())


# What a person who emptied the list on purpose does next (each tested).
_AFRESH = "start a new list with: todo init TASK... (or keep it empty: todo clear --all)"


def _emptied_story(ctx: Context, last: str, rev: int) -> str:
    """What happened to a list that is empty or gone where todo wrote tasks."""
    from todocli.storage.store import SETTLE_MAX

    count = sum(1 for _ in parse(last).model().tasks())
    state = "is empty" if ctx.store.found() else "is gone"
    # A list with text but no task (prose, a heading) is waited for too: an editor
    # saving it may be half-way all the same.
    tasks = f"{count} task{'' if count == 1 else 's'}" if count else "text (and no task)"
    return (
        f"the list file {ctx.loc.list_file} {state}, but todo last wrote {tasks} to it "
        f"(revision {rev}), and it stayed so while todo waited {SETTLE_MAX:g} s: "
        "an editor may still be saving it, or it was emptied by hand"
    )


def _replaces_list(ops: Sequence[Op]) -> bool:
    """Whether the batch replaces the whole list (``init``, ``clear --all``): such a
    batch means to go on from an emptied list."""
    from todocli.engine.ops import OpKind

    return any(op.kind is OpKind.INIT or (op.kind is OpKind.CLEAR and op.all) for op in ops)


def _record_read(store: Store, agent: str | None, text: str, rev: int, shown: TodoList) -> None:
    """Add a list an agent read to what it has seen (its view): the tasks shown, as
    shown, and those of its view the list no longer has (a task removed by hand is
    not brought back by the agent's next snapshot). Best effort: a record that
    cannot be written does not fail the read."""
    try:
        had = store.view(agent)
        written = store.revision(rev) if rev else None
        if had == rev and written == text:
            return  # its view is this very list already
        old: TodoList | None = None
        if isinstance(had, int):
            kept = store.revision(had)
            old = parse(kept).model() if kept is not None else None
        elif isinstance(had, str):
            old = parse(had).model()
        known = {t.content for _, t in shown.tasks()}
        gone = [(p, t) for p, t in old.tasks() if t.content not in known] if old else []
        if not gone and written == text:
            store.save_view(agent, rev)
            return

        extra = tuple(Phase(p.name, (t,)) for p, t in gone)
        view = TodoList(summary=shown.summary, phases=shown.phases + extra)
        store.save_view(agent, render_canonical(view))
    except TodoError:
        pass


def expect_rev(ctx: Context, rev: int) -> None:
    """``--if-rev N``: a write fails with CONFLICT unless the list is at revision N."""
    wanted = ctx.options.if_rev
    if wanted is not None and wanted != rev:
        raise ConflictError(
            f"the list is at revision {rev}, not {wanted}: someone else wrote it "
            "first; read it again (todo show) and retry"
        )


WRITE_ATTEMPTS = 5  # a batch re-applied this often to a list that keeps changing


class Unproved(Exception):
    """A batch would complete tasks whose checks have not run: (place, text, check)
    each (``ops.Wanted``). Raised before anything is written; the lock is let go
    while they run."""

    def __init__(self, wanted: Sequence[Wanted]) -> None:
        super().__init__("checks to run")
        self.wanted = wanted


PROOF_ROUNDS = 3  # a batch that keeps completing tasks whose checks have not run


def run_batch(
    ctx: Context,
    ops: Sequence[Op],
    params_input: object = None,
    tool: str | None = None,
    proofs: tuple[Proof, ...] = (),
    *,
    no_check: bool = False,
) -> Outcome:
    """Apply a batch under the list's lock; write, log and record it. ``tool``: the
    agent tool whose shape its writes came in (see ``ops.apply``).

    A task with a check is completed only when its check passes: a batch that would
    complete one whose check has not run lets go of the lock, runs the checks (see
    ``app.proof``: a check may itself run todo on this list), and is applied again,
    with their results (``proofs``), to the list as it is by then. ``no_check``: such
    tasks are completed without running their checks (the ops record it).

    An editor does not take the lock: when the file changes between reading it and
    replacing it, the batch is applied again to what is there now (a few times at
    most, then exit 5), so a write never replaces bytes it has not read.
    """
    proving = None
    for _ in range(PROOF_ROUNDS):
        try:
            outcome = _run_locked(ctx, ops, params_input, tool, proofs, not no_check)
        except Unproved as unproved:
            from todocli.app.proof import Proving

            proving = proving or Proving(ctx)
            proofs = proofs + proving.run(unproved.wanted)
            continue
        if proving is not None:
            proving.report(outcome)
        return outcome
    raise BusyError(
        "tasks kept being completed by others while their checks ran; nothing was "
        "written: try again"
    )


def _run_locked(
    ctx: Context,
    ops: Sequence[Op],
    params_input: object,
    tool: str | None,
    proofs: tuple[Proof, ...],
    prove: bool,
) -> Outcome:
    with ctx.store.locked():
        for _ in range(WRITE_ATTEMPTS):
            try:
                outcome = _apply_once(ctx, ops, params_input, tool, proofs, prove)
            except ListChangedError:
                continue
            return outcome
    raise BusyError(
        f"the list kept changing while todo tried to write it ({WRITE_ATTEMPTS} times); "
        "nothing was written: try again"
    )


def _apply_once(
    ctx: Context,
    ops: Sequence[Op],
    params_input: object,
    tool: str | None,
    proofs: tuple[Proof, ...] = (),
    prove: bool = True,
) -> Outcome:
    from todocli.engine.ops import Batch, OpKind, apply

    opts, settings, store = ctx.options, ctx.settings, ctx.store
    text = store.read()
    store.recover(text)
    rev = store.rev()
    last = store.revision(rev) if rev else None
    blank = False
    if last != text:
        text = store.settle(text, last)  # a person's save may be under way: let it finish
        blank = emptied(text, last)
        if blank and not _replaces_list(ops):
            story = _emptied_story(ctx, last or "", rev)
            raise BusyError(
                f"{story}; nothing was written. Try again in a moment; "
                f"if it was emptied on purpose, {_AFRESH}"
            )
    expect_rev(ctx, rev)
    doc = parse(text)
    baseline = parse(last).model() if last is not None and last != text else None
    merge_base = None
    if opts.base is not None and not 0 <= opts.base <= rev:
        raise InvalidParamError(
            f"--base {opts.base}: no such revision (this list is at #{rev}; see: todo history)"
        )
    if opts.base is not None and opts.base != rev:
        kept = store.revision(opts.base) if opts.base else ""
        if kept is None:
            raise InvalidParamError(
                f"--base {opts.base}: that revision is no longer kept (see: todo history)"
            )
        merge_base = parse(kept).model()
    view = None
    unseen = False
    if opts.base is None and any(op.kind is OpKind.WRITE and not op.merge for op in ops):
        # A full snapshot is merged with what this agent has seen (see merge): its
        # last snapshot and the lists it read since. When that is the list of the
        # last revision, the usual base already is it; with none on record, the
        # agent has seen only what it sends.
        sent = store.view(ctx.agent)
        if isinstance(sent, int) and (sent != rev or last is None):
            kept = store.revision(sent) if sent else ""  # revision 0: the empty list
            view = parse(kept).model() if kept is not None else None
            unseen = view is None
        elif isinstance(sent, str):
            view = parse(sent).model()
        elif sent is None:
            unseen = True
    # A project plan is the project's record: never wiped (the log still records it).
    wipe = (
        not opts.keep
        and not ctx.loc.project
        and (
            settings.wipe_on_complete
            if settings.wipe_on_complete is not None
            else ctx.loc.is_session
        )
    )
    # The clock and state.json are read only when a completion, clear_delay or an
    # agent's claims need them: an everyday write of one agent reads neither.
    agent = ctx.agent
    now = ctx.now() if settings.clear_delay >= 0 or agent is not None else None
    state = store.state() if now is not None else {}
    if any(op.merge for op in ops):
        ops, state = _number_new_tasks(store, doc, ops, state)
    id_floor = 0
    if any(op.after for op in ops):  # --after may give a task an id
        state = state or store.state()
        id_floor = _id_mark(state)
    stale: tuple[tuple[str, float], ...] = ()
    if agent is not None and now is not None:
        from todocli.app.agent_state import stale_claims

        stale = tuple(stale_claims(state, doc, agent, now, settings.claim_timeout, ops).items())
    echo = None
    if tool is not None:  # a value the tool's own reply shows, sent back, changes nothing
        from todocli.agents.echo import for_tool

        echo = for_tool(tool)
    batch = Batch(
        tuple(ops),
        settings,
        partial=opts.partial,
        baseline=baseline,
        wipe=wipe,
        expired=frozenset(_expired(state, settings.clear_delay, now) if now is not None else ()),
        merge_base=merge_base,
        agent=agent,
        stale=stale,
        id_floor=id_floor,
        view=view,
        echo=echo,
        unseen=unseen,
        proofs=proofs,
    )
    result, doc = apply(doc, batch)
    if prove and result.unproved and (result.ok or opts.partial):
        raise Unproved(result.unproved)  # nothing written yet: the lock is let go while they run
    if result.query:
        return ctx.outcome(
            result.new,
            rev,
            result=result,
            params_input=params_input,
            warnings=list(result.warnings),
        )
    logged_to = None
    if result.ok or opts.partial:
        steps = []
        if result.completed is not None or result.left is not None:
            state = state or store.state()
            closed = _to_log(state, result)
            if closed is not None:
                logged_to, step = _log(ctx, state, closed, now or ctx.now())
                steps.append(step)
        if now is not None and settings.clear_delay >= 0:
            _track_closed(state, result.new, now)
        if agent is not None and now is not None:
            from todocli.app.agent_state import record_write

            record_write(state, agent, now, result.new, settings.claim_timeout)
        if any(op.after for op in ops):
            _raise_id_mark(state, result.new)
        if result.wiped:
            store.forget_views()  # a finished list: every agent starts afresh
        # The log, the state and the revision copy first, the list last: exit 6
        # means none of them changed.
        # An emptied list that `init` or `clear --all` goes on from is a revision
        # too, even when the batch left it as it was: the next write need not wait.
        written = doc.text() if result.written or blank else None
        person_near = written is not None and (baseline is not None or store.person_near())
        # The list as read becomes a revision of its own, if it is not one.
        hand = store.hand_edit(text, rev, last) if written is not None else None
        if result.view is not None and not result.wiped:
            before = rev + (hand is not None)
            # Revision ``before`` holds the list when this write lands, or when the
            # list is what it holds (not a file todo never wrote, nor a hand edit).
            held = written is not None or store.hand_edit(text, rev, last) is None
            _record_view(
                store, ctx.agent, result.view, result.new, before, written is not None, held
            )
        rev = store.commit(written, state, steps, person_near=person_near, hand=hand)
        if baseline is not None:
            store.saw_person()  # edited by hand: the person may save again at any moment
        if not result.written:
            store.restart_rounds()
        store.clear_failed()
    else:
        store.save_failed(rev, result.errors[0].message)
        if agent is not None and now is not None:
            # A failed call (a claim that found nothing) still shows the agent
            # alive, and starts the clock on claims no write is on record for.
            from todocli.app.agent_state import record_write

            record_write(state, agent, now, result.new, settings.claim_timeout)
            try:  # noqa: SIM105 - contextlib would cost start-up for one suppress
                store.commit(None, state)
            except TodoError:
                pass  # bookkeeping: the call's own failure is what to report
    return ctx.outcome(
        result.new,
        rev,
        result=result,
        params_input=params_input,
        logged_to=logged_to,
        warnings=list(result.warnings),
    )


def _record_view(
    store: Store,
    agent: str | None,
    view: TodoList,
    new: TodoList,
    rev: int,
    writes: bool,
    held: bool = True,
) -> None:
    """Record the snapshot an agent sent: most often exactly the list the write
    leaves (then the number of the revision that holds it, when one does: ``held``).
    With a list to write (``writes``), the record lands with it (see
    ``Store.save_view``). A record that cannot be written does not fail the write:
    the agent's last view stays."""
    landing = rev + 1 if writes else None
    try:
        if view == new and held:
            store.save_view(agent, landing or rev, landing)
        else:
            store.save_view(agent, render_canonical(view), landing)
    except TodoError:
        pass


LOGGED_KEY = "logged_closed"  # state.json: closed tasks of a finished list logged already


def _to_log(state: dict[str, Any], result: Result) -> TodoList | None:
    """What this write adds to the completion log: the closed tasks a snapshot left
    out, unless the list they were in was logged when it finished (each is logged
    once), and the list, when this write finishes it. None: nothing."""
    logged = state.get(LOGGED_KEY)
    logged = {c for c in logged if isinstance(c, str)} if isinstance(logged, list) else set()
    left = result.left.phases if result.left is not None else ()
    if logged:
        left = tuple(
            Phase(p.name, tuple(t for t in p.tasks if t.content not in logged)) for p in left
        )
        left = tuple(p for p in left if p.tasks)
    finished = result.completed
    still = {t.content for _, t in result.new.tasks() if not t.status.is_open}
    if finished is not None and not result.wiped:
        logged = still  # the finished list stays: its tasks are in the log now
    if logged & still:
        state[LOGGED_KEY] = sorted(logged & still)
    else:
        state.pop(LOGGED_KEY, None)
    if not left and finished is None:
        return None
    phases = left + (finished.phases if finished is not None else ())
    summary = finished.summary if finished is not None else result.old.summary
    return TodoList(summary=summary, phases=phases)


def _number_new_tasks(
    store: Store, doc: Document, ops: Sequence[Op], state: dict[str, Any]
) -> tuple[Sequence[Op], dict[str, Any]]:
    """New tasks' ids above every id this list ever had: the high-water mark is
    kept in state.json, so it outlives a deleted task and a hand edit, and it is
    written (or taken back) with the list."""
    from todocli.agents.numbering import MARK_KEY, moves_the_mark, number_new_tasks

    if not moves_the_mark(ops):
        return ops, state
    state = state or store.state()
    mark = _id_mark(state)
    numbered, top = number_new_tasks(ops, (n.meta.id for n in doc.tasks()), mark)
    if top != mark:
        state[MARK_KEY] = top
    return numbered, state


def _id_mark(state: dict[str, Any]) -> int:
    from todocli.agents.numbering import MARK_KEY

    mark = state.get(MARK_KEY)
    if isinstance(mark, bool) or not isinstance(mark, int) or mark < 0:
        return 0  # missing or damaged: the list's own ids still count
    return mark


def _raise_id_mark(state: dict[str, Any], todo: TodoList) -> None:
    """Ids ``--after`` gave count towards the high-water mark too."""
    from todocli.agents.numbering import MARK_KEY

    ids = [t.meta.id for _, t in todo.tasks() if t.meta.id]
    top = max([_id_mark(state), *(n for n in map(id_number, ids) if n is not None)])
    if top:
        state[MARK_KEY] = top


def _log(
    ctx: Context, state: dict[str, Any], completed: TodoList, now: datetime
) -> tuple[str, Callable[[], Callable[[], None]]]:
    """The completion log's path, and the step of the write that appends to it."""
    from todocli.storage.memory import append_block, completion_block, log_name

    name = state.get("log")
    # state.json may have been damaged: only a plain file name is a log's name, and
    # only a whole number a count (anything else starts afresh).
    if not isinstance(name, str) or not name or os.sep in name or name in (".", ".."):
        name = log_name(now)
    count = state.get("completions")
    number = (
        count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 0
    ) + 1
    path = os.path.join(ctx.loc.memory_dir, name)
    block = completion_block(number, now, completed)
    state["log"], state["completions"] = name, number
    ctx.store.journal_append(path)  # cut back to its length before if the list does not land
    return path, lambda: append_block(path, block)


def _expired(state: dict[str, Any], delay: float, now: datetime) -> set[str]:
    if delay < 0:
        return set()
    closed = state.get("closed_at")
    if not isinstance(closed, dict):
        return set()
    from datetime import datetime

    expired = set()
    for content, stamp in closed.items():
        try:
            if (now - datetime.fromisoformat(stamp)).total_seconds() >= delay:
                expired.add(content)
        except (TypeError, ValueError):
            continue
    return expired


def _track_closed(state: dict[str, Any], todo: TodoList, now: datetime) -> None:
    """Remember when each closed task closed, for ``clear_delay``."""
    before = state.get("closed_at")
    before = before if isinstance(before, dict) else {}
    state["closed_at"] = {
        t.content: before.get(t.content, now.isoformat())
        for _, t in todo.tasks()
        if not t.status.is_open
    }


# -- flag commands → ops ------------------------------------------------------------------


def _target_ops(
    kind: str, tasks: Sequence[str], phase: str | None, everything: bool, command: str
) -> list[Op]:
    from todocli.engine.ops import Op, OpKind

    chosen = sum([bool(tasks), phase is not None, everything])
    if chosen > 1:
        raise UsageError(f"{command}: give tasks, --phase or --all, not more than one")
    op = OpKind.of(kind)
    if tasks:
        return [Op(op, task=t) for t in tasks]
    if phase is not None:
        return [Op(op, phase=phase)]
    if everything:
        return [Op(op)]
    return [Op(op, current=True)]


def done(
    ctx: Context,
    tasks: Sequence[str],
    phase: str | None = None,
    *,
    everything: bool = False,
    note: str | None = None,
    no_check: bool = False,
    evidence: str | None = None,
) -> Outcome:
    """Complete tasks. A task with a check is completed only when its check
    passes (see ``app.proof``); ``no_check`` completes it anyway and records that
    no check ran; ``evidence`` is kept with each task and in the completion log."""
    from todocli.engine.ops import Op, OpKind

    ops = _target_ops("done", tasks, phase, everything, "done")
    if evidence is not None or no_check:
        from todocli.app.checks import skipped

        checked = skipped(ctx.now().isoformat(timespec="seconds")) if no_check else None
        ops = [op.replace(evidence=evidence, checked=checked) for op in ops]
    if note is not None:
        if phase is not None or everything:
            raise UsageError("done: --note is about one TASK (or, with none, the task in progress)")
        notes = [Op(OpKind.NOTE, task=t, text=note) for t in tasks]
        ops = (notes or [Op(OpKind.NOTE, current=True, text=note)]) + ops
    return _shared(ctx, run_batch(ctx, ops, no_check=no_check))


def _shared(ctx: Context, outcome: Outcome) -> Outcome:
    """A named agent's write to a project plan: what it holds goes on the claims
    the repository's worktrees share."""
    if ctx.loc.project and ctx.agent is not None:
        from todocli.app.shared_claims import record_owned

        record_owned(ctx, outcome)
    return outcome


def drop(
    ctx: Context, tasks: Sequence[str], phase: str | None = None, *, everything: bool = False
) -> Outcome:
    return _shared(ctx, run_batch(ctx, _target_ops("drop", tasks, phase, everything, "drop")))


def remove(
    ctx: Context, tasks: Sequence[str], phase: str | None = None, *, everything: bool = False
) -> Outcome:
    if not tasks and phase is None and not everything:
        raise UsageError("rm: name the TASK to remove, or use --phase P or --all")
    return run_batch(ctx, _target_ops("rm", tasks, phase, everything, "rm"))


def init(
    ctx: Context, tasks: Sequence[str], phase: str | None = None, *, summary: str | None = None
) -> Outcome:
    from todocli.engine.ops import Op, OpKind, PhaseItems

    if not tasks:
        raise UsageError("init: give at least one TASK")
    group = PhaseItems(phase if phase is not None else "Todos", tuple(tasks))
    return run_batch(ctx, [Op(OpKind.INIT, phases=(group,), summary=summary)])


def add(
    ctx: Context,
    tasks: Sequence[str],
    phase: str | None = None,
    *,
    after: Sequence[str] = (),
    check: str | None = None,
) -> Outcome:
    from todocli.engine.ops import Op, OpKind

    if not tasks:
        raise UsageError("add: give at least one TASK")
    op = Op(
        OpKind.APPEND,
        phase=phase,
        items=tuple(tasks),
        default_phase=phase is None,
        after=tuple(after),
        check=check,
    )
    outcome = run_batch(ctx, [op])
    result = outcome.result
    if check is not None and result is not None and result.ok and result.written:
        from todocli.app import approvals, checks

        # The one write that approves a check: this person's own command gave it.
        where = checks.work_dir(ctx.loc.list_file, ctx.loc.is_session)
        approvals.approve(ctx.loc.home, ctx.loc.list_file, where, [check.strip()])
    return outcome


def claim(ctx: Context, task: str | None) -> Outcome:
    """``todo claim [TASK]``: take the next task free to start (or the one named)
    for this agent, under the lock."""
    from todocli.engine.ops import Op, OpKind

    if ctx.agent is None:
        raise UsageError("todo claim needs an agent name: --agent NAME or TODOCLI_AGENT")
    if ctx.loc.project:
        from todocli.app.shared_claims import claim_shared

        outcome = claim_shared(ctx, task, run_batch)
    else:
        outcome = run_batch(ctx, [Op(OpKind.CLAIM, task=task)])
    outcome.claim_alone = True
    return outcome


def start(ctx: Context, task: str) -> Outcome:
    from todocli.engine.ops import Op, OpKind

    return _shared(ctx, run_batch(ctx, [Op(OpKind.START, task=task)]))


def note(ctx: Context, task: str, text: str) -> Outcome:
    from todocli.engine.ops import Op, OpKind

    return run_batch(ctx, [Op(OpKind.NOTE, task=task, text=text)])


def block(ctx: Context, task: str, reason: str | None = None) -> Outcome:
    from todocli.engine.ops import Op, OpKind

    return run_batch(ctx, [Op(OpKind.BLOCK, task=task, text=reason)])


def unblock(ctx: Context, task: str) -> Outcome:
    from todocli.engine.ops import Op, OpKind

    return run_batch(ctx, [Op(OpKind.UNBLOCK, task=task)])


def clear(ctx: Context, *, everything: bool = False) -> Outcome:
    from todocli.engine.ops import Op, OpKind

    return run_batch(ctx, [Op(OpKind.CLEAR, all=everything)])


def apply_input(
    ctx: Context, data: bytes, *, markdown: bool = False, with_rev: bool = False
) -> Outcome:
    """``todo apply``: one JSON document (any dialect) or, with --markdown, markdown.
    ``with_rev``: a query reads the revision too (as ``show`` does)."""
    from todocli.agents.request import is_envelope, request
    from todocli.engine.dialects import decode, from_markdown

    limit = ctx.settings.max_input_bytes
    req: Request
    value: object = None
    try:
        if markdown:
            if len(data) > limit:
                from todocli.engine.dialects import input_too_big

                raise input_too_big(limit)
            try:
                req = from_markdown(data.decode("utf-8"))
            except UnicodeDecodeError as exc:
                raise InvalidParamError(f"input is not valid UTF-8 (byte {exc.start})") from None
        else:
            value = decode(data, limit)
            if is_envelope(value):
                from todocli.agents.envelope import envelope

                req = envelope(value)
            else:
                req = request(value)
    except InvalidParamError as error:
        return _rejected_input(ctx, error, value, with_rev=with_rev)
    if req.hook is not None and req.hook.session and (ctx.loc.is_session or ctx.loc.project):
        ctx = _hook_session(ctx, req.hook.session)
    if req.ignored or req.query:  # a hook on a tool that is not a todo tool: harmless
        # A read answered to the agent (not a hook's, nor a hook on another tool)
        # is a list it has seen.
        seen = req.query and not req.ignored and req.hook is None
        outcome = show(ctx, with_rev=with_rev, params_input=req.params, seen=seen)
    else:
        # A value the sender's own reply shows, sent back, changes nothing (echo).
        tool = None
        if req.dialect not in ("ops", "markdown"):
            from todocli.agents.request import sender

            tool = sender(req)
        try:
            outcome = run_batch(ctx, req.ops, params_input=req.params, tool=tool)
        except TodoError as error:  # --if-rev, the lock, the disk: for `todo remind`
            remember_failure(ctx, error)
            raise
        if outcome.result is not None and outcome.result.errors:
            outcome.result = _explain_unknown_ids(outcome.result, req.dialect)
    outcome.warnings[:0] = req.warnings
    outcome.request = req  # the renderers answer in the shape of the tool that sent it
    return outcome


def remember_failure(ctx: Context, error: TodoError) -> None:
    """Record a write that failed before or around the engine, so that ``todo
    remind`` tells the agent (best effort: the call has failed already). Marks the
    error as recorded, so the error boundary does not record it again."""
    error.remembered = True
    try:  # noqa: SIM105 - contextlib would cost start-up for one suppress
        ctx.store.save_failed(ctx.store.rev(), error.message)
    except TodoError:
        pass


def _rejected_input(
    ctx: Context, error: InvalidParamError, value: object, *, with_rev: bool
) -> Outcome:
    """Input rejected while reading it: recorded for ``todo remind`` (unless it is
    a hook envelope of a tool that is not a todo tool: that stays harmless), and
    answered, as an engine's rejection is, with the list as it stands."""
    if isinstance(value, dict) and "tool_name" in value:
        from todocli.agents.envelope import envelope_target

        todo_tool, session = envelope_target(value)
        if not todo_tool:
            error.remembered = True  # nothing recorded, nothing written
            raise error
        if session and (ctx.loc.is_session or ctx.loc.project):
            ctx = _hook_session(ctx, session)
    remember_failure(ctx, error)
    try:
        outcome = show(ctx, with_rev=with_rev, params_input=value, seen=False)
    except TodoError:
        raise error from None  # the list cannot be read either: the input's error alone
    outcome.error = error
    return outcome


def _explain_unknown_ids(result: Result, dialect: str) -> Result:
    """An id no task has, from a tool whose ids todo can only learn: say how."""
    from todocli.agents.envelope import unknown_id_hint

    hint = unknown_id_hint(dialect)
    if not hint:
        return result
    return result.replace(
        errors=tuple(
            e.replace(message=e.message + hint) if e.message.startswith("No task has id") else e
            for e in result.errors
        )
    )


def _hook_session(ctx: Context, session: str) -> Context:
    """A hook envelope's session id names the session, unless ``-s`` or
    ``TODOCLI_SESSION`` does."""
    if ctx.options.session is not None or ctx.env.get("TODOCLI_SESSION"):
        return ctx
    ctx.options.session = session
    return Context(ctx.options, ctx.env)
