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
from todocli.base import TYPE_CHECKING
from todocli.errors import BusyError, TodoError
from todocli.storage.store import Held

if TYPE_CHECKING:
    from collections.abc import Callable

PROBLEM = "problem: "


def _wired(tool: str, base: str, user: bool) -> tuple[int, int, list[str]]:
    """How many of the target's additions are in place, of how many, and the
    files that could not be read or parsed."""
    from todocli.app.wiring.setup import target

    edits = target(tool).edits(base, user)
    done, broken = 0, []
    for edit in edits:
        try:
            with open(edit.path, encoding="utf-8", newline="") as handle:
                text = handle.read()
        except OSError:
            continue
        except UnicodeDecodeError:
            broken.append(f"{edit.path}: not UTF-8")
            continue
        try:
            done += edit.add(text) == text
        except TodoError as error:
            broken.append(error.message)
    return done, len(edits), sorted(set(broken))


def agents(ctx: Context) -> list[str]:
    from todocli.app.wiring.setup import TARGETS, target

    home = os.path.expanduser("~")
    project = os.getcwd()
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
        for scope, base, user in (("project", project, False), ("user", home, True)):
            done, total, broken = _wired(tool, base, user)
            lines += [f"{PROBLEM}{tool}: {b}" for b in broken]
            if done:
                wired_somewhere = True
                state = "wired" if done == total else f"partly wired ({done}/{total})"
                scopes.append(f"{scope} {state}")
        if not found and not wired_somewhere:
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
    from todocli.app.wiring.gitrepo import problems

    found = problems(os.path.dirname(ctx.loc.list_file))
    return [PROBLEM + line for line in found] or ["git: TODO.md is merged by task in this clone"]


CHECKS: list[Callable[[Context], list[str]]] = [agents, current_list, lock, repository]


def doctor(ctx: Context) -> Report:
    lines = [line for check in CHECKS for line in check(ctx)]
    problems = [line[len(PROBLEM) :] for line in lines if line.startswith(PROBLEM)]
    return Report({"lines": lines, "problems": problems}, "\n".join(lines) + "\n")
