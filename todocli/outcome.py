"""What one command did, for the renderers: the list, the engine's result, where."""

from __future__ import annotations

from dataclasses import dataclass, field

from todocli.errors import TodoError
from todocli.model import Result, TodoList


@dataclass
class Outcome:
    todo: TodoList  # the list to show: after the command, or as it stands on error
    result: Result | None = None  # the engine's answer, for commands that ran a batch
    error: TodoError | None = None  # a failure of the whole command
    session: str | None = None  # None for a --file list
    file: str = ""
    rev: int = 0
    params_input: object = None
    logged_to: str | None = None
    notices: list[str] = field(default_factory=list)  # extra lines shown before the list
    warnings: list[str] = field(default_factory=list)  # about the file (unknown markers...)

    @property
    def failed(self) -> bool:
        return self.error is not None or (self.result is not None and not self.result.ok)

    @property
    def exit_code(self) -> int:
        if self.error is not None:
            return self.error.exit_code
        return 1 if self.failed else 0

    @property
    def error_code(self) -> str | None:
        if self.error is not None:
            return self.error.code
        if self.result is not None and self.result.errors:
            codes = {e.code for e in self.result.errors}
            return codes.pop() if len(codes) == 1 else "INVALID_PARAM"
        return None
