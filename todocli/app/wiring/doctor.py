"""``todo doctor``: one line each on what is wired for every agent found on this
machine, which list the current project uses, and what is wrong.

The checks are a list (``CHECKS``): each takes the context and gives lines, so
another part of todo adds its own with one entry. A line that starts with
"problem:" is something wrong (``data.problems`` with ``--json``).
"""

from __future__ import annotations

import os
import shutil

from todocli import agents as registry
from todocli.app.commands import Context
from todocli.app.report import Report
from todocli.app.wiring.setup import TARGETS, Records, target
from todocli.base import TYPE_CHECKING
from todocli.errors import BusyError, TodoError
from todocli.storage import agent_sessions
from todocli.storage.lock import Held

if TYPE_CHECKING:
    from collections.abc import Callable

PROBLEM = "problem: "


class _Scope:
    """One place setup writes (the project, or the user's home): which targets'
    setups write each file there, and which files each target's setup did write
    (``state/setup.json``), so that a file several agents read (``AGENTS.md``)
    counts only for the agent whose setup wrote it."""

    def __init__(self, name: str, base: str, user: bool, records: Records) -> None:
        self.name, self.base, self.user, self.records = name, base, user, records
        self.writers: dict[str, list[str]] = {}
        for tool in TARGETS:
            if not getattr(target(tool), "REPOSITORY", False):
                for edit in target(tool).edits(base, user):
                    self.writers.setdefault(edit.path, []).append(tool)

    def shared(self, tool: str, path: str) -> list[str] | None:
        """The other agents a file is said to be shared with (their labels), or
        None when it is this agent's own: no other setup writes it, or this
        agent's setup wrote it here. Named: those whose setup wrote it, else all
        whose setup would."""
        others = [t for t in self.writers.get(path, ()) if t != tool]
        if not others or self.records.get(tool, path) is not None:
            return None
        wrote = [t for t in others if self.records.get(t, path) is not None]
        return [target(t).LABEL for t in wrote or others]


def _wired(tool: str, scope: _Scope) -> tuple[int, int, list[str], list[str]]:
    """How many of the target's own additions are in place, of how many; the files
    that could not be read or parsed; and, for a file in place that other agents'
    setups write too, what to say instead of "wired"."""
    done, total, broken, shared = 0, 0, [], []
    for edit in target(tool).edits(scope.base, scope.user):
        others = scope.shared(tool, edit.path)
        total += others is None
        try:
            with open(edit.path, encoding="utf-8", newline="") as handle:
                text = handle.read()
        except OSError:
            continue
        except UnicodeDecodeError:
            broken.append(f"{edit.path}: not UTF-8")
            continue
        try:
            in_place = edit.add(text) == text
        except TodoError as error:
            broken.append(error.message)
            continue
        if others is None:
            done += in_place
        elif in_place:
            name = os.path.relpath(edit.path, scope.base)
            shared.append(f"instructions shared with {', '.join(others)} ({name})")
    return done, total, sorted(set(broken)), shared


def agents(ctx: Context) -> list[str]:
    home = os.path.expanduser("~")
    records = Records(ctx.loc.home)
    scopes_of = (
        _Scope("project", os.getcwd(), False, records),
        _Scope("user", home, True, records),
    )
    lines = []
    any_hook = False
    for tool in TARGETS:
        module = target(tool)
        if getattr(module, "REPOSITORY", False):
            continue  # not an agent: see ``repository``
        folder = getattr(module, "FOLDER", None)
        found = (folder is not None and os.path.isdir(os.path.join(home, folder))) or bool(
            shutil.which(registry.PROGRAMS.get(tool, tool))
        )
        scopes = []
        wired_somewhere = False
        for scope in scopes_of:
            done, total, broken, shared = _wired(tool, scope)
            lines += [f"{PROBLEM}{tool}: {b}" for b in broken]
            if done:
                wired_somewhere = True
                state = "wired" if done == total else f"partly wired ({done}/{total})"
                scopes.append(f"{scope.name} {state}")
            else:
                scopes += [f"{scope.name} {words}" for words in shared]
        if not found and not scopes:
            continue
        any_hook = any_hook or (wired_somewhere and tool in registry.HOOKS)
        what = ", ".join(scopes) if scopes else f"not wired (todo setup {tool})"
        lines.append(f"{module.LABEL}: {what}")
    if not lines:
        lines.append("No agent found (todo setup TOOL wires one).")
    if any_hook and shutil.which("todo") is None:
        lines.append(f"{PROBLEM}the hooks run `todo`, which is not on PATH")
    return lines


def current_list(ctx: Context) -> list[str]:
    from todocli.app.hooks import project_lists

    found = project_lists(ctx.loc.home, os.getcwd())
    if found and not (ctx.options.session or ctx.options.file):
        return [f"This project's list: session {found[0][1]} (written by its hooks)"]
    return [f"This project's list: {ctx.loc.list_file}"]


def lock(ctx: Context) -> list[str]:
    try:
        with Held(ctx.store, timeout=0):
            pass
    except BusyError:
        return [f"{PROBLEM}another todo process holds the lock of {ctx.loc.list_file}"]
    except TodoError as error:
        return [f"{PROBLEM}{error.message}"]
    return []


def repository(ctx: Context) -> list[str]:
    """A project plan: whether git merges it by task in this clone."""
    if not ctx.loc.project:
        return []
    from todocli.app.wiring.gitrepo import problems, work_tree_top

    top = work_tree_top(os.path.dirname(ctx.loc.list_file))
    plan = agent_sessions.named_plan(ctx.loc.home, top)
    found = problems(top, plan or "TODO.md")
    return [PROBLEM + line for line in found] or [
        f"git: {plan or 'TODO.md'} is merged by task in this clone"
        + (" (the plan todo setup git --plan named)" if plan else "")
    ]


CHECKS: list[Callable[[Context], list[str]]] = [agents, current_list, lock, repository]


def doctor(ctx: Context) -> Report:
    lines = [line for check in CHECKS for line in check(ctx)]
    problems = [line[len(PROBLEM) :] for line in lines if line.startswith(PROBLEM)]
    return Report({"lines": lines, "problems": problems}, "\n".join(lines) + "\n")
