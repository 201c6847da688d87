#!/usr/bin/env python3
"""Generate the shell completions and the man page from the command table, and
the agents' registry from their modules.

    python tools/generate.py          # write completions/, man/todo.1, the registry
    python tools/generate.py --check  # exit 1 if a checked-in file is out of date

Commands, arguments, options, their help and what a shell offers for each come
from ``todocli/cli/command_table.py``, the table the command line itself is built
from, so the files cannot drift from it (tests/test_ecosystem.py runs --check).
Completion of session names and task contents calls ``todo __complete``, which the
fast path serves without importing Typer, so a TAB press stays quick.
The agents' registry (the tables in ``todocli/agents/__init__.py``) comes from each
agent module's descriptor (``todocli/agents/descriptors.py``), as pygments
generates its ``_mapping.py`` from its lexers.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from todocli.cli import command_table as table  # noqa: E402 - after the path is set

DATE_RE = re.compile(r"^## \[[0-9][^\]]*\] - ([0-9]{4}-[0-9]{2}-[0-9]{2})", re.M)


@dataclass
class Option:
    names: list[str]
    takes_value: bool
    help: str
    metavar: str = ""
    complete: str | None = None  # sessions, phases, tasks or files
    many: bool = False  # may be given again


@dataclass
class Command:
    name: str
    help: str
    options: list[Option] = field(default_factory=list)
    arguments: list[str] = field(default_factory=list)  # metavars, "..." for many
    tasks: bool = False  # its arguments are tasks of the list
    choices: tuple[str, ...] = ()  # the words its argument takes


@dataclass
class Spec:
    global_options: list[Option]
    commands: list[Command]

    def value_options(self) -> list[Option]:
        """Every option that takes a value, globals first, each once."""
        seen: dict[tuple[str, ...], Option] = {}
        for o in [*self.global_options, *(o for c in self.commands for o in c.options)]:
            if o.takes_value:
                seen.setdefault(tuple(o.names), o)
        return list(seen.values())


def _option(option: table.Option) -> Option:
    names = sorted(option.names, key=lambda o: (not o.startswith("--"), o))
    return Option(
        names, option.takes_value, option.help, option.metavar, option.complete, option.many
    )


def spec() -> Spec:
    global_options = [_option(o) for o in table.GLOBAL_OPTIONS]
    global_options.append(Option(["--help", "-h"], False, "Show help and exit."))
    commands = []
    for command in table.COMMANDS:
        if command.hidden:
            continue
        options = [_option(o) for o in command.options]
        arguments = [a.metavar for a in command.arguments]
        tasks = any(a.complete == "tasks" for a in command.arguments)
        choices = next((a.complete for a in command.arguments if isinstance(a.complete, tuple)), ())
        summary = command.help.split("\n\n")[0].replace("\n", " ")
        commands.append(Command(command.name, summary, options, arguments, tasks, choices))
        for alias, text in command.aliases.items():
            commands.append(Command(alias, text, options, arguments, tasks, choices))
    return Spec(global_options, commands)


def _spellings(options: list[Option]) -> str:
    return "|".join(n for o in options for n in o.names)


# -- bash ---------------------------------------------------------------------------------


# The bash script's head: its helpers (no word of it comes from the table).
BASH_HELPERS = """# bash completion for todo                                    -*- shell-script -*-
# Generated from the command line by tools/generate.py: do not edit by hand.
# Install: source this file, or copy it to ~/.local/share/bash-completion/completions/todo

_todo_candidates() {
    # One candidate a line, from the fast path, for the list the line names.
    todo "${_todo_scope[@]}" __complete "$1" 2>/dev/null
}

_todo_offer() {
    # Offer the candidates of kind $1 that start with what is typed. Never through
    # compgen -W, which would run a $(...) in a task's text; each is inserted
    # quoted (printf %q), so the command line it lands in runs nothing either.
    local line quoted
    COMPREPLY=()
    while IFS= read -r line; do
        if [[ "$line" == "$cur"* ]]; then
            printf -v quoted '%q' "$line"
            COMPREPLY+=("$quoted")
        fi
    done < <(_todo_candidates "$1")
}

"""


def _bash_value_arms(valued: list[Option]) -> str:
    """What a shell offers for an option's value, by what the table says."""
    arms = []
    for kind in ("sessions", "files", "phases", "tasks"):
        names = _spellings([o for o in valued if o.complete == kind])
        if not names:
            continue
        offer = (
            'mapfile -t COMPREPLY < <(compgen -f -- "$cur")'
            if kind == "files"
            else f"_todo_offer {kind}"
        )
        arms.append(f"        {names})\n            {offer}; return ;;")
    return "\n".join(arms)


def bash(s: Spec) -> str:
    command_names = " ".join(c.name for c in s.commands)
    global_words = " ".join(n for o in s.global_options for n in o.names)
    valued = s.value_options()
    value_arms = _bash_value_arms(valued)
    plain_values = _spellings([o for o in valued if o.complete is None])
    cases = []
    for c in s.commands:
        words = " ".join(n for o in c.options for n in o.names)
        cases.append(f'        {c.name}) opts="{words}" ;;')
    value_options = sorted(
        {n for c in s.commands for o in c.options if o.takes_value for n in o.names}
        | {n for o in s.global_options if o.takes_value for n in o.names}
    )
    task_commands = "|".join(c.name for c in s.commands if c.tasks)
    choices = "\n".join(
        f'        {c.name})\n            mapfile -t COMPREPLY < <(compgen -W "{" ".join(c.choices)}"'
        ' -- "$cur") ;;'
        for c in s.commands
        if c.choices
    )
    return (
        BASH_HELPERS
        + f"""_todo() {{
    local cur prev cmd="" opts="" i word
    cur="${{COMP_WORDS[COMP_CWORD]}}"
    prev="${{COMP_WORDS[COMP_CWORD-1]}}"
    _todo_scope=()
    for ((i = 1; i < COMP_CWORD; i++)); do
        word="${{COMP_WORDS[i]}}"
        case "$word" in
            --session|-s|--file|--home)
                # Its value, once typed (the word under the cursor is not yet one).
                ((i + 1 < COMP_CWORD)) && _todo_scope+=("$word" "${{COMP_WORDS[i+1]}}")
                ((i++)) ;;
            --session=*|--file=*|--home=*|-s?*)
                _todo_scope+=("$word") ;;
            {"|".join(o for o in value_options if o not in ("--session", "-s", "--file", "--home"))})
                ((i++)) ;;
            -*) ;;
            *) [[ -z "$cmd" ]] && cmd="$word" ;;
        esac
    done
    case "$prev" in
{value_arms}
        {plain_values})
            return ;;
    esac
    if [[ -z "$cmd" ]]; then
        if [[ "$cur" == -* ]]; then
            mapfile -t COMPREPLY < <(compgen -W "{global_words}" -- "$cur")
        else
            mapfile -t COMPREPLY < <(compgen -W "{command_names}" -- "$cur")
        fi
        return
    fi
    case "$cmd" in
{chr(10).join(cases)}
    esac
    if [[ "$cur" == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$opts {global_words}" -- "$cur")
        return
    fi
    case "$cmd" in
        {task_commands})
            _todo_offer tasks ;;
{choices}
    esac
}}
complete -F _todo todo
"""
    )


# -- zsh ----------------------------------------------------------------------------------


def _zsh_escape(text: str) -> str:
    return text.replace("'", "'\\''").replace("[", "\\[").replace("]", "\\]").replace(":", "\\:")


def zsh(s: Spec) -> str:
    described = "\n".join(f"        '{c.name}:{_zsh_escape(c.help)}'" for c in s.commands)
    lines = []
    for c in s.commands:
        specs = []
        for o in c.options:
            value = ":value:" if o.takes_value else ""
            if o.complete in ("phases", "tasks"):
                value = f":{o.complete[:-1]}:_todo_{o.complete}"
            again = "*" if o.many else ""  # zsh offers it again after it is given
            for n in o.names:
                specs.append(f"'{again}{n}[{_zsh_escape(o.help)}]{value}'")
        if c.tasks:
            specs.append("'*:task:_todo_tasks'")
        elif c.choices:
            specs.append(f"'1:{c.name}:({' '.join(c.choices)})'")
        body = " \\\n                ".join(specs) if specs else "'*::'"
        lines.append(
            f"            {c.name})\n                _arguments {body}\n                ;;"
        )
    global_specs = []
    for o in s.global_options:
        value = ""
        if o.takes_value:
            value = ":session:_todo_sessions" if o.complete == "sessions" else ":value:_files"
        for n in o.names:
            global_specs.append(f"'{n}[{_zsh_escape(o.help)}]{value}'")
    globals_joined = " \\\n        ".join(global_specs)
    return f"""#compdef todo
# zsh completion for todo. Generated from the command line by tools/generate.py:
# do not edit by hand. Install: put this file, named _todo, in a folder on $fpath.

_todo_scope() {{
    local -a scope
    local i
    for ((i = 2; i < CURRENT; i++)); do
        case "${{words[i]}}" in
            --session|-s|--file|--home)
                (( i + 1 < CURRENT )) && scope+=("${{words[i]}}" "${{words[i+1]}}") ;;
            --session=*|--file=*|--home=*) scope+=("${{words[i]}}") ;;
        esac
    done
    print -r -- "${{(j: :)${{(q)scope[@]}}}}"
}}

_todo_candidates() {{
    local -a found
    found=("${{(@f)$(eval todo $(_todo_scope) __complete $1 2>/dev/null)}}")
    compadd -a found
}}
_todo_sessions() {{ _todo_candidates sessions }}
_todo_tasks() {{ _todo_candidates tasks }}
_todo_phases() {{ _todo_candidates phases }}

_todo() {{
    local -a commands
    commands=(
{described}
    )
    _arguments -C \\
        {globals_joined} \\
        '1: :->command' \\
        '*:: :->args'
    case $state in
        command)
            _describe -t commands 'todo command' commands
            ;;
        args)
            case ${{words[1]}} in
{chr(10).join(lines)}
            esac
            ;;
    esac
}}

_todo "$@"
"""


# -- fish ---------------------------------------------------------------------------------


def _fish_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("'", "\\'")


def fish(s: Spec) -> str:
    out = [
        "# fish completion for todo. Generated from the command line by tools/generate.py:",
        "# do not edit by hand. Install: copy to ~/.config/fish/completions/todo.fish",
        "",
        "function __todo_scope",
        "    set -l tokens (commandline -opc)",
        "    set -l scope",
        "    for i in (seq 2 (count $tokens))",
        "        switch $tokens[$i]",
        "            case --session -s --file --home",
        "                if test (math $i + 1) -le (count $tokens)",
        "                    set -a scope $tokens[$i] $tokens[(math $i + 1)]",
        "                end",
        "            case '--session=*' '--file=*' '--home=*'",
        "                set -a scope $tokens[$i]",
        "        end",
        "    end",
        "    printf '%s\\n' $scope",
        "end",
        "",
        "function __todo_candidates",
        "    todo (__todo_scope) __complete $argv[1] 2>/dev/null",
        "end",
        "",
        "complete -c todo -f",
    ]
    for c in s.commands:
        out.append(
            f"complete -c todo -n __fish_use_subcommand -a {c.name} -d '{_fish_escape(c.help)}'"
        )
    for o in s.global_options:
        out.append(_fish_option("", o))
    for c in s.commands:
        condition = f"__fish_seen_subcommand_from {c.name}"
        for o in c.options:
            out.append(_fish_option(condition, o))
    tasks = " ".join(c.name for c in s.commands if c.tasks)
    out.append(
        f"complete -c todo -n '__fish_seen_subcommand_from {tasks}' -a '(__todo_candidates tasks)'"
    )
    for c in s.commands:
        if c.choices:
            words = " ".join(c.choices)
            out.append(f"complete -c todo -n '__fish_seen_subcommand_from {c.name}' -a '{words}'")
    return "\n".join(out) + "\n"


def _fish_option(condition: str, o: Option) -> str:
    parts = ["complete -c todo"]
    if condition:
        parts.append(f"-n '{condition}'")
    for n in o.names:
        parts.append(f"-l {n[2:]}" if n.startswith("--") else f"-s {n[1:]}")
    if o.takes_value:
        parts.append("-r")
        if o.complete in ("sessions", "phases", "tasks"):
            parts.append(f"-a '(__todo_candidates {o.complete})'")
        elif o.complete == "files":
            parts.append("-F")
    parts.append(f"-d '{_fish_escape(o.help)}'")
    return " ".join(parts)


# -- man page -------------------------------------------------------------------------------


def _roff(text: str) -> str:
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join(
        ("\\&" + line if line.startswith((".", "'")) else line) for line in text.split("\n")
    )


def _option_item(o: Option) -> str:
    names = ", ".join(f"\\fB{_roff(n)}\\fR" for n in o.names)
    value = f" \\fI{o.metavar}\\fR" if o.takes_value else ""
    return f".TP\n{names}{value}\n{_roff(o.help)}"


# The man page's sections after the options: none of it comes from the table.
MAN_TAIL = [
    ".SH FILE FORMAT",
    "A list is a markdown file. Task markers: \\fB[ ]\\fR pending, \\fB[/]\\fR in progress,",
    "\\fB[x]\\fR completed, \\fB[\\-]\\fR abandoned, \\fB[!]\\fR blocked. A phase is an ATX",
    "heading with tasks directly under it; the first \\fB#\\fR heading with no task under",
    "it is the summary. Notes are block\\-quote lines indented under a task; the active",
    "form is a trailing \\fB<!\\-\\- active: ... \\-\\->\\fR.",
    ".SH FILES",
    ".TP",
    "\\fI<home>/sessions/<session>.md\\fR",
    "A session's list. The home is \\fB$XDG_DATA_HOME/todocli\\fR or",
    "\\fB~/.local/share/todocli\\fR (platformdirs' user data directory).",
    ".TP",
    "\\fI<home>/memory/todos/todoList\\-YYYYMMDD\\-HHMMSS.md\\fR",
    "The session's completion log: a block is appended each time the list is finished.",
    ".TP",
    "\\fI<home>/state/\\fR",
    "Revisions, state and counters; nothing is written beside a \\fB\\-\\-file\\fR list.",
    ".TP",
    "\\fI/tmp/todocli\\-UID/locks/\\fR",
    "The lists' locks, keyed by each list's real path (\\fI$TODOCLI_LOCK_DIR/locks/\\fR when",
    "that is set).",
    ".TP",
    "\\fI~/.config/todocli/config.toml\\fR",
    "Settings (platformdirs' user config directory): \\fBmax_tasks\\fR,",
    "\\fBplan_max_tasks\\fR, \\fBplan_max_field_bytes\\fR,",
    "\\fBmax_field_bytes\\fR, \\fBmax_note_bytes\\fR, \\fBmax_input_bytes\\fR, \\fBmax_file_bytes\\fR,",
    "\\fBmax_in_progress\\fR, \\fBsnapshot_drop\\fR, \\fBwipe_on_complete\\fR,",
    "\\fBclear_delay\\fR, \\fBlock_timeout\\fR, \\fBremind_every\\fR, \\fBclaim_timeout\\fR,",
    "\\fBcheck_timeout\\fR, \\fBsave_pause\\fR, \\fBreply\\fR (\\fBlean\\fR or \\fBfull\\fR: what a",
    "write prints);",
    "and \\fBhome\\fR,",
    "\\fBsession\\fR, \\fBmemory_dir\\fR. \\fBtodo config\\fR prints them all.",
    ".SH ENVIRONMENT",
    ".TP",
    "\\fBTODOCLI_HOME\\fR, \\fBTODOCLI_SESSION\\fR, \\fBTODOCLI_FILE\\fR, \\fBTODOCLI_MEMORY_DIR\\fR",
    "Where lists live, as the global options of the same names.",
    ".TP",
    "\\fBTODOCLI_LOCK_DIR\\fR",
    "Where the locks live (default \\fI/tmp/todocli-UID\\fR); every process writing one list must agree.",
    ".TP",
    "\\fBTODOCLI_CONFIG\\fR",
    "The config file to read.",
    ".TP",
    "\\fBTODOCLI_AGENT\\fR",
    "The agent a call works for, as \\fB\\-\\-agent\\fR (claims, owners).",
    ".TP",
    "\\fBTODOCLI_\\fR\\fIKEY\\fR",
    "Any config key, in upper case (e.g. \\fBTODOCLI_MAX_TASKS\\fR).",
    ".TP",
    "\\fBNO_COLOR\\fR, \\fBTERM=dumb\\fR",
    "No colour on a terminal.",
    ".TP",
    "\\fBVISUAL\\fR, \\fBEDITOR\\fR",
    "The editor \\fBtodo edit\\fR runs (split like a shell would, run without one).",
    ".TP",
    "\\fBTODOCLI_DEBUG=1\\fR",
    "Print a traceback for an internal error.",
    ".TP",
    "\\fBTODOCLI_NOW\\fR",
    "An ISO 8601 time to use instead of the clock (for tests and replays).",
    ".SH EXIT STATUS",
    ".TP\n\\fB0\\fR\nSuccess.",
    ".TP\n\\fB1\\fR\nThe request was rejected (\\fBINVALID_PARAM\\fR, \\fBNOT_FOUND\\fR); "
    "\\fBtodo check\\fR: tasks are open, or evidence is stale (\\fBSTALE_EVIDENCE\\fR).",
    ".TP\n\\fB2\\fR\nUsage error: unknown command or option, an argument that is not UTF\\-8 "
    "(a path may hold any bytes), bad session name, malformed config.",
    ".TP\n\\fB3\\fR\nUnexpected internal error.",
    ".TP\n\\fB4\\fR\n\\fBCONFLICT\\fR: \\fB\\-\\-if\\-rev\\fR named a revision the list is no longer at; "
    "\\fBUNMERGED\\fR: the list holds git's conflict markers, and writes wait until they "
    "are resolved.",
    ".TP\n\\fB5\\fR\n\\fBBUSY\\fR: the list's lock was not free in time.",
    ".TP\n\\fB6\\fR\n\\fBSTORAGE\\fR: a file could not be read or written.",
    ".TP\n\\fB7\\fR\n\\fBCYCLE\\fR: \\fBtodo claim\\fR found no pending task that can ever "
    "start: they wait on a dependency cycle.",
    ".TP\n\\fB8\\fR\n\\fBCHECK_FAILED\\fR: a task's check failed or ran out of time; "
    "the task stays open.",
    ".TP\n\\fB9\\fR\n\\fBCHECK_NOT_ALLOWED\\fR: a task's check is not approved here "
    "(see \\fBtodo allow\\fR).",
    ".SH EXAMPLES",
    "For an agent, one call per step:",
    ".PP",
    ".nf",
    ".RS",
    'todo init \\-\\-summary "Fix the bug" Reproduce Patch "Add a test"',
    "todo done Reproduce",
    'todo note Patch "off\\-by\\-one at the range end"',
    'echo \'{"ops": [{"op": "done", "task": "Patch"}, {"op": "start", "task": "Add a test"}]}\' '
    "| todo apply",
    'todo check || echo "tasks are still open"',
    ".RE",
    ".fi",
    ".PP",
    "For a person:",
    ".PP",
    ".nf",
    ".RS",
    "todo                      # show the list",
    "todo watch                # a live view while an agent works",
    "todo edit                 # edit it in $EDITOR, checked on save",
    "todo \\-\\-file TODO.md done '#3'   # any markdown file works",
    "todo undo                 # take the last write back",
    ".RE",
    ".fi",
    ".SH SEE ALSO",
    "The README of todocli, and \\fBtodo schema\\fR for the JSON accepted by \\fBtodo apply\\fR.",
]


def man(s: Spec, version: str, date: str) -> str:
    parts = [
        f'.TH TODO 1 "{date}" "todocli {version}" "User Commands"',
        ".SH NAME",
        "todo \\- a markdown todo checklist for coding agents and the people beside them",
        ".SH SYNOPSIS",
        ".B todo",
        "[\\fIGLOBAL OPTIONS\\fR] [\\fICOMMAND\\fR] [\\fIARGUMENTS\\fR]",
        ".SH DESCRIPTION",
        "\\fBtodo\\fR keeps a per\\-session markdown checklist. An agent calls it once per",
        "step with a command or a JSON payload on standard input; a person opens the same",
        "file in any editor. Edits made by hand survive every later write byte for byte.",
        "With no command, \\fBtodo\\fR shows the list. Global options may stand before or",
        "after the command. Output is plain text when standard output is not a terminal,",
        "or with \\fB\\-\\-plain\\fR; one JSON object with \\fB\\-\\-json\\fR.",
        ".SH COMMANDS",
    ]
    for c in s.commands:
        args = " ".join(f"\\fI{_roff(a)}\\fR" for a in c.arguments)
        parts.append(f".TP\n\\fB{c.name}\\fR {args}".rstrip())
        parts.append(_roff(c.help))
        if c.options:
            parts.append(".RS")
            parts += [_option_item(o) for o in c.options]
            parts.append(".RE")
    parts.append(".SH GLOBAL OPTIONS")
    parts += [_option_item(o) for o in s.global_options]
    parts += MAN_TAIL
    return "\n".join(parts) + "\n"


# -- the agents' registry --------------------------------------------------------------------

REGISTRY = ROOT / "todocli" / "agents" / "__init__.py"
BEGIN = "# -- the registry: generated by tools/generate.py from the modules' descriptors --\n"
END = "# -- end of the generated registry --\n"
# Each table: its type, and what it says.
TABLE_TYPES = {
    "TOOLS": (
        "dict[str, tuple[str, tuple[str, ...]]]",
        "tool → (module, the hook calls that name it alone), listed in this order",
    ),
    "DEFAULT": ("str", "the tool a payload no other claims is answered as"),
    "REPLY_AS": (
        "dict[str, str]",
        "a reader's payloads → the tool they are answered as, where not its own",
    ),
    "READERS": (
        "tuple[str, ...]",
        "modules that read their payload, asked in this order when they score the same",
    ),
    "CALL_MODULES": ("dict[str, str]", "hook call → the module that declares it"),
    "KEYS": ("dict[str, tuple[str, ...]]", "payload key → the candidates it names"),
    "STRINGS": (
        "dict[str, tuple[str, ...]]",
        "payload key holding a string → the candidates it names",
    ),
    "ITEMS": (
        "dict[str, tuple[str, ...]]",
        "key of a todos array's first item → the candidates it names",
    ),
    "STATUSES": (
        "dict[str, tuple[str, ...]]",
        "status word of a todos item → the candidates it names",
    ),
    "SHARED": ("tuple[str, ...]", "hook calls several tools share: the payload tells which"),
    "READS": ("frozenset[str]", "hook calls that only read the list"),
    "CREATES": ("dict[str, str]", "hook call → the module that reads the ids its result gives"),
    "RESULT_IDS": (
        "dict[str, tuple[str, str, str]]",
        "tool whose ids todo cannot make up → who makes them, the call, the hook event",
    ),
    "HOOKS": (
        "dict[str, tuple[str, str]]",
        "todo hook NAME → its stop decision, how the session reaches its shell",
    ),
    "SHELLS": (
        "dict[str, tuple[str, str]]",
        "todo hook NAME → the variable holding the session id in its shell, its shell's marker",
    ),
    "TARGETS": (
        "tuple[str, ...]",
        "todo setup's agents, in this order (todocli/app/wiring/setup/NAME.py)",
    ),
    "PROGRAMS": ("dict[str, str]", "todo setup's agents → the command todo doctor looks for"),
}


def _flat(value: object) -> str:
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, frozenset):
        return "frozenset({" + ", ".join(map(_flat, sorted(value))) + "})"
    if isinstance(value, tuple):
        inner = ", ".join(map(_flat, value))
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flat(k)}: {_flat(v)}" for k, v in value.items()) + "}"
    return repr(value)


def _literal(value: object, indent: int, lead: int) -> str:
    """``value`` as Python source at ``indent``, its first line after ``lead`` characters,
    broken one element a line where it would pass 99 columns."""
    flat = _flat(value)
    if lead + len(flat) < 100 and not (isinstance(value, dict) and value):
        return flat
    inner = " " * (indent + 4)
    if isinstance(value, dict):
        rows = [
            f"{inner}{_flat(k)}: {_literal(v, indent + 4, indent + 6 + len(_flat(k)))},"
            for k, v in value.items()
        ]
        return "{\n" + "\n".join(rows) + "\n" + " " * indent + "}"
    if isinstance(value, frozenset):
        rows = [f"{inner}{_flat(v)}," for v in sorted(value)]
        return (
            "frozenset(\n"
            + inner
            + "{\n"
            + "\n".join("    " + r for r in rows)
            + "\n"
            + inner
            + "}\n"
            + " " * indent
            + ")"
        )
    if isinstance(value, tuple):
        rows = [f"{inner}{_literal(v, indent + 4, indent + 4)}," for v in value]
        return "(\n" + "\n".join(rows) + "\n" + " " * indent + ")"
    return flat


def registry_block(tables: dict[str, object]) -> str:
    out = [BEGIN]
    for name, value in tables.items():
        kind, says = TABLE_TYPES[name]
        head = f"{name}: {kind} = "
        out.append(f"# {says}\n{head}{_literal(value, 0, len(head))}\n")
    return "".join(out) + END


def registry() -> str:
    from todocli.agents.descriptors import package_modules, tables

    text = REGISTRY.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[:start] + registry_block(tables(package_modules())) + text[end:]


COMMAND_TABLE = ROOT / "todocli" / "cli" / "command_table.py"
LISTS_BEGIN = "# -- generated by tools/generate.py from the agents' descriptors --\n"
LISTS_END = "# -- end of the generated lists --\n"


def completion_lists() -> str:
    """The command table with its agent lists made from the registry: the agents
    `todo hook` answers and those `todo setup` wires (their help and completions
    follow)."""
    from todocli.agents.descriptors import package_modules, tables

    made = tables(package_modules())
    hooks, targets = tuple(made["HOOKS"]), tuple(made["TARGETS"])
    block = (
        LISTS_BEGIN
        + f"HOOK_AGENTS: tuple[str, ...] = {_flat(hooks)}\n"
        + "SETUP_TARGETS: tuple[str, ...] = (\n    "
        + ", ".join(_flat(t) for t in targets)
        + ",\n)\n"
        + LISTS_END
    )
    text = COMMAND_TABLE.read_text(encoding="utf-8")
    start, end = text.index(LISTS_BEGIN), text.index(LISTS_END) + len(LISTS_END)
    return text[:start] + block + text[end:]


PATHS = ROOT / "todocli" / "storage" / "paths.py"


def shell_lists() -> str:
    """paths.py with its table of the harnesses' shells made from the registry:
    which agent session a shell command runs in is asked on every call, without
    importing the registry."""
    from todocli.agents.descriptors import package_modules, tables

    shells = tables(package_modules())["SHELLS"]
    rows = "".join(f"    ({_flat(a)}, {_flat(v)}, {_flat(m)}),\n" for a, (v, m) in shells.items())
    block = (
        LISTS_BEGIN
        + "AGENT_SHELLS: tuple[tuple[str, str, str], ...] = (\n"
        + rows
        + ")\n"
        + LISTS_END
    )
    text = PATHS.read_text(encoding="utf-8")
    start, end = text.index(LISTS_BEGIN), text.index(LISTS_END) + len(LISTS_END)
    return text[:start] + block + text[end:]


# -- driver ---------------------------------------------------------------------------------


def outputs() -> dict[Path, str]:
    from importlib.metadata import version

    s = spec()
    match = DATE_RE.search((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"))
    date = match.group(1) if match else "unreleased"
    return {
        ROOT / "completions" / "todo.bash": bash(s),
        ROOT / "completions" / "_todo": zsh(s),
        ROOT / "completions" / "todo.fish": fish(s),
        ROOT / "man" / "todo.1": man(s, version("todocli-md"), date),
        REGISTRY: registry(),
        COMMAND_TABLE: completion_lists(),
        PATHS: shell_lists(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description="Generate completions, the man page and the agents' registry."
    )
    parser.add_argument("--check", action="store_true", help="fail if a file is out of date")
    args = parser.parse_args()
    stale = []
    for path, text in outputs().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        if args.check:
            stale.append(str(path.relative_to(ROOT)))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    if stale:
        print("out of date (run: python tools/generate.py): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
