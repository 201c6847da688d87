"""The command line: the Typer app that defines every command, option and help text.

Each command parses its arguments, calls one function of ``commands`` (or a body in
``entry``) and hands the outcome to the shared output and error boundary in
``entry``. Global options may stand before or after the command name (``todo --json
show`` and ``todo show --json``): ``entry.hoist`` moves them to the front first.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence
from typing import Annotated

import typer
from typer._click.exceptions import ClickException

from todocli.app import commands
from todocli.app.commands import Context, Options
from todocli.app.outcome import Outcome
from todocli.app.output import STDERR, OutputError, write
from todocli.cli import entry
from todocli.cli.entry import color_allowed
from todocli.errors import TodoError, UsageError


def finish(outcome: Outcome, opts: Options, show_all: bool = False) -> None:
    code = entry.emit(outcome, opts, show_all)
    if code:
        raise typer.Exit(code)


def done_with(code: int) -> None:
    if code:
        raise typer.Exit(code)


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
    base: Annotated[
        int | None,
        typer.Option(
            "--base", help="The revision a snapshot was made from: merge with edits since."
        ),
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
        session=session,
        file=file,
        home=home,
        memory_dir=memory_dir,
        json=json_output,
        plain=plain,
        quiet=quiet,
        no_color=no_color,
        if_rev=if_rev,
        partial=partial,
        keep=keep,
        base=base,
    )
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
    as_: Annotated[
        str | None,
        typer.Option(
            "--as",
            help="Print the list in an agent tool's own shape (claude, codex, copilot, ...).",
        ),
    ] = None,
) -> None:
    """Show the list."""
    outcome = commands.show(Context(_options))
    if as_ is not None:
        from todocli.engine.replies import TOOLS

        if as_ not in TOOLS:
            raise UsageError(f"todo show --as: unknown tool {as_!r} (use {', '.join(TOOLS)})")
        outcome.reply_as = as_
        if not _options.json:
            import json

            from todocli.engine.replies import reply

            write(json.dumps(reply(as_, outcome.todo), ensure_ascii=False, indent=2) + "\n")
            return
    finish(outcome, _options, show_all=all_)


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


# Aliases users of todo tools expect.
app.command("ls", help="Show the list (alias of show).")(show)
app.command("a", help="Append tasks (alias of add).")(add)


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
    done_with(entry.apply_input(_options, input_file, markdown))


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
    done_with(entry.path(_options))


HookOpt = Annotated[
    bool,
    typer.Option(
        "--hook", help="Read a harness hook's JSON on stdin: its session_id names the list."
    ),
]


@app.command()
def check(hook: HookOpt = False) -> None:
    """Exit 0 when nothing is open, 1 listing the open tasks (a stop gate)."""
    done_with(entry.check(_options, hook))


@app.command()
def remind(
    every: Annotated[
        int | None, typer.Option("--every", "-e", help="Nag every N rounds (config remind_every).")
    ] = None,
    hook: HookOpt = False,
) -> None:
    """Count one agent round; print a reminder when one is due (always exits 0)."""
    done_with(entry.remind(_options, every, hook))


@app.command()
def schema(
    kind: Annotated[
        str | None,
        typer.Argument(help="ops, snapshot, or an agent's tool: claude, codex, copilot, ..."),
    ] = None,
) -> None:
    """Print the JSON Schema of apply's input (draft 2020-12)."""
    import json

    from todocli.engine.schema import TOOL_NAMES, tool_schema
    from todocli.engine.schema import schema as build

    if kind in TOOL_NAMES:
        write(json.dumps(tool_schema(kind), indent=2) + "\n")
        return
    if kind not in (None, "ops", "snapshot"):
        names = ", ".join(TOOL_NAMES)
        raise UsageError(f"todo schema: unknown schema {kind!r} (use ops, snapshot or {names})")
    write(json.dumps(build(kind), indent=2) + "\n")


@app.command()
def history() -> None:
    """List the revisions of the list."""
    from todocli.app.history import history as list_revisions

    write(list_revisions(Context(_options)))


@app.command()
def diff(rev: Annotated[int | None, typer.Argument(help="A revision number.")] = None) -> None:
    """Show hand edits since the last write, or what revision REV changed."""
    from todocli.app.history import diff as show_diff

    write(show_diff(Context(_options), rev))


@app.command()
def undo(
    force: Annotated[bool, typer.Option("--force", help="Discard hand edits too.")] = False,
) -> None:
    """Restore the revision before the current one (as a new revision)."""
    from todocli.app.history import undo as restore

    finish(restore(Context(_options), force), _options)


@app.command()
def sessions() -> None:
    """List every session with its progress and last update."""
    from todocli.app.sessions import sessions as list_sessions

    write(list_sessions(Context(_options)))


@app.command()
def gc(
    older_than: Annotated[str, typer.Option("--older-than", help="Age, e.g. 30d, 12h.")] = "30d",
) -> None:
    """Remove sessions not written for a while (their logs stay)."""
    from todocli.app.sessions import gc as collect

    write(collect(Context(_options), older_than))


@app.command()
def config() -> None:
    """Print the effective settings and where each came from."""
    done_with(entry.config(_options))


@app.command("__complete", hidden=True)
def complete(
    kind: Annotated[str, typer.Argument(help="sessions, tasks or phases.")],
) -> None:
    """Candidates for shell completion, one a line (used by the completion scripts)."""
    done_with(entry.complete(_options, kind))


@app.command()
def edit() -> None:
    """Open the list in $VISUAL or $EDITOR; check it and save it as a revision."""
    from todocli.cli.editor import edit as run_editor

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
    from todocli.cli.watch import watch as live

    raise typer.Exit(live(Context(_options), color_allowed(_options), all_))


@app.command()
def mcp() -> None:
    """Serve the lists to MCP clients over stdio (pip install 'todocli[mcp]')."""
    from todocli.mcp.mcp_tools import serve

    done_with(serve(_options))


# -- the boundary ---------------------------------------------------------------------------


class _Words(io.StringIO):
    """Click's message, kept whole: Click deletes the ANSI sequences of what it
    writes to a stream that is not a terminal, so an echoed argument would lose
    them silently; said to be a terminal, it keeps them for ``write`` to show."""

    def isatty(self) -> bool:
        return True


def run(argv: Sequence[str]) -> int:
    """Run the command line through Typer; return the exit status."""
    global _options
    _options = Options(json="--json" in argv, plain="--plain" in argv)

    def body() -> int:
        args = entry.hoist(argv)
        try:
            code = app(args=args, prog_name="todo", standalone_mode=False)
        except ClickException as exc:
            if "--json" in args:
                entry.emit_error_json(UsageError(exc.format_message()))
            # Click echoes the offending argument: write its words through the same
            # escaping as everything else, never straight to the terminal.
            words = _Words()
            exc.show(file=words)
            write(words.getvalue(), STDERR)
            return 2
        except (BrokenPipeError, TodoError):
            raise
        except OSError as exc:  # Click's own output (help, version) failed to go out
            from todocli.storage.files import reason

            raise OutputError(f"cannot write to standard output: {reason(exc)}") from None
        return code if isinstance(code, int) else 0

    return entry.guard(body, lambda: _options)
