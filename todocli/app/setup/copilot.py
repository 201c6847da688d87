"""VS Code Copilot: the instruction block in ``.github/copilot-instructions.md``
(the workspace's instructions file); with ``--user``, an instructions file of
its own in ``~/.copilot/instructions``."""

from __future__ import annotations

import os

from todocli.app.setup.edits import Block, Edit
from todocli.app.setup.instructions import TEXT

LABEL = "VS Code Copilot"
FOLDER = ".copilot"


def edits(base: str, user: bool) -> list[Edit]:
    if user:
        return [Block(os.path.join(base, FOLDER, "instructions", "todo.instructions.md"), TEXT)]
    return [Block(os.path.join(base, ".github", "copilot-instructions.md"), TEXT)]
