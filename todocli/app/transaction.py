"""The write transaction: every batch of ops that changes a list goes through
``write``, whichever door it came in by (the command line, a hook, the MCP
server). Its steps, each a function of its own:

- ``read``: the list, its revision and what todo last wrote it as, a write a
  killed writer left half done settled first;
- ``settle``: a person's save that may be under way is let finish;
- ``plan``: the engine applies the batch to the list read (nothing is written);
- ``prove``: the checks of the tasks the batch completes run, with no lock held
  (a check may itself run todo on this list; see ``app.evidence.proof``);
- ``commit``: the log, the state, the revision and the list, written together.

Read, settle, plan and commit run under the list's lock. A batch that completes a
task with a check is first planned without the lock (``foresee``) on the list as
todo last wrote it, to learn which checks it wants; they run, then the batch is
planned under the lock with their results and committed: one lock. A plan that
still wants checks (the list changed while they ran) is a value, not an error:
the lock is let go, those checks run, and the batch goes round again.

A write of a whole text (an undo, a redo, a person's edit) takes the same steps
with a ``Replacement`` for its plan: ``app.replacement``.
"""

from __future__ import annotations

from todocli.app import AFRESH, Outcome, emptied, emptied_story, expect_rev
from todocli.base import TYPE_CHECKING
from todocli.document.markdown import parse, render_canonical
from todocli.document.model import Status, TodoList
from todocli.document.segments import refuse_unmerged
from todocli.engine.ops import Batch, Engine, OpKind
from todocli.errors import BusyError, InvalidParamError, TodoError
from todocli.storage.store import ListChangedError

if TYPE_CHECKING:
    from collections.abc import Sequence
    from datetime import datetime
    from typing import Any

    from todocli.app import Context
    from todocli.app.evidence.proof import Proving
    from todocli.document.markdown import Document
    from todocli.document.model import Result
    from todocli.engine.ops import Op, Proof, Wanted
    from todocli.storage.store import Store

WRITE_ATTEMPTS = 5  # a batch re-applied this often to a list that keeps changing
PROOF_ROUNDS = 3  # a batch that keeps completing tasks whose checks have not run


def write(
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

    A task with a check is completed only when its check passes: the checks a
    batch wants run with no lock held, and the batch is planned again, with their
    results (``proofs``), on the list as it is by then. ``no_check``: such tasks
    are completed without running their checks (the ops record it).

    An editor does not take the lock: when the file changes between reading it and
    replacing it, the batch is applied again to what is there now (a few times at
    most, then exit 5), so a write never replaces bytes it has not read.
    """
    checked = not no_check
    wanted = foresee(ctx, ops, tool, proofs) if checked else ()
    proving: Proving | None = None
    for _ in range(PROOF_ROUNDS):
        if wanted:
            if proving is None:
                from todocli.app.evidence.proof import Proving  # only a write with checks runs them

                proving = Proving(ctx)
            proofs = proofs + prove(proving, wanted)
        done = _locked(ctx, ops, params_input, tool, proofs, checked)
        if isinstance(done, Outcome):
            if proving is not None:
                proving.report(done)
            return done
        wanted = done  # the list changed while the checks ran: others are wanted now
    raise BusyError(
        "tasks kept being completed by others while their checks ran; nothing was "
        "written: try again"
    )


def _locked(
    ctx: Context,
    ops: Sequence[Op],
    params_input: object,
    tool: str | None,
    proofs: tuple[Proof, ...],
    checked: bool,
) -> Outcome | tuple[Wanted, ...]:
    """One round under the lock: read, settle, plan and commit; or the checks the
    plan wants that have not run (nothing written: they run with the lock let go)."""
    with ctx.store.locked():
        for _ in range(WRITE_ATTEMPTS):
            try:
                seen = settle(ctx, read(ctx), ops)
                expect_rev(ctx, seen.rev)
                planned = plan(ctx, seen, ops, tool, proofs)
                result = planned.result
                if checked and result.unproved and (result.ok or ctx.options.partial):
                    return result.unproved
                return commit(ctx, planned, params_input)
            except ListChangedError:
                continue
    raise BusyError(
        f"the list kept changing while todo tried to write it ({WRITE_ATTEMPTS} times); "
        "nothing was written: try again"
    )


def foresee(
    ctx: Context, ops: Sequence[Op], tool: str | None, proofs: tuple[Proof, ...]
) -> tuple[Wanted, ...]:
    """The checks a batch wants, learned without the lock from a plan on the list
    as todo last wrote it, so that a ``done`` with checks takes the lock once. None
    when the batch has no ``done``, the list has no check, or it is not as todo
    wrote it (a person's save, a killed writer's): the plan under the lock finds
    them then. (A snapshot that completes a task with a check is not looked at
    first: the look would cost every agent's write a read of the list.)"""
    if not any(op.kind is OpKind.DONE for op in ops):
        return ()
    store = ctx.store
    if not store.mentions("check"):  # no task has a check (the cheap look first)
        return ()
    text, rev = store.consistent_read()
    last = store.revision(rev) if rev else None
    wanted_rev = ctx.options.if_rev
    if last != text or (wanted_rev is not None and wanted_rev != rev):
        return ()  # (a write --if-rev refuses runs no check: the locked round says so)
    try:
        result = plan(ctx, Read(text, rev, last), ops, tool, proofs).result
    except TodoError:
        return ()  # the plan under the lock says why
    return result.unproved if result.ok or ctx.options.partial else ()


def prove(proving: Proving, wanted: Sequence[Wanted]) -> tuple[Proof, ...]:
    """Run the checks wanted (the lock is not held: a check may run todo on this
    list) and return their results for the next plan."""
    return proving.run(wanted)


class Read:
    """The list as one round reads it: its text, its revision, what todo last wrote
    (None: nothing yet), and whether it was emptied where todo had written tasks."""

    __slots__ = ("blank", "last", "rev", "text")

    def __init__(self, text: str, rev: int, last: str | None, blank: bool = False) -> None:
        self.text = text
        self.rev = rev
        self.last = last
        self.blank = blank


def read(ctx: Context) -> Read:
    """The list under the lock, a write a killed writer left settled first."""
    store = ctx.store
    text = store.read()
    store.recover(text)
    rev = store.rev()
    return Read(text, rev, store.revision(rev) if rev else None)


def settle(ctx: Context, seen: Read, ops: Sequence[Op], *, whole: bool = False) -> Read:
    """The list once a person's save that may be under way is done. A list emptied
    where todo wrote tasks is written over only by a batch that replaces it (or a
    plan that puts a whole text in its place: ``whole``)."""
    if seen.last == seen.text:
        return seen
    text = ctx.store.settle(seen.text, seen.last)  # a person's save may be under way
    blank = emptied(text, seen.last)
    if blank and not whole and not _replaces_list(ops):
        story = emptied_story(ctx, seen.last or "", seen.rev)
        raise BusyError(
            f"{story}; nothing was written. Try again in a moment; "
            f"if it was emptied on purpose, {AFRESH}"
        )
    return Read(text, seen.rev, seen.last, blank)


def _replaces_list(ops: Sequence[Op]) -> bool:
    """Whether the batch replaces the whole list (``init``, ``clear --all``): such a
    batch means to go on from an emptied list."""
    return any(op.kind is OpKind.INIT or (op.kind is OpKind.CLEAR and op.all) for op in ops)


class Plan:
    """A batch applied to the list read, not written yet: the engine's result and
    document, and what the commit needs besides (the state, the time, the ops as
    numbered, the list as todo last wrote it when a person edited it since)."""

    __slots__ = ("baseline", "doc", "fresh_notes", "now", "ops", "result", "seen", "state", "text")

    def __init__(
        self,
        seen: Read,
        ops: Sequence[Op],
        result: Result,
        doc: Document,
        state: dict[str, Any],
        now: datetime | None,
        baseline: TodoList | None,
    ) -> None:
        self.seen = seen
        self.ops = ops
        self.result = result
        self.doc = doc
        self.state = state
        self.now = now
        self.baseline = baseline
        # An agent tool's snapshot: the notes under the tasks in progress it has not
        # seen (what its mirrored reply must tell); None for other writes.
        self.fresh_notes: tuple[tuple[str, str], ...] | None = None
        self.text: str | None = None  # doc's text, when the engine has made it already


def plan(
    ctx: Context,
    seen: Read,
    ops: Sequence[Op],
    tool: str | None,
    proofs: tuple[Proof, ...],
) -> Plan:
    """The engine's plan for the batch on the list read; nothing is written."""
    opts, settings, store = ctx.options, ctx.settings, ctx.store
    text, rev, last = seen.text, seen.rev, seen.last
    refuse_unmerged(text)  # git's conflict markers: the person resolves them first
    doc = parse(text)
    baseline = parse(last).model() if last is not None and last != text else None
    merge_base = _merge_base(ctx, rev)
    view, unseen, told = _view(ctx, seen, ops)
    wipe = _wipes(ctx)
    # The clock and state.json are read only when a completion, clear_delay or an
    # agent's claims need them: an everyday write of one agent reads neither.
    agent = ctx.agent
    now = ctx.now() if settings.clear_delay >= 0 or agent is not None else None
    state = store.state() if now is not None else {}
    if any(op.merge for op in ops):
        from todocli.app.list_state import with_new_ids

        ops, state = with_new_ids(store, doc, ops, state)
    id_floor = 0
    if any(op.after for op in ops):  # --after may give a task an id
        from todocli.app.list_state import id_mark

        state = state or store.state()
        id_floor = id_mark(state)
    expired: frozenset[str] = frozenset()
    if now is not None and settings.clear_delay >= 0:
        from todocli.app.list_state import expired_tasks

        expired = frozenset(expired_tasks(state, settings.clear_delay, now))
    stale: tuple[tuple[str, float], ...] = ()
    if agent is not None and now is not None:
        from todocli.app.sharing.agent_state import stale_claims

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
        expired=expired,
        merge_base=merge_base,
        agent=agent,
        stale=stale,
        id_floor=id_floor,
        view=view,
        echo=echo,
        unseen=unseen,
        proofs=proofs,
        told=told,
        own=ctx.loc.is_session,
    )
    guard = ctx.loc.agent_plan if ctx.loc.agent_plan and ctx.loc.is_backlog else None
    before = None
    if guard:  # an agent session on the project's backlog: the person's tasks stay
        from todocli.app.sharing import backlog

        backlog.refuse_replacing(ops)
        before = doc.model()
    engine = Engine(doc, batch, text=text)  # the text doc was read from: not written out again
    result, doc = engine.run()
    if guard and before is not None:
        backlog.refuse_removal(before, result.new, agent or guard)
    planned = Plan(seen, ops, result, doc, state, now, baseline)
    planned.text = engine.text if doc is engine.doc else None  # (not a careful pass's)
    if tool is not None:
        planned.fresh_notes = _fresh_notes(view, seen.text, result.new)
    return planned


def _fresh_notes(view: TodoList | None, read: str, new: TodoList) -> tuple[tuple[str, str], ...]:
    """The notes under the tasks in progress of ``new`` that the agent has not seen
    (its ``view``, else the list as read). Most snapshots' lists hold no such note:
    then nothing more is parsed."""
    noted = [t for _, t in new.tasks() if t.status is Status.IN_PROGRESS and t.notes]
    if not noted:
        return ()
    seen = view if view is not None else parse(read).model()
    known: dict[str, set[str]] = {}
    for _, task in seen.tasks():
        known.setdefault(task.content, set()).update(task.notes)
    return tuple(
        (task.content, note)
        for task in noted
        for note in task.notes
        if note not in known.get(task.content, ())
    )


def _merge_base(ctx: Context, rev: int) -> TodoList | None:
    """``--base N``: the list of revision N, which a snapshot was made from."""
    base = ctx.options.base
    if base is not None and not 0 <= base <= rev:
        raise InvalidParamError(
            f"--base {base}: no such revision (this list is at #{rev}; see: todo history)"
        )
    if base is None or base == rev:
        return None
    kept = ctx.store.revision(base) if base else ""
    if kept is None:
        raise InvalidParamError(
            f"--base {base}: that revision is no longer kept (see: todo history)"
        )
    return parse(kept).model()


def _view(
    ctx: Context, seen: Read, ops: Sequence[Op]
) -> tuple[TodoList | None, bool, TodoList | None]:
    """What this agent has seen, for a full snapshot (see merge): its last snapshot
    and the lists it read since; whether nothing is on record (then the agent
    has seen only what it sends); and the list as of its last write or read (what
    it was told of: what others wrote since is news; None: the last revision's).
    When that is the list of the last revision, the usual base already is it."""
    if ctx.options.base is not None or not any(
        op.kind is OpKind.WRITE and not op.merge for op in ops
    ):
        return None, False, None
    store = ctx.store
    sent = store.view(ctx.agent)
    if isinstance(sent, int) and (sent != seen.rev or seen.last is None):
        kept = store.revision(sent) if sent else ""  # revision 0: the empty list
        view = parse(kept).model() if kept is not None else None
        return view, view is None, view
    if isinstance(sent, str):
        at = store.view_rev()
        kept = None if at is None or at >= seen.rev else store.revision(at) if at else ""
        return parse(sent).model(), False, parse(kept).model() if kept is not None else None
    return None, sent is None, None


def _wipes(ctx: Context) -> bool:
    """Whether a finished list is wiped. A project plan is the project's record:
    never wiped (the log still records it)."""
    wipe = ctx.settings.wipe_on_complete
    return (
        not ctx.options.keep
        and not ctx.loc.project
        and (wipe if wipe is not None else ctx.loc.is_session)
    )


def commit(ctx: Context, planned: Plan, params_input: object = None) -> Outcome:
    """Write what the plan made: the log, the state and the revision copy first, the
    list last (exit 6 means none of them changed); or, for a batch that failed,
    record the failure for ``todo remind``."""
    result, seen = planned.result, planned.seen
    failed = not result.query and not (result.ok or ctx.options.partial)
    if failed:
        _failed(ctx, planned)
    if result.query or failed:  # nothing to write
        return ctx.outcome(
            result.new,
            seen.rev,
            result=result,
            params_input=params_input,
            warnings=list(result.warnings),
        )
    store, settings, state, now = ctx.store, ctx.settings, planned.state, planned.now
    text, rev, last = seen.text, seen.rev, seen.last
    logged_to = None
    steps = []
    if result.completed is not None or result.left is not None:
        from todocli.app.list_state import log_step, to_log

        state = state or store.state()
        closed = to_log(state, result)
        if closed is not None:
            logged_to, step = log_step(ctx, state, closed, now or ctx.now())
            steps.append(step)
    if now is not None and settings.clear_delay >= 0:
        from todocli.app.list_state import track_closed

        track_closed(state, result.new, now)
    if ctx.agent is not None and now is not None:
        from todocli.app.sharing.agent_state import record_write

        record_write(state, ctx.agent, now, result.new, settings.claim_timeout)
    if any(op.after for op in planned.ops):
        from todocli.app.list_state import raise_id_mark

        raise_id_mark(state, result.new)
    if result.wiped:
        store.forget_views()  # a finished list: every agent starts afresh
    # An emptied list that `init` or `clear --all` goes on from is a revision
    # too, even when the batch left it as it was: the next write need not wait.
    written = (planned.text or planned.doc.text()) if result.written or seen.blank else None
    person_near = written is not None and (planned.baseline is not None or store.person_near())
    # The list as read becomes a revision of its own, if it is not one.
    hand = store.hand_edit(text, rev, last) if written is not None else None
    if result.merged:  # who made what the agent did not know
        from todocli.app.attribution import attributed

        result = attributed(store, text, rev, last, result, rev + 1 if hand is not None else None)
    if result.view is not None and not result.wiped:
        before = rev + (hand is not None)
        # Revision ``before`` holds the list when this write lands, or when the
        # list is what it holds (not a file todo never wrote, nor a hand edit).
        held = written is not None or store.hand_edit(text, rev, last) is None
        _record_view(store, ctx.agent, result.view, result.new, before, written is not None, held)
    elif written is not None and not result.wiped and ctx.loc.on_agent_plan:
        # An agent session's shell command on its plan: the session has seen what
        # it wrote, so its own tool's next snapshot replaces it, not doubles it.
        before = rev + (hand is not None)
        _record_view(store, ctx.agent, result.new, result.new, before, True)
    rev = store.commit(written, state, steps, person_near=person_near, hand=hand, agent=ctx.agent)
    if planned.baseline is not None:
        store.saw_person()  # edited by hand: the person may save again at any moment
    if not result.written:
        store.restart_rounds()
    store.clear_failed()
    outcome = ctx.outcome(
        result.new,
        rev,
        result=result,
        params_input=params_input,
        logged_to=logged_to,
        warnings=list(result.warnings),
    )
    outcome.fresh_notes = planned.fresh_notes
    return outcome


def _failed(ctx: Context, planned: Plan) -> None:
    """A batch that failed: recorded for ``todo remind``, nothing else written."""
    store, result, now = ctx.store, planned.result, planned.now
    store.save_failed(planned.seen.rev, result.errors[0].message)
    if ctx.agent is not None and now is not None:
        # A failed call (a claim that found nothing) still shows the agent
        # alive, and starts the clock on claims no write is on record for.
        from todocli.app.sharing.agent_state import record_write

        record_write(planned.state, ctx.agent, now, result.new, ctx.settings.claim_timeout)
        try:  # noqa: SIM105 - contextlib would cost start-up for one suppress
            store.commit(None, planned.state)
        except TodoError:
            pass  # bookkeeping: the call's own failure is what to report


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
            store.save_view(agent, render_canonical(view), landing, at=rev)
    except TodoError:
        pass
