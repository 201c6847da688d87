"""What a harness calls around an agent's turns: the stop gate and the reminder.

``todo check`` exits 1 while tasks are open, so a stop hook can refuse to end the
turn. ``todo remind`` is the periodic reminder, quiet by default: called once per agent
round, it counts rounds since the last successful write and speaks up every Nth
round; it also says, once each, that the last write failed (the failure
reminder) and that the file was edited by hand since the last write.
"""

from __future__ import annotations

import os

from todocli.app.commands import Context, Outcome, show
from todocli.app.render import cycle_line, describe_diff
from todocli.app.report import Report
from todocli.base import TYPE_CHECKING
from todocli.document.markdown import parse
from todocli.document.model import Diff, Status, TodoList
from todocli.errors import TodoError
from todocli.escapes import quoted, safe

if TYPE_CHECKING:
    from collections.abc import Sequence

    from todocli.app.report import Report
    from todocli.engine.ops import Proof

NAG = "<reminder>Update your todos.</reminder>"


class OpenTasksError(TodoError):
    """``todo check``: tasks are still open, so the agent should not stop yet."""

    exit_code = 1
    code = "OPEN_TASKS"


class StaleEvidenceError(TodoError):
    """``todo check``: a completed task's check has not passed since the last
    commit or change to the tree (or never ran), so the agent should not stop yet."""

    exit_code = 1
    code = "STALE_EVIDENCE"


def open_tasks(todo: TodoList, agent: str | None = None) -> list[tuple[str, Status, str]]:
    """The open tasks (an agent's: those it holds)."""
    return [
        (t.content, t.status, p.name)
        for p, t in todo.tasks()
        if t.is_due and (agent is None or t.meta.owner == agent)
    ]


def check(ctx: Context, *, with_rev: bool = False, verify: bool = False) -> Outcome:
    """The list; failed (``OPEN_TASKS``, exit 1) while a task is open. For an agent
    (``--agent``): while it holds an open task, its own stop gate while others work on.
    With nothing open, failed (``STALE_EVIDENCE``, exit 1) while a completed task's
    check has not passed since the last change to the work tree (``stale_evidence``);
    ``verify`` runs those checks again first, and reopens a task whose check fails
    (``outcome.reopened`` names them)."""
    reopened = verify_checks(ctx) if verify else []
    outcome = show(ctx, with_rev=with_rev, seen=False)  # it tells open tasks, not the list
    outcome.reopened = reopened
    agent = ctx.agent
    taken = 0
    plan = ctx.loc.agent_plan
    if plan and ctx.loc.on_agent_plan:  # an agent session's plan: with what it took
        from todocli.app.sharing.backlog import held

        outcome.taken = [t.content for t in held(plan, os.getcwd(), ctx.env, ctx.loc.home)]
    taken = len(outcome.taken)
    count = len(open_tasks(outcome.todo, agent)) + taken
    if count and agent is not None:
        outcome.error = OpenTasksError(
            f'agent "{agent}" holds {count} open task{"s" if count > 1 else ""}'
        )
    elif count:
        message = f"{count} task{'s are' if count > 1 else ' is'} still open"
        if taken:
            message += f" ({taken} taken from the backlog: todo --project)"
        cycle = cycle_line(outcome.todo, lead="dependency cycle")
        outcome.error = OpenTasksError(message if cycle is None else f"{message}; {cycle}")
    elif any(t.meta.check for _, t in outcome.todo.tasks()):  # the everyday list has none
        stale = stale_evidence(ctx, outcome.todo)
        if stale:
            named = "; ".join(f'"{content}": {why}' for _, content, _, why in stale)
            outcome.error = StaleEvidenceError(
                f"{len(stale)} completed task{'s' if len(stale) > 1 else ''} "
                f"without fresh evidence: {named} (run the checks again: todo check --verify)",
                [f"{content}: {why}" for _, content, _, why in stale],
            )
    return outcome


def stale_evidence(ctx: Context, todo: TodoList) -> list[tuple[int, str, str, str]]:
    """The completed tasks whose check has not passed since the last commit or
    change to the work tree it recorded (changes to the list file do not count),
    or never passed: (place from 0, text, check, why). An agent's: those it holds."""
    from todocli.app.evidence import checks

    agent = ctx.agent
    tasks = [
        (place, t)
        for place, (_, t) in enumerate(todo.tasks())
        if t.meta.check
        and t.status is Status.COMPLETED
        and (agent is None or t.meta.owner in (None, agent))
    ]
    if not tasks:
        return []
    list_file = ctx.loc.list_file
    top = checks.work_dir(list_file, ctx.loc.is_session)
    now: list[checks.GitState | None] = []  # read once, when a task needs it

    def state() -> checks.GitState | None:
        if not now:
            now.append(checks.git_state(top, list_file))
        return now[0]

    key = checks.home_key(ctx.loc.home)
    out = []
    for place, task in tasks:
        content, command = task.content, task.meta.check or ""

        def ours(evidence: checks.Evidence, content: str = content, command: str = command) -> bool:
            return evidence.recorded_here(key, list_file, content, command)

        why = checks.is_stale(checks.read_record(task.meta.checked), top, list_file, state, ours)
        if why is not None:
            out.append((place, content, command, why))
    return out


def verify_checks(ctx: Context) -> list[tuple[str, str]]:
    """Run each stale check again (no lock held while they run): a check that
    passes renews its task's evidence; a task whose check fails is reopened, with a
    note saying when and why. A check not approved here is not run. The tasks
    reopened, each with why: ``("Run tests", "its check failed: exit 1")``."""
    from todocli.app.evidence import approvals, checks
    from todocli.engine.ops import Op, OpKind

    stale = stale_evidence(ctx, show(ctx, seen=False).todo)
    if not stale:
        return []
    list_file = ctx.loc.list_file
    top = checks.work_dir(list_file, ctx.loc.is_session)
    ops: list[Op] = []
    proofs: list[Proof] = []
    reopened: list[tuple[str, str]] = []
    for place, content, command, why in stale:
        if not approvals.is_approved(ctx.loc.home, list_file, top, command):
            continue
        run = checks.run_check(command, top, ctx.settings.check_timeout)
        when = ctx.now().isoformat(timespec="seconds")
        if run.passed:
            ops.append(Op(OpKind.DONE, task=f"#{place + 1}"))
            line = checks.record(run, when, checks.git_state(top, list_file))
            signed = checks.sign(ctx.loc.home, list_file, content, command, line)
            proofs.append((place, content, command, signed))
            continue
        how = "ran out of time" if run.timed_out else f"failed (exit {run.code})"
        last = run.tail.strip().splitlines()[-1:] or ["(no output)"]
        shown = "".join(c for c in last[0][:120] if c.isprintable())
        note = f"Reopened {when}: its check {how} ({why}); last output: {shown}"
        note = note.replace("<!--", "<! --").replace("-->", "-- >")
        # Reopened by its place, not its text: another task may share the text.
        proofs.append((place, content, command, None))
        ops.append(Op(OpKind.NOTE, task=f"#{place + 1}", text=note))
        reopened.append(
            (
                content,
                "its check ran out of time"
                if run.timed_out
                else f"its check failed: exit {run.code}",
            )
        )
    if ops:
        from todocli.app.transaction import write

        write(ctx, ops, proofs=tuple(proofs))
    return reopened


def remind(ctx: Context, every: int | None = None) -> Report:
    """Count one round and say what to tell the agent (often nothing). ``every``:
    nag every that many rounds (default: the setting ``remind_every``)."""
    lines = _count_round(ctx, ctx.settings.remind_every if every is None else every)
    text = "\n".join(lines) + "\n" if lines else ""
    data = {"reminders": lines[:-1], "recap": lines[-1] if lines else None}
    return Report(data, text, session=_session(ctx), file=ctx.loc.list_file)


def _session(ctx: Context) -> str | None:
    return ctx.loc.session if ctx.loc.is_session else None


def _count_round(ctx: Context, every: int) -> list[str]:
    store = ctx.store
    with store.locked():
        text = store.read()
        store.recover(text)
        rev = store.rev()
        counted_at, rounds, hand_seen, told = store.remind_counter()
        if counted_at != rev:  # a write since: the count starts again
            rounds, hand_seen = 0, "-"
        rounds += 1
        lines: list[str] = []
        failed = store.failed()
        if failed is not None and failed[0] == rev and failed[1] != told:
            lines.append(
                f"<reminder>Your last todo update failed ({failed[2]}). Todo progress is not "
                "visible until you retry it.</reminder>"
            )
            told = failed[1]
        last = store.revision(rev) if rev else None
        if last is not None and last != text:
            text = store.settle(text, last)  # a save under way is not a hand edit yet
        if last is not None and last != text:
            import hashlib

            seen = hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:16]
            if hand_seen != seen:
                hand_seen = seen
                diff = Diff.between(parse(last).model(), parse(text).model())
                if diff:
                    lines.append(
                        "<reminder>The todo list was edited by hand since your last update: "
                        f"{describe_diff(diff)}.</reminder>"
                    )
        todo = parse(text).model()
        if every > 0 and rounds % every == 0 and open_tasks(todo):
            lines.append(NAG)
        if lines:
            lines.append(todo.recap())
        store.save_remind_counter(rev, rounds, hand_seen, told)
    return lines


def check_text(
    todo: TodoList,
    agent: str | None = None,
    reopened: Sequence[tuple[str, str]] = (),
    taken: Sequence[str] = (),
) -> str:
    """``todo check``'s plain answer: the tasks ``--verify`` reopened and why, the
    open tasks (or "Nothing open.") and the recap; for an agent, the open tasks it
    holds; for an agent session's plan, the backlog tasks it took (``taken``)."""
    said = "".join(f"Reopened: {quoted(content)} ({why})\n" for content, why in reopened)
    open_tasks = [
        (p, t) for p, t in todo.tasks() if t.is_due and (agent is None or t.meta.owner == agent)
    ]
    held = "Open tasks" if agent is None else f'Open tasks of agent "{agent}"'
    if open_tasks:
        lines = [f"{held} ({len(open_tasks)}):"]
        lines += [f"  - {t.content} [{t.status.value}] ({p.name})" for p, t in open_tasks]
        cycle = cycle_line(todo) if agent is None else None
        if cycle is not None:
            lines.append(cycle)
    elif agent is not None:
        lines = [f'Agent "{agent}" holds nothing open.']
    else:
        lines = [] if taken else ["Nothing open."]
    if taken:
        lines.append(f"Taken from the backlog (todo --project): {'; '.join(taken)}")
    return said + safe("\n".join([*lines, todo.recap()]) + "\n")
