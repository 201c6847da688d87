"""Runs of task lines of the plainest shape, read at once.

Most lines of a large plan are task items like ``- [ ] Write the parser``: a
bullet at column 0, one space, a one-character marker, one space, text. Read line
by line, each goes through the block scanner's general steps (a dozen calls,
about 50,000 instructions), and its report is then copied into a segment. Here a
run of them is read in one loop. Every line of it but the last gets the same
report, made once a scan (``run_report``), which says only "a task of the
plainest shape": the builder makes such a line's task from the line itself
(``Builder._tasks_from``). The last line gets the report the general steps would
give it, since the scanner goes on from it (its paragraph may go on).
tests/test_markdown_properties.py compares the two readings, report by report and
segment by segment.
"""

from __future__ import annotations

from todocli.document.lines import LineInfo, LineKind, TaskStart, atx_heading_at
from todocli.document.model import MARKER_STATUS


def run_report() -> LineInfo:
    """The report the lines of a scan's runs share: a task line, nothing more
    (``task`` None, which no other task line's report is)."""
    info = LineInfo()
    info.kind = LineKind.TASK
    return info


def start_of(line: str, index: int) -> TaskStart:
    """The task start the scanner's general steps read on a run's line."""
    after = line[5:].rstrip("\r\n")
    return TaskStart(index, 3, 1, MARKER_STATUS[line[3]], "", line[0], " ", 2, after, 5)


# The beginnings of the plainest task lines: a bullet at column 0, a space, a
# marker todo knows (one character), a space.
PLAIN = tuple(f"{b} [{m}] " for b in "-*+" for m in MARKER_STATUS if m)
# The first letters of a note's text that can start nothing but a paragraph.
LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def is_plain(line: str) -> bool:
    """Whether a line is a task of the plainest shape, with text after its marker
    (only a blank right after the marker's space needs a look at the rest)."""
    if not line.startswith(PLAIN):
        return False
    return (len(line) > 7 and line[6] not in " \t\r\n") or bool(line[5:].strip(" \t\r\n"))


def task_run(lines: list[str], start: int, infos: list[LineInfo], shared: LineInfo) -> int:
    """Read the task lines of the plainest shape from ``start`` on, appending a
    report on each to ``infos`` (``shared`` for all but the last); where the run
    ends. Notes in the plainest shape (``  > text``, a letter first) between two
    of its task lines are in the run too, each with a report of its own.

    Each task line closes every container open before it and opens a task item
    whose paragraph it starts, as the scanner's ``_simple_task`` reads it; the
    caller leaves the scanner in the state the last of them leaves it. A marker
    todo does not know, a line with nothing after its marker, and every other
    shape end the run: the scanner reads those itself."""
    end, size = start, len(lines)
    task = -1  # the last task line of the run
    while end < size:
        line = lines[end]
        if (
            line.startswith(PLAIN)
            and (  # is_plain, inline: a call a line costs more
                (len(line) > 7 and line[6] not in " \t\r\n") or line[5:].strip(" \t\r\n")
            )
        ):
            infos.append(shared)
            task = end
            end += 1
            continue
        if task < 0:
            break
        # Notes in a block quote right inside the task's item, or a new phase
        # (blank lines, a heading at column 0, blank lines), read as the general
        # steps read them when a task line of the run follows (which closes the
        # quote and the item, whatever they left open).
        notes = end  # the notes are the lines from end to here
        while notes < size and lines[notes].startswith("  > ") and lines[notes][4:5] in LETTERS:
            notes += 1
        if notes == size:
            break
        after = notes
        phase: list[LineInfo] = []
        if not is_plain(lines[notes]):
            after = phase_break(lines, notes, phase, task)
            if after == notes:
                break
        for i in range(end, notes):
            info = LineInfo()
            info.kind, info.owner, info.note_of = LineKind.NOTE, task, task
            info.note_text = lines[i][4:].rstrip("\r\n").strip(" \t")
            infos.append(info)
        infos += phase
        end = after
    if end > start:
        info = infos[end - 1] = LineInfo()
        info.kind, info.owner = LineKind.TASK, end - 1
        info.task = start_of(lines[end - 1], end - 1)
    return end


ENDINGS = ("\n", "\r\n", "\r")


def phase_break(lines: list[str], start: int, infos: list[LineInfo], task: int) -> int:
    """Where a new phase that starts on line ``start`` ends: blank lines (each
    nothing but its line ending), an ATX heading at column 0, blank lines, and
    then a task line of the plainest shape; with their reports appended to
    ``infos``. ``start`` (nothing appended) when the lines are not so. The blank
    lines before the heading go on with the item of ``task``; the heading closes it."""
    size = len(lines)
    i = start
    while i < size and lines[i] in ENDINGS:
        i += 1
    if i == size or lines[i][:1] != "#":
        return start
    heading = atx_heading_at(lines[i].rstrip("\r\n"))
    after = i + 1
    while after < size and lines[after] in ENDINGS:
        after += 1
    if heading is None or after == size or not is_plain(lines[after]):
        return start
    if i > start:
        blank = LineInfo()
        blank.blank, blank.owner = True, task
        infos += [blank] * (i - start)
    info = LineInfo()
    info.kind, (info.heading_level, info.heading_text) = LineKind.HEADING, heading
    infos.append(info)
    if after > i + 1:
        blank = LineInfo()
        blank.blank = True
        infos += [blank] * (after - i - 1)
    return after
