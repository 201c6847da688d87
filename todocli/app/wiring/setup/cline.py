"""Cline: a rule file of its own, ``.clinerules/todo.md`` (with ``--user``:
``~/Documents/Cline/Rules/todo.md``), holding the instruction block."""

from __future__ import annotations

import os

from todocli.app.wiring.setup.edits import Block, Edit
from todocli.app.wiring.setup.instructions import SHARED

LABEL = "Cline"
FOLDER = os.path.join("Documents", "Cline")


def edits(base: str, user: bool) -> list[Edit]:
    if user:
        return [Block(os.path.join(base, FOLDER, "Rules", "todo.md"), SHARED)]
    return [Block(os.path.join(base, ".clinerules", "todo.md"), SHARED)]
