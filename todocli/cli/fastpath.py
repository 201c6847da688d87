"""The agent's path: serve everyday calls without importing Typer or rich.

An agent runs ``todo`` once per step, so start-up is the product: Typer (with Click)
costs tens of milliseconds before any work starts. This parser understands the
common forms of the agent-facing commands when the output is plain text or JSON,
and calls exactly the functions the Typer app calls. Anything it is not sure of
(help, a version, an unknown or malformed option, a terminal that wants rich output,
a command meant for people) is left to the Typer app, which also owns every usage
error message. A differential test runs every form through both and compares.
"""

from __future__ import annotations

from todocli.app.commands import Options

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

# Command-line option spellings: name -> (destination, takes a value).
GLOBAL = {
    "--session": ("session", True),
    "-s": ("session", True),
    "--file": ("file", True),
    "--home": ("home", True),
    "--memory-dir": ("memory_dir", True),
    "--if-rev": ("if_rev", True),
    "--base": ("base", True),
    "--json": ("json", False),
    "--plain": ("plain", False),
    "--quiet": ("quiet", False),
    "-q": ("quiet", False),
    "--no-color": ("no_color", False),
    "--partial": ("partial", False),
    "--keep": ("keep", False),
}
PHASE = {"--phase": ("phase", True), "-p": ("phase", True)}
ALL = {"--all": ("all", False), "-a": ("all", False)}


class Spec:
    """A command's shape: how many positional arguments (None: any) and its options."""

    __slots__ = ("arity", "options")

    def __init__(
        self, arity: int | None, options: dict[str, tuple[str, bool]] | None = None
    ) -> None:
        self.arity = arity
        self.options = options or {}


COMMANDS = {
    "show": Spec(0, dict(ALL)),
    "init": Spec(None, {**PHASE, "--summary": ("summary", True)}),
    "add": Spec(None, dict(PHASE)),
    "start": Spec(1),
    "done": Spec(None, {**PHASE, **ALL, "--note": ("note", True), "-n": ("note", True)}),
    "drop": Spec(None, {**PHASE, **ALL}),
    "rm": Spec(None, {**PHASE, **ALL}),
    "note": Spec(2),
    "block": Spec(1, {"--reason": ("reason", True), "-r": ("reason", True)}),
    "unblock": Spec(1),
    "clear": Spec(0, dict(ALL)),
    "apply": Spec(
        0, {"--input": ("input", True), "-i": ("input", True), "--markdown": ("markdown", False)}
    ),
    "check": Spec(0, {"--hook": ("hook", False)}),
    "remind": Spec(
        0, {"--every": ("every", True), "-e": ("every", True), "--hook": ("hook", False)}
    ),
    "path": Spec(0),
    "__complete": Spec(1),
}
ALIASES = {"ls": "show", "a": "add"}


class Call:
    __slots__ = ("args", "command", "options", "values")

    def __init__(
        self, options: Options, command: str, args: list[str], values: dict[str, str | bool]
    ) -> None:
        self.options = options
        self.command = command
        self.args = args
        self.values = values


def _take(
    tokens: Sequence[str], i: int, table: dict[str, tuple[str, bool]], into: dict[str, str | bool]
) -> int | None:
    """Read the option at ``tokens[i]`` into ``into``; return the next index, or None
    when the token is not an option of ``table`` in a form this parser is sure of."""
    token = tokens[i]
    name, eq, inline = token.partition("=") if token.startswith("--") else (token, "", "")
    spec = table.get(name)
    if spec is None:
        if token.startswith("-s") and len(token) > 2 and table is GLOBAL:
            into["session"] = token[2:]
            return i + 1
        return None
    dest, takes_value = spec
    if not takes_value:
        if eq:
            return None  # "--json=..." is Click's error to report
        into[dest] = True
        return i + 1
    if eq:
        into[dest] = inline
        return i + 1
    if i + 1 >= len(tokens):
        return None
    into[dest] = tokens[i + 1]
    return i + 2


def parse(tokens: Sequence[str]) -> Call | None:
    """Parse hoisted arguments (global options first); None: leave it to Typer."""
    values: dict[str, str | bool] = {}
    i = 0
    while i < len(tokens) and tokens[i].startswith("-") and tokens[i] != "--":
        nxt = _take(tokens, i, GLOBAL, values)
        if nxt is None:
            return None
        i = nxt
    command = "show"
    if i < len(tokens):
        command = ALIASES.get(tokens[i], tokens[i])
        if command not in COMMANDS:
            return None
        i += 1
    spec = COMMANDS[command]
    args: list[str] = []
    local: dict[str, str | bool] = {}
    while i < len(tokens):
        token = tokens[i]
        if token == "--":
            args += tokens[i + 1 :]
            break
        if token.startswith("-"):
            nxt = _take(tokens, i, spec.options, local)
            if nxt is None:
                return None
            i = nxt
            continue
        args.append(token)
        i += 1
    if spec.arity is not None and len(args) != spec.arity:
        return None
    try:
        options = Options(
            session=_text(values.get("session")),
            file=_text(values.get("file")),
            home=_text(values.get("home")),
            memory_dir=_text(values.get("memory_dir")),
            json=bool(values.get("json")),
            plain=bool(values.get("plain")),
            quiet=bool(values.get("quiet")),
            no_color=bool(values.get("no_color")),
            if_rev=_int(values.get("if_rev")),
            base=_int(values.get("base")),
            partial=bool(values.get("partial")),
            keep=bool(values.get("keep")),
        )
        if "every" in local:
            local["every"] = str(_int(local["every"]))
    except ValueError:
        return None  # Click words the bad number
    return Call(options, command, args, local)


def _text(value: str | bool | None) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: str | bool | None) -> int | None:
    if value is None or isinstance(value, bool):
        return None
    return int(value)


def run(argv: Sequence[str]) -> int | None:
    """Serve the call, or return None to hand it to the Typer app."""
    from todocli.cli import entry
    from todocli.errors import UsageError

    try:
        call = parse(entry.hoist(argv))
    except UsageError:
        return None  # the Typer app reports it, in the form the options ask for
    if call is None or not entry.plain_output(call.options):
        return None
    return entry.guard(_body(call), lambda: call.options)


def _body(call: Call) -> Callable[[], int]:
    from todocli.app import commands
    from todocli.app.commands import Context
    from todocli.cli import entry

    opts, args, v = call.options, call.args, call.values
    phase = _text(v.get("phase"))
    everything = bool(v.get("all"))

    def body() -> int:
        name = call.command
        if name == "show":
            return entry.emit(commands.show(Context(opts)), opts, everything)
        if name == "apply":
            return entry.apply_input(opts, _text(v.get("input")), bool(v.get("markdown")))
        if name == "check":
            return entry.check(opts, bool(v.get("hook")))
        if name == "remind":
            return entry.remind(opts, _int(v.get("every")), bool(v.get("hook")))
        if name == "path":
            return entry.path(opts)
        if name == "__complete":
            return entry.complete(opts, args[0])
        ctx = Context(opts)
        if name == "init":
            outcome = commands.init(ctx, args, phase, _text(v.get("summary")))
        elif name == "add":
            outcome = commands.add(ctx, args, phase)
        elif name == "start":
            outcome = commands.start(ctx, args[0])
        elif name == "done":
            outcome = commands.done(ctx, args, phase, everything, _text(v.get("note")))
        elif name == "drop":
            outcome = commands.drop(ctx, args, phase, everything)
        elif name == "rm":
            outcome = commands.remove(ctx, args, phase, everything)
        elif name == "note":
            outcome = commands.note(ctx, args[0], args[1])
        elif name == "block":
            outcome = commands.block(ctx, args[0], _text(v.get("reason")))
        elif name == "unblock":
            outcome = commands.unblock(ctx, args[0])
        else:  # clear
            outcome = commands.clear(ctx, everything)
        return entry.emit(outcome, opts)

    return body
