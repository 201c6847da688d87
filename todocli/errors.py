"""Errors, each with its exit code and stable machine code.

Exactly one place (the command line's boundary) turns these into output and an
exit status; the core raises them and never exits. The errors of the stop gate
(``OpenTasksError``, ``StaleEvidenceError``: ``app.wiring.gate``) and of a task's
check (``CheckFailedError``, ``CheckNotAllowedError``: ``app.evidence.proof``) are
defined beside the only code that raises them: every call loads this module, and
a class costs about 70,000 instructions to make.
"""

from __future__ import annotations


class TodoError(Exception):
    """Base of every error the tool reports on purpose."""

    exit_code = 3
    code = "INTERNAL_ERROR"

    def __init__(self, message: str, details: list[str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details or []
        # A failed write is recorded for `todo remind` once: set when it has been
        # (or must not be: a hook envelope of another tool stays harmless).
        self.remembered = False


class InvalidParamError(TodoError):
    """The request is well-formed but not acceptable (bad status, limit, duplicate)."""

    exit_code = 1
    code = "INVALID_PARAM"


class NotFoundError(TodoError):
    """A task or phase the request names does not exist."""

    exit_code = 1
    code = "NOT_FOUND"


class UsageError(TodoError):
    """The command line itself is wrong: unknown option, bad session name, bad config."""

    exit_code = 2
    code = "USAGE"


class ConflictError(TodoError):
    """``--if-rev`` named a revision the list is no longer at."""

    exit_code = 4
    code = "CONFLICT"


class UnmergedError(ConflictError):
    """A write to a list that still holds git's conflict markers: refused until the
    person resolves them, as git refuses to commit unmerged paths."""

    exit_code = 4
    code = "UNMERGED"


class BusyError(TodoError):
    """The list's lock could not be taken in time."""

    exit_code = 5
    code = "BUSY"


class StorageError(TodoError):
    """A file could not be read or written: permissions, a full disk, a directory."""

    exit_code = 6
    code = "STORAGE"


class CycleError(TodoError):
    """``todo claim``: no pending task can ever start, each waiting on a dependency
    cycle (written by hand: todo refuses to add one), so the plan can never drain."""

    exit_code = 7
    code = "CYCLE"


class InternalError(TodoError):
    """A bug: something that should not happen did."""

    exit_code = 3
    code = "INTERNAL_ERROR"
