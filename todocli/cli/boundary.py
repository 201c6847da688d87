"""The one place where errors become output and an exit status, for both the fast
path and the Typer app. Nothing below it prints an error or exits.

What a failure prints depends on the command (``Command.failure`` in the table):
most say ``Errors: ...`` on stdout (or carry the JSON envelope) and one line on
stderr; ``todo remind`` and ``todo __complete`` never fail a harness or a shell;
``todo mcp``'s stdout belongs to its protocol.
"""

from __future__ import annotations

import os
import sys

from todocli.app.output import STDERR, OutputError, write
from todocli.cli.command_table import NEVER_FAILS, PROTOCOL, REPORT
from todocli.errors import InternalError, TodoError, UsageError
from todocli.escapes import one_line

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from collections.abc import Callable

    from todocli.cli.parser import Call


class CommandLineError(UsageError):
    """A command line the Typer app could not read: ``shown`` is its own words
    (usage, a hint and the error), for stderr; stdout gets nothing but the JSON
    envelope when --json asks for it."""

    def __init__(self, message: str, shown: str) -> None:
        super().__init__(message)
        self.shown = shown


def silence_stdout() -> None:
    """Point stdout at the null device, so that the interpreter's last flush of a
    failed or broken stdout does not print an error of its own at exit."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.close(fd)
    except OSError:
        pass


def closed_standard_streams() -> int | None:
    """Guard against a standard stream that was closed (``todo >&-``).

    A closed descriptor 0, 1 or 2 would be handed to the next file opened, and
    output meant for the terminal would land in the list: each is pointed at the
    null device first. With stdout closed, nothing is done (exit 6): the call
    could not report what it did.
    """
    stdout_closed = sys.stdout is None
    try:
        while True:
            fd = os.open(os.devnull, os.O_RDWR)
            if fd > 2:
                os.close(fd)
                break
    except OSError:
        pass
    if stdout_closed:
        write("todo: standard output is closed; nothing was done\n", STDERR)
        return OutputError.exit_code
    return None


def guard(body: Callable[[], int], call: Callable[[], Call]) -> int:
    """Run a command body; the one place errors become output and exit codes.
    ``call`` gives the invocation as read so far (its command may not be known)."""
    try:
        return body()
    except OutputError as error:
        silence_stdout()
        write(f"todo: {error.message}\n", STDERR)
        return error.exit_code
    except TodoError as error:
        return report(error, call())
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (todo show | head -1): not an error
        silence_stdout()
        return 0
    except Exception as exc:  # the last line of defence: no traceback unless asked
        if os.environ.get("TODOCLI_DEBUG") == "1":
            import traceback

            traceback.print_exc()
        return report(InternalError(f"internal error: {type(exc).__name__}: {exc}"), call())


def report(error: TodoError, call: Call) -> int:
    """A command that failed as a whole. Agents read stdout: it says "Errors: ..."
    there too (or carries the JSON envelope); a person at a terminal gets stderr."""
    failure = call.command.failure if call.command is not None else REPORT
    if isinstance(error, InternalError) and failure == NEVER_FAILS:
        failure = REPORT  # a bug is not a harness's everyday failure: exit 3
    message = one_line(error.message)
    try:
        if call.output.json and failure != PROTOCOL:
            from todocli.cli.emit import emit_error_json

            emit_error_json(error)
        elif (
            failure == REPORT
            and not isinstance(error, CommandLineError)
            and (sys.stdout is None or not sys.stdout.isatty())
        ):
            write(f"Errors: {message}\n")
    except (OutputError, BrokenPipeError):
        silence_stdout()  # stderr below still says what went wrong
    if isinstance(error, CommandLineError):
        write(error.shown, STDERR)
    else:
        write(f"todo: {message}\n", STDERR)
    return 0 if failure == NEVER_FAILS else error.exit_code
