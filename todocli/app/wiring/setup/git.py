"""git: the repository's project plan, ``TODO.md`` at the top of the work tree,
merged by task. The driver is named in ``.gitattributes`` (committed: every clone
has it) and defined in the repository's own config (git never takes a command
from a committed file, so each clone runs this once). What ``todo init
--project`` does, through setup's edits: idempotent, ``--dry-run``, ``--remove``."""

from __future__ import annotations

import os

from todocli.app.wiring import gitrepo
from todocli.app.wiring.setup.edits import Block, Edit, Plan
from todocli.errors import UsageError
from todocli.storage import agent_sessions

LABEL = "git"
REPOSITORY = True  # wires a repository, not an agent (``todo doctor`` checks it apart)
NOTE = (
    "commit the plan and .gitattributes; each other clone runs `todo setup git` once "
    "(with the same --plan, when one is given)"
)


def root(base: str) -> str:
    """The folder a project setup stays in: the work tree, from any folder of it."""
    return gitrepo.work_tree_top(base)


def plan_name(top: str, given: str) -> str:
    """``--plan PATH`` (from the current folder) as a path under the work tree's top."""
    real_top = os.path.realpath(top)
    path = os.path.normpath(os.path.join(os.getcwd(), given))
    if os.path.commonpath([real_top, os.path.realpath(path)]) != real_top:
        raise UsageError(f"--plan {given}: not inside this work tree ({top})")
    name = os.path.relpath(path, top).replace(os.sep, "/")
    why = agent_sessions.plan_path_error(name)
    if why is not None:
        raise UsageError(f"--plan {given}: the plan must be {why}")
    return name


def edits(base: str, user: bool, plan: str | None = None) -> list[Edit]:
    """The plan (``TODO.md``, or the file ``--plan`` names), its line in
    ``.gitattributes``, and the driver in the repository's config."""
    if user:
        raise UsageError("todo setup git wires a repository: run it inside one, without --user")
    top = gitrepo.work_tree_top(base)
    common = gitrepo.common_dir(top)
    config = Block(
        os.path.join(common, "config"),
        f'[merge "todo"]\n\tname = {gitrepo.NAME}\n\tdriver = {gitrepo.DRIVER}',
        fmt="gitconfig",
    )
    # git's own folder: made by git, never checked out from the repository (and
    # outside the work tree for a linked worktree), so it is not confined to it.
    config.confined = False
    attribute = gitrepo.ATTRIBUTE if plan is None else f"/{plan} merge=todo"
    return [
        Plan(os.path.join(top, plan or gitrepo.PLAN)),
        Block(os.path.join(top, ".gitattributes"), attribute, fmt="gitattributes"),
        config,
    ]
