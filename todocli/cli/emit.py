"""Printing a command's answer in the form the output options ask for: the JSON
envelope, plain text (the agent's path), or rich output for a person at a terminal.
Chosen here, once; the text and the envelope themselves are ``app.render``'s."""

from __future__ import annotations

import os
import sys

from todocli.app.output import STDERR, OutputError, failure_message, write
from todocli.escapes import one_line

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from todocli.app.outcome import Outcome, Report
    from todocli.cli.parser import Output
    from todocli.errors import TodoError


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
