"""The agent's path: read the command line with the command table and serve the
everyday calls without importing Typer or rich.

An agent runs ``todo`` once per step, so start-up is the product: Typer (with Click)
costs tens of milliseconds before any work starts. ``hoist`` moves the global
options to the front (agents write them before and after the command's name);
``parse`` reads every command of the table into a ``Call``, and gives up (None) on
anything it is not sure of: help, a version, an unknown or malformed option, a wrong
number of arguments. ``run`` serves the commands the table marks ``fast`` when the
output is plain text or JSON, through the very functions the Typer app runs
(``dispatch``). Anything else (a usage error to word, a terminal that wants rich
output, a command meant for people) is left to the Typer app, built from the same
table. A differential test runs many forms through both and compares.
"""

from __future__ import annotations

from todocli.app.commands import Options
from todocli.base import TYPE_CHECKING
from todocli.cli.command_table import BY_NAME, DEFAULT_COMMAND, GLOBAL_OPTIONS
from todocli.cli.dispatch import Call, Output, guard, plain_output
from todocli.cli.dispatch import run as dispatch
from todocli.errors import UsageError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from todocli.cli.command_table import Option

GLOBAL = {name: option for option in GLOBAL_OPTIONS for name in option.names}


def split_globals(values: dict[str, object]) -> tuple[Options, Output]:
    """The global options' values (by ``dest``), each to where it belongs: which list
    to ``Options``, how to print to ``Output``."""
    to_options = {k: v for k, v in values.items() if k in Options.__slots__}
    to_output = {k: v for k, v in values.items() if k in Output.__slots__}
    return Options(**to_options), Output(**to_output)  # type: ignore[arg-type]


def hoist(argv: Sequence[str]) -> list[str]:
    """Move global options, wherever they stand before ``--``, to the front."""
    front: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest += argv[i:]
            break
        name = arg.split("=", 1)[0] if arg.startswith("--") else arg
        option = GLOBAL.get(name)
        if option is not None and not option.takes_value:
            front.append(arg)
        elif option is not None:
            if "=" not in arg:
                if i + 1 >= len(argv):
                    # Hoisted alone it would take the command's name as its value.
                    raise UsageError(f"option {arg} needs a value (see: todo --help)")
                front.append(arg)
                front.append(argv[i + 1])
                i += 1
            else:
                front.append(arg)
        elif _glued(arg) is not None:
            front.append(arg)  # -sNAME
        else:
            rest.append(arg)
        i += 1
    return front + rest


def _glued(token: str) -> Option | None:
    """The global option of a short name glued to its value (``-sNAME``), if any."""
    if len(token) <= 2 or token.startswith("--"):
        return None
    option = GLOBAL.get(token[:2])
    return option if option is not None and option.takes_value else None


def _take(
    tokens: Sequence[str], i: int, table: dict[str, Option], into: dict[str, object]
) -> int | None:
    """Read the option at ``tokens[i]`` into ``into``; return the next index, or None
    when the token is not an option of ``table`` in a form this parser is sure of."""
    token = tokens[i]
    name, eq, inline = token.partition("=") if token.startswith("--") else (token, "", "")
    option = table.get(name)
    if option is None:
        glued = _glued(token) if table is GLOBAL else None
        if glued is not None:
            into[glued.dest] = token[2:]
            return i + 1
        return None
    if not option.takes_value:
        if eq:
            return None  # "--json=..." is Click's error to report
        into[option.dest] = True
        return i + 1
    if eq:
        value = inline
        i += 1
    elif i + 1 < len(tokens):
        value = tokens[i + 1]
        i += 2
    else:
        return None
    if option.kind is int:
        try:
            into[option.dest] = int(value)
        except ValueError:
            return None  # Click words the bad number
    elif option.many:
        given = into.get(option.dest)
        into[option.dest] = [*(given if isinstance(given, list) else ()), value]
    else:
        into[option.dest] = value
    return i


def parse(tokens: Sequence[str]) -> Call | None:
    """Parse hoisted arguments (global options first); None: leave it to Typer."""
    found: dict[str, object] = {}
    i = 0
    while i < len(tokens) and tokens[i].startswith("-") and tokens[i] != "--":
        nxt = _take(tokens, i, GLOBAL, found)
        if nxt is None:
            return None
        i = nxt
    if found.pop("version", False):
        return None  # Typer prints the version
    name = DEFAULT_COMMAND
    if i < len(tokens):
        name = tokens[i]
        i += 1
    command = BY_NAME.get(name)
    if command is None:
        return None
    table = {n: o for o in command.options for n in o.names}
    values = command.defaults()
    words: list[str] = []
    while i < len(tokens):
        token = tokens[i]
        if token == "--":
            words += tokens[i + 1 :]
            break
        if token.startswith("-"):
            nxt = _take(tokens, i, table, values)
            if nxt is None:
                return None
            i = nxt
            continue
        words.append(token)
        i += 1
    for argument in command.arguments:
        if argument.many:
            values[argument.dest], words = words, []
        elif words:
            word = words.pop(0)
            try:
                values[argument.dest] = int(word) if argument.kind is int else word
            except ValueError:
                return None  # Click words the bad number
        elif not argument.optional:
            return None
    if words:
        return None  # more words than the command takes
    options, output = split_globals(found)
    return Call(command, options, output, values)


def run(argv: Sequence[str]) -> int | None:
    """Serve the call, or return None to hand it to the Typer app."""
    try:
        call = parse(hoist(argv))
    except UsageError:
        return None  # the Typer app reports it, in the form the options ask for
    if call is None or call.command is None or not call.command.fast:
        return None

    if not plain_output(call.output):
        return None
    return guard(lambda: dispatch(call), lambda: call)
