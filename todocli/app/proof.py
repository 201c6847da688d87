"""A write that completes tasks with a check: run the checks, then write.

``commands.run_batch`` applies a batch under the lock; when it would complete a
task whose check has not run, nothing is written, the lock is let go, and each
such check runs here (when this user approved it: see ``approvals``) with no lock
held, since a check may itself run ``todo`` on this list. Then the batch is
applied again, under the lock, to the list as it is by then; a task whose check
did not pass, was not approved, or changed while it ran is not completed
(``Engine._settle_proofs``), and the reply says why. Also: approving the checks a
write puts on tasks, and ``todo allow``.
"""

from __future__ import annotations

from todocli.app.commands import Context, Outcome, show
from todocli.errors import CheckFailedError, CheckNotAllowedError, InvalidParamError, NotFoundError
from todocli.escapes import one_line

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from collections.abc import Sequence

    from todocli.app.report import Report

MESSAGE_TAIL = 600  # characters of a failed check's output in the error's message


class Proving:
    """The checks one write runs (``commands.run_batch`` calls ``run`` with the
    lock let go), and what to say of those that did not pass."""

    def __init__(self, ctx: Context) -> None:
        from todocli.app import checks

        self.ctx = ctx
        self.top = checks.work_dir(ctx.loc.list_file, ctx.loc.is_session)
        self.failed: list[str] = []  # what to say of each check that failed
        self.failed_tasks: list[str] = []
        self.refused: list[str] = []
        self.refused_tasks: list[str] = []
        self.details: list[str] = []  # the failed checks' output, a line each
        self.ran: dict[str, str] = {}  # task -> the check that ran and passed

    def run(self, wanted: list[tuple[str, str]]) -> tuple[tuple[str, str, str | None], ...]:
        """Run each task's check, if approved here: (text, check, its record if it
        passed, else None)."""
        from todocli.app import approvals, checks

        ctx = self.ctx
        list_file = ctx.loc.list_file
        proofs: list[tuple[str, str, str | None]] = []
        for content, command in wanted:
            if not approvals.is_approved(ctx.loc.home, list_file, command):
                proofs.append((content, command, None))
                self.refused.append(f'"{content}" ({command})')
                self.refused_tasks.append(content)
                continue
            run = checks.run_check(command, self.top, ctx.settings.check_timeout)
            if run.passed:
                when = ctx.now().isoformat(timespec="seconds")
                state = checks.git_state(self.top, list_file)
                line = checks.record(run, when, state)
                signed = checks.sign(ctx.loc.home, list_file, content, command, line)
                proofs.append((content, command, signed))
                self.ran[content] = command
                continue
            proofs.append((content, command, None))
            self.failed_tasks.append(content)
            how = (
                f"ran out of time after {ctx.settings.check_timeout:g} s (its processes were ended)"
                if run.timed_out
                else f"failed (exit {run.code}, {run.seconds:.1f}s)"
            )
            tail = run.tail.rstrip()
            shown = tail[-MESSAGE_TAIL:]
            self.failed.append(
                f'the check of "{content}" {how}, so it stays open; '
                f"last output: {one_line(shown) if shown else '(none)'}"
            )
            self.details += [f"{content}: {line}" for line in tail.splitlines()]
        return tuple(proofs)

    def report(self, outcome: Outcome) -> None:
        """The write's error: a check that failed, was not approved, or changed
        while it ran (its task is left as the list has it)."""
        now = {t.content: t for _, t in outcome.todo.tasks()}
        for content, command in self.ran.items():
            task = now.get(content)
            if task is not None and task.meta.check != command:
                self.refused.append(
                    f'"{content}" (it changed while the check ran: {task.meta.check})'
                )
                self.refused_tasks.append(content)
        if outcome.error is not None or (outcome.result is not None and not outcome.result.ok):
            return
        import shlex

        if self.failed:
            first = shlex.quote(self.failed_tasks[0])
            hint = (
                f" (fix it and run todo done again; "
                f"{outcome.command(f'done {first} --no-check')} completes it anyway)"
            )
            outcome.error = CheckFailedError("; ".join(self.failed) + hint, self.details)
        elif self.refused:
            first = shlex.quote(self.refused_tasks[0])
            outcome.error = CheckNotAllowedError(
                f"not completed: the check of {', '.join(self.refused)} is not approved "
                "here (it came from a hand edit, a pull or elsewhere, or it changed); "
                f"read it and approve it with: {outcome.command(f'allow {first}')}, "
                f"or complete it anyway with: {outcome.command(f'done {first} --no-check')}"
            )


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
    from todocli.app.report import Report

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
