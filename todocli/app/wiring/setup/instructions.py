"""The instruction block ``todo setup`` puts in the file an agent reads at the
start of each session: the workflow in a few lines, as shell commands (every
agent here has a shell tool; they cost no standing context until used).

Two texts, one per kind of harness. A hooked one (Claude Code, Gemini CLI, Qwen
Code: their own memory files) learns that plain ``todo`` is its session's plan,
and that its own todo tool, when it is on, writes the same plan: one way, not
both. The files several agents share or read without hooks (``AGENTS.md``,
Copilot's, Cline's, Cursor's rules) say how to keep a plan out of the person's
backlog without hooks. Both teach the backlog's commands: an agent takes a task
from it and closes it, and never replaces it or drops the person's tasks.
"""

from __future__ import annotations

_HEAD = """\
## Task list: todo

Keep your plan in `todo`, a checklist the person watches and edits as you work.
"""

_STEPS = """
- Plan first: `todo init "Step one" "Step two" ...` (the first step starts).
- One task in progress at a time: `todo start "Step two"`.
- Mark a task done as soon as it is finished: `todo done` (the next one starts).
- Write down what you learn: `todo note "Step two" "why it failed"`.
- Waiting on the person: `todo block "Step two" --reason "which database?"`;
  a task no longer needed: `todo drop "Step two"`.
- `todo` shows your plan, with the person's edits and notes: read it after a pause.
- The repository's `TODO.md`, if it has one, is the person's backlog, not your plan:
  `todo --project` shows it; take a task with `todo --project claim "TASK"`, close it
  with `todo --project done "TASK"`; never init it, nor drop or remove its tasks.
"""

HOOKED = (
    _HEAD
    + """Plain `todo` is this session's plan: todo's hooks keep it across compaction and
`/clear`, and stop you while it has open tasks.
"""
    + _STEPS
)

SHARED = (
    _HEAD
    + """Where `todo setup` wired your harness's hooks (Claude Code, Codex, Gemini CLI,
Qwen Code), plain `todo` is your session's plan. Without them, in a repository with
a `TODO.md`, name your plan on every command: `todo -s NAME ...`.
"""
    + _STEPS
)


def hooked(tools: str) -> str:
    """The block for a hooked harness whose own todo tools are ``tools``."""
    return HOOKED + (
        f"- Your own todo tool ({tools}), when it is on,\n"
        "  writes this same plan: use it or these commands, not both.\n"
    )
