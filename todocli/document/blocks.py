"""A CommonMark block scanner, just deep enough to find task items.

It walks the lines once, keeping the stack of open containers (block quotes and
list items) and the open leaf block (paragraph, fenced code, HTML block, indented
code), following the block-structure rules of the CommonMark spec: container
continuation, lazy paragraph continuation, what may interrupt a paragraph, fences
that end with their list item. For each line it reports what the markdown module
needs: a task item starting here, a top-level ATX heading, a note line, and which
task item the line belongs to. It never changes a line.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING
from todocli.document.lines import (
    BOM,
    Container,
    Leaf,
    LineInfo,
    LineKind,
    TaskStart,
    atx_heading_at,
    blank_matches,
    bullet_at,
    eol_of,
    fence_at,
    fence_closes,
    front_matter,
    is_blank,
    is_thematic_break,
    item_at,
    meta_comment,
    note_body,
    quoted_items_alike,
    run_end,
    simple_task_at,
    skip_ws,
    split_lines,
    split_meta,
    strip_eol,
    task_marker_at,
    task_start,
)
from todocli.document.runs import run_report, task_run

if TYPE_CHECKING:
    import re

# Names the package and its tests import from here (read in ``lines`` now).
__all__ = ["Scanner", "atx_heading_at", "bullet_at", "eol_of", "meta_comment", "simple_task_at"]
__all__ += ["split_lines", "split_meta", "strip_eol", "task_marker_at"]

# What may start a block, or an item's content, at column 0 (spaces and tabs: they
# may reach a container); a line that starts with anything else is prose.
_NOT_PLAIN = frozenset(" \t>#`~<*-_+=0123456789")
_LEAF_STARTS = "#`~<=-*_"  # what may start a leaf that ends a line (_leaf_starts)
_NOT_PROSE = _NOT_PLAIN | {"\n", "\r"}  # what may start a block, or a blank line
_NOT_PROSE_START = _NOT_PROSE - {" "}


class Scanner:
    """Scan lines one by one and report a ``LineInfo`` for each."""

    def __init__(self) -> None:
        self.stack: list[Container] = []
        self.leaf = Leaf.NONE
        self.fence_char = ""
        self.fence_len = 0
        self.html_end: re.Pattern[str] | None = None  # None: ends at a blank line
        self.html_closer = ""  # a line that ends the open HTML block
        # The task whose text is the open paragraph (it began on the task line or,
        # for a bare marker, on the next one), or -1.
        self.para_task = -1
        # A task line with nothing but whitespace after its marker: the item has no
        # content yet, and a paragraph starting on the next line inside it holds
        # the task's text (cmark-gfm's tasklist extension reads it so).
        self.bare_task = -1
        self.infos: list[LineInfo] = []
        self.fast = True  # serve simple task lines directly (tests compare both ways)
        # List items opened with no content yet (in push order; some may since have
        # been closed or got content): a blank line stops at the first that is
        # still open, empty and deeper than the line is wide.
        self.empties: list[Container] = []

    def _open_item(self, content_col: int, empty: bool) -> Container:
        """Open a list item on top of the stack."""
        stack = self.stack
        item = Container(False, content_col, -1, empty, stack[-1] if stack else None, len(stack))
        if empty:
            self.empties.append(item)
        stack.append(item)
        return item

    def scan(self, lines: list[str]) -> list[LineInfo]:
        infos: list[LineInfo] = []
        self.infos = infos
        infos += front_matter(lines)
        i = len(infos)
        repeat = None  # the line before, when it was blank
        again = None  # the line before, when it went on with the paragraph (_line)
        fast = self.fast
        stack = self.stack
        prose = LineInfo()  # the report on the last line of prose, shared by the next
        shared, n = run_report(), len(lines)  # of a run's task lines but its last: runs.py
        while i < n:
            line = lines[i]
            if fast and line == repeat:
                # A blank line read right after the same one changes nothing the
                # first did not (what it closes is closed): the same report, shared.
                infos.append(infos[-1])
                i += 1
                continue
            if fast and not stack and i and self._top_level_code(line):
                # Its report is the one of prose at the top level.
                if prose.owner != -1:
                    prose = LineInfo()
                infos.append(prose)
                i, repeat = i + 1, None
                continue
            if fast and i and line[0] not in _NOT_PROSE_START and self._prose(i, line):
                owner = stack[-1].owner if stack else -1
                if prose.owner != owner:
                    prose = LineInfo()
                    prose.owner = owner
                # The lines of prose after it go on with the same paragraph, in the
                # same containers: read as a run, without a call for each.
                end = i + 1
                while end < n:
                    body = lines[end].lstrip(" ")
                    if not body or body[0] in _NOT_PROSE:
                        break
                    end += 1
                infos += [prose] * (end - i)
                if end > i + 1:
                    self._text_goes_on(end - 1)
                i, repeat = end, None
                continue
            if fast and line[1:3] == " [" and i and self.bare_task < 0:
                # With no code or HTML block open, a task item may start here.
                end = task_run(lines, i, infos, shared) if self.leaf <= Leaf.PARAGRAPH else i
                if end > i:  # left as _simple_task leaves it after the last of them
                    stack.clear()
                    self._open_item(2, False).make_task(end - 1)
                    self.para_task, self.leaf = end - 1, Leaf.PARAGRAPH
                    i, repeat, again = end, None, None
                    continue
            if fast and line == again:
                # The same line again, read as prose that goes on with the open
                # paragraph: it leaves the same state, so the same report.
                infos.append(infos[-1])
                self._text_goes_on(i)
                i += 1
                continue
            info = LineInfo()
            infos.append(info)
            text = strip_eol(line).removeprefix(BOM) if i == 0 else strip_eol(line)
            again = line if self._line(i, text, info) and i else None
            repeat = line if info.blank and i else None
            i += 1
        return infos

    def _top_level_code(self, line: str) -> bool:
        """With no container open, whether the line opens a code fence, or is a line
        of an open code fence or HTML block (which it may close), read so."""
        leaf = self.leaf
        if leaf == Leaf.FENCE or leaf == Leaf.HTML:
            if not line.strip(" \t\r\n"):
                return False  # blank: the general path
            text = strip_eol(line)
            if leaf == Leaf.FENCE:
                if fence_closes(text, (0, 0, 0), self.fence_char, self.fence_len):
                    self.leaf = Leaf.NONE
            elif self.html_end is not None and self.html_end.search(text, 0):
                self.leaf = Leaf.NONE
        elif leaf == Leaf.CODE or line[0] not in "`~":
            return False
        else:
            run = fence_at(line)
            if not run:
                return False
            self.leaf, self.fence_char, self.fence_len = Leaf.FENCE, line[0], run
        self.bare_task = -1
        return True

    def _prose(self, index: int, line: str) -> bool:
        """Whether the line is prose that goes on with the open paragraph (or, with
        no container open, starts one), read so. With only list items open, whatever
        columns it continues, the paragraph goes on (lazily or not), every item open."""
        leaf = self.leaf
        stack = self.stack
        if leaf != Leaf.PARAGRAPH and (leaf != Leaf.NONE or stack):
            return False
        if stack and stack[-1].first_quote >= 0:
            return False
        body = line.lstrip(" ")
        if not body or body[0] in _NOT_PROSE:
            return False
        if leaf == Leaf.PARAGRAPH:
            self._text_goes_on(index)
        elif len(line) - len(body) >= 4:
            return False  # indented code
        else:
            self.para_task, self.leaf = -1, Leaf.PARAGRAPH
        self.bare_task = -1
        return True

    def _line(self, index: int, text: str, info: LineInfo) -> bool:
        """Read one line; True when it was prose that went on with the open
        paragraph and left every container as it was (``_paragraph_goes_on``)."""
        if self.fast:
            if not text.strip(" \t"):
                self._blank_line(text, info)
                return False
            if text[0] not in _NOT_PLAIN and self._plain_line(index, text, info):
                return False
            if text[0] in "-*+" and self.bare_task < 0 and self._simple_task(index, text, info):
                return False
            if self.leaf == Leaf.PARAGRAPH and self._paragraph_goes_on(index, text, info):
                return True
        self._scan_line(index, text, info)
        return False

    def _plain_line(self, index: int, text: str, info: LineInfo) -> bool:
        """A line that starts at column 0 with prose, as ``_scan_line`` reads it: a
        lazy line of an open paragraph, or one that closes every container and
        starts or goes on with a paragraph; False inside an HTML block."""
        leaf = self.leaf
        if leaf == Leaf.HTML:
            return False
        stack = self.stack
        self.bare_task = -1
        if leaf == Leaf.FENCE and not stack:
            self._report(info, text, 0)  # a line of the code block
            return True
        if leaf == Leaf.PARAGRAPH and stack:
            self._text_goes_on(index)  # lazy continuation: every container stays open
            self._report(info, text, 0)
            return True
        stack.clear()
        if leaf == Leaf.PARAGRAPH:
            self._text_goes_on(index)
        else:
            self.para_task = -1
        self.leaf = Leaf.PARAGRAPH
        self._report(info, text, 0)
        return True

    def _paragraph_goes_on(self, index: int, text: str, info: LineInfo) -> bool:
        """A line whose text, past the containers it continues, is prose, while a
        paragraph is open, as ``_scan_line`` reads it: the paragraph goes on (lazily
        when the line does not continue every container), every container open."""
        pos, col, base = self._continued(text, False)[1:]
        if pos < len(text) and text[pos] in " \t":
            pos = skip_ws(text, pos, col)[0]
        if pos == len(text) or text[pos] in _NOT_PLAIN:
            return False
        self.bare_task = -1
        self._text_goes_on(index)
        self._report(info, text, base)
        return True

    def _blank_line(self, text: str, info: LineInfo) -> None:
        """A line of nothing but spaces and tabs, as ``_scan_line`` reads it: it
        continues the list items it reaches, a code block or an HTML block that does
        not end at a blank line, and closes everything else."""
        info.blank = True
        self.bare_task = -1
        stack = self.stack
        matched = 0
        if stack:
            width = skip_ws(text, 0, 0)[1]
            matched, self.empties = blank_matches(stack, self.empties, width)
        leaf = self.leaf
        if matched == len(stack):
            if leaf == Leaf.FENCE or leaf == Leaf.CODE:
                self._report(info, text, 0)
                return
            if leaf == Leaf.HTML and self.html_end is not None:
                self._report(info, text, 0)  # its end is never in a blank line
                return
        else:
            del stack[matched:]
        self.leaf = Leaf.NONE
        self._report(info, text, 0)

    def _simple_task(self, index: int, text: str, info: LineInfo) -> bool:
        """A task item at column 0 with text after its marker, while no code or HTML
        block is open: it closes every open container (a quote too: an item with
        text is no lazy line) and starts a new one, as the general path would."""
        leaf = self.leaf
        if leaf != Leaf.NONE and leaf != Leaf.PARAGRAPH:
            return False
        # simple_task_at, with the marker found once
        if len(text) < 6 or text[0] not in "-*+" or text[1] != " ":
            return False
        marker = task_marker_at(text, 2)
        if marker is None or is_blank(text[2 + marker[2] :]):
            return False
        self.stack.clear()
        item = self._open_item(2, False)
        self.leaf = Leaf.NONE
        new_task = self._task_start(index, text, 0, text[0], 2, marker, item, info)
        if new_task is not None:
            info.kind = LineKind.TASK
            info.task = new_task
        self.para_task = index if new_task is not None else -1
        self.leaf = Leaf.PARAGRAPH
        info.owner = index if new_task is not None else -1
        return True

    def _scan_line(self, index: int, text: str, info: LineInfo) -> None:
        """The general path: continue the open containers, then read what the rest
        of the line opens (the two phases of a line in CommonMark)."""
        bare, self.bare_task = self.bare_task, -1
        blank = is_blank(text)
        info.blank = blank
        matched, pos, col, base = self._continued(text, blank)
        all_matched = matched == len(self.stack)
        leaf = self.leaf
        swallows = leaf != Leaf.NONE and leaf != Leaf.PARAGRAPH  # code or HTML
        if swallows and self._swallowed(text, (pos, col, base), all_matched, blank, info):
            return
        self._open_blocks(index, text, info, bare, matched, (pos, col, base))

    def _continued(self, text: str, blank: bool) -> tuple[int, int, int, int]:
        """How many open containers the line continues, and where their markers
        end: (count, index, column, the column the content is measured from)."""
        pos, col, base = 0, 0, 0
        matched = 0
        if blank:
            # Without a walk of the stack: list items need no column of a blank line.
            ns_pos, ns_col = skip_ws(text, 0, 0)
            matched, self.empties = blank_matches(self.stack, self.empties, ns_col)
            if matched:
                pos, col = ns_pos, ns_col
            return matched, pos, col, base
        size = len(text)
        skipped = (-1, 0, 0)  # the last skip: from pos, to ns_pos and ns_col
        for cont in self.stack:
            if skipped[0] != pos:  # list items leave pos where it was: skip once
                skipped = (pos, *skip_ws(text, pos, col))
            ns_pos, ns_col = skipped[1], skipped[2]
            if cont.is_quote:
                if ns_pos < size and text[ns_pos] == ">" and ns_col - base <= 3:
                    pos, col = ns_pos + 1, ns_col + 1
                    base = col + 1
                    if pos < size and text[pos] == " ":
                        pos, col = pos + 1, col + 1
                else:
                    break
            elif ns_pos == size:
                if cont.empty and ns_col < cont.content_col:
                    # An item can begin with at most one blank line; as in cmark-gfm
                    # (what GitHub renders), a line of spaces reaching the item's
                    # content column is not that second blank line.
                    break
                pos, col = ns_pos, ns_col
            elif ns_col >= cont.content_col:
                base = cont.content_col
                cont.empty = False
            else:
                break
            matched += 1
        return matched, pos, col, base

    def _swallowed(
        self, text: str, at: tuple[int, int, int], all_matched: bool, blank: bool, info: LineInfo
    ) -> bool:
        """Whether the open fenced code, HTML block or indented code takes the line
        (``at``: index, column and content column past the continued containers);
        when it does not, that leaf is closed."""
        pos, col, base = at
        leaf = self.leaf
        if leaf == Leaf.FENCE:
            if all_matched:
                if fence_closes(text, at, self.fence_char, self.fence_len):
                    self.leaf = Leaf.NONE
                self._report(info, text, base)
                return True
        elif leaf == Leaf.HTML:
            if all_matched:
                ends_here = (
                    blank if self.html_end is None else bool(self.html_end.search(text, pos))
                )
                if ends_here:
                    self.leaf = Leaf.NONE
                self._report(info, text, base)
                return True
        elif leaf == Leaf.CODE:
            ns_col = skip_ws(text, pos, col)[1]
            if all_matched and (blank or ns_col - base >= 4):
                self._report(info, text, base)
                return True
        self.leaf = Leaf.NONE
        return False

    def _open_blocks(
        self,
        index: int,
        text: str,
        info: LineInfo,
        bare: int,
        matched: int,
        at: tuple[int, int, int],
    ) -> None:
        """Read what the rest of the line opens, from ``at`` (index, column, content
        column) past the ``matched`` continued containers."""
        stack, size = self.stack, len(text)
        pos, col, base = at
        all_matched = matched == len(stack)
        lazy_paragraph = self.leaf == Leaf.PARAGRAPH
        keep = matched  # the containers kept; -1 once the rest are closed (all_matched moot)
        new_task: TaskStart | None = None
        break_tails: dict[str, int] = {}  # see _leaf_starts
        while True:
            if pos < size and text[pos] not in " \t":
                ns_pos, ns_col = pos, col  # nothing to skip (the rule between nested items)
            else:
                ns_pos, ns_col = skip_ws(text, pos, col)
            if ns_pos == size:
                break
            c = text[ns_pos]
            in_paragraph = keep >= 0 and all_matched and self.leaf == Leaf.PARAGRAPH
            if c in "-*" and not in_paragraph and ns_col - base < 4:
                # A thematic break at most, and only on the line's tail (_leaf_starts).
                if c not in break_tails:
                    break_tails[c] = len(text.rstrip(c + " \t"))
                leafy = ns_pos >= break_tails[c]
            else:
                leafy = ns_col - base >= 4 or c in _LEAF_STARTS
            if leafy:
                at = (ns_pos, ns_col, base)
                if self._leaf_starts(index, text, at, in_paragraph, keep, break_tails, info):
                    return
                if ns_col - base >= 4:
                    break
            if c == ">":
                if keep >= 0:
                    del stack[keep:]
                    keep = -1
                pos, col, base = self._open_quote(text, ns_pos, ns_col)
                continue
            found = item_at(text, ns_pos, ns_col)
            if found is None:
                break
            bullet, a_pos, a_col = found
            after = len(bullet)
            empty = a_pos == size
            # Only a non-empty item, ordered from 1, interrupts a paragraph (not lazy).
            if in_paragraph and (empty or (bullet[-1] in ".)" and int(bullet[:-1]) != 1)):
                break
            if keep >= 0:
                del stack[keep:]
                keep = -1
            spaces = a_col - ns_col - after
            content_col = ns_col + after + 1 if empty or spaces > 4 else a_col
            below = stack[-1] if stack else None
            item = Container(False, content_col, -1, empty, below, len(stack))
            if empty:
                self.empties.append(item)
            stack.append(item)
            self.leaf = Leaf.NONE
            if empty or spaces > 4:  # an empty item, or one whose content is indented code
                self.leaf = Leaf.NONE if empty else Leaf.CODE
                self._report(info, text, base)
                return
            marker = task_marker_at(text, a_pos) if text[a_pos] in "[\\" else None
            if marker is not None:
                new_task = self._task_start(index, text, ns_pos, bullet, a_pos, marker, item, info)
                break
            pos, col = a_pos, a_col
            if text[a_pos] in (bullet[0], ">"):  # perhaps more items alike on this line
                pos, col = self._nested_alike(text, a_pos, a_col, bullet, break_tails)
            base = col
        lazy = keep >= 0 and not all_matched and lazy_paragraph
        self._line_end(index, text, info, bare, (ns_pos, base, keep), lazy, new_task)

    def _nested_alike(
        self, text: str, pos: int, col: int, bullet: str, break_tails: dict[str, int]
    ) -> tuple[int, int]:
        """Open the items nested on this line right after one with this ``bullet``
        that are alike (``- - - x``; or quoted, ``- > - > - x``: ``lines``), each read
        as the general loop would, in fewer steps; where the next starts is returned."""
        if text[pos] == ">":
            return quoted_items_alike(self.stack, text, pos, col, bullet, self.fast)
        if bullet in "-*":
            tail = break_tails.get(bullet)  # where a thematic break could begin
            if tail is None:
                tail = break_tails[bullet] = len(text.rstrip(bullet + " \t"))
        else:
            tail = len(text)
        probe, step = bullet + " " + bullet[0], len(bullet) + 1
        stack = self.stack
        while pos < tail and text.startswith(probe, pos):
            pos, col = pos + step, col + step
            stack.append(Container(False, col, -1, False, stack[-1], len(stack)))
        return pos, col

    def _open_quote(self, text: str, at: int, col: int) -> tuple[int, int, int]:
        """Open a block quote whose ``>`` is at index ``at``, column ``col``; where its
        content starts (index, column, the column it is measured from)."""
        stack = self.stack
        note_of = -1
        if stack and not stack[-1].is_quote and stack[-1].task_line >= 0:
            note_of = stack[-1].task_line
        quote = Container(True, 0, note_of, False, stack[-1] if stack else None, len(stack))
        stack.append(quote)
        self.leaf = Leaf.NONE
        # A quote right in this one (">>") reads alike but for its depth, read of none
        # but the first quote: one object stands for each of a run.
        size, end = len(text), at + 1
        if end < size and text[end] == ">":
            end = run_end(text, end, ">")
            stack.extend([quote] * (end - at - 1))
        pos, col = end, col + end - at
        base = col + 1
        if pos < size and text[pos] == " ":
            pos, col = pos + 1, col + 1
        return pos, col, base

    def _leaf_starts(
        self,
        index: int,
        text: str,
        at: tuple[int, int, int],
        in_paragraph: bool,
        keep: int,
        break_tails: dict[str, int],
        info: LineInfo,
    ) -> bool:
        """Whether the rest of the line, from ``at`` (index, column, content column),
        is a leaf that ends its reading: indented code, an ATX heading, a code fence,
        an HTML block, a setext underline or a thematic break. If so the containers
        past ``keep`` are closed and the line reported."""
        ns_pos, ns_col, base = at
        c = text[ns_pos]
        leaf = Leaf.NONE
        if ns_col - base >= 4:
            if self.leaf == Leaf.PARAGRAPH:
                return False
            leaf = Leaf.CODE
        elif c == "#":
            heading = atx_heading_at(text[ns_pos:])
            if heading is None:
                return False
            if keep >= 0:
                del self.stack[keep:]
            if not self.stack:
                info.kind = LineKind.HEADING
                info.heading_level, info.heading_text = heading
        elif c in "`~":
            run = fence_at(text[ns_pos:])
            if not run:
                return False
            leaf, self.fence_char, self.fence_len = Leaf.FENCE, c, run
        elif c == "<":
            from todocli.document import html  # most lists hold no HTML

            rest = text[ns_pos:]
            # Kind 7 never interrupts a paragraph, not even a lazy one.
            started, html_end = html.html_start(rest, self.leaf == Leaf.PARAGRAPH)
            if not started:
                return False
            leaf, self.html_end, self.html_closer = Leaf.HTML, html_end, html.html_closer(rest)
            if html_end is not None and html_end.search(rest, 2):
                leaf = Leaf.NONE
        elif in_paragraph and c in "=-" and not text[ns_pos:].rstrip(" \t").strip(c):
            # A setext underline turns the paragraph into a heading; it is not a
            # phase heading (phases are ATX headings). A task item whose text
            # became a heading stays a task, as in cmark-gfm.
            self._text_goes_on(index)
        elif c in "*-_":
            # Where the line's tail of nothing but "-" (or "*", "_"), spaces and tabs
            # starts, found once per line: each of thousands of nested items on one
            # line asking whether the rest of it is a thematic break made reading
            # quadratic. Nor is the rest of the line copied but by a step that ends it.
            tail = break_tails.get(c)
            if tail is None:
                tail = break_tails[c] = len(text.rstrip(c + " \t"))
            # Past the tail's start the rest is only c and blanks: at most three
            # more bullets before the count says yes, so counting stays linear.
            if ns_pos < tail or not is_thematic_break(text[ns_pos:], c):
                return False
        else:
            return False
        if keep >= 0:
            del self.stack[keep:]
        self.leaf = leaf
        self._report(info, text, base)
        return True

    def _line_end(
        self,
        index: int,
        text: str,
        info: LineInfo,
        bare: int,
        at: tuple[int, int, int],
        lazy: bool,
        new_task: TaskStart | None,
    ) -> None:
        """Close the containers the line does not continue (``at``: where its text
        starts, the content column, the containers kept or -1 once closed), and go
        on with, or open, the paragraph its text is; ``lazy``: a lazy continuation
        line, which keeps every container open."""
        ns_pos, base, keep = at
        stack = self.stack
        rest_blank = ns_pos == len(text)  # nothing but whitespace after the markers
        if (rest_blank or not lazy) and keep >= 0:
            del stack[keep:]
        if rest_blank:
            self.leaf = Leaf.NONE
        elif lazy:
            self._text_goes_on(index)
        elif new_task is not None and is_blank(new_task.text):
            # Nothing after the marker: the item has no content yet, and a
            # paragraph that starts on the next line holds the task's text.
            self.leaf = Leaf.NONE
            self.bare_task = index
        else:
            if self.leaf == Leaf.PARAGRAPH:
                self._text_goes_on(index)
            elif new_task is not None:
                self.para_task = index
            elif bare >= 0 and stack and stack[-1].task_line == bare:
                # The first block of a bare task's item is this paragraph: its text.
                start = self.infos[bare].task
                assert start is not None
                start.text, start.text_line, start.text_pos = text[ns_pos:], index, ns_pos
                start.text_end = index
                self.para_task = bare
            else:
                self.para_task = -1
            self.leaf = Leaf.PARAGRAPH
        if new_task is not None:
            info.kind = LineKind.TASK
            info.task = new_task
        self._report(info, text, base)

    def eof_closer(self) -> str | None:
        """After a scan: a line that closes a code fence or HTML block left open at
        the end of the file (at top level), so that lines appended after it are
        read as markdown again. None when nothing is left open."""
        if self.stack:
            return None  # a line at column 0 closes every container and its leaf
        if self.leaf == Leaf.FENCE:
            return self.fence_char * self.fence_len
        if self.leaf == Leaf.HTML and self.html_end is not None:
            return self.html_closer
        return None

    def _text_goes_on(self, index: int) -> None:
        """The open paragraph goes on to this line: if it holds a task's text, the
        task's first block now ends here."""
        if self.para_task >= 0:
            start = self.infos[self.para_task].task
            assert start is not None
            start.text_end = index

    def _task_start(
        self,
        index: int,
        text: str,
        bullet_pos: int,
        bullet: str,
        content_pos: int,
        marker: tuple[str, int, int],
        item: Container,
        info: LineInfo,
    ) -> TaskStart | None:
        """The task a list item just opened on this line is, if it is one: as in
        cmark-gfm, only an item whose bullet is the first thing on its line, not
        one after a quote's ``>`` nor one nested on another's line (``- - [ ] a``)."""
        if bullet_pos and not is_blank(text[:bullet_pos]):
            return None
        if self.stack and self.stack[-1].first_quote >= 0:
            return None
        start = task_start(index, text, (bullet_pos, content_pos), bullet, marker, info)
        if start is None:
            return None
        start.content_col = item.content_col
        after = start.text
        item.make_task(index)
        item.empty = is_blank(after)
        if item.empty:
            self.empties.append(item)
        return start

    def _report(self, info: LineInfo, text: str, base: int) -> None:
        """Fill in who owns the line and whether it is a note line: what the top of
        the stack holds (a task item owns the lines in it; a block quote right
        inside it holds its notes, until a deeper task item)."""
        top = self.stack[-1] if self.stack else None
        info.owner = top.owner if top is not None else -1
        note_of = top.owner_note if top is not None else -1
        if note_of >= 0 and info.kind == LineKind.OTHER:
            info.kind = LineKind.NOTE
            info.note_of = note_of
            body = note_body(text)
            info.note_text = body if body else None
