"""A write that completes tasks with a check: run the checks, then write.

``transaction.write`` learns which checks a batch wants from a plan of it (made
without the lock when it can be, else under the lock, where nothing is written and
the lock is let go), and each such check runs here (when this user approved it:
see ``approvals``) with no lock held, since a check may itself run ``todo`` on
this list. Then the batch is planned under the lock, with their results, on the
list as it is by then; a task whose check did not pass, was not approved, or
changed while it ran is not completed
(``Engine._settle_proofs``), and the reply says why. Each task is named by its
place in the list, its text and its check, so two tasks of one text are each
proved by their own check. (``todo allow``, which approves a check, is
``app.evidence.allow``.)

``transaction`` calls this module, and this module names ``todocli.app`` only for its
types: the import runs one way.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING
from todocli.errors import CheckFailedError, CheckNotAllowedError
from todocli.escapes import one_line

if TYPE_CHECKING:
    from collections.abc import Sequence

    from todocli.app import Context, Outcome
    from todocli.engine.ops import Proof, Wanted

MESSAGE_TAIL = 600  # characters of a failed check's output in the error's message


class Proving:
    """The checks one write runs (``transaction.prove`` calls ``run`` with no
    lock held), and what to say of those that did not pass."""

    def __init__(self, ctx: Context) -> None:
        from todocli.app.evidence import checks

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
        from todocli.app.evidence import approvals, checks

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
        from todocli.app.evidence import approvals

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
