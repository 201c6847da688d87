"""``todo mcp``'s tools and resources as plain functions, free of the MCP SDK.

Each tool takes the call's arguments and the server's global options and returns a
``Reply``: the plain text the command line prints, the JSON envelope ``--json``
prints, and whether the call failed. They run the very functions the command line
runs (``todo apply``'s ``commands.apply_input``, ``todo show``, ``todo check``), so
an agent on MCP and an agent on the shell see the same lists, engine, locks and
revisions. ``mcp_server`` puts these on the wire with the SDK; ``serve`` (the
command's entry) is the only place that imports it.
"""

from __future__ import annotations

import os

from todocli.app import commands
from todocli.app.commands import Context, Options, Outcome
from todocli.app.output import failure_message
from todocli.app.render import envelope, plain
from todocli.base import TYPE_CHECKING, is_session_name
from todocli.document.model import TodoList
from todocli.errors import (
    InternalError,
    InvalidParamError,
    NotFoundError,
    TodoError,
)
from todocli.escapes import one_line, quoted, utf8_safe
from todocli.storage import paths
from todocli.storage.files import read_text
from todocli.storage.store import DEFAULT_MAX_FILE_BYTES, running

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

SESSION_URI = "todo://sessions/"  # + a session name: that session's markdown
MARKDOWN = "text/markdown"
INSTRUCTIONS = (
    "A markdown todo checklist you share with the user, who may edit it in any editor. "
    "Plan with todo_write (a snapshot of the whole list, or ops such as start/done), "
    "keep exactly one task in_progress, and mark each task completed as soon as it is "
    "done. todo_read shows the list; call todo_check before you end a turn: it fails "
    "while tasks are open. Each session's markdown is a resource you can subscribe to. "
    "When several agents work one plan, each names itself (the agent argument) and "
    "takes its next task with todo_claim."
)


class Reply:
    """One tool call's answer: plain text, the JSON envelope, and whether it failed."""

    __slots__ = ("data", "failed", "text")

    def __init__(self, text: str, data: dict[str, Any] | None, failed: bool) -> None:
        self.text = text
        self.data = data
        self.failed = failed


class Tool:
    """A tool as the server lists it, and the function that runs it."""

    __slots__ = ("description", "input_schema", "name", "read_only", "run", "title")

    def __init__(
        self,
        name: str,
        title: str,
        description: str,
        input_schema: dict[str, Any],
        run: Callable[[Context, dict[str, Any]], Reply],
        read_only: bool,
    ) -> None:
        self.name = name
        self.title = title
        self.description = description
        self.input_schema = input_schema
        self.run = run
        self.read_only = read_only


# -- arguments ------------------------------------------------------------------------------

# (A name is checked as the command line checks it, with the same message: the
# patterns are left out of the schemas, which every call of the client carries.)
_SESSION_ARG = {"type": "string", "description": "Another session (list) than the server's."}
_AGENT_ARG = {"type": "string", "description": "This agent's name, if several share a plan."}
_IF_REV_ARG = {
    "type": "integer",
    "minimum": 0,
    "description": "Write only at this revision (context.rev), else CONFLICT.",
}


def _call_options(
    defaults: Options, args: dict[str, Any], if_rev: bool = False, agent: bool = False
) -> Options:
    """The options of one call: the server's, with the call's ``session`` (and
    ``if_rev``, ``agent`` for the tools that take them) taken out of ``args``."""
    session = args.pop("session", None)
    rev = args.pop("if_rev", None) if if_rev else None
    name = args.pop("agent", None) if agent else None
    if session is not None and not isinstance(session, str):
        raise InvalidParamError(f"session: expected a string, got {_kind(session)}")
    if name is not None:
        if not isinstance(name, str):
            raise InvalidParamError(f"agent: expected a string, got {_kind(name)}")
        paths.agent_name(name, {}, "agent")  # refused here, naming the argument
    if rev is not None and (not isinstance(rev, int) or isinstance(rev, bool) or rev < 0):
        raise InvalidParamError(f"if_rev: expected a revision number, got {rev!r}")
    changes: dict[str, object] = {"if_rev": rev, "base": None}
    if name is not None:
        changes["agent"] = name
    if session is not None:
        # A session named in the call wins over the server's --file list (and
        # TODOCLI_FILE: see _call_context).
        changes |= {"session": session, "file": None}
    return defaults.replace(**changes)


def _call_context(
    defaults: Options, args: dict[str, Any], if_rev: bool = False, agent: bool = False
) -> Context:
    """The context of one call; a call that names its session reads no
    ``TODOCLI_FILE``, so the session it names is the list it gets."""
    named = args.get("session") is not None
    options = _call_options(defaults, args, if_rev, agent)
    if not named:
        return Context(options)
    env = {k: v for k, v in os.environ.items() if k != "TODOCLI_FILE"}
    return Context(options, env)


def _kind(value: object) -> str:
    return "null" if value is None else type(value).__name__


def _only(args: dict[str, Any], tool: str) -> None:
    """Reject an argument the tool does not take: a typo must not pass unnoticed.
    What it takes is what its input schema lists (session, agent and if_rev were
    taken out of ``args`` already, for the tools whose schema has them)."""
    allowed = TOOLS[tool].input_schema["properties"]
    for key in args:
        if key not in allowed:
            takes = ", ".join(allowed)
            raise InvalidParamError(f"unknown argument {quoted(key)} ({tool} takes: {takes})")


# -- replies --------------------------------------------------------------------------------


def _reply(outcome: Outcome) -> Reply:
    text = plain(outcome)
    if outcome.warnings:  # the command line prints these on stderr
        text += "".join(f"todo: warning: {one_line(w)}\n" for w in outcome.warnings)
    return Reply(text, structured(envelope(outcome)), outcome.failed)


def structured(data: dict[str, Any]) -> dict[str, Any]:
    """A tool's structured content: the ``--json`` envelope without what the call's
    text content or its own arguments already hold (``text``, ``instructions``,
    ``context.params_input``) and without ``changes.old_todos``/``new_todos`` (the
    list is ``data.todos``)."""
    compact = {k: v for k, v in data.items() if k not in ("text", "instructions")}
    changes = compact.get("changes")
    if isinstance(changes, dict):
        compact["changes"] = {
            k: v for k, v in changes.items() if k not in ("old_todos", "new_todos")
        }
    context = compact.get("context")
    if isinstance(context, dict):
        compact["context"] = {k: v for k, v in context.items() if k != "params_input"}
    return compact


def error_reply(error: TodoError) -> Reply:
    """A call that failed as a whole: what ``todo --json`` and plain stdout say."""
    outcome = Outcome(todo=TodoList(), error=error)
    return Reply(f"Errors: {failure_message(outcome)}\n", structured(envelope(outcome)), True)


# -- the tools ------------------------------------------------------------------------------


def _write(ctx: Context, args: dict[str, Any]) -> Reply:
    """``todo apply``: ops, a snapshot in any agent's shape, or markdown."""
    import json

    if "markdown" in args:
        text = args.pop("markdown")
        if args:
            raise InvalidParamError(
                f'markdown: give the list as markdown alone, not with "{next(iter(args))}"'
            )
        if not isinstance(text, str):
            raise InvalidParamError(f"markdown: expected a string, got {_kind(text)}")
        # A lone surrogate (JSON allows "\ud800") is not UTF-8: the engine says so.
        data = text.encode("utf-8", "surrogatepass")
        return _reply(commands.apply_input(ctx, data, markdown=True, with_rev=True))
    # The arguments are the payload `todo apply` would read, as JSON text: the same
    # path, the input limit included (non-ASCII text counts as its \u escapes).
    data = json.dumps(args).encode("ascii")
    return _reply(commands.apply_input(ctx, data, with_rev=True))


def _read(ctx: Context, args: dict[str, Any]) -> Reply:
    _only(args, "todo_read")
    return _reply(commands.show(ctx, with_rev=True))  # the envelope carries the revision


def _claim(ctx: Context, args: dict[str, Any]) -> Reply:
    """``todo claim [TASK]``: the next task free to start, or the one named, taken
    for this call's agent."""
    _only(args, "todo_claim")
    task = args.get("task")
    if task is not None and not isinstance(task, str):
        raise InvalidParamError(f"task: expected a string, got {_kind(task)}")
    return _reply(commands.claim(ctx, task))


def _check(ctx: Context, args: dict[str, Any]) -> Reply:
    """``todo check``: fails (isError) while tasks are open, listing them."""
    from todocli.app.wiring.gate import check

    _only(args, "todo_check")
    verify = args.get("verify", False)
    if not isinstance(verify, bool):
        raise InvalidParamError(f"verify: expected a boolean, got {_kind(verify)}")
    outcome = check(ctx, with_rev=True, verify=verify)
    from todocli.app.wiring.gate import check_text

    text = check_text(outcome.todo)
    if outcome.error is not None and outcome.error.code == "STALE_EVIDENCE":
        text += f"Stale evidence: {outcome.error.message}\n"  # as `todo check` says it
    return Reply(text, structured(envelope(outcome)), outcome.failed)


def _write_schema() -> dict[str, Any]:
    """``todo_write``'s arguments, in brief: every op and field is checked as
    ``todo apply`` checks it, and ``todo schema ops`` / ``todo schema snapshot``
    (or ``todo://schema/...``) give them in full."""
    from todocli.engine.schema import OP_SCHEMAS

    names = ", ".join(op["properties"]["op"]["const"] for op in OP_SCHEMAS)
    return {
        "type": "object",
        "properties": {
            "ops": {
                "type": "array",
                "items": {"type": "object"},
                "description": f"Applied in order, all or none. op: {names}; task: "
                "content or #N; phase, items, text, reason as the op needs.",
            },
            "todos": {
                "type": "array",
                "items": {"type": "object"},
                "description": "The whole list: {content, status, activeForm?}; status "
                "pending, in_progress, completed, abandoned or blocked.",
            },
            "summary": {"type": "string"},
            "markdown": {"type": "string", "description": "The whole list as markdown."},
            "session": _SESSION_ARG,
            "agent": _AGENT_ARG,
            "if_rev": _IF_REV_ARG,
        },
    }


def _tools() -> dict[str, Tool]:
    only_session = {
        "type": "object",
        "properties": {"session": _SESSION_ARG},
        "additionalProperties": False,
    }
    tools = [
        Tool(
            "todo_write",
            "Update the todo list",
            "Change the list the user sees (as `todo apply`): ops such as "
            '{"ops": [{"op": "done", "task": "Run tests"}, {"op": "start", "task": "#3"}]}, '
            'or the whole list {"todos": [...]}. Keep one task in_progress; complete each '
            "as soon as it is done. Returns what changed, the user's edits and a recap.",
            _write_schema(),
            _write,
            read_only=False,
        ),
        Tool(
            "todo_read",
            "Show the todo list",
            "The whole list: open tasks, phases, notes of the task in progress, a recap.",
            only_session,
            _read,
            read_only=True,
        ),
        Tool(
            "todo_check",
            "Check that nothing is open",
            "Call before ending your turn: isError while a task is open (an agent's own, "
            "with agent) or a done task's check is stale (verify: rerun those checks).",
            {
                "type": "object",
                "properties": {
                    "session": _SESSION_ARG,
                    "agent": _AGENT_ARG,
                    "verify": {"type": "boolean"},
                },
                "additionalProperties": False,
            },
            _check,
            read_only=True,
        ),
        Tool(
            "todo_claim",
            "Claim the next task",
            "For several agents on one plan: takes the first free pending task (or the "
            "one named) for this agent; isError when none can be. data.task is the task: "
            "finish it by name with a done op.",
            {
                "type": "object",
                "properties": {
                    "task": {"type": "string", "description": "Content or #N."},
                    "agent": _AGENT_ARG,
                    "session": _SESSION_ARG,
                    "if_rev": _IF_REV_ARG,
                },
                "additionalProperties": False,
            },
            _claim,
            read_only=False,
        ),
    ]
    return {tool.name: tool for tool in tools}


TOOLS = _tools()


def call(name: str, arguments: Mapping[str, Any] | None, defaults: Options) -> Reply:
    """Run one tool; every failure becomes an error reply, never an exception."""
    from todocli.engine.dialects import refuse_deep, refuse_surrogates

    tool = TOOLS[name]
    running(f"todo mcp {name}")  # each revision the call writes records it
    args = dict(arguments or {})
    try:
        refuse_deep(args, "arguments: ")  # before anything walks them by recursion
        refuse_surrogates(args, "")  # as `todo apply` refuses them in its JSON
        takes_agent = "agent" in tool.input_schema["properties"]
        ctx = _call_context(defaults, args, if_rev=not tool.read_only, agent=takes_agent)
        reply = tool.run(ctx, args)
    except TodoError as error:
        reply = error_reply(error)
    except Exception as exc:  # the server outlives every call: one line, as the CLI's
        if os.environ.get("TODOCLI_DEBUG") == "1":
            import traceback

            traceback.print_exc()
        reply = error_reply(InternalError(f"internal error: {type(exc).__name__}: {exc}"))
    return Reply(_utf8(reply.text), _utf8(reply.data), reply.failed)


def _utf8(value: Any) -> Any:  # noqa: ANN401 - a JSON value of any shape, kept as it is
    """The reply with every string made writable as UTF-8: a list's bytes that are
    not UTF-8 (read as surrogates) become escapes, as the command line shows them.
    A string that cannot be encoded would stop the SDK from answering at all."""
    if isinstance(value, str):
        return utf8_safe(value)
    if isinstance(value, dict):
        return {_utf8(k): _utf8(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_utf8(v) for v in value]
    return value


# -- resources ------------------------------------------------------------------------------


class Resource:
    """A list the server offers as a resource: its URI, a name, and its file."""

    __slots__ = ("description", "name", "path", "uri")

    def __init__(self, uri: str, name: str, path: str, description: str) -> None:
        self.uri = uri
        self.name = name
        self.path = path
        self.description = description


def file_uri(path: str) -> str:
    from pathlib import Path

    return Path(path).as_uri()


def _session_resource(defaults: Options, name: str) -> Resource:
    ctx = _call_context(defaults, {"session": name})
    return Resource(SESSION_URI + name, name, ctx.loc.list_file, f"The todo list of session {name}")


def default_resource(defaults: Options) -> Resource:
    """The server's own list: its ``--file`` list, or its session."""
    ctx = _call_context(defaults, {})
    if ctx.loc.is_session:
        return _session_resource(defaults, ctx.loc.session)
    path = ctx.loc.list_file
    return Resource(file_uri(path), os.path.basename(path), path, f"The todo list {path}")


def resources(defaults: Options) -> list[Resource]:
    """The server's own list first, then every session under the home."""
    first = default_resource(defaults)
    folder = os.path.join(_call_context(defaults, {}).loc.home, "sessions")
    try:
        names = sorted(n[:-3] for n in os.listdir(folder) if n.endswith(".md"))
    except OSError:
        names = []
    found = [first]
    for name in names:
        if is_session_name(name) and SESSION_URI + name != first.uri:
            found.append(_session_resource(defaults, name))
    return found


def resource(uri: str, defaults: Options) -> Resource:
    """The list a URI names (it need not exist yet); NotFoundError for any other URI,
    UsageError for a session name the rule refuses."""
    if uri.startswith(SESSION_URI):
        name = uri[len(SESSION_URI) :]
        paths.check_session(name)
        return _session_resource(defaults, name)
    first = default_resource(defaults)
    if uri == first.uri:
        return first
    raise NotFoundError(
        f"unknown resource {uri!r} (lists are {SESSION_URI}<session>, or {first.uri})"
    )


def read(uri: str, defaults: Options) -> str:
    """A list's markdown as it is on disk (empty when it does not exist yet)."""
    text = read_text(resource(uri, defaults).path, DEFAULT_MAX_FILE_BYTES, "max_file_bytes")
    # Bytes that are not UTF-8 (read as U+DC80..U+DCFF) show as \xNN, as the command
    # line shows them, not as \udcNN.
    return utf8_safe(text)
