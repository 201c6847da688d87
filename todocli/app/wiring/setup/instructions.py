"""The instruction block ``todo setup`` puts in the file an agent reads at the
start of each session: the workflow in a few lines, as shell commands (every
agent here has a shell tool; they cost no standing context until used)."""

from __future__ import annotations

TEXT = """\
## Task list: todo

Keep your plan in `todo`, a checklist the person watches and edits as you work
(when a note at the start of the session names your list, use it: `todo -s NAME ...`).

- Plan first: `todo init "Step one" "Step two" ...` (the first step starts).
- One task in progress at a time: `todo start "Step two"`.
- Mark a task done as soon as it is finished: `todo done` (the next one starts).
- Write down what you learn: `todo note "Step two" "why it failed"`.
- Waiting on the person: `todo block "Step two" --reason "which database?"`;
  a task no longer needed: `todo drop "Step two"`.
- `todo` shows the list, with the person's edits and notes: read it after a pause.
"""
