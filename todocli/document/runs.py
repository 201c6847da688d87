"""Runs of task lines of the plainest shape, read at once.

Most lines of a large plan are task items like ``- [ ] Write the parser``: a
bullet at column 0, one space, a one-character marker, one space, text. Read line
by line, each goes through the block scanner's general steps (a dozen calls,
about 50,000 instructions); here a run of them is read in one loop, and each gets
the report the scanner would have made of it (tests/test_markdown_properties.py
compares the two readings).
"""

from __future__ import annotations

from todocli.document.lines import LineInfo, LineKind, TaskStart
from todocli.document.model import MARKER_STATUS


def task_run(lines: list[str], start: int, infos: list[LineInfo]) -> int:
    """Read the task lines of the plainest shape from ``start`` on, appending the
    scanner's report on each to ``infos``; where the run ends.

    Each such line closes every container open before it and opens a task item
    whose paragraph it starts, as the scanner's ``_simple_task`` reads it; the
    caller leaves the scanner in the state that item's line leaves it. A marker
    todo does not know, a line with nothing after its marker, and every other
    shape end the run: the scanner reads those itself."""
    end, size = start, len(lines)
    while end < size:
        line = lines[end]
        if line[1:3] != " [" or line[4:6] != "] " or line[0] not in "-*+":
            break
        status = MARKER_STATUS.get(line[3])
        # What follows the marker, without the line ending (a line holds at most
        # one: split_lines).
        after = line[5:].rstrip("\r\n")
        if status is None or not after.strip(" \t"):
            break
        info = LineInfo()
        info.kind, info.owner = LineKind.TASK, end
        info.task = TaskStart(end, 3, 1, status, "", line[0], " ", 2, after, 5)
        infos.append(info)
        end += 1
    return end
