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

LABEL = "git"
REPOSITORY = True  # wires a repository, not an agent (``todo doctor`` checks it apart)
NOTE = "commit TODO.md and .gitattributes; each other clone runs `todo setup git` once"


def root(base: str) -> str:
    """The folder a project setup stays in: the work tree, from any folder of it."""
    return gitrepo.work_tree_top(base)


def edits(base: str, user: bool) -> list[Edit]:
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
    return [
        Plan(os.path.join(top, gitrepo.PLAN)),
        Block(os.path.join(top, ".gitattributes"), gitrepo.ATTRIBUTE, fmt="gitattributes"),
        config,
    ]
