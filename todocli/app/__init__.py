"""The commands' bodies (``commands``), shared by the command line and the MCP
server, and the values every one of them works with, here where every import of
the package loads them: which list and how a write treats it (``Options``), its
settings, locations and storage (``Context``), and what a command did, for the
renderers (``Outcome``). (A module of their own would cost every call a module
load: about 0.4M instructions, 1% of a write.) The write itself is
``transaction``'s."""

from __future__ import annotations

import os

from todocli.base import TYPE_CHECKING
from todocli.document.markdown import parse
from todocli.document.model import Result, TodoList
from todocli.errors import ConflictError, CycleError, InvalidParamError, TodoError, UsageError
from todocli.storage import config, paths
from todocli.storage.store import SETTLE_MAX, Store

if TYPE_CHECKING:
    from collections.abc import Mapping
    from datetime import datetime

    from todocli.engine.dialects import Request


class Outcome:
    """What one command did, for the renderers: the list, the engine's result, where.
    (A command that answers with something else gives a ``report.Report``.)"""

    __slots__ = (
        "claim_alone",
        "error",
        "file",
        "fresh_notes",
        "full_reply",
        "logged_to",
        "notices",
        "params_input",
        "reopened",
        "reply_as",
        "request",
        "result",
        "rev",
        "session",
        "taken",
        "todo",
        "warnings",
    )

    def __init__(
        self,
        todo: TodoList,
        result: Result | None = None,
        error: TodoError | None = None,
        session: str | None = None,
        file: str = "",
        rev: int = 0,
        params_input: object = None,
        logged_to: str | None = None,
        notices: list[str] | None = None,
        warnings: list[str] | None = None,
    ) -> None:
        self.todo = todo  # the list to show: after the command, or as it stands on error
        self.result = result  # the engine's answer, for commands that ran a batch
        self.error = error  # a failure of the whole command
        self.session = session  # None for a --file list
        self.file = file
        self.rev = rev
        self.params_input = params_input
        self.logged_to = logged_to
        self.notices = notices if notices is not None else []  # lines shown before the list
        self.warnings = warnings if warnings is not None else []  # about the file
        self.request: Request | None = None  # apply: the parsed input
        self.reply_as: str | None = None  # the tool whose shape data.reply has
        self.claim_alone = False  # `todo claim`: the task taken is the whole answer
        self.full_reply = False  # the ``reply = full`` setting: a write shows the whole list
        self.reopened: list[tuple[str, str]] = []  # `todo check --verify`: task, why
        self.taken: list[str] = []  # `todo check` of an agent session: backlog tasks it took
        # An agent tool's snapshot: the in-progress notes it had not seen (None: not one)
        self.fresh_notes: tuple[tuple[str, str], ...] | None = None

    def command(self, words: str) -> str:
        """``todo WORDS`` for this very list as a person types it in a shell of their
        own: with ``--file`` or ``--session`` unless the list is the default session
        (a hint such as "get them back with: todo undo" is then true as typed)."""
        if self.session is None:
            import shlex

            return f"todo --file {shlex.quote(self.file)} {words}"
        if self.session != paths.DEFAULT_SESSION:
            return f"todo --session {self.session} {words}"
        return f"todo {words}"

    @property
    def failed(self) -> bool:
        return self.error is not None or (self.result is not None and not self.result.ok)

    @property
    def exit_code(self) -> int:
        if self.error is not None:
            return self.error.exit_code
        if not self.failed:
            return 0
        return CycleError.exit_code if self.error_code == CycleError.code else 1

    @property
    def error_code(self) -> str | None:
        if self.error is not None:
            return self.error.code
        if self.result is not None and self.result.errors:
            codes = {e.code for e in self.result.errors}
            return codes.pop() if len(codes) == 1 else InvalidParamError.code
        return None


class Options:
    """Which list one invocation works on, and how a write treats it.

    How the result is printed (``--json``, ``--plain``, ``--quiet``, ``--no-color``)
    is the front end's business and never reaches the commands. Keyword arguments
    only: two booleans swapped by position would pass unnoticed.
    """

    __slots__ = (
        "agent",
        "base",
        "file",
        "home",
        "if_rev",
        "keep",
        "memory_dir",
        "partial",
        "project",
        "session",
    )

    def __init__(
        self,
        *,
        session: str | None = None,
        file: str | None = None,
        home: str | None = None,
        memory_dir: str | None = None,
        if_rev: int | None = None,
        base: int | None = None,
        partial: bool = False,
        keep: bool = False,
        agent: str | None = None,
        project: bool = False,
    ) -> None:
        self.session = session
        self.project = project  # --project: the repository's TODO.md (the backlog)
        self.file = file
        self.home = home
        self.memory_dir = memory_dir
        self.if_rev = if_rev
        self.base = base  # the revision a snapshot was made from (see ``merge``)
        self.partial = partial
        self.keep = keep
        self.agent = agent  # --agent; TODOCLI_AGENT is read with the other locations

    def replace(self, **changes: object) -> Options:
        """A copy with some options changed (every other one kept)."""
        values: dict[str, object] = {name: getattr(self, name) for name in self.__slots__}
        values.update(changes)
        return Options(**values)  # type: ignore[arg-type]


class Context:
    """Settings, locations and storage for one invocation."""

    def __init__(self, options: Options, env: Mapping[str, str] | None = None) -> None:
        self.options = options
        self.env = os.environ if env is None else env
        cfg = config.load(paths.default_config_file(self.env), self.env)
        self.config = cfg
        self.settings = cfg.settings
        self.loc = paths.resolve(
            home=options.home,
            session=options.session,
            file=options.file,
            memory_dir=options.memory_dir,
            env=self.env,
            config=cfg.locations,
            project=options.project,
        )
        if not self.loc.is_session:
            # A plan someone else keeps is read and edited whatever it holds; the
            # session list's limits guard what an agent adds to its own list.
            self.settings = cfg.settings.for_plan()
        self.store = Store(
            self.loc,
            self.settings.lock_timeout,
            self.settings.max_file_bytes,
            self.settings.save_pause,
        )
        self.agent = paths.agent_name(options.agent, self.env)
        plan = self.loc.agent_plan
        if self.agent is None and plan and self.loc.is_backlog:
            # An agent session on the project's backlog works there as an agent
            # named after its plan, so what it takes is its own.
            self.agent = plan

    def now(self) -> datetime:
        """The time; ``TODOCLI_NOW`` (ISO 8601) fixes it, for tests and replays."""
        from datetime import datetime

        fixed = self.env.get("TODOCLI_NOW")
        if fixed:
            try:
                return datetime.fromisoformat(fixed)
            except ValueError:
                raise UsageError(f"TODOCLI_NOW is not an ISO 8601 time: {fixed!r}") from None
        return datetime.now()

    def outcome(
        self,
        todo: TodoList,
        rev: int,
        result: Result | None = None,
        params_input: object = None,
        logged_to: str | None = None,
        warnings: list[str] | None = None,
    ) -> Outcome:
        outcome = Outcome(
            todo=todo,
            result=result,
            session=self.loc.session if self.loc.is_session else None,
            file=self.loc.list_file,
            rev=rev,
            params_input=params_input,
            logged_to=logged_to,
            warnings=warnings or [],
        )
        outcome.full_reply = self.settings.reply == "full"
        return outcome


def expect_rev(ctx: Context, rev: int) -> None:
    """``--if-rev N``: a write fails with CONFLICT unless the list is at revision N."""
    wanted = ctx.options.if_rev
    if wanted is not None and wanted != rev:
        raise ConflictError(
            f"the list is at revision {rev}, not {wanted}: someone else wrote it "
            "first; read it again (todo show) and retry"
        )


def emptied(text: str, last: str | None) -> bool:
    """Whether the list is empty or gone where todo last wrote something (once
    ``Store.settle`` has waited for it to fill)."""
    return not text.strip() and bool(last and last.strip())


# What a person who emptied the list on purpose does next (each tested).
AFRESH = "start a new list with: todo init TASK... (or keep it empty: todo clear --all)"


def emptied_story(ctx: Context, last: str, rev: int) -> str:
    """What happened to a list that is empty or gone where todo wrote tasks."""
    count = sum(1 for _ in parse(last).model().tasks())
    state = "is empty" if ctx.store.found() else "is gone"
    # A list with text but no task (prose, a heading) is waited for too: an editor
    # saving it may be half-way all the same.
    tasks = f"{count} task{'' if count == 1 else 's'}" if count else "text (and no task)"
    return (
        f"the list file {ctx.loc.list_file} {state}, but todo last wrote {tasks} to it "
        f"(revision {rev}), and it stayed so while todo waited {SETTLE_MAX:g} s: "
        "an editor may still be saving it, or it was emptied by hand"
    )
