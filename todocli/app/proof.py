"""A write that completes tasks with a check: run the checks first, then write.

The list is read without the lock, the batch is tried on it to learn which tasks
it completes, and each such task's check runs (when this user approved it: see
``approvals``) with no lock held, since a check may itself run ``todo`` on this
list. Then the batch is applied under the lock to the list as it is by then; a
task whose check did not pass, was not approved, or changed while it ran is not
completed (``Engine._settle_proofs``), and the reply says why.
"""

from __future__ import annotations

from todocli.app.commands import Context, Outcome, run_batch
from todocli.document.model import Status
from todocli.errors import CheckFailedError, CheckNotAllowedError
from todocli.escapes import one_line

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from collections.abc import Sequence

    from todocli.app.report import Report
    from todocli.engine.ops import Op

MESSAGE_TAIL = 600  # characters of a failed check's output in the error's message


def completes_with_checks(ctx: Context, ops: Sequence[Op], text: str) -> list[tuple[str, str]]:
    """The tasks (text, check) this batch would complete that carry a check."""
    from todocli.document.markdown import parse
    from todocli.engine.ops import Batch, apply

    doc = parse(text)
    was = {t.content: t.status for _, t in doc.model().tasks()}
    result, _ = apply(doc, Batch(tuple(ops), ctx.settings, agent=ctx.agent))
    if not result.ok:
        return []
    return [
        (t.content, t.meta.check)
        for _, t in result.new.tasks()
        if t.meta.check
        and t.status is Status.COMPLETED
        and was.get(t.content, Status.PENDING).is_open
    ]


def run_proved(
    ctx: Context,
    ops: Sequence[Op],
    params_input: object = None,
    tool: str | None = None,
    *,
    no_check: bool = False,
) -> Outcome:
    """``run_batch``, with the checks of the tasks it completes run first (none
    with ``no_check``: the ops then record that no check ran)."""
    text = ctx.store.read()
    if no_check or "check:" not in text:  # the everyday list has no check: no extra read
        return run_batch(ctx, ops, params_input, tool)
    wanted = completes_with_checks(ctx, ops, text)
    if not wanted:
        return run_batch(ctx, ops, params_input, tool)
    from todocli.app import approvals, checks

    list_file = ctx.loc.list_file
    top = checks.work_dir(list_file, ctx.loc.is_session)
    proofs: list[tuple[str, str, str | None]] = []
    failed: list[str] = []
    refused: list[str] = []
    failed_tasks: list[str] = []
    refused_tasks: list[str] = []
    details: list[str] = []
    for content, command in wanted:
        if not approvals.is_approved(ctx.loc.home, list_file, command):
            proofs.append((content, command, None))
            refused.append(f'"{content}" ({command})')
            refused_tasks.append(content)
            continue
        run = checks.run_check(command, top, ctx.settings.check_timeout)
        if run.passed:
            when = ctx.now().isoformat(timespec="seconds")
            proofs.append(
                (content, command, checks.record(run, when, checks.git_state(top, list_file)))
            )
            continue
        proofs.append((content, command, None))
        failed_tasks.append(content)
        how = (
            f"ran out of time after {ctx.settings.check_timeout:g} s (its processes were ended)"
            if run.timed_out
            else f"failed (exit {run.code}, {run.seconds:.1f}s)"
        )
        tail = run.tail.rstrip()
        shown = tail[-MESSAGE_TAIL:]
        failed.append(
            f'the check of "{content}" {how}, so it stays open; '
            f"last output: {one_line(shown) if shown else '(none)'}"
        )
        details += [f"{content}: {line}" for line in tail.splitlines()]
    outcome = run_batch(ctx, ops, params_input, tool, proofs=tuple(proofs))
    now = {t.content: t for _, t in outcome.todo.tasks()}
    for content, command, passed in proofs:
        task = now.get(content)
        if passed is not None and task is not None and task.meta.check != command:
            # Its check changed while it ran: the task is left as the list has it.
            refused.append(f'"{content}" (it changed while the check ran: {task.meta.check})')
            refused_tasks.append(content)
    if outcome.error is None and (outcome.result is None or outcome.result.ok):
        import shlex

        if failed:
            first = shlex.quote(failed_tasks[0])
            hint = (
                f" (fix it and run todo done again; "
                f"{outcome.command(f'done {first} --no-check')} completes it anyway)"
            )
            outcome.error = CheckFailedError("; ".join(failed) + hint, details)
        elif refused:
            first = shlex.quote(refused_tasks[0])
            outcome.error = CheckNotAllowedError(
                f"not completed: the check of {', '.join(refused)} is not approved here "
                "(it came from a hand edit, a pull or elsewhere, or it changed); "
                f"read it and approve it with: {outcome.command(f'allow {first}')}, "
                f"or complete it anyway with: {outcome.command(f'done {first} --no-check')}"
            )
    return outcome


def approve_written(ctx: Context, outcome: Outcome) -> None:
    """Checks this write put on tasks (new, or changed) are approved as written."""
    result = outcome.result
    if result is None or not result.written:
        return
    before = {t.content: t.meta.check for _, t in result.old.tasks()}
    by_id = {t.meta.id: t.meta.check for _, t in result.old.tasks() if t.meta.id}
    new = [
        t.meta.check
        for _, t in result.new.tasks()
        if t.meta.check
        and t.meta.check != before.get(t.content)
        and (t.meta.id is None or t.meta.check != by_id.get(t.meta.id))
    ]
    if new:
        from todocli.app import approvals

        approvals.approve(ctx.loc.home, ctx.loc.list_file, new)


def allow(ctx: Context, tasks: Sequence[str]) -> Report:
    """``todo allow TASK...``: show each task's check and approve it to run here.
    With no TASK: the checks of this list not approved here (none is approved)."""
    from todocli.app import approvals
    from todocli.app.commands import show
    from todocli.app.report import Report
    from todocli.errors import InvalidParamError, NotFoundError

    home, list_file = ctx.loc.home, ctx.loc.list_file
    listed = [t for _, t in show(ctx, seen=False).todo.tasks()]
    if not tasks:
        waiting = [
            (n, t)
            for n, t in enumerate(listed, 1)
            if t.meta.check and not approvals.is_approved(home, list_file, t.meta.check)
        ]
        lines = [f'#{n} "{t.content}": check not approved: {t.meta.check}' for n, t in waiting]
        if waiting:
            lines.append("approve one with: todo allow TASK (after reading its command)")
        else:
            lines.append("every check of this list is approved")
        data = {"checks": [{"task": t.content, "check": t.meta.check} for _, t in waiting]}
        return Report(data, "\n".join(lines) + "\n", session=_session(ctx), file=list_file)
    chosen = []
    for ref in tasks:
        task = next((t for t in listed if t.content == ref.strip()), None)
        if task is None and ref.strip().startswith("#") and ref.strip()[1:].isdigit():
            number = int(ref.strip()[1:])
            task = listed[number - 1] if 1 <= number <= len(listed) else None
        if task is None:
            raise NotFoundError(f'Task "{ref}" not found (see: todo show)')
        if not task.meta.check:
            raise InvalidParamError(f'Task "{task.content}" has no check to allow')
        chosen.append(task)
    approvals.approve(home, list_file, [t.meta.check or "" for t in chosen])
    lines = [f'allowed the check of "{t.content}": {t.meta.check}' for t in chosen]
    data = {"allowed": [{"task": t.content, "check": t.meta.check} for t in chosen]}
    return Report(data, "\n".join(lines) + "\n", session=_session(ctx), file=list_file)


def _session(ctx: Context) -> str | None:
    return ctx.loc.session if ctx.loc.is_session else None
