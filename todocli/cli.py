"""The command line: the Typer app, and the one place that turns errors into output
and an exit status.

Every command parses its arguments, calls one function of ``commands``, and hands
the outcome to a renderer. Global options may stand before or after the command
name (``todo --json show`` and ``todo show --json``): ``hoist`` moves them to the
front before Typer parses.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Sequence
from typing import Annotated, TextIO

import typer
from typer._click.exceptions import ClickException

from todocli import commands
from todocli.commands import Context, Options
from todocli.errors import InternalError, StorageError, TodoError, UsageError
from todocli.model import TodoList
from todocli.outcome import Outcome

# Global options: the ones that take a value, and the switches.
VALUE_OPTIONS = frozenset({"--session", "-s", "--file", "--home", "--memory-dir", "--if-rev"})
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
            front.append(arg)
            if "=" not in arg and i + 1 < len(argv):
                front.append(argv[i + 1])
                i += 1
        elif arg.startswith("-s") and len(arg) > 2 and not arg.startswith("--"):
            front.append(arg)  # -sNAME
        else:
            rest.append(arg)
        i += 1
    return front + rest


# -- output ----------------------------------------------------------------------------------


def write(text: str, stream: TextIO | None = None) -> None:
    """Write text as UTF-8; bytes that were not UTF-8 in a file show as escapes."""
    out = stream if stream is not None else sys.stdout
    buffer = getattr(out, "buffer", None)
    if buffer is not None:
        out.flush()
        buffer.write(text.encode("utf-8", "backslashreplace"))
        buffer.flush()
    else:
        out.write(text)


def color_allowed(opts: Options) -> bool:
    env = os.environ
    return not (opts.no_color or "NO_COLOR" in env or env.get("TERM") == "dumb")


def emit(outcome: Outcome, opts: Options, show_all: bool = False) -> None:
    """Render to stdout in the chosen form; one diagnostic line to stderr on failure."""
    for warning in outcome.warnings:
        write(f"todo: warning: {warning}\n", sys.stderr)
    if not (opts.quiet and not outcome.failed):
        if opts.json:
            from todocli.render import to_json

            write(to_json(outcome))
        elif opts.plain or not sys.stdout.isatty():
            from todocli.render import plain

            write(plain(outcome))
        else:
            from todocli import render_rich

            render_rich.render(outcome, sys.stdout, show_all, color_allowed(opts))
    if outcome.failed:
        write(f"todo: {failure_message(outcome)}\n", sys.stderr)


def failure_message(outcome: Outcome) -> str:
    from todocli.render import error_lines, safe

    if outcome.error is not None:
        return safe(outcome.error.message)
    assert outcome.result is not None
    lines = error_lines(outcome.result)
    more = f" (and {len(lines) - 1} more)" if len(lines) > 1 else ""
    return safe(lines[0]) + more


def finish(outcome: Outcome, opts: Options, show_all: bool = False) -> None:
    emit(outcome, opts, show_all)
    if outcome.exit_code:
        raise typer.Exit(outcome.exit_code)


# -- the app -----------------------------------------------------------------------------------

app = typer.Typer(
    name="todo",
    help="A markdown todo checklist for coding agents and the people beside them.",
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

_options = Options()  # this invocation's global options, once parsed


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        write(f"todo {version('todocli')}\n")
        raise typer.Exit(0)


@app.callback(invoke_without_command=True)
def main(
    ctx: typer.Context,
    session: Annotated[
        str | None, typer.Option("--session", "-s", help="Session name (default: default).")
    ] = None,
    file: Annotated[
        str | None, typer.Option("--file", help="Use this markdown file as the list.")
    ] = None,
    home: Annotated[str | None, typer.Option("--home", help="Where lists and state live.")] = None,
    memory_dir: Annotated[
        str | None, typer.Option("--memory-dir", help="Where completion logs go.")
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    plain: Annotated[bool, typer.Option("--plain", help="Print plain text.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing on success.")] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="No colour.")] = False,
    if_rev: Annotated[
        int | None, typer.Option("--if-rev", help="Fail with exit 4 unless at this revision.")
    ] = None,
    partial: Annotated[
        bool, typer.Option("--partial", help="Apply the good ops of a batch, report the rest.")
    ] = False,
    keep: Annotated[
        bool, typer.Option("--keep", help="Keep a finished list instead of wiping it.")
    ] = False,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """A markdown todo checklist for coding agents and the people beside them.

    With no command, shows the list.
    """
    global _options
    _options = Options(
        session, file, home, memory_dir, json_output, plain, quiet, no_color, if_rev, partial, keep
    )
    ctx.obj = _options
    if ctx.invoked_subcommand is None:
        finish(commands.show(Context(_options)), _options)


Tasks = Annotated[
    list[str] | None, typer.Argument(help="Task contents, or #N.", show_default=False)
]
PhaseOpt = Annotated[str | None, typer.Option("--phase", "-p", help="A phase name.")]
AllOpt = Annotated[bool, typer.Option("--all", "-a", help="Every task.")]


@app.command()
def show(
    all_: Annotated[bool, typer.Option("--all", "-a", help="Do not collapse long phases.")] = False,
) -> None:
    """Show the list."""
    finish(commands.show(Context(_options)), _options, show_all=all_)


@app.command()
def init(
    tasks: Tasks = None,
    phase: PhaseOpt = None,
    summary: Annotated[str | None, typer.Option("--summary", help="What the list is for.")] = None,
) -> None:
    """Replace the list with these tasks."""
    finish(commands.init(Context(_options), tasks or [], phase, summary), _options)


@app.command()
def add(tasks: Tasks = None, phase: PhaseOpt = None) -> None:
    """Append tasks (to --phase, else the last phase)."""
    finish(commands.add(Context(_options), tasks or [], phase), _options)


@app.command()
def start(task: Annotated[str, typer.Argument(help="Task content, or #N.")]) -> None:
    """Mark a task in progress."""
    finish(commands.start(Context(_options), task), _options)


@app.command()
def done(
    tasks: Tasks = None,
    phase: PhaseOpt = None,
    all_: AllOpt = False,
    note: Annotated[str | None, typer.Option("--note", "-n", help="Add a note first.")] = None,
) -> None:
    """Mark tasks completed (no task: the one in progress)."""
    finish(commands.done(Context(_options), tasks or [], phase, all_, note), _options)


@app.command()
def drop(tasks: Tasks = None, phase: PhaseOpt = None, all_: AllOpt = False) -> None:
    """Mark tasks abandoned (no task: the one in progress)."""
    finish(commands.drop(Context(_options), tasks or [], phase, all_), _options)


@app.command()
def rm(tasks: Tasks = None, phase: PhaseOpt = None, all_: AllOpt = False) -> None:
    """Remove tasks from the list."""
    finish(commands.remove(Context(_options), tasks or [], phase, all_), _options)


@app.command()
def note(
    task: Annotated[str, typer.Argument(help="Task content, or #N.")],
    text: Annotated[str, typer.Argument(help="The note.")],
) -> None:
    """Add a note to a task."""
    finish(commands.note(Context(_options), task, text), _options)


@app.command()
def block(
    task: Annotated[str, typer.Argument(help="Task content, or #N.")],
    reason: Annotated[str | None, typer.Option("--reason", "-r", help="Kept as a note.")] = None,
) -> None:
    """Mark a task blocked (never started automatically)."""
    finish(commands.block(Context(_options), task, reason), _options)


@app.command()
def unblock(task: Annotated[str, typer.Argument(help="Task content, or #N.")]) -> None:
    """Make a blocked task pending again."""
    finish(commands.unblock(Context(_options), task), _options)


@app.command()
def clear(
    all_: Annotated[bool, typer.Option("--all", "-a", help="Remove open tasks too.")] = False,
) -> None:
    """Remove completed and abandoned tasks."""
    finish(commands.clear(Context(_options), all_), _options)


@app.command("apply")
def apply_cmd(
    input_file: Annotated[
        str | None, typer.Option("--input", "-i", help="Read from FILE instead of stdin.")
    ] = None,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="The input is markdown, not JSON.")
    ] = False,
) -> None:
    """Apply JSON from stdin: ops, or a snapshot in any agent's shape."""
    ctx = Context(_options)
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
    finish(commands.apply_input(ctx, data, markdown), _options)


@app.command()
def log(
    name: Annotated[str | None, typer.Argument(help="A log file name (see --list).")] = None,
    list_all: Annotated[bool, typer.Option("--list", "-l", help="List every log file.")] = False,
) -> None:
    """Print this list's completion log (or list them all)."""
    write(commands.log_text(Context(_options), name, list_all))


@app.command()
def path() -> None:
    """Print the list's path."""
    write(commands.list_path(Context(_options)) + "\n")


@app.command()
def check() -> None:
    """Exit 0 when nothing is open, 1 listing the open tasks (a stop gate)."""
    from todocli.errors import OpenTasksError
    from todocli.gate import check as check_list
    from todocli.render import safe

    outcome, open_tasks = check_list(Context(_options))
    if open_tasks:
        count = len(open_tasks)
        outcome.error = OpenTasksError(f"{count} task{'s are' if count > 1 else ' is'} still open")
    if _options.json:
        finish(outcome, _options)
        return
    if open_tasks:
        lines = [f"Open tasks ({len(open_tasks)}):"]
        lines += [f"  - {safe(c)} [{s.value}] ({safe(p)})" for c, s, p in open_tasks]
    else:
        lines = ["Nothing open."]
    if not _options.quiet:
        write("\n".join([*lines, safe(outcome.todo.recap())]) + "\n")
    if open_tasks:
        raise typer.Exit(1)


@app.command()
def remind(
    every: Annotated[
        int | None, typer.Option("--every", "-e", help="Nag every N rounds (config remind_every).")
    ] = None,
) -> None:
    """Count one agent round; print a reminder when one is due (always exits 0)."""
    from todocli.gate import remind as count_round

    try:
        ctx = Context(_options)
        lines = count_round(ctx, ctx.settings.remind_every if every is None else every)
    except TodoError as error:  # a reminder must never break the harness that calls it
        write(f"todo: {error.message}\n", sys.stderr)
        return
    if lines:
        write("\n".join(lines) + "\n")


@app.command()
def schema(
    kind: Annotated[str | None, typer.Argument(help="ops or snapshot (default: either).")] = None,
) -> None:
    """Print the JSON Schema of apply's input (draft 2020-12)."""
    import json

    from todocli.schema import schema as build

    if kind not in (None, "ops", "snapshot"):
        raise UsageError(f"todo schema: unknown schema {kind!r} (use ops or snapshot)")
    write(json.dumps(build(kind), indent=2) + "\n")


@app.command()
def history() -> None:
    """List the revisions of the list."""
    from todocli.history import history as list_revisions

    write(list_revisions(Context(_options)))


@app.command()
def diff(rev: Annotated[int | None, typer.Argument(help="A revision number.")] = None) -> None:
    """Show hand edits since the last write, or what revision REV changed."""
    from todocli.history import diff as show_diff

    write(show_diff(Context(_options), rev))


@app.command()
def undo(
    force: Annotated[bool, typer.Option("--force", help="Discard hand edits too.")] = False,
) -> None:
    """Restore the revision before the current one (as a new revision)."""
    from todocli.history import undo as restore

    finish(restore(Context(_options), force), _options)


@app.command()
def sessions() -> None:
    """List every session with its progress and last update."""
    from todocli.sessions import sessions as list_sessions

    write(list_sessions(Context(_options)))


@app.command()
def gc(
    older_than: Annotated[str, typer.Option("--older-than", help="Age, e.g. 30d, 12h.")] = "30d",
) -> None:
    """Remove sessions not written for a while (their logs stay)."""
    from todocli.sessions import gc as collect

    write(collect(Context(_options), older_than))


@app.command()
def edit() -> None:
    """Open the list in $VISUAL or $EDITOR; check it and save it as a revision."""
    from todocli.editor import edit as run_editor

    def confirm(question: str) -> bool:
        if not sys.stdin.isatty():
            return False
        return typer.confirm(question, default=False, err=True)

    finish(run_editor(Context(_options), confirm), _options)


@app.command()
def watch(
    all_: Annotated[bool, typer.Option("--all", "-a", help="Do not collapse long phases.")] = False,
) -> None:
    """Show the list live, re-rendered on every change, until Ctrl-C."""
    from todocli.watch import watch as live

    raise typer.Exit(live(Context(_options), color_allowed(_options), all_))


# -- the boundary -------------------------------------------------------------------------------


def run(argv: Sequence[str]) -> int:
    """Run the command line; return the exit status. The only place errors become
    output and exit codes."""
    global _options
    args = hoist(argv)
    _options = Options(json="--json" in args, plain="--plain" in args)
    try:
        code = app(args=args, prog_name="todo", standalone_mode=False)
        return code if isinstance(code, int) else 0
    except TodoError as error:
        return report(error)
    except ClickException as exc:
        if _options.json or "--json" in args:
            emit_error_json(UsageError(exc.format_message()))
        exc.show(file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # the last line of defence: no traceback unless asked
        if os.environ.get("TODOCLI_DEBUG") == "1":
            traceback.print_exc()
        return report(InternalError(f"internal error: {type(exc).__name__}: {exc}"))


def report(error: TodoError) -> int:
    """A command that failed as a whole. Agents read stdout: it says "Errors: ..."
    there too (or carries the JSON envelope); a person at a terminal gets stderr."""
    outcome = Outcome(todo=TodoList(), error=error)
    message = failure_message(outcome)
    if _options.json:
        emit_error_json(error)
    elif not sys.stdout.isatty():
        write(f"Errors: {message}\n")
    write(f"todo: {message}\n", sys.stderr)
    return error.exit_code


def emit_error_json(error: TodoError) -> None:
    from todocli.render import to_json

    write(to_json(Outcome(todo=TodoList(), error=error)))
