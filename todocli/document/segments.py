"""The pieces a ``Document`` is made of, and how they are read and written whole:
segments of lines (a task item with its own lines, a raw run of any other lines),
phases, the grouping of scanned lines into segments, and the canonical form a list
made from data is written in.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING
from todocli.document.lines import (
    BOM,
    LineInfo,
    LineKind,
    TaskStart,
    eol_of,
    fence_at,
    is_blank,
    meta_comment,
    split_lines,
    split_meta,
    strip_eol,
)
from todocli.document.model import (
    DEFAULT_PHASE,
    MARKER_STATUS,
    NO_META,
    Meta,
    Status,
    Task,
    TodoList,
)
from todocli.document.runs import start_of
from todocli.errors import UnmergedError

if TYPE_CHECKING:
    from todocli.document.markdown import Document


class Segment:
    """A run of consecutive lines; the base of the linked list."""

    __slots__ = ("lines", "next", "prev")

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.prev: Segment | None = None
        self.next: Segment | None = None


def index_of(tasks: list[TaskNode]) -> tuple[dict[str, TaskNode], set[str]]:
    """Each text's task (the first that has it), and the texts more than one has."""
    index: dict[str, TaskNode] = {}
    duplicates = {
        task.content for task in tasks if index.setdefault(task.content, task) is not task
    }
    return index, duplicates


def text_after(head: Segment) -> str:
    """The lines of the segments linked after ``head``, as text. (A plain walk, not a
    generator: a write writes a document out three or four times.)"""
    lines: list[str] = []
    seg = head.next
    while seg is not None:
        lines += seg.lines
        seg = seg.next
    return "".join(lines)


class RawSegment(Segment):
    """Lines that are not a task: headings, prose, code, blank lines..."""

    __slots__ = ("heading_level", "heading_text")

    def __init__(self, lines: list[str], heading_level: int = 0, heading: str = "") -> None:
        super().__init__(lines)
        self.heading_level = heading_level  # > 0 for a top-level ATX heading line
        self.heading_text = heading


class TaskNode(Segment):
    """A task item: its line, then its own notes and continuation lines."""

    __slots__ = (
        "active_form",
        "bullet",
        "content",
        "gap",
        "hidden",
        "indent",
        "line_no",
        "marker_len",
        "marker_pos",
        "meta",
        "note_lines",
        "note_prefix",
        "notes",
        "phase",
        "status",
        "text_end",
        "text_line",
        "text_pos",
    )

    # Kiro's ``- [ ]*`` item, shown but never required (``conventions.OptionalTask``).
    optional = False

    def __init__(
        self,
        lines: list[str],
        content: str = "",
        status: Status = Status.PENDING,
        line_no: int = 0,
        bullet: str = "-",
        marker_pos: int = 0,
        marker_len: int = 0,
        text_pos: int = 0,
    ) -> None:
        # Segment's fields set here, not by super(): a large plan makes thousands.
        self.lines = lines
        self.prev: Segment | None = None
        self.next: Segment | None = None
        self.content = content
        self.status = status
        self.active_form: str | None = None
        self.meta: Meta = NO_META
        # The status the trailing comment keeps (``state: in_progress``) where the
        # file's markers cannot show it (see ``conventions``); None when the marker does.
        self.hidden: str | None = None
        self.notes: list[str] = []
        self.note_lines: list[int] = []  # indexes in ``lines`` of note lines
        self.note_prefix = ""  # how this task's note lines begin, e.g. "  > "
        self.marker_pos = marker_pos  # index in lines[0] of the marker character
        self.marker_len = marker_len  # 0 for "[]", else 1
        self.indent = ""
        self.bullet = bullet
        self.gap = " "
        self.line_no = line_no  # 1-based line number where it was read, 0 if new
        self.phase: PhaseNode | None = None
        # Where the task's text is: the index in ``lines`` of its line (1 when the
        # task line has nothing after its marker and the text starts on the next
        # line, as GFM allows), the index in that line where the text starts, and
        # the index of the last line of the item's first block (its text paragraph).
        self.text_line = 0
        self.text_pos = text_pos
        self.text_end = 0

    def task(self) -> Task:
        notes = tuple(self.notes) if self.notes else ()  # most tasks have none: no call
        return Task(self.content, self.status, self.active_form, notes, self.meta)

    def width(self) -> int:
        """Columns from the bullet to the item's content (a tab in the gap stops at
        a multiple of 4, counted from the start of the line)."""
        indent = len(self.indent.expandtabs(4))
        return len((self.indent + self.bullet + self.gap).expandtabs(4)) - indent

    def new_note_prefix(self) -> str:
        """How a first note line begins: blank up to the task's content column (its
        indentation as written, then spaces in place of the bullet and the gap)."""
        return self.indent + " " * self.width() + "> "

    def next_bullet(self, last: Segment) -> str:
        """The bullet of a task written in this one's style after ``last``: ordered
        lists count on from the task before at the same indent."""
        bullet = self.bullet
        if bullet[-1] not in ".)":
            return bullet
        number = int(bullet[:-1])
        if isinstance(last, TaskNode) and last.indent == self.indent and last.bullet[-1] in ".)":
            number = int(last.bullet[:-1]) + 1
        return f"{number}{bullet[-1]}"

    def shift(self, delta: int) -> None:
        """Follow a change of length of what stands before the marker on the task
        line (its indentation, a byte-order mark)."""
        self.marker_pos += delta
        if self.text_line == 0:
            self.text_pos += delta
        else:
            body = strip_eol(self.lines[self.text_line])
            self.text_pos = len(body) - len(body.lstrip(" \t"))


class PhaseNode:
    """A phase: its heading (None for tasks before any heading) and its tasks."""

    __slots__ = ("heading", "name", "tasks")

    def __init__(self, name: str, heading: RawSegment | None) -> None:
        self.name = name
        self.heading = heading
        # Insertion-ordered set: O(1) append and removal.
        self.tasks: dict[TaskNode, None] = {}

    def first(self) -> TaskNode | None:
        return next(iter(self.tasks), None)

    def last(self) -> TaskNode | None:
        return next(reversed(self.tasks), None) if self.tasks else None


def conflict_warnings(lines: list[str]) -> list[str]:
    """Where git left a merge conflict in the file: its markers stay text, and the
    tasks of both sides between them are read as tasks (both kept)."""
    return [
        f"Line {n}: a merge conflict (git's <<<<<<< markers): both sides' tasks are read; "
        "keep one side and remove the markers"
        for n, line in enumerate(lines, 1)
        if line.startswith("<<<<<<<") and not line.startswith("<<<<<<<<")
    ]


def has_conflict_marker(text: str) -> bool:
    """Whether ``text`` holds seven ``<`` in a row somewhere. (One ``<`` is looked for
    first, with memchr: a plan without one is read once, fast, not searched at length.)"""
    return "<" in text and "<<<<<<<" in text


def unmerged_lines(text: str) -> list[int]:
    """The lines (from 1) of git's conflict markers left in ``text``: a run of at
    least seven ``<`` (git's ``conflict-marker-size``, 7 unless set) alone or before
    a space opens a conflict; the ``|``, ``=`` and ``>`` lines of that size in it
    are its other markers. Lines in a code block fenced at the top level are code,
    not markers (a diff shown in the list; git writes its markers at column 0)."""
    if not has_conflict_marker(text):
        return []
    found: list[int] = []
    size = 0  # the size of the conflict open, 0 outside one
    fence = ""  # the fence of the code block open at the top level, "" outside one
    for n, line in enumerate(split_lines(text), 1):
        bare = strip_eol(line)
        if fence:
            fence = "" if _closes(bare, fence) else fence
            continue
        if not size:
            fence = _opens(bare)
            size = 0 if fence else _marker_size(bare, "<")
            marker = size > 0
        elif _marker_size(bare, ">") == size:
            size, marker = 0, True
        else:
            marker = bare == "=" * size or _marker_size(bare, "|") == size
        if marker:
            found.append(n)
    return found


def _opens(line: str) -> str:
    """The fence of the code block ``line`` opens at the top level ("" for none)."""
    rest = line.lstrip(" ")
    run = fence_at(rest) if len(line) - len(rest) <= 3 else 0
    return rest[:run]


def _closes(line: str, fence: str) -> bool:
    """Whether ``line`` closes the code block ``fence`` opened."""
    rest = line.lstrip(" ")
    return (
        len(line) - len(rest) <= 3
        and rest.startswith(fence)
        and not rest.lstrip(fence[0]).strip(" \t")
    )


def _marker_size(line: str, mark: str) -> int:
    """The size of a conflict marker of ``mark`` that ``line`` is (0: none)."""
    size = len(line) - len(line.lstrip(mark))
    if size < 7 or (len(line) > size and line[size] != " "):
        return 0
    return size


def refuse_unmerged(text: str) -> None:
    """A write is refused while the list holds git's conflict markers: merged into
    the list, a marker line would become a task's text or note."""
    lines = unmerged_lines(text)
    if lines:
        numbers = ", ".join(map(str, lines))
        raise UnmergedError(
            f"the list holds git's conflict markers (line{'s' if len(lines) > 1 else ''} "
            f"{numbers}); nothing was written: keep one side of each conflict, remove the "
            "markers, then write again (todo show reads both sides)"
        )


class Builder:
    """Group scanned lines into segments: task items with their own lines, headings,
    and raw runs of everything else, linked after ``head`` in the order read (a
    ``Document`` takes them from there: ``markdown.parse``)."""

    def __init__(self, lines: list[str], infos: list[LineInfo], head: Segment) -> None:
        self.lines = lines
        self.infos = infos
        self.tail = head  # the last segment linked
        self.front_matter: RawSegment | None = None
        self.warnings: list[str] = []
        self.by_line: dict[int, TaskNode] = {}
        # How many tasks use each marker character: what the file's writers know.
        self.markers: dict[str, int] = {}
        # The last note line seen for each task, and whether it was a bare ">".
        self.last_note_line: dict[TaskNode, tuple[int, bool]] = {}
        # The lines of each task's last note, joined when the note ends.
        self.note_parts: dict[TaskNode, list[str]] = {}

    def link(self, seg: Segment) -> None:
        """Append a segment (the last, so no line ending changes)."""
        seg.prev = self.tail
        self.tail.next = seg
        self.tail = seg

    def build(self) -> None:
        lines, infos = self.lines, self.infos
        raw: list[str] = []
        current: TaskNode | None = None  # the task whose own lines we are collecting
        current_line = -1
        kept = 0  # how many of its lines there are up to the last that is not blank

        def flush_raw() -> None:
            if raw:
                self.link(RawSegment(raw.copy()))
                raw.clear()

        def close_task() -> None:
            nonlocal current
            if current is None:
                return
            # Blank lines at the end of an item belong to what follows (moved in
            # one slice: one at a time to the front of a list was quadratic).
            raw.extend(current.lines[kept:])
            del current.lines[kept:]
            current = None

        n = len(lines)
        i = 0
        while i < n and infos[i].front_matter:
            i += 1
        if i:
            self.front_matter = RawSegment(lines[:i])
            self.link(self.front_matter)
        while i < n:
            line, info = lines[i], infos[i]
            kind = info.kind
            if info.warning:
                self.warnings.append(info.warning)
            if kind == LineKind.TASK:
                close_task()
                flush_raw()
                node, i = self._tasks_from(i)
                current, current_line, kept = node, i, 1
            elif kind == LineKind.HEADING:
                close_task()
                flush_raw()
                heading = RawSegment([line], info.heading_level, info.heading_text)
                self.link(heading)
            elif kind == LineKind.OTHER and i + 1 < n and infos[i + 1] is info:
                # Lines that share one report (prose, blank lines) go alike: in one slice.
                end = i + 2
                while end < n and infos[end] is info:
                    end += 1
                if current is not None and info.owner == current_line:
                    current.lines += lines[i:end]
                    if not info.blank:
                        kept = len(current.lines)
                else:
                    close_task()
                    raw += lines[i:end]
                i = end
                continue
            elif current is not None and info.owner == current_line:
                if kind == LineKind.NOTE and info.note_of == current_line:
                    current.note_lines.append(len(current.lines))
                    self._note_line(current, i, line, info)
                current.lines.append(line)
                if not info.blank:
                    kept = len(current.lines)
            else:
                if kind == LineKind.NOTE:
                    owner = self.by_line.get(info.note_of)
                    if owner is not None:  # a note of a task further up: read, not edited
                        self._note_line(owner, i, line, info)
                if current is not None:
                    close_task()
                raw.append(line)
            i += 1
        close_task()
        flush_raw()
        for node in list(self.note_parts):
            self._join_note(node)

    def _tasks_from(self, i: int) -> tuple[TaskNode, int]:
        """The task on line ``i``, and the task lines right after it (each the whole
        of its item), linked as read: the last of them and its line."""
        lines, infos, last = self.lines, self.infos, len(self.lines) - 1
        by_line, markers, task_kind = self.by_line, self.markers, LineKind.TASK
        tail = self.tail
        while True:
            line = lines[i]
            start = infos[i].task
            # (One character is looked for with memchr: "<!--" in a long line costs
            # seven times "<".)
            if start is None and ("<" not in line or "<!--" not in line):
                # A line of a run of the plainest tasks (runs.py): the marker at 3,
                # the text from 5 to the line's end, no trailing comment.
                char = line[3]
                markers[char] = markers.get(char, 0) + 1
                status = MARKER_STATUS[char]
                node = TaskNode([line], line[5:].strip(), status, i + 1, line[0], 3, 1, 5)
            else:
                node = self._task(i, line, start or start_of(line, i), lines)
            if start is not None:  # (what follows a run's other lines is not theirs: runs.py)
                by_line[i] = node
            node.prev, tail.next = tail, node  # linked last, as ``link`` does
            self.tail = tail = node
            if i == last:
                return node, i
            i += 1
            after = infos[i]
            if after is infos[i - 1]:
                continue  # the next line of the same run: a task line
            if after.kind != task_kind or after.warning:
                return node, i - 1

    def _task(self, i: int, line: str, start: TaskStart, lines: list[str]) -> TaskNode:
        node = TaskNode([line])
        node.content, node.active_form, node.meta = split_meta(start.text)
        if start.text_end > start.text_line:
            node.content = _paragraph(node.content, line[: start.marker_pos], start, lines)
        node.status = start.status
        if node.meta.state is not None:
            node.hidden, node.status = node.meta.state, hidden_status(start.status, node.meta.state)
            node.meta = node.meta.replace(state=None)
        bom = 1 if i == 0 and line.startswith(BOM) else 0
        char = line[start.marker_pos + bom : start.marker_pos + bom + start.marker_len]
        self.markers[char] = self.markers.get(char, 0) + 1
        node.marker_pos = start.marker_pos + bom
        node.marker_len = start.marker_len
        node.indent, node.bullet, node.gap = start.indent, start.bullet, start.gap
        node.line_no = i + 1
        node.text_line = start.text_line - i
        node.text_pos = start.text_pos + (bom if node.text_line == 0 else 0)
        node.text_end = start.text_end - i
        return node

    def _note_line(self, node: TaskNode, i: int, line: str, info: LineInfo) -> None:
        """Collect note text: consecutive lines make one note; a bare '>' line or
        any other line in between starts the next one."""
        if not node.note_prefix:
            body = strip_eol(line)
            cut = body.find(">")
            if cut >= 0:
                space = " " if body[cut + 1 : cut + 2] == " " else ""
                node.note_prefix = body[: cut + 1] + space
        text = info.note_text
        previous = self.last_note_line.get(node)
        self.last_note_line[node] = (i, text is None)
        if text is None:
            return
        if previous is not None and previous == (i - 1, False):
            self.note_parts[node].append(text)
        else:
            self._join_note(node)
            node.notes.append(text)
            self.note_parts[node] = [text]

    def _join_note(self, node: TaskNode) -> None:
        """Write the lines read so far of the task's last note into it, joined once
        (a note of thousands of lines, grown by one line at a time, was quadratic)."""
        parts = self.note_parts.pop(node, None)
        if parts is not None and len(parts) > 1:
            node.notes[-1] = "\n".join(parts)


def lift_nested(seg: Segment | None, removed: TaskNode) -> None:
    """Move what was nested in a removed item up one level.

    Lines indented past the removed item's own indentation belonged to it (its
    nested tasks, their notes); left as they are, their indentation could turn
    into an indented code block. They lose the removed item's content offset.
    """
    if seg is None:
        return
    base = len(removed.indent.expandtabs(4))
    width = removed.width()
    while seg is not None:
        lines = seg.lines
        stop = len(lines)
        for i, line in enumerate(lines):
            body = strip_eol(line)
            if is_blank(body):
                continue
            lead = len(body) - len(body.lstrip(" \t"))
            cols = len(body[:lead].expandtabs(4))
            if cols <= base:
                stop = i  # back at the removed item's level or shallower
                break
            keep = max(cols - width, base)
            lines[i] = " " * keep + body[lead:] + eol_of(line)
        if isinstance(seg, TaskNode) and stop > 0:  # its task line moved
            indent = " " * max(len(seg.indent.expandtabs(4)) - width, base)
            seg.shift(len(indent) - len(seg.indent))
            seg.indent = indent
            if seg.note_prefix:
                seg.note_prefix = ""  # recomputed from the new indent on the next note
        if stop < len(lines):
            return
        seg = seg.next


def hidden_status(marker: Status, state: str) -> Status:
    """A task's status from its marker and the state its comment keeps: the state
    refines an unticked ``[ ]`` (in progress, blocked) or a ticked ``[x]``
    (abandoned); a marker a person changed since wins."""
    try:
        status = Status.parse(state)
    except ValueError:
        return marker
    if marker is Status.PENDING and status.is_open:
        return status
    if marker is Status.COMPLETED and status is Status.ABANDONED:
        return status
    return marker


CONFLICT_MARKERS = ("<<<<<<< ", "=======", ">>>>>>> ")


def _paragraph(first: str, before: str, start: TaskStart, lines: list[str]) -> str:
    """A task's text as GitHub shows it: its paragraph's lines joined with a space,
    each without the indentation and block-quote markers of the containers it is in
    (``before``: what precedes the marker on the task line). Only read: the lines
    stay as written."""
    quotes = before.count(">")
    end = start.text_end
    last = strip_eol(lines[end]).expandtabs(4)
    rule = last.strip(" ")
    # A setext underline (not a lazy line, nor one indented as code past the item's
    # content) makes the text a heading's: not text.
    if (
        start.content_col <= len(last) - len(last.lstrip(" ")) < start.content_col + 4
        and rule
        and rule
        in (
            "=" * len(rule),
            "-" * len(rule),
        )
    ):
        end -= 1
    parts = [first] if first else []
    for line in lines[start.text_line + 1 : end + 1]:
        body = strip_eol(line).strip(" \t")
        if body.startswith(CONFLICT_MARKERS):  # git's markers: the sides are read apart
            break
        for _ in range(quotes):
            if body.startswith(">"):
                body = body[1:].lstrip(" \t")
        if body:
            parts.append(body)
    # White space at either end of a paragraph (a form feed, say) shows nothing.
    return " ".join(parts).strip()


def canonical(doc: Document) -> bool:
    """Whether the file is exactly what the tool writes for its content.

    Such a file holds nothing of a person's but the list itself, so it may be
    written anew from a model without losing anything. A file with a line that is
    no task's and neither a heading nor blank is not: told without writing a 1 MB
    plan anew to compare.
    """
    seg = doc.head.next
    while seg is not None:
        raw = isinstance(seg, RawSegment) and not seg.heading_level
        if raw and any(not is_blank(strip_eol(line)) for line in seg.lines):
            return False
        seg = seg.next
    return doc.text() == render_canonical(doc.model())


def render_canonical(todo: TodoList) -> str:
    """Write a list made from data in the canonical form (docs/file-format.md).

    ``# summary``, then ``## phase`` per phase (a lone ``Todos`` phase with no
    summary is ``# Todos``), ``- [m] content``, notes as ``  > ...`` with a bare
    ``  >`` between notes, a blank line between blocks, a final newline. An empty
    list is an empty string.
    """
    phases = [p for p in todo.phases if p.tasks]
    blocks: list[list[str]] = []
    if todo.summary:
        blocks.append([f"# {todo.summary}"])
    lone = not todo.summary and len(phases) == 1 and phases[0].name == DEFAULT_PHASE
    for phase in phases:
        block = [("# " if lone else "## ") + phase.name]
        for task in phase.tasks:
            line = f"- [{task.status.marker}] {task.content}"
            line += meta_comment(task.active_form, task.meta)
            block.append(line)
            for k, note in enumerate(task.notes):
                if k:
                    block.append("  >")
                block.extend(f"  > {part}" for part in note.split("\n"))
        blocks.append(block)
    if not blocks:
        return ""
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"
