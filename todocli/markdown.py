"""The lossless markdown checklist: text <-> a document of line segments.

A ``Document`` is the file's lines, grouped into segments: one per task item (its
task line plus the lines of its own that follow: notes, continuation text) and raw
runs of every other line. Each line keeps its exact text and line ending, so
joining the segments gives the file back byte for byte. Edits replace, insert or
remove whole lines of their own target only; every other line is written back from
its raw text.

Segments form a doubly linked list so an insertion or removal costs O(1) however
long the file is; tasks are indexed by content.
"""

from __future__ import annotations

from collections.abc import Iterator

from todocli.blocks import (
    BOM,
    LineInfo,
    LineKind,
    Scanner,
    eol_of,
    is_blank,
    split_active,
    split_lines,
    strip_eol,
)
from todocli.model import DEFAULT_PHASE, Phase, Status, Task, TodoList


class Segment:
    """A run of consecutive lines; the base of the linked list."""

    __slots__ = ("lines", "next", "prev")

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.prev: Segment | None = None
        self.next: Segment | None = None


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
        "indent",
        "marker_len",
        "marker_pos",
        "note_prefix",
        "notes",
        "notes_last",
        "phase",
        "status",
    )

    def __init__(self, lines: list[str]) -> None:
        super().__init__(lines)
        self.content = ""
        self.status = Status.PENDING
        self.active_form: str | None = None
        self.notes: list[str] = []
        self.marker_pos = 0
        self.marker_len = 0
        self.indent = ""
        self.bullet = "-"
        self.gap = " "
        self.note_prefix = ""
        self.notes_last = False  # whether the segment's last line is a note line
        self.phase: PhaseNode | None = None

    def task(self) -> Task:
        return Task(self.content, self.status, self.active_form, tuple(self.notes))


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


class Document:
    """A parsed checklist that writes back exactly what it read, plus its edits."""

    def __init__(self) -> None:
        self.head = Segment([])  # sentinel: never holds lines
        self.tail: Segment = self.head
        self.phases: list[PhaseNode] = []
        self.index: dict[str, TaskNode] = {}
        self.warnings: list[str] = []
        self.summary_segment: RawSegment | None = None
        self.front_matter: RawSegment | None = None
        self.duplicates: set[str] = set()  # contents that more than one task has

    # -- reading ---------------------------------------------------------------

    def segments(self) -> Iterator[Segment]:
        seg = self.head.next
        while seg is not None:
            yield seg
            seg = seg.next

    def text(self) -> str:
        """The document as text: untouched lines exactly as they were read."""
        return "".join(line for seg in self.segments() for line in seg.lines)

    def tasks(self) -> Iterator[TaskNode]:
        """Tasks in the order ``todo show`` numbers them: phase by phase."""
        for phase in self.phases:
            yield from phase.tasks

    def find(self, content: str) -> TaskNode | None:
        return self.index.get(content)

    def phase_named(self, name: str) -> list[PhaseNode]:
        return [p for p in self.phases if p.name == name]

    @property
    def summary(self) -> str:
        return self.summary_segment.heading_text if self.summary_segment else ""

    def model(self) -> TodoList:
        """The document's content as a plain value."""
        return TodoList(
            summary=self.summary,
            phases=tuple(
                Phase(p.name, tuple(t.task() for t in p.tasks)) for p in self.phases if p.tasks
            ),
        )

    def is_empty(self) -> bool:
        return self.head.next is None

    # -- line plumbing ---------------------------------------------------------

    def _link_after(self, anchor: Segment, seg: Segment) -> None:
        seg.prev = anchor
        seg.next = anchor.next
        if anchor.next is not None:
            anchor.next.prev = seg
        else:
            self.tail = seg
        anchor.next = seg

    def _unlink(self, seg: Segment) -> None:
        """Remove a segment; a file that had no final newline still has none."""
        was_last = seg.next is None
        lost_final_eol = was_last and bool(seg.lines) and not eol_of(seg.lines[-1])
        assert seg.prev is not None
        seg.prev.next = seg.next
        if seg.next is not None:
            seg.next.prev = seg.prev
        else:
            self.tail = seg.prev
        seg.prev = seg.next = None
        if lost_final_eol and self.tail is not self.head and self.tail.lines:
            self.tail.lines[-1] = strip_eol(self.tail.lines[-1])

    def _default_eol(self) -> str:
        for seg in self.segments():
            for line in seg.lines:
                eol = eol_of(line)
                if eol:
                    return eol
        return "\n"

    def _last_line_before(self, anchor: Segment) -> tuple[Segment, int] | None:
        seg: Segment | None = anchor
        while seg is not None and seg is not self.head:
            if seg.lines:
                return seg, len(seg.lines) - 1
            seg = seg.prev
        return None

    def _terminate(self, anchor: Segment, new_lines: list[str]) -> list[str]:
        """Give new lines the line ending of their neighbour.

        New lines written after the current last line of a file without a final
        newline end that line and leave the new last line without one.
        """
        before = self._last_line_before(anchor)
        if before is not None:
            seg, i = before
            eol = eol_of(seg.lines[i])
            if not eol:  # the file's last line: end it, keep "no final newline"
                eol = self._default_eol()
                seg.lines[i] += eol
                return [line + eol for line in new_lines[:-1]] + [new_lines[-1]]
        else:
            eol = self._default_eol()
        return [line + eol for line in new_lines]

    def _insert_raw(self, anchor: Segment, lines: list[str]) -> RawSegment:
        seg = RawSegment(self._terminate(anchor, lines))
        self._link_after(anchor, seg)
        return seg

    # -- editing primitives ------------------------------------------------------

    def set_status(self, task: TaskNode, status: Status) -> None:
        """Change the marker character only; a task already in that state is untouched."""
        if task.status is status:
            return
        line = task.lines[0]
        task.lines[0] = (
            line[: task.marker_pos] + status.marker + line[task.marker_pos + task.marker_len :]
        )
        task.marker_len = 1
        task.status = status

    def set_active_form(self, task: TaskNode, active_form: str | None) -> None:
        """Set, replace or (with None) remove the trailing ``<!-- active: ... -->``."""
        if task.active_form == active_form:
            return
        line = task.lines[0]
        body, eol = strip_eol(line), eol_of(line)
        head, tail = (
            body[: task.marker_pos + task.marker_len],
            body[task.marker_pos + task.marker_len :],
        )
        if task.active_form is not None:
            cut = tail.rfind("<!--")
            tail = tail[:cut].rstrip(" \t")
        else:
            tail = tail.rstrip(" \t")
        if active_form is not None:
            tail += f" <!-- active: {active_form} -->"
        task.lines[0] = head + tail + eol
        task.active_form = active_form

    def add_note(self, task: TaskNode, note: str) -> None:
        """Append a note (one ``> `` line per line of text) under the task."""
        prefix = task.note_prefix or self._note_prefix(task)
        new = [prefix.rstrip(" \t")] if task.notes_last else []
        new += [prefix + part for part in note.split("\n")]
        last = task.lines[-1]
        if not eol_of(last):
            task.lines[-1] = last + self._default_eol()
            new_lines = [line + self._default_eol() for line in new[:-1]] + [new[-1]]
        else:
            new_lines = [line + eol_of(last) for line in new]
        task.lines.extend(new_lines)
        task.notes.append(note)
        task.note_prefix = prefix
        task.notes_last = True

    @staticmethod
    def _note_prefix(task: TaskNode) -> str:
        width = len(task.bullet) + len(task.gap.expandtabs(4))
        return task.indent + " " * width + "> "

    def add_task(
        self,
        phase_name: str,
        content: str,
        status: Status = Status.PENDING,
        active_form: str | None = None,
        notes: tuple[str, ...] | list[str] = (),
    ) -> TaskNode:
        """Append a task at the end of a phase, creating the phase if there is none."""
        phases = self.phase_named(phase_name)
        phase = phases[-1] if phases else None
        anchor: Segment
        indent, bullet, gap = "", "-", " "
        gap_after = False
        if phase is not None and phase.tasks:
            # Copy the style of the phase's first task; count on ordered lists.
            first, last = phase.first(), phase.last()
            assert first is not None
            assert last is not None
            anchor = last
            indent, bullet, gap = first.indent, self._next_bullet(first, last), first.gap
        else:
            phase, anchor, gap_after = self._phase_for_new_task(phase_name)
        line = f"{indent}{bullet}{gap}[{status.marker}] {content}"
        if active_form is not None:
            line += f" <!-- active: {active_form} -->"
        lines = self._terminate(anchor, [line, ""] if gap_after else [line])
        node = TaskNode(lines[:1])
        node.content, node.status, node.active_form = content, status, active_form
        node.indent, node.bullet, node.gap = indent, bullet, gap
        node.marker_pos = len(indent) + len(bullet) + len(gap) + 1
        node.marker_len = 1
        node.phase = phase
        self._link_after(anchor, node)
        if gap_after:
            self._link_after(node, RawSegment(lines[1:]))
        phase.tasks[node] = None
        if content in self.index:
            self.duplicates.add(content)
        else:
            self.index[content] = node
        for note in notes:
            self.add_note(node, note)
        return node

    @staticmethod
    def _next_bullet(style: TaskNode, last: Segment) -> str:
        """Ordered lists count on from the phase's last task at the same indent."""
        bullet = style.bullet
        if bullet[-1] not in ".)":
            return bullet
        number = int(bullet[:-1])
        if isinstance(last, TaskNode) and last.indent == style.indent and last.bullet[-1] in ".)":
            number = int(last.bullet[:-1]) + 1
        return f"{number}{bullet[-1]}"

    def _phase_for_new_task(self, name: str) -> tuple[PhaseNode, Segment, bool]:
        """Find or make the place a phase's first task goes.

        Returns the phase, the segment to insert after, and whether the new task
        needs a blank line after it (so that text below is not absorbed into it).
        """
        for seg in self.segments():
            if (
                isinstance(seg, RawSegment)
                and seg.heading_level
                and seg.heading_text == name
                and seg is not self.summary_segment
            ):
                phase = PhaseNode(name, seg)
                self._insert_phase(phase)
                nxt = seg.next
                needs_gap = nxt is not None and nxt.lines and not is_blank(strip_eol(nxt.lines[0]))
                return phase, seg, bool(needs_gap) and not isinstance(nxt, TaskNode)
        if name == DEFAULT_PHASE and not self.phases and self.is_empty():
            level = 1
        else:
            level = self._phase_heading_level()
        lines = [] if self.is_empty() or self._ends_blank() else [""]
        lines.append("#" * level + " " + name)
        heading = self._insert_raw(self.tail, lines)
        # Split the separator from the heading so the heading is a segment of its own.
        if len(heading.lines) > 1:
            sep = RawSegment(heading.lines[:-1])
            heading.lines = heading.lines[-1:]
            self._link_after(heading.prev or self.head, sep)
        heading.heading_level = level
        heading.heading_text = name
        phase = PhaseNode(name, heading)
        self.phases.append(phase)
        return phase, heading, False

    def _insert_phase(self, phase: PhaseNode) -> None:
        """Place a phase that gained its first task in document order."""
        assert phase.heading is not None
        order = {}
        for i, seg in enumerate(self.segments()):
            order[id(seg)] = i
        pos = order[id(phase.heading)]
        at = len(self.phases)
        for i, other in enumerate(self.phases):
            if other.heading is not None and order[id(other.heading)] > pos:
                at = i
                break
        self.phases.insert(at, phase)

    def _phase_heading_level(self) -> int:
        for phase in reversed(self.phases):
            if phase.heading is not None:
                return phase.heading.heading_level
        return 2

    def _ends_blank(self) -> bool:
        last = self._last_line_before(self.tail)
        return last is not None and is_blank(strip_eol(last[0].lines[last[1]]))

    def remove_task(self, task: TaskNode) -> None:
        """Remove a task's own lines. Nested tasks stay (they are tasks of their own).

        A phase heading left with nothing but blank lines under it goes too.
        """
        phase = task.phase
        self._unlink(task)
        if self.index.get(task.content) is task:
            del self.index[task.content]
            if task.content in self.duplicates:  # rare: a hand-made duplicate takes over
                for other in self.tasks():
                    if other.content == task.content and other is not task:
                        self.index[task.content] = other
                        break
        if phase is None:
            return
        del phase.tasks[task]
        if not phase.tasks:
            self.phases.remove(phase)
            if phase.heading is not None:
                self._drop_empty_heading(phase.heading)

    def _drop_empty_heading(self, heading: RawSegment) -> None:
        after: list[Segment] = []
        seg = heading.next
        while seg is not None and not (isinstance(seg, RawSegment) and seg.heading_level):
            if isinstance(seg, TaskNode) or not all(is_blank(strip_eol(x)) for x in seg.lines):
                return  # the heading still heads something: keep it
            after.append(seg)
            seg = seg.next
        if seg is None:
            # The last section: its blank separator sits before the heading.
            prev = heading.prev
            if isinstance(prev, RawSegment) and not prev.heading_level:
                while prev.lines and is_blank(strip_eol(prev.lines[-1])):
                    prev.lines.pop()
                if not prev.lines:
                    self._unlink(prev)
        for blank in after:
            self._unlink(blank)
        self._unlink(heading)

    def set_summary(self, summary: str) -> None:
        """Set the summary H1, adding one at the top when there is none."""
        seg = self.summary_segment
        if seg is not None:
            if not summary:
                nxt = seg.next
                self._unlink(seg)
                blank_after = (
                    isinstance(nxt, RawSegment)
                    and not nxt.heading_level
                    and is_blank(strip_eol(nxt.lines[0]))
                )
                if blank_after:
                    assert nxt is not None
                    nxt.lines.pop(0)
                    if not nxt.lines:
                        self._unlink(nxt)
                self.summary_segment = None
                return
            line = seg.lines[0]
            bom = BOM if line.startswith(BOM) else ""
            seg.lines[0] = f"{bom}# {summary}{eol_of(line)}"
            seg.heading_text = summary
            return
        if not summary:
            return
        anchor = self.front_matter or self.head
        eol = self._default_eol()
        heading = f"# {summary}{eol}"
        first = self.head.next
        if anchor is self.head and first is not None and first.lines[0].startswith(BOM):
            # The byte-order mark stays the file's first character.
            first.lines[0] = first.lines[0][1:]
            heading = BOM + heading
        seg = RawSegment([heading], 1, summary)
        orphans = self.phases[0] if self.phases and self.phases[0].heading is None else None
        if orphans is not None:
            # Tasks right under the new H1 would make it their phase, not the
            # summary: give them the heading of their phase, as the canonical form does.
            todos = RawSegment([f"## {DEFAULT_PHASE}{eol}"], 2, DEFAULT_PHASE)
            self._link_after(anchor, todos)
            orphans.heading = todos
        if anchor.next is not None:
            self._link_after(anchor, RawSegment([eol]))  # a blank line under the summary
        self._link_after(anchor, seg)
        self.summary_segment = seg


def parse(text: str) -> Document:
    """Read markdown text into a Document. Never fails; odd lines stay text."""
    lines = split_lines(text)
    infos = Scanner().scan(lines)
    return _Builder(lines, infos).build()


class _Builder:
    def __init__(self, lines: list[str], infos: list[LineInfo]) -> None:
        self.lines = lines
        self.infos = infos
        self.doc = Document()
        # The last note line seen for each task, and whether it was a bare ">".
        self.last_note_line: dict[TaskNode, tuple[int, bool]] = {}

    def build(self) -> Document:
        doc = self.doc
        lines, infos = self.lines, self.infos
        raw: list[str] = []
        current: TaskNode | None = None  # the task whose own lines we are collecting
        current_line = -1
        heading: RawSegment | None = None
        phase_of_heading: dict[int, PhaseNode] = {}
        orphan: PhaseNode | None = None
        by_line: dict[int, TaskNode] = {}
        first_h1: RawSegment | None = None
        first_h1_has_tasks = False

        def flush_raw() -> None:
            if raw:
                doc._link_after(doc.tail, RawSegment(raw.copy()))
                raw.clear()

        def close_task() -> None:
            nonlocal current
            if current is None:
                return
            # Blank lines at the end of an item belong to what follows.
            tail: list[str] = []
            while len(current.lines) > 1 and is_blank(strip_eol(current.lines[-1])):
                tail.insert(0, current.lines.pop())
            if tail:
                current.notes_last = False
            raw.extend(tail)
            current = None

        n = len(lines)
        i = 0
        if n and infos[0].front_matter:
            while i < n and infos[i].front_matter:
                i += 1
            doc.front_matter = RawSegment(lines[:i])
            doc._link_after(doc.tail, doc.front_matter)
        while i < n:
            line, info = lines[i], infos[i]
            kind = info.kind
            if info.warning:
                doc.warnings.append(info.warning)
            if kind is LineKind.TASK:
                close_task()
                flush_raw()
                node = self._task(i, line, info)
                if heading is None:
                    if orphan is None:
                        orphan = PhaseNode(DEFAULT_PHASE, None)
                        doc.phases.insert(0, orphan)
                    phase = orphan
                elif id(heading) in phase_of_heading:
                    phase = phase_of_heading[id(heading)]
                else:
                    phase = PhaseNode(heading.heading_text, heading)
                    phase_of_heading[id(heading)] = phase
                    doc.phases.append(phase)
                if heading is not None and heading is first_h1:
                    first_h1_has_tasks = True
                node.phase = phase
                phase.tasks[node] = None
                by_line[i] = node
                if node.content in doc.index:
                    doc.duplicates.add(node.content)
                    doc.warnings.append(
                        f'Line {i + 1}: duplicate task "{node.content}" '
                        "(operations address the first one)"
                    )
                else:
                    doc.index[node.content] = node
                doc._link_after(doc.tail, node)
                current, current_line = node, i
            elif kind is LineKind.HEADING:
                close_task()
                flush_raw()
                heading = RawSegment([line], info.heading_level, info.heading_text)
                doc._link_after(doc.tail, heading)
                if info.heading_level == 1 and first_h1 is None:
                    first_h1 = heading
            else:
                if kind is LineKind.NOTE:
                    owner_node = by_line.get(info.note_of)
                    if owner_node is not None:
                        self._note_line(owner_node, i, line, info)
                if current is not None and info.owner == current_line:
                    current.lines.append(line)
                    current.notes_last = kind is LineKind.NOTE
                else:
                    close_task()
                    raw.append(line)
            i += 1
        close_task()
        flush_raw()
        if first_h1 is not None and not first_h1_has_tasks:
            doc.summary_segment = first_h1
        return doc

    @staticmethod
    def _task(i: int, line: str, info: LineInfo) -> TaskNode:
        start = info.task
        assert start is not None
        node = TaskNode([line])
        node.content, node.active_form = split_active(start.text)
        node.status = start.status
        node.marker_pos = start.marker_pos + (1 if i == 0 and line.startswith(BOM) else 0)
        node.marker_len = start.marker_len
        node.indent, node.bullet, node.gap = start.indent, start.bullet, start.gap
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
            node.notes[-1] += "\n" + text
        else:
            node.notes.append(text)


def render_canonical(todo: TodoList) -> str:
    """Write a list made from data in the canonical form (SPEC 3).

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
            if task.active_form is not None:
                line += f" <!-- active: {task.active_form} -->"
            block.append(line)
            for k, note in enumerate(task.notes):
                if k:
                    block.append("  >")
                block.extend(f"  > {part}" for part in note.split("\n"))
        blocks.append(block)
    if not blocks:
        return ""
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"
