"""OpenCode: the instruction block in ``AGENTS.md`` (the project's, or
``~/.config/opencode/AGENTS.md`` with ``--user``)."""

from __future__ import annotations

import os

from todocli.app.setup.edits import Block, Edit
from todocli.app.setup.instructions import TEXT

LABEL = "OpenCode"
FOLDER = os.path.join(".config", "opencode")


def edits(base: str, user: bool) -> list[Edit]:
    return [Block(os.path.join(base, FOLDER if user else "", "AGENTS.md"), TEXT)]
