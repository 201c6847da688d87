"""The command line, declared once: every command, argument and option, with its
type and help.

Everything else is derived from this table: the agent's fast parser (``parser``),
the Typer app (``typer_app`` builds each command's signature from it), the shell
completions and the man page (``tools/generate.py``). Each command's body is the
function of the same name in ``dispatch`` (``__complete``: ``complete``), called
with the command's values as keyword arguments named by ``dest``.

The fast path imports this on every call: plain classes and literals only, nothing
imported.
"""

from __future__ import annotations

# What a command does when its body fails (``Command.failure``).
REPORT = "report"  # stdout says "Errors: ..." (or carries the JSON envelope), stderr one line
NEVER_FAILS = "never-fails"  # one line on stderr (the envelope with --json); exit 0
PROTOCOL = "protocol"  # stdout belongs to a protocol: one line on stderr, nothing on stdout


class Option:
    """An option: its spellings, where its value goes (``dest``), its type (``bool``
    for a switch, else ``str`` or ``int``), its help. ``complete`` names what a
    shell offers for its value: ``sessions``, ``phases``, ``tasks`` or ``files``.
    ``many``: it may be given again, and its value is the list of them all."""

    __slots__ = ("complete", "default", "dest", "help", "kind", "many", "metavar", "names")

    def __init__(
        self,
        *names: str,
        dest: str,
        help: str,
        kind: type = bool,
        default: object = None,
        metavar: str = "",
        complete: str | None = None,
        many: bool = False,
    ) -> None:
        self.names = names
        self.many = many
        self.dest = dest
        self.help = help
        self.kind = kind
        self.default = False if kind is bool else default
        self.metavar = metavar or (dest.upper().replace("_", "-") if kind is not bool else "")
        self.complete = complete

    @property
    def takes_value(self) -> bool:
        return self.kind is not bool


class Argument:
    """A positional argument: ``many`` takes every word left (none too); an
    ``optional`` one may be left out. ``complete`` as for ``Option``, or a tuple of
    the words a shell offers."""

    __slots__ = ("complete", "dest", "help", "kind", "many", "optional")

    def __init__(
        self,
        dest: str,
        help: str,
        *,
        kind: type = str,
        many: bool = False,
        optional: bool = False,
        complete: str | tuple[str, ...] | None = None,
    ) -> None:
        self.dest = dest
        self.help = help
        self.kind = kind
        self.many = many
        self.optional = optional or many
        self.complete = complete

    @property
    def metavar(self) -> str:
        return self.dest.upper() + ("..." if self.many else "")


class Command:
    """A command: its name, help (the first line is its summary), arguments and
    options; ``aliases`` (alias -> its help line); ``fast``: the agent's fast path
    serves it (plain or JSON output, no Typer); ``failure``: REPORT, NEVER_FAILS or
    PROTOCOL; ``hidden``: not listed in help, completions or the man page;
    ``writes``: it writes the list (its failures are what ``todo remind`` tells of,
    and its text arguments must be UTF-8)."""

    __slots__ = (
        "aliases", "arguments", "failure", "fast", "help", "hidden", "name", "options", "writes",
    )  # fmt: skip

    def __init__(
        self,
        name: str,
        help: str,
        arguments: tuple[Argument, ...] = (),
        options: tuple[Option, ...] = (),
        *,
        aliases: dict[str, str] | None = None,
        fast: bool = False,
        failure: str = REPORT,
        hidden: bool = False,
        writes: bool = False,
    ) -> None:
        self.name = name
        self.help = help
        self.arguments = arguments
        self.options = options
        self.aliases = aliases or {}
        self.fast = fast
        self.failure = failure
        self.hidden = hidden
        self.writes = writes

    def defaults(self) -> dict[str, object]:
        """Every value the command's body takes, as it is when not given."""
        values: dict[str, object] = {o.dest: [] if o.many else o.default for o in self.options}
        for a in self.arguments:
            values[a.dest] = [] if a.many else None
        return values


# -- global options: every command takes every one, before or after its name -------------------

GLOBAL_OPTIONS = (
    Option(
        "--session",
        "-s",
        dest="session",
        kind=str,
        help="Session name (default: default).",
        complete="sessions",
    ),
    Option(
        "--file",
        dest="file",
        kind=str,
        help="Use this markdown file as the list.",
        complete="files",
    ),
    Option("--home", dest="home", kind=str, help="Where lists and state live.", complete="files"),
    Option(
        "--memory-dir",
        dest="memory_dir",
        kind=str,
        help="Where completion logs go.",
        complete="files",
    ),
    Option("--json", dest="json", help="Print one JSON object."),
    Option("--plain", dest="plain", help="Print plain text."),
    Option("--quiet", "-q", dest="quiet", help="Print nothing on success."),
    Option("--no-color", dest="no_color", help="No colour."),
    Option("--if-rev", dest="if_rev", kind=int, help="Fail with exit 4 unless at this revision."),
    Option(
        "--base",
        dest="base",
        kind=int,
        help="The revision a snapshot was made from: merge with edits since.",
    ),
    Option("--partial", dest="partial", help="Apply the good ops of a batch, report the rest."),
    Option("--keep", dest="keep", help="Keep a finished list instead of wiping it."),
    Option(
        "--agent",
        dest="agent",
        kind=str,
        metavar="NAME",
        help="The agent this call works for: its claims, its own task in progress.",
    ),
    Option("--version", dest="version", help="Print the version."),
)

# -- the commands, in the order help lists them -------------------------------------------------

TASKS = Argument("tasks", "Task contents, or #N.", many=True, complete="tasks")
NEW_TASKS = Argument("tasks", "Task contents, or #N.", many=True)
TASK = Argument("task", "Task content, or #N.", complete="tasks")
PHASE = Option("--phase", "-p", dest="phase", kind=str, help="A phase name.", complete="phases")
EVERY_TASK = Option("--all", "-a", dest="everything", help="Every task.")
SHOW_ALL = Option("--all", "-a", dest="show_all", help="Do not collapse long phases.")
HOOK = Option(
    "--hook",
    dest="hook",
    help="Read a harness hook's JSON on stdin: its session_id names the list.",
)

COMMANDS = (
    Command(
        "show",
        "Show the list.",
        options=(
            SHOW_ALL,
            Option("--notes", dest="notes", help="Print every task's notes under it."),
            Option(
                "--as",
                dest="tool",
                kind=str,
                metavar="TOOL",
                help="Print the list in an agent tool's own shape (claude, codex, copilot, ...).",
            ),
        ),
        aliases={"ls": "Show the list (alias of show)."},
        fast=True,
    ),
    Command(
        "init",
        "Replace the list with these tasks (--project: the repository's TODO.md).",
        (NEW_TASKS,),
        (
            PHASE,
            Option("--summary", dest="summary", kind=str, help="What the list is for."),
            Option(
                "--project",
                dest="project",
                help="Make TODO.md at the top of this git work tree (the project plan) and "
                "register git's merge driver for it; no TASK: keep the plan it has.",
            ),
        ),
        fast=True,
        writes=True,
    ),
    Command(
        "add",
        "Append tasks (to --phase, else the last phase).",
        (NEW_TASKS,),
        (
            PHASE,
            Option(
                "--after",
                dest="after",
                kind=str,
                metavar="TASK",
                help="A task (#N or text) the new ones wait on; again for more.",
                complete="tasks",
                many=True,
            ),
            Option(
                "--check",
                dest="check",
                kind=str,
                metavar="CMD",
                help="A shell command that proves the tasks done: done runs it first.",
            ),
        ),
        aliases={"a": "Append tasks (alias of add)."},
        fast=True,
        writes=True,
    ),
    Command("start", "Mark a task in progress.", (TASK,), fast=True, writes=True),
    Command(
        "claim",
        "Take the next task free to start (or TASK) for this --agent, under the lock.",
        (Argument("task", "Task content, or #N.", optional=True, complete="tasks"),),
        fast=True,
        writes=True,
    ),
    Command(
        "done",
        "Mark tasks completed (no task: the one in progress).",
        (TASKS,),
        (
            PHASE,
            EVERY_TASK,
            Option("--note", "-n", dest="note", kind=str, help="Add a note first."),
            Option(
                "--no-check",
                dest="no_check",
                help="Complete a task with a check without running it (recorded so).",
            ),
            Option(
                "--evidence",
                dest="evidence",
                kind=str,
                metavar="TEXT",
                help="What shows it done (a commit, a test, a link): kept and logged.",
            ),
        ),
        fast=True,
        writes=True,
    ),
    Command(
        "drop",
        "Mark tasks abandoned (no task: the one in progress).",
        (TASKS,),
        (PHASE, EVERY_TASK),
        fast=True,
        writes=True,
    ),
    Command(
        "rm",
        "Remove tasks from the list.",
        (TASKS,),
        (PHASE, EVERY_TASK),
        fast=True,
        writes=True,
    ),
    Command(
        "note",
        "Add a note to a task.",
        (TASK, Argument("text", "The note.")),
        fast=True,
        writes=True,
    ),
    Command(
        "block",
        "Mark a task blocked (never started automatically).",
        (TASK,),
        (Option("--reason", "-r", dest="reason", kind=str, help="Kept as a note."),),
        fast=True,
        writes=True,
    ),
    Command("unblock", "Make a blocked task pending again.", (TASK,), fast=True, writes=True),
    Command(
        "clear",
        "Remove completed and abandoned tasks.",
        options=(Option("--all", "-a", dest="everything", help="Remove open tasks too."),),
        fast=True,
        writes=True,
    ),
    Command(
        "apply",
        "Apply JSON from stdin: ops, or a snapshot in any agent's shape.",
        options=(
            Option(
                "--input",
                "-i",
                dest="input_file",
                kind=str,
                metavar="FILE",
                help="Read from FILE instead of stdin.",
                complete="files",
            ),
            Option("--markdown", dest="markdown", help="The input is markdown, not JSON."),
        ),
        fast=True,
        writes=True,
    ),
    Command(
        "log",
        "Print this list's completion log (or list them all).",
        (Argument("name", "A log file name (see --list).", optional=True),),
        (Option("--list", "-l", dest="list_all", help="List every log file."),),
    ),
    Command("path", "Print the list's path.", fast=True),
    Command(
        "check",
        "Exit 0 when nothing is open and every check's evidence holds, else 1 (a stop gate).",
        options=(
            HOOK,
            Option(
                "--verify",
                dest="verify",
                help="Run stale checks again; reopen a task whose check now fails.",
            ),
        ),
        fast=True,
    ),
    Command(
        "allow",
        "Approve tasks' checks to run, by the digest shown (no TASK: list those not approved).",
        (TASKS,),
        (
            Option(
                "--digest",
                dest="digests",
                kind=str,
                metavar="D",
                help="The digest todo allow showed beside the check you read; again for more.",
                many=True,
            ),
        ),
        writes=False,
    ),
    Command(
        "remind",
        "Count one agent round; print a reminder when one is due (always exits 0).",
        options=(
            Option(
                "--every",
                "-e",
                dest="every",
                kind=int,
                help="Nag every N rounds (config remind_every).",
            ),
            HOOK,
        ),
        fast=True,
        failure=NEVER_FAILS,  # a reminder must never break the harness that calls it
    ),
    Command(
        "hook",
        "Answer an agent harness's hook (its JSON on stdin) in that harness's JSON.",
        (
            Argument(
                "agent",
                "The harness: claude, codex, gemini, qwen.",
                complete=("claude", "codex", "gemini", "qwen"),
            ),
        ),
        fast=True,
        failure=NEVER_FAILS,  # a hook must never break the harness that runs it
    ),
    Command(
        "setup",
        "Wire todo into an agent: its hooks and instructions (project, or --user).",
        (
            Argument(
                "tool",
                "claude, codex, gemini, cursor, copilot, qwen, opencode, cline; git.",
                complete=(
                    "claude",
                    "codex",
                    "gemini",
                    "cursor",
                    "copilot",
                    "qwen",
                    "opencode",
                    "cline",
                    "git",
                ),
            ),
        ),
        (
            Option("--user", dest="user", help="The user's configuration, not the project's."),
            Option("--dry-run", dest="dry_run", help="Print the diff; write nothing."),
            Option("--remove", dest="remove", help="Take out what setup added."),
            Option("--mcp", dest="mcp", help="Register todo mcp as an MCP server too."),
        ),
    ),
    Command(
        "doctor",
        "Say what is wired for each agent, which list this project uses, what is wrong.",
    ),
    Command(
        "schema",
        "Print a JSON Schema (draft 2020-12): apply's input, or what --json prints.",
        (
            Argument(
                "kind",
                "ops, snapshot, envelope (what --json prints), or an agent's tool: "
                "claude, codex, copilot, ...",
                optional=True,
                complete=("ops", "snapshot", "envelope"),
            ),
        ),
    ),
    Command("history", "List the revisions of the list."),
    Command(
        "diff",
        "Show hand edits since the last write, or what revision REV changed.",
        (Argument("rev", "A revision number.", kind=int, optional=True),),
    ),
    Command(
        "undo",
        "Put back the list as it was before the last change (as a new revision).",
        options=(
            Option(
                "--force",
                dest="force",
                help="Accepted, changes nothing: a hand edit is kept as a revision first.",
            ),
        ),
        writes=True,
    ),
    Command("redo", "Take the last undo back (as a new revision).", writes=True),
    Command("sessions", "List every session with its progress and last update."),
    Command(
        "gc",
        "Remove sessions not written for a while (their logs stay).",
        options=(
            Option(
                "--older-than",
                dest="older_than",
                kind=str,
                default="30d",
                help="Age, e.g. 30d, 12h.",
            ),
        ),
    ),
    Command("config", "Print the effective settings and where each came from."),
    Command(
        "merge-driver",
        "Merge two versions of a list as git's merge driver (todo init --project registers it).",
        (
            Argument("base", "The common ancestor's version (git's %O).", complete="files"),
            Argument(
                "ours", "Our version; the merge is written here (git's %A).", complete="files"
            ),
            Argument("theirs", "Their version (git's %B).", complete="files"),
            Argument("path", "The file's path in the repository (git's %P).", optional=True),
        ),
        (
            Option(
                "--marker-size",
                dest="marker_size",
                kind=int,
                default=7,
                metavar="N",
                help="Length of the conflict markers (git's %L).",
            ),
        ),
        failure=PROTOCOL,
        hidden=True,  # git runs it, not people: `todo init --project` registers it
    ),
    Command(
        "__complete",
        "Candidates for shell completion, one a line (used by the completion scripts).",
        (Argument("kind", "sessions, tasks or phases."),),
        fast=True,
        failure=NEVER_FAILS,  # a TAB press must never fail
        hidden=True,
    ),
    Command("edit", "Open the list in $VISUAL or $EDITOR; check it and save it as a revision."),
    Command(
        "watch",
        "Show the list live, re-rendered on every change, until Ctrl-C.",
        options=(SHOW_ALL,),
    ),
    Command(
        "mcp",
        "Serve the lists to MCP clients over stdio (pip install 'todocli-md[mcp]').",
        failure=PROTOCOL,
    ),
)

BY_NAME = {c.name: c for c in COMMANDS} | {alias: c for c in COMMANDS for alias in c.aliases}
DEFAULT_COMMAND = "show"  # what a bare ``todo`` runs

# Words agents and people type for a command, and the command they mean (a typo
# of a command is suggested by likeness, among the commands help lists).
SYNONYMS = {
    "complete": "done",
    "finish": "done",
    "finished": "done",
    "close": "done",
    "check-off": "done",
    "status": "show",
    "list": "show",
    "view": "show",
    "print": "show",
    "cat": "show",
    "begin": "start",
    "work": "start",
    "remove": "rm",
    "delete": "rm",
    "del": "rm",
    "cancel": "drop",
    "abandon": "drop",
    "skip": "drop",
    "new": "add",
    "append": "add",
    "create": "init",
    "plan": "init",
    "comment": "note",
}


def suggest(word: str) -> str | None:
    """The command a mistyped or synonymous WORD most likely means, or None."""
    if word in SYNONYMS:
        return SYNONYMS[word]
    from difflib import get_close_matches

    shown = [n for c in COMMANDS if not c.hidden for n in (c.name, *c.aliases)]
    close = get_close_matches(word, shown, n=1)
    return close[0] if close else None
