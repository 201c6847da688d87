"""What one command did, for the renderers: the list, the engine's result, where.
(A command that answers with something else gives a ``report.Report``.)"""

from __future__ import annotations

from todocli.document.model import Result, TodoList
from todocli.errors import InvalidParamError, TodoError

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from todocli.engine.dialects import Request


class Outcome:
    __slots__ = (
        "error",
        "file",
        "logged_to",
        "notices",
        "params_input",
        "reply_as",
        "request",
        "result",
        "rev",
        "session",
        "todo",
        "warnings",
    )

    def __init__(
        self,
        todo: TodoList,
        result: Result | None = None,
        error: TodoError | None = None,
        session: str | None = None,
        file: str = "",
        rev: int = 0,
        params_input: object = None,
        logged_to: str | None = None,
        notices: list[str] | None = None,
        warnings: list[str] | None = None,
    ) -> None:
        self.todo = todo  # the list to show: after the command, or as it stands on error
        self.result = result  # the engine's answer, for commands that ran a batch
        self.error = error  # a failure of the whole command
        self.session = session  # None for a --file list
        self.file = file
        self.rev = rev
        self.params_input = params_input
        self.logged_to = logged_to
        self.notices = notices if notices is not None else []  # lines shown before the list
        self.warnings = warnings if warnings is not None else []  # about the file
        self.request: Request | None = None  # apply: the parsed input
        self.reply_as: str | None = None  # the tool whose shape data.reply has

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
            return codes.pop() if len(codes) == 1 else InvalidParamError.code
        return None
