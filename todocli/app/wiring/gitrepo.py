"""A git repository wired for a project plan: ``TODO.md`` merged by ``todo
merge-driver``. ``todo setup git`` (``setup/git.py``) wires a repository
with these names; ``problems`` says what a clone lacks (for ``todo doctor``).

The driver is named in ``.gitattributes`` (committed: every clone has it) and
defined in the repository's own config (``merge.todo.driver``: git never takes a
command from a committed file, so each clone needs it once). Both steps are
idempotent, and ``.gitattributes`` keeps every byte it had.
"""

from __future__ import annotations

import os
import subprocess

from todocli.app.commands import Context, init
from todocli.app.report import Report
from todocli.base import TYPE_CHECKING
from todocli.errors import UsageError
from todocli.storage import agent_sessions

if TYPE_CHECKING:
    from collections.abc import Sequence

    from todocli.app.commands import Options, Outcome
    from todocli.app.report import Report

PLAN = "TODO.md"
ATTRIBUTE = f"/{PLAN} merge=todo"
NAME = "todo: merges checklists by task"
DRIVER = "todo merge-driver %O %A %B %P --marker-size %L"


def _git(top: str, *args: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            ["git", "-C", top, *args], capture_output=True, text=True, check=False
        )
    except OSError as exc:
        raise UsageError(f"cannot run git: {exc.strerror}") from None


def work_tree_top(start: str) -> str:
    """The top of the git work tree ``start`` is in (git's own answer)."""
    done = _git(start, "rev-parse", "--show-toplevel")
    if done.returncode != 0 or not done.stdout.strip():
        raise UsageError(f"not inside a git work tree: {start} (run git init first)")
    return done.stdout.rstrip("\n")


def common_dir(top: str) -> str:
    """The folder git keeps the repository's config in (shared by its worktrees)."""
    done = _git(top, "rev-parse", "--git-common-dir")
    if done.returncode != 0 or not done.stdout.strip():
        raise UsageError(f"cannot find the git folder of {top}: {done.stderr.strip()}")
    return os.path.join(top, done.stdout.rstrip("\n"))


def problems(top: str, plan: str = PLAN) -> list[str]:
    """What keeps git from merging this work tree's plan (``TODO.md``, or the file
    ``plan`` names under the top) by task, one line each (none: it is wired)."""
    found = []
    attribute = _git(top, "check-attr", "merge", "--", plan).stdout
    if not attribute.rstrip("\n").endswith(": merge: todo"):
        found.append(f"{plan} is not marked 'merge=todo' in .gitattributes (fix: todo setup git)")
    if _git(top, "config", "--get", "merge.todo.driver").returncode != 0:
        found.append(
            "this clone lacks merge.todo.driver: git merges TODO.md as text (fix: todo setup git)"
        )
    import shutil

    if shutil.which("todo") is None:
        found.append("git runs the merge driver as 'todo', which is not on this PATH")
    return found


def init_project(
    options: Options, tasks: Sequence[str], phase: str | None, *, summary: str | None
) -> tuple[Outcome | None, Report]:
    """``todo init --project``: ``TODO.md`` at the top of the work tree (made empty
    when there is none; replaced by ``tasks`` when some are given), and the
    repository wired for it (``todo setup git``). With tasks, the list is the
    answer (the wiring among its notices); without, a report."""
    from todocli.app.wiring.setup import setup

    if options.file is not None:
        raise UsageError("init --project makes the repository's TODO.md: leave out --file")
    options = options.replace(project=False)  # the plan may not be there yet
    if tasks and Context(options).loc.agent_plan:
        # An agent session never replaces the backlog: refused before any wiring.
        from todocli.app.sharing.backlog import refuse_replacing
        from todocli.engine.ops import Op, OpKind

        refuse_replacing([Op(OpKind.INIT)])
    top = work_tree_top(os.getcwd())
    plan = os.path.join(top, agent_sessions.named_plan(Context(options).loc.home, top) or PLAN)
    made = not os.path.lexists(plan)
    wired = setup(Context(options).loc.home, "git", project=top)
    lines = [f"{'Made' if made else 'Kept'} the project plan {plan}"]
    lines += wired.text.splitlines()
    text = "".join(line + "\n" for line in lines)
    data = {"file": plan, "made": made, "wired": wired.data["files"]}
    report = Report(data, text, file=plan)
    if not tasks:
        return None, report
    outcome = init(
        Context(options.replace(project=True, session=None)), tasks, phase, summary=summary
    )
    outcome.notices[:0] = lines
    return outcome, report
