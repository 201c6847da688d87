"""``todo allow``: a check runs only when this user approved its text (see
``approvals``), and it is approved only by a person naming the digest of the text
they were shown (see docs/checks.md). With no task: the checks of the list not
approved here, each with its digest.
"""

from __future__ import annotations

from todocli.app.commands import Context, Outcome, show
from todocli.app.evidence.proof import CheckNotAllowedError
from todocli.app.report import Report
from todocli.base import TYPE_CHECKING
from todocli.errors import InvalidParamError, NotFoundError, UsageError
from todocli.escapes import one_line, quoted

if TYPE_CHECKING:
    from collections.abc import Sequence

    from todocli.app.report import Report
    from todocli.document.model import Task


def allow(ctx: Context, tasks: Sequence[str], digests: Sequence[str] = ()) -> Report:
    """``todo allow``: the checks of this list not approved here, each with its
    command and the digest of its text. ``todo allow TASK... --digest D...``:
    approve each task's check, if its text is the one whose digest is given (what
    the person was shown); with no digest, or another, nothing is approved."""
    from todocli.app.evidence import approvals, checks

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
    from todocli.app.evidence import approvals, checks

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
