"""``todo hook AGENT``: one command for every hook ``todo setup`` writes. It reads
the harness's envelope on stdin and answers in that harness's JSON (a hook's
plain stdout never reaches the model; Gemini CLI wants nothing but JSON there):

- SessionStart (after a start, ``--resume``, ``/clear`` or a compaction): the
  unfinished plan back into the agent's context, in the lean form, with the
  backlog tasks it took; and the session handed to its shell (the env file, or
  the reply's ``env``). A session that has no list yet continues its project's
  open plan. Where a compaction fires no SessionStart (Gemini CLI's PreCompress,
  Codex's PostCompact), the next prompt's hook (BeforeAgent, UserPromptSubmit)
  does it.
- Stop (Gemini CLI: AfterAgent): the stop gate, over the plan and the backlog
  tasks it took. It never blocks twice in a row (``stop_hook_active``), lets the
  agent stop when every open task is blocked on the person (telling the person
  so), and otherwise says what to do.
- PostToolUse (AfterTool): the agent's own todo tool mirrored (``todo apply``);
  a reply only when the agent has something to learn.

Which list: the session's plan, by the rule every door follows
(``agent_sessions.agent_session``). Each session id's record (``state/hooked/<id>.json``
under the home: the agent, the project directory, the list; the list also in
``<id>.list``, which the agent's shell reads) keeps it on the plan it started
with, and ``current/`` says which session each harness hooked last in each folder.
"""

from __future__ import annotations

import os

from todocli import agents
from todocli.app.commands import Context, Options, apply_input, show
from todocli.base import AGENT_SESSION, TYPE_CHECKING, safe_session
from todocli.document.markdown import parse
from todocli.document.model import Status
from todocli.errors import TodoError
from todocli.storage import agent_sessions

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from todocli.app.commands import Outcome
    from todocli.document.model import Task, TodoList

STOP_EVENTS = frozenset({"Stop", "AfterAgent"})
TOOL_EVENTS = frozenset({"PostToolUse", "AfterTool"})
# Where a compaction has no SessionStart of its own (Gemini CLI, Codex): the
# compaction is noted, and the next prompt's hook puts the plan back.
COMPACT_EVENTS = frozenset({"PreCompress", "PreCompact", "PostCompact"})
PROMPT_EVENTS = frozenset({"BeforeAgent", "UserPromptSubmit"})
# Each harness's quirks (its stop gate's decision, how the session reaches its
# shell) are in its agent module's descriptor: agents.HOOKS.
NO_QUIRKS = ("block", "")
STOP_REASON = 299  # the most characters of a stop reason that lists its tasks


# -- the record of each hooked session ------------------------------------------------------


def _record_path(home: str, session: str) -> str:
    return os.path.join(agent_sessions.hooked_dir(home), f"{session}.json")


def record(home: str, session: str) -> dict[str, Any] | None:
    """A hooked session's record: ``agent``, ``project``, ``list``."""
    from todocli.engine.dialects import loads_json  # the reader decode uses: no json import

    try:
        with open(_record_path(home, session), encoding="utf-8") as handle:
            value = loads_json(handle.read())
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def records(home: str) -> dict[str, dict[str, Any]]:
    """Every hooked session's record, by session id."""
    folder = agent_sessions.hooked_dir(home)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return {}
    found = {}
    for name in names:
        if name.endswith(".json"):
            one = record(home, name[:-5])
            if one is not None:
                found[name[:-5]] = one
    return found


def _save_record(home: str, session: str, value: dict[str, Any]) -> None:
    """Best effort: without its record a session still uses its own list."""
    from todocli.base.jsontext import dumps

    path = _record_path(home, session)
    temporary = f"{path}.{os.getpid()}.tmp"  # hooks of one event may run at once
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(dumps(value) + "\n")
        os.replace(temporary, path)
    except OSError:
        pass


def linked_list(home: str, session: str) -> str:
    """The list a hooked session writes (its own name, unless it continued
    another's plan)."""
    found = record(home, session)
    name = found.get("list") if found else None
    return name if isinstance(name, str) and name else session


def _list_file(home: str, name: str) -> str:
    return os.path.join(home, "sessions", f"{name}.md")


def project_lists(home: str, project: str) -> list[tuple[float, str]]:
    """The lists hooks wrote in ``project``, newest first: (last write, list)."""
    found: dict[str, float] = {}
    for one in records(home).values():
        name = one.get("list")
        if one.get("project") != project or not isinstance(name, str):
            continue
        try:
            found[name] = os.stat(_list_file(home, name)).st_mtime
        except OSError:
            continue
    return sorted(((when, name) for name, when in found.items()), reverse=True)


def _open_plan(ctx: Context, name: str) -> bool:
    try:
        with open(_list_file(ctx.loc.home, name), encoding="utf-8") as handle:
            todo = parse(handle.read()).model()
    except (OSError, UnicodeDecodeError):
        return False
    return any(t.is_due for _, t in todo.tasks())


def _choose(ctx: Context, session: str, agent: str, project: str) -> str:
    """The plan of a hooked session: its record's; for a session seen the first
    time, its own list when it has one, else its project's newest open plan. Each
    event also marks the session the newest this harness hooked in ``project``
    (how a shell the harness passes no session id finds it: ``agent_sessions.agent_session``)."""
    home = ctx.loc.home
    found = record(home, session)
    if found is not None and isinstance(found.get("list"), str):
        name = str(found["list"])
    else:
        name = session
        if not os.path.exists(_list_file(home, session)):
            for _, other in project_lists(home, project):
                if _open_plan(ctx, other):
                    name = other
                    break
        _save_record(home, session, {"agent": agent, "project": project, "list": name})
    if agent_sessions.hooked_plan(home, session) != name:
        _save_text(os.path.join(agent_sessions.hooked_dir(home), f"{session}.list"), name)
    _save_text(agent_sessions.current_path(home, agent, project), session)
    return name


def _save_text(path: str, text: str) -> None:
    """Best effort, as the record."""
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
        os.replace(temporary, path)
    except OSError:
        pass


def _named(options: Options, env: Mapping[str, str]) -> bool:
    """Whether the call names its list (then that list is used, as for any call)."""
    chosen = (options.session, options.file)
    return (
        any(c is not None for c in chosen)
        or options.project
        or bool(env.get("TODOCLI_SESSION") or env.get("TODOCLI_FILE"))
    )


# -- the hook ------------------------------------------------------------------------------


def hook(options: Options, agent: str, data: bytes, env: Mapping[str, str]) -> str:
    """The hook's reply for its event: a JSON document, or "" (nothing to say)."""
    from todocli.engine.dialects import decode

    value = decode(data, 1 << 20)
    if not isinstance(value, dict):
        return ""
    event = str(value.get("hook_event_name") or "")
    raw = value.get("session_id", value.get("conversation_id"))
    session = safe_session(raw) if isinstance(raw, str) else None
    ctx = Context(options, env)
    cwd = value.get("cwd")
    project = cwd if isinstance(cwd, str) and cwd else os.getcwd()
    if session and not _named(options, env):
        # The agent session's plan, by the one rule every door uses (agent_sessions.agent_session).
        _choose(ctx, session, agent, project)
        env = {**env, AGENT_SESSION: session}
        ctx = Context(options, env)
    if event == "SessionStart":
        return _session_start(ctx, agent, env, project)
    if session and (event in COMPACT_EVENTS or event in PROMPT_EVENTS):
        return _after_compaction(ctx, session, event, project)
    if event in STOP_EVENTS:
        return _stop(ctx, agent, value.get("stop_hook_active") is True, project)
    if event in TOOL_EVENTS or "tool_name" in value:
        return _tool(ctx, event or "PostToolUse", data)
    return ""


def _reply(value: dict[str, Any]) -> str:
    from todocli.app.render import json_text

    return json_text(value)


def _context_reply(event: str, text: str) -> str:
    return _reply({"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}})


def _which(ctx: Context) -> str:
    """How the agent names its list in shell commands: plain ``todo`` in its own
    session (its shell reaches the plan: see ``agent_sessions.agent_session``)."""
    if ctx.loc.on_agent_plan:
        return "todo"
    if not ctx.loc.is_session:
        return f"todo --file {ctx.loc.list_file}"
    return f"todo -s {ctx.loc.session}"


def _held(ctx: Context, project: str) -> list[Task]:
    """The backlog tasks the agent session holds (part of its plan)."""
    plan = ctx.loc.agent_plan
    if not plan or ctx.loc.project:
        return []
    from todocli.app.sharing.backlog import held

    return held(plan, project, ctx.env, ctx.loc.home)


def _plan_text(ctx: Context, project: str, head: str) -> str:
    """The agent's plan, lean: its list and the backlog tasks it holds; "" when
    nothing is open."""
    todo = show(ctx, seen=False).todo
    taken = _held(ctx, project)
    if not taken and not any(t.is_due for _, t in todo.tasks()):
        return ""
    lines = [f"{head} ({_which(ctx)} ...):", plan_lines(todo)]
    if taken:
        lines.append(f"{HELD}: {'; '.join(t.content for t in taken)}")
    return "\n".join(lines)


HELD = "Taken from the backlog (todo --project ...)"


def _session_start(ctx: Context, agent: str, env: Mapping[str, str], project: str) -> str:
    passed = agents.HOOKS.get(agent, NO_QUIRKS)[1]
    hooked = ctx.loc.agent_plan is not None
    session = env.get(AGENT_SESSION, "")
    if passed not in ("", "reply") and hooked and env.get(passed):
        # A file the harness runs before each shell call: plain `todo` is this plan.
        try:
            with open(env[passed], "a", encoding="utf-8") as handle:
                handle.write(f"export {AGENT_SESSION}={session}\n")
        except OSError:
            pass
    reply: dict[str, Any] = {"hookEventName": "SessionStart"}
    if passed == "reply" and hooked:
        # The harness applies these to the agent's later shell commands: plain `todo` is this plan.
        reply["env"] = {AGENT_SESSION: session}
    text = _plan_text(ctx, project, "Your todo plan")
    if text:
        reply["additionalContext"] = text
    return _reply({"hookSpecificOutput": reply}) if len(reply) > 1 else ""


def _after_compaction(ctx: Context, session: str, event: str, project: str) -> str:
    """A compaction noted; at the next prompt after one, the plan back, once."""
    home = ctx.loc.home
    found = record(home, session) or {}
    if event in COMPACT_EVENTS:
        _save_record(home, session, found | {"compacted": True})
        return ""
    if not found.get("compacted"):
        return ""
    _save_record(home, session, {k: v for k, v in found.items() if k != "compacted"})
    text = _plan_text(ctx, project, "Your todo plan after the compaction")
    return _context_reply(event, text) if text else ""


NOTES_BOUND = 600  # characters of the in-progress tasks' notes a plan put back carries


def plan_lines(todo: TodoList) -> str:
    """The plan in the lean form: the recap, the reason of each blocked task, and the
    notes of the tasks in progress (a person's instruction for the work under way
    must outlive a compaction), at most NOTES_BOUND characters of them."""
    lines = [todo.recap()]
    left, unsaid = NOTES_BOUND, 0
    for _, task in todo.tasks():
        if task.status is Status.BLOCKED and task.notes:
            lines.append(f"Blocked: {task.content}: {_reason(task.notes[-1])}")
        if task.status is not Status.IN_PROGRESS:
            continue
        for note in task.notes:
            if left <= 0:
                unsaid += 1
                continue
            said = note if len(note) <= left else note[: left - 1] + "…"
            left -= len(said)
            lines.append(f"Note on {task.content}: {said}")
    if unsaid:
        lines.append(f"({unsaid} more note{'s' if unsaid > 1 else ''}: todo show --notes)")
    return "\n".join(lines)


def _stop(ctx: Context, agent: str, active: bool, project: str) -> str:
    if active:
        return ""  # this stop was already blocked once: never twice in a row
    todo = show(ctx, seen=False).todo
    taken = _held(ctx, project)
    open_tasks = [t for _, t in todo.tasks() if t.is_due] + taken
    if not open_tasks:
        return ""
    waiting = [t for t in open_tasks if t.status is not Status.BLOCKED]
    if not waiting:
        names = "; ".join(
            t.content + (f" ({_reason(t.notes[-1])})" if t.notes else "") for t in open_tasks
        )
        count = len(open_tasks)
        return _reply(
            {
                "systemMessage": f"todo: {count} open task{'s' if count > 1 else ''} "
                f"blocked on you: {names}"
            }
        )
    count = len(waiting)
    where = _which(ctx)
    head = f"{count} todo task{'s' if count > 1 else ''} still open: "
    tail = (
        f". Before you stop, for each: {where} done TASK, or drop TASK if not needed, "
        'or block TASK -r "what you need".'
    )
    held_ones = {id(t) for t in taken}
    if any(id(t) in held_ones for t in waiting):
        # The person's backlog: finished or blocked, never dropped by the agent.
        tail += " Backlog ones: todo --project done|block TASK."
    labels = [t.content + (" (backlog)" if id(t) in held_ones else "") for t in waiting]
    reason = head + _listed(labels, STOP_REASON - len(head) - len(tail)) + tail
    decision = agents.HOOKS.get(agent, NO_QUIRKS)[0]
    return _reply({"decision": decision, "reason": reason})


def _listed(tasks: list[str], room: int) -> str:
    """The open tasks' texts, as many as ``room`` characters hold (the first one
    always), then how many more: the reason is read on every blocked stop, and
    the list is one command away."""
    shown = [tasks[0]]
    size = len(shown[0])
    for n, task in enumerate(tasks[1:], 1):
        more = f"; and {len(tasks) - n} more" if n < len(tasks) - 1 else ""
        if size + 2 + len(task) + len(more) > room:
            return "; ".join(shown) + f"; and {len(tasks) - n} more"
        shown.append(task)
        size += 2 + len(task)
    return "; ".join(shown)


def _tool(ctx: Context, event: str, data: bytes) -> str:
    """The agent's own todo tool mirrored: its reply only when the agent has
    something to learn (as ``todo apply -q``): what it sent, it knows."""
    from todocli.app.render import hook_reply

    try:
        outcome: Outcome = apply_input(ctx, data)
    except TodoError as error:  # the lock, the disk: the model learns it all the same
        return _context_reply(event, f"Errors: {error.message}\n")
    req = outcome.request
    if req is not None and req.ignored:
        return ""  # a hook on a tool that is not a todo tool: harmless, silent
    return hook_reply(outcome, event, quiet=True) or ""


def _reason(note: str) -> str:
    """A blocked task's reason, from its note (``todo block --reason`` writes
    "Blocked: REASON")."""
    return note.removeprefix("Blocked: ")
