"""Where what a command answered, or how it failed, becomes output and an exit
status, for both the fast path and the Typer app.

``emit`` prints an answer in the form the output options ask for: the JSON
envelope, plain text (the agent's path) or rich output for a person at a terminal
(chosen here, once; the text and the envelope themselves are ``app.render``'s).
``guard`` is the one error boundary: nothing below it prints an error or exits.
What a failure prints depends on the command (``Command.failure`` in the table):
most say ``Errors: ...`` on stdout (or carry the JSON envelope) and one line on
stderr; ``todo remind`` and ``todo __complete`` never fail a harness or a shell;
``todo mcp``'s stdout belongs to its protocol.
"""

from __future__ import annotations

import os
import sys

from todocli.app.output import STDERR, OutputError, failure_message, write
from todocli.cli.command_table import NEVER_FAILS, PROTOCOL, REPORT
from todocli.errors import InternalError, TodoError, UsageError
from todocli.escapes import one_line

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from collections.abc import Callable

    from todocli.app.outcome import Outcome, Report
    from todocli.cli.fastpath import Call, Output


# -- answers -------------------------------------------------------------------------------------


def color_allowed(output: Output) -> bool:
    env = os.environ
    return not (output.no_color or "NO_COLOR" in env or env.get("TERM") == "dumb")


def plain_output(output: Output) -> bool:
    """Whether this call prints plain text or JSON (the agent's path), not rich."""
    return output.json or output.plain or not sys.stdout.isatty()


def emit(outcome: Outcome, output: Output, show_all: bool = False) -> int:
    """Render to stdout in the chosen form; one diagnostic line to stderr on
    failure. Returns the exit status."""
    if outcome.warnings:
        for warning in outcome.warnings:
            write(f"todo: warning: {one_line(warning)}\n", STDERR)
    try:
        _emit_output(outcome, output, show_all)
    except OutputError as error:
        raise OutputError(
            f"{error.message}; the command itself ran (any change it made stands)"
        ) from None
    if outcome.failed:
        write(f"todo: {failure_message(outcome)}\n", STDERR)
    return outcome.exit_code


def _emit_output(outcome: Outcome, output: Output, show_all: bool) -> None:
    if not (output.quiet and not outcome.failed):
        if output.json:
            from todocli.app.render import to_json

            write(to_json(outcome))
        elif plain_output(output):
            from todocli.app.render import plain

            write(plain(outcome))
        else:
            from todocli.cli import render_rich

            render_rich.render(outcome, sys.stdout, show_all, color_allowed(output))


def emit_report(report: Report, output: Output) -> int:
    """A command that answers with data: its text, or its envelope with --json."""
    if output.quiet:
        return 0
    if output.json:
        from todocli.app.render import json_text, report_envelope

        write(json_text(report_envelope(report)))
    else:
        write(report.text)
    return 0


def emit_error_json(error: TodoError) -> None:
    """The envelope of a command that failed as a whole."""
    from todocli.app.outcome import Outcome
    from todocli.app.render import to_json
    from todocli.document.model import TodoList

    write(to_json(Outcome(todo=TodoList(), error=error)))


# -- failures ------------------------------------------------------------------------------------


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
