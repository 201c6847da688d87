"""The Typer app, built from the command table: help, usage errors, rich output and
the commands meant for people.

Each command's function is made here with a signature built from the table (Typer
reads ``inspect.signature``, which honours ``__signature__``); it hands its values to
the command's body in ``dispatch``, as the fast path does. Global options may stand
before or after the command name (``todo --json show`` and ``todo show --json``):
``parser.hoist`` moves them to the front first.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Annotated, Any

import typer

from todocli.app.commands import Options
from todocli.app.output import OutputError, write
from todocli.cli import dispatch
from todocli.cli.command_table import (
    BY_NAME,
    COMMANDS,
    DEFAULT_COMMAND,
    GLOBAL_OPTIONS,
    Argument,
    Command,
    Option,
    suggest,
)
from todocli.cli.dispatch import Call, Output, guard
from todocli.cli.fastpath import hoist, split_globals
from todocli.errors import TodoError, UsageError
from todocli.escapes import one_line
from todocli.storage.files import reason

HELP = "A markdown todo checklist for coding agents and the people beside them."

app = typer.Typer(
    name="todo",
    help=HELP,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    suggest_commands=False,  # its guess may be a hidden command: ``_unknown`` guesses
    context_settings={"help_option_names": ["-h", "--help"]},
)


class _State:
    call = Call(None, Options(), Output())  # this invocation, as read so far


_state = _State()


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        write(f"todo {version('todocli-md')}\n")
        raise typer.Exit(0)


def _option(option: Option) -> object:
    """An option as a Typer parameter annotation."""
    extra: dict[str, Any] = {}
    if option.dest == "version":
        extra = {"callback": _version, "is_eager": True}
    info = typer.Option(*option.names, help=option.help, **extra)
    if option.many:
        return Annotated[list[option.kind] | None, info]  # type: ignore[name-defined]
    kind: Any = option.kind if option.default is not None else option.kind | None
    return Annotated[kind, info]


def _argument(argument: Argument) -> object:
    if argument.many:
        info = typer.Argument(help=argument.help, show_default=False)
        return Annotated[list[str] | None, info]
    kind: Any = argument.kind | None if argument.optional else argument.kind
    return Annotated[kind, typer.Argument(help=argument.help)]


def _parameters(command: Command) -> list[inspect.Parameter]:
    keyword = inspect.Parameter.KEYWORD_ONLY
    params = []
    for argument in command.arguments:
        default = None if argument.optional else inspect.Parameter.empty
        params.append(
            inspect.Parameter(
                argument.dest, keyword, default=default, annotation=_argument(argument)
            )
        )
    for option in command.options:
        given = None if option.many else option.default  # Typer's list: None when not given
        params.append(
            inspect.Parameter(option.dest, keyword, default=given, annotation=_option(option))
        )
    return params


def _run(command: Command, given: dict[str, object]) -> None:
    """Run the command's body with the global options read before it."""
    values = command.defaults()
    values.update(given)
    for argument in command.arguments:
        if argument.many and values[argument.dest] is None:
            values[argument.dest] = []
    for option in command.options:
        if option.many and values[option.dest] is None:
            values[option.dest] = []
    before = _state.call
    _state.call = call = Call(command, before.options, before.output, values)
    code = dispatch.run(call)
    if code:
        raise typer.Exit(code)


def _command(command: Command) -> Callable[..., None]:
    def body(**values: object) -> None:
        _run(command, values)

    body.__name__ = command.name.strip("_")
    body.__doc__ = command.help
    body.__signature__ = inspect.Signature(_parameters(command))  # type: ignore[attr-defined]
    return body


def _main(ctx: typer.Context, **values: object) -> None:
    options, output = split_globals(values)
    _state.call = Call(None, options, output)
    if ctx.invoked_subcommand is None:
        _run(BY_NAME[DEFAULT_COMMAND], {})


_main.__doc__ = f"{HELP}\n\nWith no command, shows the list."
_main.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
    [
        inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context),
        *(
            inspect.Parameter(
                o.dest, inspect.Parameter.KEYWORD_ONLY, default=o.default, annotation=_option(o)
            )
            for o in GLOBAL_OPTIONS
        ),
    ]
)
app.callback(invoke_without_command=True)(_main)

for _c in COMMANDS:
    _body = _command(_c)
    app.command(_c.name, help=_c.help, hidden=_c.hidden)(_body)
    for _alias, _help in _c.aliases.items():
        app.command(_alias, help=_help)(_body)


# -- running it ---------------------------------------------------------------------------------


class CommandLineError(UsageError):
    """A command line the Typer app could not read, in the one documented line
    (``shown``, for stderr): nothing ran, so stdout gets nothing but the JSON
    envelope when --json asks for it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.shown = f"todo: {one_line(message)}\n"


NAMES = {name for c in COMMANDS for name in (c.name, *c.aliases)}


def _help_hint(exc: typer.TyperException, args: Sequence[str]) -> str:
    """Where help for what was being read is: `` (see: todo setup -h)``. Most of
    Click's usage errors carry the context of the command they were reading; one
    its parser raises (``--verify=x``) does not: the command is the first word of
    the arguments that names one."""
    ctx = getattr(exc, "ctx", None)
    path = getattr(ctx, "command_path", None)
    if not (isinstance(path, str) and path):
        word = next((a for a in args if a in NAMES), None)
        path = "todo" if word is None else f"todo {word}"
    return f" (see: {path} -h)"


UNKNOWN = "No such command "  # how Click words an unknown command: No such command 'x'.


def _unknown(exc: typer.TyperException) -> None:
    """An unknown command's error, with the command meant when a synonym or a
    typo tells (``complete``: done; ``status``: show), as Click words its hints."""
    message = getattr(exc, "message", "")
    if not (isinstance(message, str) and message.startswith(UNKNOWN)):
        return
    word = message[len(UNKNOWN) :].rstrip(".")[1:-1]
    meant = suggest(word)
    if meant is not None:
        exc.message = f"{message.rstrip('.')}. Did you mean {meant!r}?"


def _output_before_parsing(argv: Sequence[str]) -> Output:
    """The output switches of the table's global options that ``argv`` spells, read
    before any parsing: a usage error answers in JSON if --json is there."""
    given: dict[str, object] = {
        o.dest: True for o in GLOBAL_OPTIONS if not o.takes_value and set(o.names) & set(argv)
    }
    return split_globals(given)[1]


def run(argv: Sequence[str]) -> int:
    """Run the command line through Typer; return the exit status."""
    _state.call = Call(None, Options(), _output_before_parsing(argv))

    def body() -> int:
        args = hoist(argv)
        try:
            code = app(args=args, prog_name="todo", standalone_mode=False)
        except typer.TyperException as exc:  # Click's errors, as Typer's public name has them
            # Click echoes the offending argument: its words go out through the same
            # escaping as everything else, never straight to the terminal.
            _unknown(exc)
            raise CommandLineError(exc.format_message() + _help_hint(exc, args)) from None
        except (BrokenPipeError, TodoError):
            raise
        except OSError as exc:  # Click's own output (help, version) failed to go out
            raise OutputError(f"cannot write to standard output: {reason(exc)}") from None
        return code if isinstance(code, int) else 0

    return guard(body, lambda: _state.call)
