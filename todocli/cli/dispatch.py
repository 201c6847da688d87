"""From a call, as read by either front end, to the command's body, and from its answer or its
failure to output and an exit status. Both parsers build a ``Call`` (and its ``Output``, how to
print), defined here: this module imports neither.

One function per command of the table, named after it, taking the command's values as keyword
arguments: each calls one function of the app layer and prints what it answers with ``emit`` (the
JSON envelope, plain text for the agent's path, or rich output for a person at a terminal: chosen
here, once; the text and the envelope are ``app.render``'s). None holds a command's logic.
``guard`` is the one error boundary: nothing below it prints an error or exits. What a failure
prints depends on the command (``Command.failure`` in the table): most say ``Errors: ...`` on
stdout (or carry the JSON envelope) and one line on stderr; ``todo remind`` and ``todo __complete``
never fail a harness or a shell; ``todo mcp``'s stdout belongs to its protocol.
"""

from __future__ import annotations

import os
import sys

from todocli.app import commands
from todocli.app.commands import Context, Outcome
from todocli.app.output import STDERR, OutputError, failure_message, warning_lines, write
from todocli.base import TYPE_CHECKING, safe_session
from todocli.cli.command_table import NEVER_FAILS, PROTOCOL, REPORT
from todocli.document.model import Status, TodoList
from todocli.errors import InternalError, StorageError, TodoError, UsageError
from todocli.escapes import one_line, quoted, shown_as
from todocli.storage.store import running

if TYPE_CHECKING:
    from collections.abc import Callable

    from todocli.app.commands import Options, Outcome
    from todocli.app.report import Report
    from todocli.cli.command_table import Argument, Command, Option


class Output:
    """How one invocation prints: the output options. (Which list, and how a write
    treats it, is ``Options``: the commands never see these.)"""

    __slots__ = ("json", "no_color", "plain", "quiet")

    def __init__(
        self,
        *,
        json: bool = False,
        plain: bool = False,
        quiet: bool = False,
        no_color: bool = False,
    ) -> None:
        self.json = json
        self.plain = plain
        self.quiet = quiet
        self.no_color = no_color


class Call:
    """One invocation as read: the command (None until known), the list options,
    the output options, and the values of the command's own arguments and options
    (by ``dest``)."""

    __slots__ = ("command", "options", "output", "values")

    def __init__(
        self,
        command: Command | None,
        options: Options,
        output: Output,
        values: dict[str, object] | None = None,
    ) -> None:
        self.command = command
        self.options = options
        self.output = output
        self.values = values if values is not None else {}


def run(call: Call) -> int:
    """Run the call's command; its exit status."""
    assert call.command is not None
    if call.command.writes:
        _refuse_undecodable(call.command, call.values)
    running(f"todo {call.command.name}")  # each revision it writes records it
    return HANDLERS[call.command.name](call, **call.values)


def _refuse_undecodable(command: Command, values: dict[str, object]) -> None:
    """An argument of a write that is not UTF-8 is a usage error (exit 2): a task,
    note or name goes into a UTF-8 file and could not be written faithfully, nor
    named as such. A path may hold any bytes (a legal file name), so
    ``complete="files"`` values pass, as do the arguments of read-only commands (a
    log's file name). Python reads such bytes as U+DC80..U+DCFF (surrogateescape)."""
    items: list[Argument | Option] = [*command.arguments, *command.options]
    for item in items:
        if item.complete == "files":
            continue
        given = values.get(item.dest)
        for value in given if isinstance(given, list) else (given,):
            if isinstance(value, str) and not value.isprintable():
                bad = next((c for c in value if "\udc80" <= c <= "\udcff"), None)
                if bad is not None:
                    raise UsageError(
                        f"{item.dest.upper()} is not UTF-8 (byte {shown_as(bad)} in "
                        f"{quoted(value)}): list text is UTF-8; only a path may hold other bytes"
                    )


def _context(call: Call) -> Context:
    return Context(call.options)


# -- the list: read and write it ---------------------------------------------------------------


def show(call: Call, *, show_all: bool, notes: bool, tool: str | None) -> int:
    output = call.output
    outcome = commands.show(_context(call), with_rev=output.json)
    if tool is not None:
        from todocli.agents import reply_text

        text = reply_text(tool, outcome.todo)  # checks the tool's name first
        outcome.reply_as = tool  # the envelope's data.reply in that shape too
        if not output.json:
            if not output.quiet:
                write(text)
            return 0
    return emit(outcome, output, show_all=show_all, notes=notes)


def init(call: Call, *, tasks: list[str], phase: str | None, summary: str | None) -> int:
    if call.options.project:
        from todocli.app.wiring.gitrepo import init_project

        outcome, report = init_project(call.options, tasks, phase, summary=summary)
        return (
            emit(outcome, call.output) if outcome is not None else emit_report(report, call.output)
        )
    return emit(commands.init(_context(call), tasks, phase, summary=summary), call.output)


def add(
    call: Call, *, tasks: list[str], phase: str | None, after: list[str], check: str | None
) -> int:
    return emit(commands.add(_context(call), tasks, phase, after=after, check=check), call.output)


def claim(call: Call, *, task: str | None) -> int:
    return emit(commands.claim(_context(call), task), call.output)


def start(call: Call, *, task: str) -> int:
    return emit(commands.start(_context(call), task), call.output)


def done(
    call: Call,
    *,
    tasks: list[str],
    phase: str | None,
    everything: bool,
    note: str | None,
    no_check: bool,
    evidence: str | None,
) -> int:
    outcome = commands.done(
        _context(call),
        tasks,
        phase,
        everything=everything,
        note=note,
        no_check=no_check,
        evidence=evidence,
    )
    return emit(outcome, call.output)


def drop(call: Call, *, tasks: list[str], phase: str | None, everything: bool) -> int:
    return emit(commands.drop(_context(call), tasks, phase, everything=everything), call.output)


def rm(call: Call, *, tasks: list[str], phase: str | None, everything: bool) -> int:
    outcome = commands.remove(_context(call), tasks, phase, everything=everything)
    return emit(outcome, call.output)


def note(call: Call, *, task: str, text: str) -> int:
    return emit(commands.note(_context(call), task, text), call.output)


def block(call: Call, *, task: str, reason: str | None) -> int:
    return emit(commands.block(_context(call), task, reason), call.output)


def unblock(call: Call, *, task: str) -> int:
    return emit(commands.unblock(_context(call), task), call.output)


def clear(call: Call, *, everything: bool) -> int:
    return emit(commands.clear(_context(call), everything=everything), call.output)


def apply(call: Call, *, input_file: str | None, markdown: bool) -> int:
    output = call.output
    ctx = _context(call)
    data = _payload(input_file, ctx.settings.max_input_bytes)
    outcome = commands.apply_input(ctx, data, markdown=markdown, with_rev=output.json)
    req = outcome.request
    if req is not None and req.hook is not None and req.ignored and not output.json:
        return 0  # a hook on every tool must be harmless: nothing written or said
    event = _hook_event(outcome)
    if event is not None and not output.json:
        from todocli.app.render import hook_reply

        reply = hook_reply(outcome, event, quiet=output.quiet)
        if reply is not None:
            # Success or refusal, in the hook's JSON: the harness reads it on exit 0.
            write(reply)
            return 0
    return emit(outcome, output)


def _hook_event(outcome: Outcome) -> str | None:
    """The hook event a payload came in (a rejected one's too), if it came in one."""
    req = outcome.request
    if req is not None and req.hook is not None:
        return req.hook.event
    params = outcome.params_input
    if isinstance(params, dict) and "tool_name" in params:
        event = params.get("hook_event_name")
        return event if isinstance(event, str) else None
    return None


# -- what a command reads besides its arguments ------------------------------------------------
#
# ``todo apply``'s payload (stdin or ``-i FILE``) and a harness hook's JSON
# (``--hook``). (Here, not in a module of their own: every apply reads one.)

HOOK_INPUT_BYTES = 1 << 20


def _payload(input_file: str | None, limit: int) -> bytes:
    """``todo apply``'s input, at most ``limit`` bytes and one more (so that the
    reader can tell the input was too big)."""
    if input_file is not None and input_file != "-":
        try:
            with open(input_file, "rb") as handle:
                return handle.read(limit + 1)
        except OSError as exc:
            raise StorageError(f"cannot read {input_file}: {exc.strerror or exc}") from None
    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError("todo apply reads JSON from stdin: pipe a payload in, or use -i FILE")
    return sys.stdin.buffer.read(limit + 1)


def _hook_session(options: Options, envelope: dict[str, object] | None = None) -> Options:
    """``--hook``: read the harness hook's JSON on stdin; its ``session_id`` names
    the session (made safe, as ``todo apply`` does with an envelope), unless ``-s``
    or ``TODOCLI_SESSION`` names one. So a Stop hook checks the list the agent's
    own-tool hook writes. ``envelope``, when given, receives the hook's JSON."""
    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError("--hook reads the hook's JSON from stdin")
    from todocli.engine.dialects import decode

    value = decode(sys.stdin.buffer.read(HOOK_INPUT_BYTES + 1), HOOK_INPUT_BYTES)
    if envelope is not None and isinstance(value, dict):
        envelope.update(value)
    # Augment names the session conversation_id
    session = (
        value.get("session_id", value.get("conversation_id")) if isinstance(value, dict) else None
    )
    chosen = options.session or options.file or options.project or os.environ.get("TODOCLI_SESSION")
    if isinstance(session, str) and not chosen:
        from todocli.storage.agent_sessions import hooked_plan  # a hooked session's plan

        named = safe_session(session) or ""
        options.session = hooked_plan(Context(options).loc.home, named) or named or None
    return options


# -- around an agent's turns -------------------------------------------------------------------


def _hooked(call: Call, hook: bool) -> Context:
    if hook:
        return Context(_hook_session(call.options))
    return _context(call)


def check(call: Call, *, hook: bool, verify: bool) -> int:
    from todocli.app.wiring.gate import check as check_list

    output = call.output
    envelope: dict[str, object] = {}
    ctx = Context(_hook_session(call.options, envelope)) if hook else _context(call)
    outcome = check_list(ctx, with_rev=output.json, verify=verify)
    if hook and outcome.failed and _stop_allowed(outcome, envelope):
        outcome.error = None  # a stop gate blocks once in a row, and never on the person
    if output.json:
        return emit(outcome, output)
    if not output.quiet:
        from todocli.app.wiring.gate import check_text

        write(check_text(outcome.todo, ctx.agent, outcome.reopened, outcome.taken))
        if outcome.error is not None and outcome.error.code == "STALE_EVIDENCE":
            write(f"Stale evidence: {one_line(outcome.error.message)}\n")
    return outcome.exit_code


def _stop_allowed(outcome: Outcome, envelope: dict[str, object]) -> bool:
    """Whether a hook's stop gate lets the agent stop although tasks are open:
    this stop was blocked once already (``stop_hook_active``), or every open task
    is blocked on the person."""
    if envelope.get("stop_hook_active") is True:
        return True
    open_tasks = [t for _, t in outcome.todo.tasks() if t.is_due]
    return bool(open_tasks) and all(t.status is Status.BLOCKED for t in open_tasks)


def allow(call: Call, *, tasks: list[str], digests: list[str] | None = None) -> int:
    from todocli.app.evidence.allow import allow as allow_checks

    return emit_report(allow_checks(_context(call), tasks, digests or ()), call.output)


def remind(call: Call, *, every: int | None, hook: bool) -> int:
    from todocli.app.wiring.gate import remind as count_round

    return emit_report(count_round(_hooked(call, hook), every), call.output)


def hook(call: Call, *, agent: str) -> int:
    from todocli.app.hooks import hook as answer

    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError("todo hook reads the hook's JSON from stdin")
    data = sys.stdin.buffer.read(HOOK_INPUT_BYTES + 1)
    reply = answer(call.options, agent, data, os.environ)
    if reply:
        write(reply)
    return 0


def setup(
    call: Call, *, tool: str, user: bool, dry_run: bool, remove: bool, mcp: bool, plan: str | None
) -> int:
    from todocli.app.wiring.setup import setup as wire

    home = _context(call).loc.home
    report = wire(home, tool, user=user, dry_run=dry_run, remove=remove, mcp=mcp, plan=plan)
    return emit_report(report, call.output)


def doctor(call: Call) -> int:
    from todocli.app.wiring.doctor import doctor as diagnose

    return emit_report(diagnose(_context(call)), call.output)


# -- about the list and its files ----------------------------------------------------------


def log(call: Call, *, name: str | None, list_all: bool) -> int:
    from todocli.app.logs import log as read_log

    return emit_report(read_log(_context(call), name, list_all=list_all), call.output)


def path(call: Call) -> int:
    from todocli.app.configuration import path as list_path

    return emit_report(list_path(_context(call)), call.output)


def config(call: Call) -> int:
    from todocli.app.configuration import config as settings

    return emit_report(settings(_context(call)), call.output)


def schema(call: Call, *, kind: str | None) -> int:
    from todocli.app.schemas import schema as build

    return emit_report(build(kind), call.output)


def history(call: Call) -> int:
    from todocli.app.history import history as revisions

    return emit_report(revisions(_context(call)), call.output)


def diff(call: Call, *, rev: int | None) -> int:
    from todocli.app.history import diff as changes

    return emit_report(changes(_context(call), rev), call.output)


def undo(call: Call, *, force: bool) -> int:
    from todocli.app.history import undo as restore

    return emit(restore(_context(call), force=force), call.output)


def redo(call: Call) -> int:
    from todocli.app.history import redo as restore

    return emit(restore(_context(call)), call.output)


def sessions(call: Call) -> int:
    from todocli.app.sharing.sessions import sessions as listing

    return emit_report(listing(_context(call)), call.output)


def gc(call: Call, *, older_than: str) -> int:
    from todocli.app.sharing.sessions import gc as collect

    return emit_report(collect(_context(call), older_than), call.output)


def merge_driver(
    call: Call, *, base: str, ours: str, theirs: str, path: str | None, marker_size: int
) -> int:
    from todocli.app.wiring.gitmerge import merge_driver as run_driver

    report = run_driver(base, ours, theirs, path, marker_size=marker_size)
    if call.output.json:
        emit_report(report, call.output)
    else:
        for line in report.data["messages"]:
            sys.stderr.write(line + "\n")
    return 1 if report.data["conflicts"] else 0


def complete(call: Call, *, kind: str) -> int:
    from todocli.app.completion import candidates

    return emit_report(candidates(_context(call), kind), call.output)


# -- for a person at a terminal, and other front ends ---------------------------------------


def edit(call: Call) -> int:
    from todocli.app.edit import edit as run_editor

    def confirm(warnings: list[str]) -> bool:
        for warning in warnings:
            write(f"todo: warning: {one_line(warning)}\n", STDERR)
        if not sys.stdin.isatty():
            return False
        import typer  # a person at a terminal: this command never runs on the fast path

        return typer.confirm("Save it anyway?", default=False, err=True)

    return emit(run_editor(_project_context(call), confirm), call.output)


def watch(call: Call, *, show_all: bool) -> int:
    from todocli.cli.watch import watch as live

    out, ctx = call.output, _project_context(call)
    rich, color = not plain_output(out), color_allowed(out)
    return live(ctx, rich=rich, color=color, json=out.json, show_all=show_all)


def _project_context(call: Call) -> Context:
    """For a person: with no list named (no session, no file), the list an agent's
    hooks wrote most recently in this directory, if any."""
    ctx = _context(call)
    options = call.options
    env = os.environ
    named = options.session or options.file or env.get("TODOCLI_SESSION")
    if named or env.get("TODOCLI_FILE") or not ctx.loc.is_session or ctx.loc.agent_plan:
        return ctx  # a list named, the project plan, or the agent session's own plan
    from todocli.app.hooks import project_lists

    found = project_lists(ctx.loc.home, os.getcwd())
    if not found:
        return ctx
    options.session = found[0][1]
    return Context(options)


def mcp(call: Call) -> int:
    from todocli.mcp.serve import serve

    return serve(call.options)


def serve(call: Call, *, port: int, host: str, open_page: bool) -> int:
    from todocli.serve.command import serve as board  # Starlette, uvicorn: here alone

    return board(call.options, port=port, host=host, open_page=open_page)


# -- answers -------------------------------------------------------------------------------------


def color_allowed(output: Output) -> bool:
    env = os.environ
    return not (output.no_color or "NO_COLOR" in env or env.get("TERM") == "dumb")


def plain_output(output: Output) -> bool:
    """Whether this call prints plain text or JSON (the agent's path), not rich."""
    return output.json or output.plain or not sys.stdout.isatty()


def emit(outcome: Outcome, output: Output, *, show_all: bool = False, notes: bool = False) -> int:
    """Render to stdout in the chosen form; one diagnostic line to stderr on
    failure. Returns the exit status."""
    for line in warning_lines(outcome.warnings):
        write(line, STDERR)
    try:
        _emit_output(outcome, output, show_all=show_all, notes=notes)
    except OutputError as error:
        raise OutputError(
            f"{error.message}; the command itself ran (any change it made stands)"
        ) from None
    if outcome.failed:
        write(f"todo: {failure_message(outcome)}\n", STDERR)
    return outcome.exit_code


def _emit_output(outcome: Outcome, output: Output, *, show_all: bool, notes: bool) -> None:
    if not (output.quiet and not outcome.failed):
        if output.json:
            from todocli.app.render import to_json

            write(to_json(outcome))
        elif plain_output(output):
            from todocli.app.render import plain_lines

            write(plain_lines(outcome, notes=notes))
        else:
            from todocli.cli import render_rich

            color = color_allowed(output)
            render_rich.render(outcome, sys.stdout, show_all=show_all, color=color, notes=notes)


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
    from todocli.app.render import to_json

    write(to_json(Outcome(todo=TodoList(), error=error)))


# -- failures ------------------------------------------------------------------------------------


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
    # A write's failure, however early (a usage error, --if-rev, the lock), is what
    # `todo remind` tells the agent of next round.
    if call.command is not None and call.command.writes and not error.remembered:
        _remember(call, error)
    message = one_line(error.message)
    shown = getattr(error, "shown", None)  # a usage error in the Typer app's own words
    try:
        if call.output.json and failure != PROTOCOL:
            emit_error_json(error)
        elif (
            failure == REPORT and shown is None and (sys.stdout is None or not sys.stdout.isatty())
        ):
            write(f"Errors: {message}\n")
    except (OutputError, BrokenPipeError):
        silence_stdout()  # stderr below still says what went wrong
    if shown is not None:
        write(shown, STDERR)
    else:
        write(f"todo: {message}\n", STDERR)
    return 0 if failure == NEVER_FAILS else error.exit_code


def _remember(call: Call, error: TodoError) -> None:
    """Record a write command's failure for ``todo remind`` (best effort: when the
    list's location itself is what failed, there is nowhere to record it)."""
    try:  # noqa: SIM105 - contextlib would cost start-up for one suppress
        commands.remember_failure(Context(call.options), error)
    except Exception:  # bookkeeping must not hide the call's own error
        pass


# Each command of the table, by name, to its body.
HANDLERS: dict[str, Callable[..., int]] = {
    "show": show,
    "init": init,
    "add": add,
    "claim": claim,
    "start": start,
    "done": done,
    "drop": drop,
    "rm": rm,
    "note": note,
    "block": block,
    "unblock": unblock,
    "clear": clear,
    "apply": apply,
    "log": log,
    "path": path,
    "check": check,
    "allow": allow,
    "remind": remind,
    "hook": hook,
    "setup": setup,
    "doctor": doctor,
    "schema": schema,
    "history": history,
    "diff": diff,
    "undo": undo,
    "redo": redo,
    "sessions": sessions,
    "gc": gc,
    "config": config,
    "merge-driver": merge_driver,
    "__complete": complete,
    "edit": edit,
    "watch": watch,
    "mcp": mcp,
    "serve": serve,
}
