"""The lossless markdown checklist: text <-> a document of line segments.

A ``Document`` is the file's lines, grouped into segments: one per task item (its
task line plus the lines of its own that follow: notes, continuation text) and raw
runs of every other line. Each line keeps its exact text and line ending, so
joining the segments gives the file back byte for byte. Edits replace, insert,
move or remove whole lines of their own target only; every other line is written
back from its raw text.

Segments form a doubly linked list so an insertion or removal costs O(1) however
long the file is; tasks are indexed by content. Which phase a task is in, the
content index and the summary are derived from the lines by ``reindex``.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING
from todocli.document.blocks import Scanner
from todocli.document.lines import BOM, eol_of, is_blank, meta_comment, split_lines, strip_eol
from todocli.document.model import DEFAULT_PHASE, Meta, Phase, Status, TodoList
from todocli.document.segments import (
    Builder,
    PhaseNode,
    RawSegment,
    Segment,
    TaskNode,
    canonical,
    conflict_warnings,
    has_conflict_marker,
    index_of,
    lift_nested,
    render_canonical,
    text_after,
)

# The nodes and the canonical writer live in ``segments``; the package imports them here.
__all__ = ["Document", "PhaseNode", "RawSegment", "Segment", "TaskNode"]
__all__ += ["parse", "render_canonical"]

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence


class Document:
    """A parsed checklist that writes back exactly what it read, plus its edits."""

    def __init__(self) -> None:
        self.head = Segment([])  # sentinel: never holds lines
        self.tail: Segment = self.head
        self.phases: list[PhaseNode] = []
        # ``index`` and ``duplicates``: made when first asked for (a show never asks).
        self._index: dict[str, TaskNode] | None = {}
        self._duplicates: set[str] = set()
        # Whether a task may have a parent (one is indented or starts with a digit):
        # else ``model`` need not load ``tree``. Set by reindex, and on by an edit that may.
        self.nests = False
        self.warnings: list[str] = []
        self.summary_segment: RawSegment | None = None
        self.front_matter: RawSegment | None = None
        # A line that closes a code fence or HTML block the file leaves open at its
        # end; written before the first lines appended there.
        self.eof_closer: str | None = None
        # The file's convention (``conventions``): how many tasks use each marker, what
        # another tool's markers read as (None: todo's), and whether todo's own may be written.
        self.markers: dict[str, int] = {}
        self.reads: dict[str, Status] | None = None
        self.own = False

    # -- reading ---------------------------------------------------------------

    def segments(self) -> Iterator[Segment]:
        seg = self.head.next
        while seg is not None:
            yield seg
            seg = seg.next

    def text(self) -> str:
        """The document as text: untouched lines exactly as they were read."""
        return text_after(self.head)

    def tasks(self) -> list[TaskNode]:
        """Tasks in document order (``todo show`` numbers them so), as a new list."""
        return [task for phase in self.phases for task in phase.tasks]

    def task_count(self) -> int:
        return sum(len(p.tasks) for p in self.phases)

    def find(self, content: str) -> TaskNode | None:
        return self.index.get(content)

    @property
    def index(self) -> dict[str, TaskNode]:
        """Each text's task (the first that has it)."""
        if self._index is None:
            self._index, self._duplicates = index_of(self.tasks())
        return self._index

    @property
    def duplicates(self) -> set[str]:
        """The texts more than one task has."""
        if self._index is None:
            self._index, self._duplicates = index_of(self.tasks())
        return self._duplicates

    def phase_named(self, name: str) -> list[PhaseNode]:
        return [p for p in self.phases if p.name == name]

    @property
    def summary(self) -> str:
        return self.summary_segment.heading_text if self.summary_segment else ""

    def model(self) -> TodoList:
        """The document's content as a plain value."""
        if self.nests:
            from todocli.document.tree import nested_model  # a plan with subtasks

            return nested_model(self)
        return TodoList(
            summary=self.summary,
            # Lists, not generators: a generator step a task, for a plan of thousands.
            phases=tuple(
                [Phase(p.name, tuple([t.task() for t in p.tasks])) for p in self.phases if p.tasks]
            ),
        )

    def is_empty(self) -> bool:
        return self.head.next is None

    def is_canonical(self) -> bool:
        """Whether the file is exactly what the tool writes for its content."""
        return canonical(self)

    # -- deriving phases, index and summary from the lines ---------------------------

    def reindex(self) -> None:
        """Recompute phases, the content index and the summary from the segments.

        A phase is the nearest top-level ATX heading above a task (``Todos`` for
        tasks before any heading); the summary is the first H1 when no task sits
        directly under it. The index is made anew when next asked for.
        """
        old = {id(p.heading): p for p in self.phases if p.heading is not None}
        orphans = next((p for p in self.phases if p.heading is None), None)
        phases: list[PhaseNode] = []
        heading: RawSegment | None = None
        current: PhaseNode | None = None
        first_h1: RawSegment | None = None
        first_h1_has_tasks = False
        nests = False
        for seg in self.segments():
            if isinstance(seg, TaskNode):
                if not nests and (seg.indent or seg.content[:1].isdigit()):  # asked until found
                    nests = True
                if current is None:
                    if heading is None:
                        current = orphans or PhaseNode(DEFAULT_PHASE, None)
                    else:
                        current = old.get(id(heading)) or PhaseNode(heading.heading_text, heading)
                        current.name = heading.heading_text
                        first_h1_has_tasks |= heading is first_h1
                    current.tasks = {}
                    phases.append(current)
                current.tasks[seg] = None
                seg.phase = current
            elif isinstance(seg, RawSegment) and seg.heading_level:
                heading, current = seg, None
                if seg.heading_level == 1 and first_h1 is None:
                    first_h1 = seg
        self.phases, self.nests = phases, nests
        self._index = None
        # "# Todos" heads the default phase (oh-my-pi writes an empty list so): never a summary.
        is_summary = (
            first_h1 is not None
            and not first_h1_has_tasks
            and first_h1.heading_text != DEFAULT_PHASE
        )
        self.summary_segment = first_h1 if is_summary else None

    # -- line plumbing ---------------------------------------------------------

    def _link_after(self, anchor: Segment, seg: Segment) -> None:
        seg.prev = anchor
        seg.next = anchor.next
        if anchor.next is not None:
            anchor.next.prev = seg
        else:
            self.tail = seg
        anchor.next = seg
        # A segment that came from the end of a file without a final newline.
        if seg.next is not None and seg.lines and not eol_of(seg.lines[-1]):
            seg.lines[-1] += self._default_eol()

    def _unlink(self, seg: Segment) -> None:
        """Remove a segment; a file that had no final newline still has none."""
        lost_final_eol = seg.next is None and bool(seg.lines) and not eol_of(seg.lines[-1])
        assert seg.prev is not None
        seg.prev.next = seg.next
        if seg.next is not None:
            seg.next.prev = seg.prev
        else:
            self.tail = seg.prev
        seg.prev = seg.next = None
        if lost_final_eol and self.tail is not self.head:
            self.tail.lines[-1] = strip_eol(self.tail.lines[-1])

    def _default_eol(self) -> str:
        for seg in self.segments():
            for line in seg.lines:
                eol = eol_of(line)
                if eol:
                    return eol
        return "\n"

    def _terminate(self, anchor: Segment, new_lines: list[str]) -> list[str]:
        """Give new lines the line ending of the line they follow.

        Lines written after the last line of a file without a final newline end
        that line and leave the new last line without one.
        """
        if anchor is self.head:
            first = self.head.next
            eol = eol_of(first.lines[0]) if first is not None else ""
            return [line + (eol or "\n") for line in new_lines]
        eol = eol_of(anchor.lines[-1])
        if eol:
            return [line + eol for line in new_lines]
        eol = self._default_eol()
        anchor.lines[-1] += eol
        return [line + eol for line in new_lines[:-1]] + [new_lines[-1]]

    # -- editing primitives ------------------------------------------------------

    def set_status(self, task: TaskNode, status: Status) -> None:
        """Change the marker character (and the state the trailing comment keeps where
        the file's markers cannot show it); a task already in that state is untouched."""
        if task.status is status:
            return
        char, hidden = self.marker_for(status)
        if hidden is not None and hidden != task.hidden and (task.text_line or not task.content):
            return  # no text on its line to keep the state beside: the file reads as it was
        line = task.lines[0]
        end = task.marker_pos + task.marker_len
        if line[task.marker_pos : end] != char and (task.marker_len or char != " "):
            task.lines[0] = line[: task.marker_pos] + char + line[end:]
            if not task.marker_len:  # "[]" became "[x]": what follows moved by one
                task.marker_len = 1
                if task.text_line == 0:
                    task.text_pos += 1
        task.status = status
        if hidden != task.hidden:
            self._set_tail(task, task.active_form, task.meta, hidden)

    def marker_for(self, status: Status) -> tuple[str, str | None]:
        """The marker this file writes for a status, and the state its comment keeps
        (None: the marker shows it). Todo's own markers, or one the file already uses."""
        char = status.marker
        own = self.own and (char != "x" or "X" not in self.markers)  # [X] files get [X]
        if self.reads is None and (char in self.markers or own):
            return char, None
        from todocli.document import conventions

        return conventions.marker_for(self, status)

    def set_active_form(self, task: TaskNode, active_form: str | None) -> None:
        """Set, replace or (with None) remove the active form in the trailing comment."""
        if task.active_form != active_form:
            self._set_tail(task, active_form, task.meta, task.hidden)

    def set_meta(self, task: TaskNode, meta: Meta) -> None:
        """Set the id, priority, dependencies and owner in the trailing comment."""
        if task.meta != meta:
            self._set_tail(task, task.active_form, meta, task.hidden)

    def _set_tail(
        self, task: TaskNode, active_form: str | None, meta: Meta, hidden: str | None
    ) -> None:
        line = task.lines[task.text_line]  # the line that holds the text
        body, eol = strip_eol(line), eol_of(line)
        head, tail = body[: task.text_pos], body[task.text_pos :]
        if task.active_form is not None or task.meta or task.hidden is not None:
            tail = tail[: tail.rfind("<!--")]
        tail = tail.rstrip(" \t")
        tail += meta_comment(active_form, meta if hidden is None else meta.replace(state=hidden))
        task.lines[task.text_line] = head + tail + eol
        task.active_form = active_form
        task.meta = meta
        task.hidden = hidden

    def set_content(self, task: TaskNode, content: str) -> bool:
        """Rename a task in place (its marker, comment and notes kept); False when
        its text is not one plain run on its line, which the caller then replaces."""
        if task.text_end != task.text_line:
            return False
        line = task.lines[task.text_line]
        body, eol = strip_eol(line), eol_of(line)
        head, tail = body[: task.text_pos], body[task.text_pos :]
        commented = task.active_form is not None or task.meta or task.hidden is not None
        cut = tail.rfind("<!--") if commented else len(tail)
        text = tail[:cut].rstrip(" \t")
        lead = len(text) - len(text.lstrip(" \t"))
        if text[lead:] != task.content:
            return False
        task.lines[task.text_line] = head + text[:lead] + content + tail[len(text) :] + eol
        if self.index.get(task.content) is task:
            del self.index[task.content]
        task.content = content
        self.nests = self.nests or content[:1].isdigit()
        self.index.setdefault(content, task)
        return True

    def find_id(self, task_id: str) -> TaskNode | None:
        """The task that carries this id, if any."""
        for task in self.tasks():
            if task.meta.id == task_id:
                return task
        return None

    def add_note(self, task: TaskNode, note: str, placement: int = 0) -> None:
        """Add a note (one ``> `` line per line of text) under the task, after its
        last note, or right after its text when it has none.

        Those are places where a block quote always starts inside the item, and
        where it changes how nothing after it reads: after a paragraph or a quote
        line, never inside a code fence or HTML block that the item opens further
        down (at the end of the item's lines such a block would swallow the note).
        The engine tries the other ``placement``s when the file would read
        differently: 1 adds a blank line after the note (a task with no text has
        no paragraph that ends before the next line, which could otherwise go on
        the note's), 2 puts the note at the end of the task's own lines, 3 both.
        """
        prefix = task.note_prefix or task.new_note_prefix()
        if placement >= 2 or not task.note_lines:
            at = len(task.lines) if placement >= 2 else task.text_end + 1
        else:
            at = task.note_lines[-1] + 1
        # Every note line the task has comes before ``at`` (after its last note, or
        # at the end of its lines), so the new ones are the last: a note costs
        # the same however many the task has (no search, shift or sort of them).
        after_note = bool(task.note_lines) and task.note_lines[-1] == at - 1
        new = [prefix.rstrip(" \t")] if after_note else []
        new += [prefix + part for part in note.split("\n")]
        notes = len(new)
        if placement % 2 and (at < len(task.lines) or task.next is not None):
            new.append("")
        if at == len(task.lines):
            new = self._terminate(task, new)
        else:
            eol = eol_of(task.lines[at - 1])
            new = [line + eol for line in new]
        task.lines[at:at] = new
        task.note_lines += range(at, at + notes)
        task.notes.append(note)
        task.note_prefix = prefix

    def set_notes(self, task: TaskNode, notes: Sequence[str]) -> None:
        """Make the task's notes exactly these: appended when they only grow,
        rewritten otherwise."""
        notes = list(notes)
        if notes == task.notes:
            return
        if notes[: len(task.notes)] != task.notes:
            dropped = set(task.note_lines)
            kept = [line for i, line in enumerate(task.lines) if i not in dropped]
            if not eol_of(kept[-1]) and len(kept) < len(task.lines) and task.next is not None:
                kept[-1] += self._default_eol()
            if task.next is None and not eol_of(task.lines[-1]):
                kept[-1] = strip_eol(kept[-1])
            task.lines, task.note_lines, task.notes = kept, [], []
        for note in notes[len(task.notes) :]:
            self.add_note(task, note)

    def _new_task(
        self,
        anchor: Segment,
        style: tuple[str, str, str],
        content: str,
        status: Status,
        active_form: str | None,
        notes: Sequence[str],
        phase: PhaseNode,
    ) -> TaskNode:
        """Write a new task line after ``anchor`` with this (indent, bullet, gap)."""
        indent, bullet, gap = style
        line = f"{indent}{bullet}{gap}[ ] {content}"  # then its status, as this file writes it
        if active_form is not None:
            line += f" <!-- active: {active_form} -->"
        node = TaskNode(self._terminate(anchor, [line]))
        node.content, node.active_form = content, active_form
        node.indent, node.bullet, node.gap = indent, bullet, gap
        node.marker_pos = len(indent) + len(bullet) + len(gap) + 1
        node.marker_len = 1
        node.text_pos = node.marker_pos + 2
        node.phase = phase
        self._link_after(anchor, node)
        phase.tasks[node] = None
        self.nests = self.nests or bool(node.indent) or content[:1].isdigit()
        self.set_status(node, status)
        if self.index.setdefault(content, node) is not node:  # (an index made now has it)
            self.duplicates.add(content)
        for note in notes:
            self.add_note(node, note)
        return node

    def add_task(
        self,
        phase_name: str,
        content: str,
        status: Status = Status.PENDING,
        active_form: str | None = None,
        notes: Sequence[str] = (),
        placement: int = 0,
    ) -> TaskNode:
        """Append a task at the end of a phase, creating the phase if there is none.

        ``placement`` 0 writes the line right after the phase's last task, with the
        bullet, indent and gap of the phase's first task (an ordered list counts on
        from its last task). In an odd list that line can change how the lines
        after it read: an item takes in the lines indented past its content
        column, so copying a task further left than the one it follows can turn
        an indented code block into a nested list. The engine then tries the
        other placements (see ``ops.Engine``): 1 copies the style of the last task
        itself, so the new item has the content column of the one it follows; 2
        starts the line at column 0 at the end of the phase's section, after a
        blank line, where it closes every item open above it. For a phase that
        does not exist, placements from 1 on add its heading at the end of the
        file rather than reusing a heading with no task under it.
        """
        phases = self.phase_named(phase_name)
        phase = phases[-1] if phases else None
        if phase is not None and phase.tasks:
            first, last = phase.first(), phase.last()
            assert first is not None
            assert last is not None
            if placement < 2:
                style = self._style(first if placement == 0 else last, last)
                return self._new_task(last, style, content, status, active_form, notes, phase)
            anchor = self._section_end(phase.heading or self.head)
            style = ("", first.next_bullet(anchor), first.gap)
            return self._new_task(anchor, style, content, status, active_form, notes, phase)
        phase, anchor = self._phase_for_new_task(phase_name, reuse=placement == 0)
        return self._new_task(anchor, ("", "-", " "), content, status, active_form, notes, phase)

    def insert_task_beside(
        self,
        sibling: TaskNode,
        content: str,
        status: Status = Status.PENDING,
        active_form: str | None = None,
        notes: Sequence[str] = (),
        before: bool = False,
    ) -> TaskNode:
        """Add a task right after (or before) another, in its style and phase."""
        assert sibling.phase is not None
        anchor = sibling.prev if before else sibling
        assert anchor is not None
        style = self._style(sibling, anchor)
        return self._new_task(anchor, style, content, status, active_form, notes, sibling.phase)

    def move_after(self, task: TaskNode, anchor: Segment) -> None:
        """Move a task's own lines to just after ``anchor`` (call ``reindex`` after)."""
        if anchor is task or task.prev is anchor:
            return
        self._unlink(task)
        self._link_after(anchor, task)

    def move_to_phase(self, task: TaskNode, phase_name: str) -> None:
        """Move a task to the end of a phase, making the phase if it has no tasks."""
        phases = [p for p in self.phase_named(phase_name) if p.tasks and task not in p.tasks]
        if phases:
            last = phases[-1].last()
            assert last is not None
            self.move_after(task, last)
            return
        self._unlink(task)
        phase, anchor = self._phase_for_new_task(phase_name)
        self._link_after(anchor, task)
        phase.tasks[task] = None

    def _style(self, template: TaskNode, last: Segment) -> tuple[str, str, str]:
        """A new item's (indent, bullet, gap), copied from ``template``; placed after
        ``last``, an ordered list counts on from it."""
        return template.indent, template.next_bullet(last), template.gap

    def _phase_for_new_task(self, name: str, reuse: bool = True) -> tuple[PhaseNode, Segment]:
        """Find or make the place a phase's first task goes; return the phase and
        the segment to insert after.

        An existing heading of that name that heads no task is used (unless not
        ``reuse``), and the task goes at the end of its section: right before the
        next heading, where every block above is closed, so nothing around the new
        line changes meaning. Otherwise a heading is added at the end of the file.
        """
        for seg in self.segments():
            if (
                reuse
                and isinstance(seg, RawSegment)
                and seg.heading_level
                and seg.heading_text == name
                and seg is not self.summary_segment
            ):
                phase = PhaseNode(name, seg)
                self._insert_phase(phase)
                return phase, self._section_end(seg)
        # The canonical form of a lone Todos phase is "# Todos".
        lone = name == DEFAULT_PHASE and self.is_empty()
        level = 1 if lone else self._phase_heading_level()
        self._close_end()
        if not self.is_empty() and not self._ends_blank():
            self._link_after(self.tail, RawSegment(self._terminate(self.tail, [""])))
        heading_line = "#" * level + " " + name
        heading = RawSegment(self._terminate(self.tail, [heading_line]), level, name)
        self._link_after(self.tail, heading)
        phase = PhaseNode(name, heading)
        self.phases.append(phase)
        return phase, heading

    def _section_end(self, heading: Segment) -> Segment:
        """The place for a new task at the end of a heading's section (``head`` for
        the lines before the first heading): after its last non-blank line and a
        blank line, before its trailing blank lines."""
        end: Segment = heading
        while end.next is not None and not (
            isinstance(end.next, RawSegment) and end.next.heading_level
        ):
            end = end.next
        if end is heading:
            return heading
        if end is self.tail:
            self._close_end()
            end = self.tail
        blanks: list[str] = []
        while len(end.lines) > len(blanks) and is_blank(strip_eol(end.lines[-1 - len(blanks)])):
            blanks.insert(0, end.lines[-1 - len(blanks)])
        if blanks and len(blanks) < len(end.lines):
            # Split the trailing blank lines off: the task goes between.
            del end.lines[-len(blanks) :]
            self._link_after(end, RawSegment(blanks))
        if not is_blank(strip_eol(end.lines[-1])):
            separator = RawSegment(self._terminate(end, [""]))
            self._link_after(end, separator)
            end = separator
        return end

    def _close_end(self) -> None:
        """Close a code fence or HTML block the file leaves open at its end."""
        if self.eof_closer is not None and not self.is_empty():
            self._link_after(self.tail, RawSegment(self._terminate(self.tail, [self.eof_closer])))
        self.eof_closer = None

    def _insert_phase(self, phase: PhaseNode) -> None:
        """Place a phase that gained its first task in document order."""
        order = {id(seg): i for i, seg in enumerate(self.segments())}
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
        return self.tail is not self.head and is_blank(strip_eol(self.tail.lines[-1]))

    def remove_task(self, task: TaskNode, drop_heading: bool = True, placement: int = 0) -> None:
        """Remove a task's own lines. Nested tasks stay (they are tasks of their own),
        lifted one level.

        A phase heading left with nothing but blank lines under it goes too,
        unless ``drop_heading`` is false. The engine tries other ``placement``s when
        the file would read differently: 1 leaves the nested lines as they are;
        2 and 3 (3 without lifting) leave a blank line where the task was, so that
        what follows still starts a block of its own (in ``para`` / ``1. [ ] a`` /
        ``2. [ ] b``, removing ``a`` would make ``2.``, which may not interrupt a
        paragraph, part of it).
        """
        phase = task.phase
        eol = eol_of(task.lines[-1])
        if placement >= 2 and eol:
            self._link_after(task, RawSegment([eol]))
        after = task.next
        self._unlink(task)
        if placement in (0, 2):
            lift_nested(after, task)
        if self.index.get(task.content) is task:
            del self.index[task.content]
            if task.content in self.duplicates:  # rare: a hand-made duplicate takes over
                for other in (t for p in self.phases for t in p.tasks):  # up to the first
                    if other.content == task.content and other is not task:
                        self.index[task.content] = other
                        break
        if phase is None:
            return
        del phase.tasks[task]
        if not phase.tasks:
            self.phases.remove(phase)
            if phase.heading is not None and drop_heading:
                self.drop_empty_heading(phase.heading)

    def drop_empty_heading(self, heading: RawSegment) -> None:
        """Remove a heading (and its blank separator) if nothing but blank lines
        stands under it."""
        if heading.prev is None:
            return  # already gone
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
        if self.summary_segment is heading:
            self.summary_segment = None

    def set_summary(self, summary: str) -> None:
        """Set the summary H1 (adding one at the top when there is none); an empty
        summary removes it."""
        seg = self.summary_segment
        if seg is not None:
            if not summary:
                nxt = seg.next
                self._unlink(seg)
                if (
                    isinstance(nxt, RawSegment)
                    and not nxt.heading_level
                    and is_blank(strip_eol(nxt.lines[0]))
                ):
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
            if isinstance(first, TaskNode):
                first.shift(-1)
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
    scanner, doc = Scanner(), Document()
    built = Builder(lines, scanner.scan(lines), doc.head)
    built.build()
    doc.tail, doc.front_matter, doc.warnings = built.tail, built.front_matter, built.warnings
    doc.eof_closer = scanner.eof_closer()
    doc.markers = marks = built.markers
    # todo's own markers, or only blanks (``isspace`` stops early; ``strip`` copies).
    doc.own = own = not text or text.isspace() or not marks.keys().isdisjoint("/>!")
    # Kiro's starred items count only beside ``_Requirements:`` (conventions.detect).
    kiro = "_" in text and "_Requirements:" in text and "]*" in text  # memchr first
    if "todo-convention:" in text or (not own and ("-" in marks or "~" in marks or kiro)):
        from todocli.document import conventions

        conventions.read(doc, text)
    if has_conflict_marker(text):
        doc.warnings += conflict_warnings(lines)
    doc.reindex()
    return doc
