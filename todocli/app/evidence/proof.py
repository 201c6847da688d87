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
from todocli.errors import TodoError
from todocli.escapes import one_line, safe

if TYPE_CHECKING:
    from collections.abc import Sequence

    from todocli.app import Context, Outcome
    from todocli.engine.ops import Proof, Wanted

TAIL_SHOWN = 1500  # the most characters of failed checks' output a reply shows


class CheckFailedError(TodoError):
    """``todo done``: a task's check failed or ran out of time, so the task is not
    completed. ``tail``: the end of each failed check's output, over several lines,
    shown once after the message (never in the one line of stderr)."""

    exit_code = 8
    code = "CHECK_FAILED"

    def __init__(self, message: str, details: list[str] | None = None, tail: str = "") -> None:
        super().__init__(message, details)
        self.tail = tail


class CheckNotAllowedError(TodoError):
    """A task's check is not one this user approved (it came with a hand edit, a
    pull, another home, or it changed): it is not run until ``todo allow``."""

    exit_code = 9
    code = "CHECK_NOT_ALLOWED"


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
        self.tails: list[tuple[str, str, str]] = []  # each failed check's "#N", text, output

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
            tail = run.tail.replace("\r\n", "\n").rstrip()
            self.failed.append(
                f'the check of {ref} "{one_line(content)}" {how}, so it stays open'
                + ("" if tail else " (it printed nothing)")
            )
            if tail:
                self.tails.append((ref, content, tail))
        return tuple(proofs)

    def _shown(self) -> tuple[str, list[str]]:
        """The end of each failed check's output, ``TAIL_SHOWN`` characters in all
        (whole lines where they fit), under a line naming its task; and its lines
        for ``--json``'s ``error.details`` (``TASK: LINE``)."""
        room = TAIL_SHOWN // max(len(self.tails), 1)
        blocks: list[str] = []
        details: list[str] = []
        for ref, content, tail in self.tails:
            head = f"The end of the output of {ref}'s check:"
            keep = room - len(head) - 1
            if keep < 1:
                break  # more failed checks than the room holds: the first ones shown
            end = tail[len(tail) - keep :] if keep < len(tail) else tail
            if len(end) < len(tail) and "\n" in end:
                end = end.split("\n", 1)[1]  # from the first whole line
            blocks.append(f"{head}\n{safe(end)}")
            details += [f"{content}: {line}" for line in end.splitlines()]
        return "\n".join(blocks), details

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
            tail, details = self._shown()
            outcome.error = CheckFailedError("; ".join(self.failed) + hint, details, tail)
        elif self.refused:
            first = f"'{self.refused_tasks[0]}'"
            hint = self.refused_hint.replace("todo allow ", outcome.command("allow "), 1)
            outcome.error = CheckNotAllowedError(
                f"not completed: the check of {'; '.join(self.refused)}; {hint}, "
                f"or complete it anyway with: {outcome.command(f'done {first} --no-check')}"
            )
