"""A write that completes tasks with a check: run the checks, then write.

``commands.run_batch`` applies a batch under the lock; when it would complete a
task whose check has not run, nothing is written, the lock is let go, and each
such check runs here (when this user approved it: see ``approvals``) with no lock
held, since a check may itself run ``todo`` on this list. Then the batch is
applied again, under the lock, to the list as it is by then; a task whose check
did not pass, was not approved, or changed while it ran is not completed
(``Engine._settle_proofs``), and the reply says why. Each task is named by its
place in the list, its text and its check, so two tasks of one text are each
proved by their own check. Also ``todo allow``: a check is approved only by a
person naming the digest of the text they were shown (see docs/checks.md).
"""

from __future__ import annotations

from todocli.app.commands import Context, Outcome, show
from todocli.errors import (
    CheckFailedError,
    CheckNotAllowedError,
    InvalidParamError,
    NotFoundError,
    UsageError,
)
from todocli.escapes import one_line, quoted

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from collections.abc import Sequence

    from todocli.app.report import Report
    from todocli.document.model import Task
    from todocli.engine.ops import Proof, Wanted

MESSAGE_TAIL = 600  # characters of a failed check's output in the error's message


class Proving:
    """The checks one write runs (``commands.run_batch`` calls ``run`` with the
    lock let go), and what to say of those that did not pass."""

    def __init__(self, ctx: Context) -> None:
        from todocli.app import checks

        self.ctx = ctx
        self.top = checks.work_dir(ctx.loc.list_file, ctx.loc.is_session)
        self.failed: list[str] = []  # what to say of each check that failed
        self.failed_tasks: list[str] = []  # "#N" of each
        self.refused: list[str] = []  # what to say of each check not approved
        self.refused_hint = ""  # how to approve the first (or fix it)
        self.refused_tasks: list[str] = []  # "#N" of each
        self.details: list[str] = []  # the failed checks' output, a line each

    def run(self, wanted: Sequence[Wanted]) -> tuple[Proof, ...]:
        """Run each task's check, if approved here: (place, text, check, its record
        if it passed, else None)."""
        from todocli.app import approvals, checks

        ctx = self.ctx
        list_file = ctx.loc.list_file
        proofs: list[Proof] = []
        for place, content, command in wanted:
            ref = f"#{place + 1}"
            if not approvals.is_approved(ctx.loc.home, list_file, self.top, command):
                proofs.append((place, content, command, None))
                self._refuse(ref, content, command)
                continue
            run = checks.run_check(command, self.top, ctx.settings.check_timeout)
            if run.passed:
                when = ctx.now().isoformat(timespec="seconds")
                state = checks.git_state(self.top, list_file)
                line = checks.record(run, when, state)
                signed = checks.sign(ctx.loc.home, list_file, content, command, line)
                proofs.append((place, content, command, signed))
                continue
            proofs.append((place, content, command, None))
            self.failed_tasks.append(ref)
            how = (
                f"ran out of time after {ctx.settings.check_timeout:g} s (its processes were ended)"
                if run.timed_out
                else f"failed (exit {run.code}, {run.seconds:.1f}s)"
            )
            tail = run.tail.rstrip()
            shown = tail[-MESSAGE_TAIL:]
            self.failed.append(
                f'the check of {ref} "{one_line(content)}" {how}, so it stays open; '
                f"last output: {one_line(shown) if shown else '(none)'}"
            )
            self.details += [f"{content}: {line}" for line in tail.splitlines()]
        return tuple(proofs)

    def _refuse(self, ref: str, content: str, command: str) -> None:
        from todocli.app import approvals

        bad = approvals.unsafe(command)
        self.refused_tasks.append(ref)
        if bad is not None:
            self.refused.append(
                f'{ref} "{one_line(content)}" ({one_line(command)}): it holds a control '
                f"character ({one_line(bad)}), so it never runs and cannot be approved"
            )
            self.refused_hint = self.refused_hint or "fix the check by hand (todo edit)"
            return
        digest = approvals.digest(command)
        self.refused.append(
            f'{ref} "{one_line(content)}" ({one_line(command)}, digest {digest}): it is '
            "not approved here (it came from a hand edit, a pull, a payload or "
            "elsewhere, or it changed)"
        )
        self.refused_hint = self.refused_hint or (
            f"read it and approve that text with: todo allow '{ref}' --digest {digest}"
        )

    def report(self, outcome: Outcome) -> None:
        """The write's error: a check that failed, or was not approved (its task is
        left as the list has it)."""
        if outcome.error is not None or (outcome.result is not None and not outcome.result.ok):
            return
        if self.failed:
            first = f"'{self.failed_tasks[0]}'"  # quoted: in a shell, # starts a comment
            hint = (
                f" (fix it and run todo done again; "
                f"{outcome.command(f'done {first} --no-check')} completes it anyway)"
            )
            outcome.error = CheckFailedError("; ".join(self.failed) + hint, self.details)
        elif self.refused:
            first = f"'{self.refused_tasks[0]}'"
            hint = self.refused_hint.replace("todo allow ", outcome.command("allow "), 1)
            outcome.error = CheckNotAllowedError(
                f"not completed: the check of {'; '.join(self.refused)}; {hint}, "
                f"or complete it anyway with: {outcome.command(f'done {first} --no-check')}"
            )


def allow(ctx: Context, tasks: Sequence[str], digests: Sequence[str] = ()) -> Report:
    """``todo allow``: the checks of this list not approved here, each with its
    command and the digest of its text. ``todo allow TASK... --digest D...``:
    approve each task's check, if its text is the one whose digest is given (what
    the person was shown); with no digest, or another, nothing is approved."""
    from todocli.app import approvals, checks
    from todocli.app.report import Report

    home, list_file = ctx.loc.home, ctx.loc.list_file
    listing = show(ctx, seen=False)
    listed = [t for _, t in listing.todo.tasks()]
    if not tasks:
        if digests:
            raise UsageError("allow: --digest goes with the TASK whose check it approves")
        return _waiting(ctx, listing, listed)
    chosen: list[tuple[int, Task]] = []
    for ref in tasks:
        number = next((n for n, t in enumerate(listed, 1) if t.content == ref.strip()), None)
        if number is None and ref.strip().startswith("#") and ref.strip()[1:].isdigit():
            number = int(ref.strip()[1:])
            number = number if 1 <= number <= len(listed) else None
        if number is None:
            raise NotFoundError(f"Task {quoted(ref)} not found (see: todo show)")
        task = listed[number - 1]
        if not task.meta.check:
            raise InvalidParamError(f"Task {quoted(task.content)} has no check to allow")
        bad = approvals.unsafe(task.meta.check)
        if bad is not None:
            raise CheckNotAllowedError(
                f"#{number} {quoted(task.content)}: its check ({one_line(task.meta.check)}) "
                f"holds a control character ({one_line(bad)}), so it never runs and cannot "
                "be approved: fix it by hand (todo edit)"
            )
        chosen.append((number, task))
    given = {d.strip().lower() for d in digests}
    for number, task in chosen:
        command = task.meta.check or ""
        digest = approvals.digest(command)
        if digest in given:
            continue
        again = listing.command(f"allow '#{number}' --digest {digest}")
        if not digests:
            why = "nothing is approved without the digest of the text you read"
        else:
            why = "it is not the text whose digest you gave (it changed since it was shown?)"
        raise CheckNotAllowedError(
            f"not approved: the check of #{number} {quoted(task.content)} is now: "
            f"{one_line(command)} (digest {digest}); {why}. Read it, then approve that "
            f"text with: {again}"
        )
    where = checks.work_dir(list_file, ctx.loc.is_session)
    approvals.approve(home, list_file, where, [t.meta.check or "" for _, t in chosen])
    lines = [
        f'allowed the check of #{n} "{one_line(t.content)}": {one_line(t.meta.check or "")}'
        for n, t in chosen
    ]
    data = {
        "allowed": [
            {
                "task": t.content,
                "check": t.meta.check,
                "digest": approvals.digest(t.meta.check or ""),
            }
            for _, t in chosen
        ]
    }
    return Report(data, "\n".join(lines) + "\n", session=_session(ctx), file=list_file)


def _waiting(ctx: Context, listing: Outcome, listed: list[Task]) -> Report:
    """The checks of this list not approved here, each with its digest."""
    from todocli.app import approvals, checks
    from todocli.app.report import Report

    home, list_file = ctx.loc.home, ctx.loc.list_file
    where = checks.work_dir(list_file, ctx.loc.is_session)
    waiting = [
        (n, t)
        for n, t in enumerate(listed, 1)
        if t.meta.check and not approvals.is_approved(home, list_file, where, t.meta.check)
    ]
    lines = []
    waiting_checks = []
    for n, t in waiting:
        command = t.meta.check or ""
        bad = approvals.unsafe(command)
        if bad is not None:
            lines.append(
                f'#{n} "{one_line(t.content)}": check never runs, it holds a control '
                f"character ({one_line(bad)}): {one_line(command)}"
            )
            waiting_checks.append({"task": t.content, "check": command, "digest": None})
            continue
        digest = approvals.digest(command)
        lines.append(f'#{n} "{one_line(t.content)}": check not approved [{digest}]: {command}')
        waiting_checks.append({"task": t.content, "check": command, "digest": digest})
    if waiting:
        lines.append(
            "approve one, after reading its command, with: "
            + listing.command("allow '#N' --digest DIGEST")
        )
    else:
        lines.append("every check of this list is approved")
    return Report(
        {"checks": waiting_checks}, "\n".join(lines) + "\n", session=_session(ctx), file=list_file
    )


def _session(ctx: Context) -> str | None:
    return ctx.loc.session if ctx.loc.is_session else None
