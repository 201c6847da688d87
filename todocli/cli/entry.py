"""The command line's shared plumbing, free of Typer and rich: global options that
may stand anywhere, output, the bodies of commands with output of their own, and
the one boundary that turns errors into output and an exit status.

Both the Typer app (``cli``) and the agent's fast path (``fastpath``) run through
here, so they cannot drift apart.
"""

from __future__ import annotations

import os
import sys

from todocli.app import commands
from todocli.app.commands import Context, Options
from todocli.app.outcome import Outcome
from todocli.app.output import STDERR, OutputError, failure_message, write
from todocli.document.model import TodoList
from todocli.errors import InternalError, StorageError, TodoError, UsageError
from todocli.escapes import one_line

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

# Global options: the ones that take a value, and the switches.
VALUE_OPTIONS = frozenset(
    {"--session", "-s", "--file", "--home", "--memory-dir", "--if-rev", "--base"}
)
SWITCHES = frozenset(
    {"--json", "--plain", "--quiet", "-q", "--no-color", "--partial", "--keep", "--version"}
)


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
        if name in SWITCHES:
            front.append(arg)
        elif name in VALUE_OPTIONS:
            if "=" not in arg:
                if i + 1 >= len(argv):
                    # Hoisted alone it would take the command's name as its value.
                    raise UsageError(f"option {arg} needs a value (see: todo --help)")
                front.append(arg)
                front.append(argv[i + 1])
                i += 1
            else:
                front.append(arg)
        elif arg.startswith("-s") and len(arg) > 2 and not arg.startswith("--"):
            front.append(arg)  # -sNAME
        else:
            rest.append(arg)
        i += 1
    return front + rest


# -- output --------------------------------------------------------------------------------


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


def color_allowed(opts: Options) -> bool:
    env = os.environ
    return not (opts.no_color or "NO_COLOR" in env or env.get("TERM") == "dumb")


def plain_output(opts: Options) -> bool:
    """Whether this call prints plain text or JSON (the agent's path), not rich."""
    return opts.json or opts.plain or not sys.stdout.isatty()


def emit(outcome: Outcome, opts: Options, show_all: bool = False) -> int:
    """Render to stdout in the chosen form; one diagnostic line to stderr on
    failure. Returns the exit status."""
    if outcome.warnings:
        for warning in outcome.warnings:
            write(f"todo: warning: {one_line(warning)}\n", STDERR)
    try:
        _emit_output(outcome, opts, show_all)
    except OutputError as error:
        raise OutputError(
            f"{error.message}; the command itself ran (any change it made stands)"
        ) from None
    if outcome.failed:
        write(f"todo: {failure_message(outcome)}\n", STDERR)
    return outcome.exit_code


def _emit_output(outcome: Outcome, opts: Options, show_all: bool) -> None:
    if not (opts.quiet and not outcome.failed):
        if opts.json:
            from todocli.app.render import to_json

            write(to_json(outcome))
        elif plain_output(opts):
            from todocli.app.render import plain

            write(plain(outcome))
        else:
            from todocli.cli import render_rich

            render_rich.render(outcome, sys.stdout, show_all, color_allowed(opts))


def report(error: TodoError, opts: Options) -> int:
    """A command that failed as a whole. Agents read stdout: it says "Errors: ..."
    there too (or carries the JSON envelope); a person at a terminal gets stderr."""
    outcome = Outcome(todo=TodoList(), error=error)
    message = failure_message(outcome)
    try:
        if opts.json:
            emit_error_json(error)
        elif sys.stdout is None or not sys.stdout.isatty():
            write(f"Errors: {message}\n")
    except (OutputError, BrokenPipeError):
        silence_stdout()  # stderr below still says what went wrong
    write(f"todo: {message}\n", STDERR)
    return error.exit_code


def emit_error_json(error: TodoError) -> None:
    from todocli.app.render import to_json

    write(to_json(Outcome(todo=TodoList(), error=error)))


def guard(body: Callable[[], int], opts: Callable[[], Options]) -> int:
    """Run a command body; the one place errors become output and exit codes.
    ``opts`` gives the global options as parsed so far."""
    try:
        return body()
    except OutputError as error:
        silence_stdout()
        write(f"todo: {error.message}\n", STDERR)
        return error.exit_code
    except TodoError as error:
        return report(error, opts())
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (todo show | head -1): not an error
        silence_stdout()
        return 0
    except Exception as exc:  # the last line of defence: no traceback unless asked
        if os.environ.get("TODOCLI_DEBUG") == "1":
            import traceback

            traceback.print_exc()
        return report(InternalError(f"internal error: {type(exc).__name__}: {exc}"), opts())


# -- command bodies with output of their own -------------------------------------------------


def apply_input(opts: Options, input_file: str | None, markdown: bool) -> int:
    """``todo apply``: read stdin (or a file) and apply it."""
    ctx = Context(opts)
    limit = ctx.settings.max_input_bytes
    if input_file is not None and input_file != "-":
        try:
            with open(input_file, "rb") as handle:
                data = handle.read(limit + 1)
        except OSError as exc:
            raise StorageError(f"cannot read {input_file}: {exc.strerror or exc}") from None
    else:
        if sys.stdin is None or sys.stdin.isatty():
            raise UsageError("todo apply reads JSON from stdin: pipe a payload in, or use -i FILE")
        data = sys.stdin.buffer.read(limit + 1)
    outcome = commands.apply_input(ctx, data, markdown)
    req = outcome.request
    hook = getattr(req, "hook", None)
    if hook is not None and not opts.json:
        if getattr(req, "ignored", False):
            return 0  # a hook on every tool must be harmless: nothing written or said
        reply = hook_reply(outcome, hook.event)
        if reply is not None:
            write(reply)
            return outcome.exit_code
    return emit(outcome, opts)


# Hook events whose JSON reply can put text into the model's context.
CONTEXT_EVENTS = frozenset({"PostToolUse", "PreToolUse", "AfterTool"})


def hook_reply(outcome: Outcome, event: str) -> str | None:
    """The hook's JSON reply carrying a person's edits (hand edits, overridden or
    dropped tasks) into the agent's context; None when there are none to tell."""
    result = outcome.result
    if event not in CONTEXT_EVENTS or result is None or outcome.failed:
        return None
    if not (result.hand_edit or result.overridden or result.dropped_open or result.merged):
        return None
    import json

    from todocli.app.render import change_lines

    text = "\n".join([*change_lines(outcome), outcome.todo.recap()])
    reply = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
    return json.dumps(reply, ensure_ascii=False) + "\n"


HOOK_INPUT_BYTES = 1 << 20


def from_hook(opts: Options) -> Options:
    """``--hook``: read the harness hook's JSON on stdin; its ``session_id`` names
    the session (made safe, as ``todo apply`` does with an envelope), unless ``-s``
    or ``TODOCLI_SESSION`` names one. So a Stop hook checks the list the agent's
    own-tool hook writes."""
    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError("--hook reads the hook's JSON from stdin")
    from todocli.engine.dialects import decode

    value = decode(sys.stdin.buffer.read(HOOK_INPUT_BYTES + 1), HOOK_INPUT_BYTES)
    # Augment names the session conversation_id
    session = (
        value.get("session_id", value.get("conversation_id")) if isinstance(value, dict) else None
    )
    if isinstance(session, str) and opts.session is None and not os.environ.get("TODOCLI_SESSION"):
        from todocli.engine.agents import safe_session

        opts.session = safe_session(session)
    return opts


def check(opts: Options, hook: bool = False) -> int:
    """``todo check``: exit 0 when nothing is open, 1 listing the open tasks."""
    from todocli.app.gate import check as check_list
    from todocli.errors import OpenTasksError

    if hook:
        opts = from_hook(opts)

    outcome, open_tasks = check_list(Context(opts))
    if open_tasks:
        count = len(open_tasks)
        outcome.error = OpenTasksError(f"{count} task{'s are' if count > 1 else ' is'} still open")
    if opts.json:
        return emit(outcome, opts)
    if open_tasks:
        lines = [f"Open tasks ({len(open_tasks)}):"]
        lines += [f"  - {c} [{s.value}] ({p})" for c, s, p in open_tasks]
    else:
        lines = ["Nothing open."]
    if not opts.quiet:
        write("\n".join([*lines, outcome.todo.recap()]) + "\n")
    return 1 if open_tasks else 0


def remind(opts: Options, every: int | None, hook: bool = False) -> int:
    """``todo remind``: count a round; print a reminder when one is due. Always 0."""
    from todocli.app.gate import remind as count_round

    try:
        if hook:
            opts = from_hook(opts)
        ctx = Context(opts)
        lines = count_round(ctx, ctx.settings.remind_every if every is None else every)
    except TodoError as error:  # a reminder must never break the harness that calls it
        write(f"todo: {one_line(error.message)}\n", STDERR)
        return 0
    if lines:
        write("\n".join(lines) + "\n")
    return 0


def path(opts: Options) -> int:
    write(one_line(commands.list_path(Context(opts))) + "\n")
    return 0


def config(opts: Options) -> int:
    """``todo config``: every setting with its value and source, then the locations."""
    ctx = Context(opts)
    settings, sources = ctx.settings, ctx.config.sources
    names: tuple[str, ...] = settings.__slots__
    locations = {
        "home": ctx.loc.home,
        "session": ctx.loc.session if ctx.loc.is_session else None,
        "list": ctx.loc.list_file,
        "memory_dir": ctx.loc.memory_dir,
        "config": ctx.config.path,
    }
    if opts.json:
        from todocli.app.render import json_text

        data = {
            "settings": {
                n: {"value": _plain_value(getattr(settings, n)), "source": sources[n]}
                for n in names
            },
            "locations": locations,
        }
        write(json_text(data))
        return 0
    width = max(len(n) for n in names)
    lines = ["# settings (value, then where it came from)"]
    for n in names:
        value = _plain_value(getattr(settings, n))
        shown = "(session: on; --file: off)" if value is None else repr(value).lower()
        if isinstance(value, str):
            shown = f'"{value}"'
        lines.append(f"{n:<{width}} = {shown:<28} # {sources[n]}")
    lines.append("")
    lines.append("# locations")
    lines += [
        f"{k:<{width}} = {v if v is not None else '(a --file list)'}" for k, v in locations.items()
    ]
    write("".join(f"{one_line(line)}\n" for line in lines))  # a path may hold a newline
    return 0


def _plain_value(value: object) -> object:
    return str(value) if isinstance(value, str) else value


def complete(opts: Options, kind: str) -> int:
    """``todo __complete KIND``: completion candidates, one a line; never fails."""
    try:
        ctx = Context(opts)
        if kind == "sessions":
            folder = os.path.join(ctx.loc.home, "sessions")
            from todocli.storage.files import kind_of
            from todocli.storage.paths import is_session_name

            try:
                names = sorted(n[:-3] for n in os.listdir(folder) if n.endswith(".md"))
            except OSError:
                names = []

            def is_list(name: str) -> bool:  # what `todo sessions` would list
                try:
                    mode = os.stat(os.path.join(folder, name + ".md")).st_mode
                except OSError:
                    return False
                return is_session_name(name) and kind_of(mode) is None

            candidates = [n for n in names if is_list(n)]
        else:
            from todocli.document.markdown import parse

            todo = parse(ctx.store.read()).model()
            if kind == "phases":
                candidates = [p.name for p in todo.phases]
            else:  # tasks: open ones first, as an agent or a person most often wants them
                tasks = [t for _, t in todo.tasks()]
                ordered = [t for t in tasks if t.status.is_open] + [
                    t for t in tasks if not t.status.is_open
                ]
                candidates = [t.content for t in ordered]
    except TodoError:
        return 0
    # One candidate a line, each escaped as one line: a tab would split a candidate
    # in fish (candidate<TAB>description), and a shell must never get raw controls.
    write("".join(f"{one_line(c)}\n" for c in candidates))
    return 0
