"""The commands as plain functions over one invocation's context.

Each takes parsed arguments, does its work through the core (store, engine,
memory) and returns an ``Outcome`` for the renderers. Nothing here parses a
command line or prints; every change to a list goes through ``transaction.write``.
The values (``Context``, ``Options``, ``Outcome``) are ``todocli.app``'s, named
here too for the modules that import them from here. Modules a command alone needs
are imported inside it: the process starts once per agent step, and ``todo show``
should not pay for the engine.
"""

from __future__ import annotations

from todocli.app import (
    AFRESH,
    Context,
    Options,
    Outcome,
    emptied,
    emptied_story,
    expect_rev,
)
from todocli.base import AGENT_SESSION, TYPE_CHECKING
from todocli.document.markdown import parse, render_canonical
from todocli.document.model import Phase, Result, TodoList
from todocli.errors import InvalidParamError, TodoError, UsageError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from todocli.engine.dialects import Request
    from todocli.engine.ops import Op, Proof
    from todocli.storage.store import Store

__all__ = ["Context", "Options", "Outcome", "emptied", "expect_rev"]


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
    # A read a named agent, or an agent session on its plan, is answered: seen.
    record = seen and (ctx.agent is not None or ctx.loc.on_agent_plan)
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
    story = emptied_story(ctx, last, written)
    return (
        text,
        rev,
        [f"{story}; read it again in a moment, or if it was emptied on purpose, {AFRESH}"],
    )


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
        store.save_view(agent, render_canonical(view), at=rev)
    except TodoError:
        pass


def _write(
    ctx: Context,
    ops: Sequence[Op],
    params_input: object = None,
    tool: str | None = None,
    proofs: tuple[Proof, ...] = (),
    *,
    no_check: bool = False,
) -> Outcome:
    """A change to the list: the one write transaction (``transaction.write``),
    which only a write loads (it brings the engine)."""
    from todocli.app.transaction import write

    return write(ctx, ops, params_input, tool, proofs, no_check=no_check)


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
    passes (see ``app.evidence.proof``); ``no_check`` completes it anyway and records that
    no check ran; ``evidence`` is kept with each task and in the completion log."""
    from todocli.engine.ops import Op, OpKind

    ops = _target_ops("done", tasks, phase, everything, "done")
    if evidence is not None or no_check:
        from todocli.app.evidence.checks import skipped

        checked = skipped(ctx.now().isoformat(timespec="seconds")) if no_check else None
        ops = [op.replace(evidence=evidence, checked=checked) for op in ops]
    if note is not None:
        if phase is not None or everything:
            raise UsageError("done: --note is about one TASK (or, with none, the task in progress)")
        notes = [Op(OpKind.NOTE, task=t, text=note) for t in tasks]
        ops = (notes or [Op(OpKind.NOTE, current=True, text=note)]) + ops
    return _shared(ctx, _write(ctx, ops, no_check=no_check))


def _shared(ctx: Context, outcome: Outcome) -> Outcome:
    """A named agent's write to a project plan: what it holds goes on the claims
    the repository's worktrees share."""
    if ctx.loc.project and ctx.agent is not None:
        from todocli.app.sharing.shared_claims import record_owned

        record_owned(ctx, outcome)
    return outcome


def drop(
    ctx: Context, tasks: Sequence[str], phase: str | None = None, *, everything: bool = False
) -> Outcome:
    return _shared(ctx, _write(ctx, _target_ops("drop", tasks, phase, everything, "drop")))


def remove(
    ctx: Context, tasks: Sequence[str], phase: str | None = None, *, everything: bool = False
) -> Outcome:
    if not tasks and phase is None and not everything:
        raise UsageError("rm: name the TASK to remove, or use --phase P or --all")
    return _write(ctx, _target_ops("rm", tasks, phase, everything, "rm"))


def init(
    ctx: Context, tasks: Sequence[str], phase: str | None = None, *, summary: str | None = None
) -> Outcome:
    from todocli.engine.ops import Op, OpKind, PhaseItems

    if not tasks:
        raise UsageError("init: give at least one TASK")
    group = PhaseItems(phase if phase is not None else "Todos", tuple(tasks))
    return _write(ctx, [Op(OpKind.INIT, phases=(group,), summary=summary)])


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
    outcome = _write(ctx, [op])
    result = outcome.result
    if check is not None and result is not None and result.ok and result.written:
        from todocli.app.evidence import approvals, checks

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
        from todocli.app.sharing.shared_claims import claim_shared

        outcome = claim_shared(ctx, task)
    else:
        outcome = _write(ctx, [Op(OpKind.CLAIM, task=task)])
    outcome.claim_alone = True
    return outcome


def start(ctx: Context, task: str) -> Outcome:
    from todocli.engine.ops import Op, OpKind

    return _shared(ctx, _write(ctx, [Op(OpKind.START, task=task)]))


def note(ctx: Context, task: str, text: str) -> Outcome:
    from todocli.engine.ops import Op, OpKind

    return _write(ctx, [Op(OpKind.NOTE, task=task, text=text)])


def block(ctx: Context, task: str, reason: str | None = None) -> Outcome:
    from todocli.engine.ops import Op, OpKind

    return _write(ctx, [Op(OpKind.BLOCK, task=task, text=reason)])


def unblock(ctx: Context, task: str) -> Outcome:
    from todocli.engine.ops import Op, OpKind

    return _write(ctx, [Op(OpKind.UNBLOCK, task=task)])


def clear(ctx: Context, *, everything: bool = False) -> Outcome:
    from todocli.engine.ops import Op, OpKind

    return _write(ctx, [Op(OpKind.CLEAR, all=everything)])


def apply_input(
    ctx: Context, data: bytes, *, markdown: bool = False, with_rev: bool = False
) -> Outcome:
    """``todo apply``: one JSON document (any dialect) or, with --markdown, markdown.
    ``with_rev``: a query reads the revision too (as ``show`` does)."""
    from todocli.engine.dialects import decode, from_markdown, own_ops

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
            own = own_ops(value)  # todocli's own ops: no agent tool's reader needed
            if own is not None:
                req = own
            else:
                from todocli.agents.request import is_envelope, request

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
            outcome = _write(ctx, req.ops, params_input=req.params, tool=tool)
        except TodoError as error:  # --if-rev, the lock, the disk: for `todo remind`
            remember_failure(ctx, error)
            raise
        if outcome.result is not None and outcome.result.errors:
            outcome.result = _explain_unknown_ids(outcome.result, req.dialect)
        # The renderers answer in this tool's shape: worked out once, here (each
        # working-out asks the registry's candidates their score again).
        outcome.reply_as = tool
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
    """A hook envelope's session id names the agent session (its hooked plan, by
    the rule of ``agent_sessions.agent_session``; an unhooked id, its own list), unless the
    call names its list or already runs in an agent session."""
    options = ctx.options
    if (
        options.session is not None
        or options.file is not None
        or options.project
        or ctx.env.get("TODOCLI_SESSION")
        or ctx.loc.agent_plan
    ):
        return ctx
    from todocli.storage.agent_sessions import hooked_plan

    if hooked_plan(ctx.loc.home, session):
        return Context(options, {**ctx.env, AGENT_SESSION: session})
    options.session = session
    return Context(options, ctx.env)
