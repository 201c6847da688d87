"""From a call, as read by either front end, to the command's body and back to
output: one function per command of the table, named after it, taking the
command's values as keyword arguments. Each calls one function of the app layer
and prints what it answers (``emit``); none holds a command's logic.

Modules a command alone needs are imported inside it: the process starts once per
agent step, and ``todo show`` should not pay for the engine.
"""

from __future__ import annotations

import sys

from todocli.app import commands
from todocli.app.commands import Context
from todocli.cli.boundary import emit, emit_report

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from collections.abc import Callable

    from todocli.cli.fastpath import Call


def run(call: Call) -> int:
    """Run the call's command; its exit status."""
    assert call.command is not None
    return HANDLERS[call.command.name](call, **call.values)


def _context(call: Call) -> Context:
    return Context(call.options)


# -- the list: read and write it ---------------------------------------------------------------


def show(call: Call, *, show_all: bool, tool: str | None) -> int:
    output = call.output
    outcome = commands.show(_context(call), with_rev=output.json)
    if tool is not None:
        from todocli.app.render import reply_text

        text = reply_text(outcome, tool)  # checks the tool's name first
        if not output.json:
            if not output.quiet:
                from todocli.app.output import write

                write(text)
            return 0
    return emit(outcome, output, show_all)


def init(call: Call, *, tasks: list[str], phase: str | None, summary: str | None) -> int:
    return emit(commands.init(_context(call), tasks, phase, summary=summary), call.output)


def add(call: Call, *, tasks: list[str], phase: str | None) -> int:
    return emit(commands.add(_context(call), tasks, phase), call.output)


def start(call: Call, *, task: str) -> int:
    return emit(commands.start(_context(call), task), call.output)


def done(
    call: Call, *, tasks: list[str], phase: str | None, everything: bool, note: str | None
) -> int:
    outcome = commands.done(_context(call), tasks, phase, everything=everything, note=note)
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
    from todocli.cli.stdin import payload

    output = call.output
    ctx = _context(call)
    data = payload(input_file, ctx.settings.max_input_bytes)
    outcome = commands.apply_input(ctx, data, markdown=markdown, with_rev=output.json)
    req = outcome.request
    if req is not None and req.hook is not None and not output.json:
        if req.ignored:
            return 0  # a hook on every tool must be harmless: nothing written or said
        from todocli.app.render import hook_reply

        reply = hook_reply(outcome, req.hook.event)
        if reply is not None:
            from todocli.app.output import write

            write(reply)
            return outcome.exit_code
    return emit(outcome, output)


# -- around an agent's turns -------------------------------------------------------------------


def _hooked(call: Call, hook: bool) -> Context:
    if hook:
        from todocli.cli.stdin import hook_session

        return Context(hook_session(call.options))
    return _context(call)


def check(call: Call, *, hook: bool) -> int:
    from todocli.app.gate import check as check_list

    output = call.output
    outcome = check_list(_hooked(call, hook), with_rev=output.json)
    if output.json:
        return emit(outcome, output)
    if not output.quiet:
        from todocli.app.output import write
        from todocli.app.render import check_text

        write(check_text(outcome.todo))
    return outcome.exit_code


def remind(call: Call, *, every: int | None, hook: bool) -> int:
    from todocli.app.gate import remind as count_round

    return emit_report(count_round(_hooked(call, hook), every), call.output)


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


def sessions(call: Call) -> int:
    from todocli.app.sessions import sessions as listing

    return emit_report(listing(_context(call)), call.output)


def gc(call: Call, *, older_than: str) -> int:
    from todocli.app.sessions import gc as collect

    return emit_report(collect(_context(call), older_than), call.output)


def complete(call: Call, *, kind: str) -> int:
    from todocli.app.completion import candidates

    return emit_report(candidates(_context(call), kind), call.output)


# -- for a person at a terminal, and other front ends ---------------------------------------


def edit(call: Call) -> int:
    from todocli.app.edit import edit as run_editor

    def confirm(warnings: list[str]) -> bool:
        from todocli.app.output import STDERR, write
        from todocli.escapes import one_line

        for warning in warnings:
            write(f"todo: warning: {one_line(warning)}\n", STDERR)
        if not sys.stdin.isatty():
            return False
        import typer  # a person at a terminal: this command never runs on the fast path

        return typer.confirm("Save it anyway?", default=False, err=True)

    return emit(run_editor(_context(call), confirm), call.output)


def watch(call: Call, *, show_all: bool) -> int:
    from todocli.cli.watch import watch as live

    return live(_context(call), call.output, show_all)


def mcp(call: Call) -> int:
    from todocli.mcp.mcp_tools import serve

    return serve(call.options)


# Each command of the table, by name, to its body.
HANDLERS: dict[str, Callable[..., int]] = {
    "show": show,
    "init": init,
    "add": add,
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
    "remind": remind,
    "schema": schema,
    "history": history,
    "diff": diff,
    "undo": undo,
    "sessions": sessions,
    "gc": gc,
    "config": config,
    "__complete": complete,
    "edit": edit,
    "watch": watch,
    "mcp": mcp,
}
