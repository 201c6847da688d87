"""The agent's path: serve everyday calls without importing Typer or rich.

An agent runs ``todo`` once per step, so start-up is the product: Typer (with Click)
costs tens of milliseconds before any work starts. The commands the table marks
``fast`` are served here when the output is plain text or JSON, read by the table's
own parser and run by the very functions the Typer app runs (``dispatch``). Anything
the parser is not sure of (help, a version, an unknown or malformed option), a
terminal that wants rich output, or a command meant for people is left to the Typer
app, which also owns every usage error message. A differential test runs many forms
through both and compares.
"""

from __future__ import annotations

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from collections.abc import Sequence


def run(argv: Sequence[str]) -> int | None:
    """Serve the call, or return None to hand it to the Typer app."""
    from todocli.cli.emit import plain_output
    from todocli.cli.parser import hoist, parse
    from todocli.errors import UsageError

    try:
        call = parse(hoist(argv))
    except UsageError:
        return None  # the Typer app reports it, in the form the options ask for
    if call is None or call.command is None or not call.command.fast:
        return None
    if not plain_output(call.output):
        return None
    from todocli.cli.boundary import guard
    from todocli.cli.dispatch import run as dispatch

    return guard(lambda: dispatch(call), lambda: call)
