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

from todocli.document.lines import (
    BOM,
    LineInfo,
    LineKind,
    TaskStart,
    atx_heading_at,
    bullet_at,
    eol_of,
    is_blank,
    is_thematic_break,
    meta_comment,
    simple_task_at,
    skip_ws,
    split_lines,
    split_meta,
    strip_eol,
    task_marker_at,
)
from todocli.document.model import MARKER_STATUS, Status

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    import re

# Names the package and its tests import from here (read in ``lines`` now).
__all__ = ["Scanner", "atx_heading_at", "bullet_at", "eol_of", "meta_comment"]
__all__ += ["simple_task_at", "split_lines", "split_meta", "strip_eol", "task_marker_at"]

# What may start a block, or an item's content, at column 0 (spaces and tabs
# included: they may reach a container); a line that starts with anything else is
# prose (``Scanner._plain_line``).
_NOT_PLAIN = frozenset(" \t>#`~<*-_+=0123456789")
# What may start a leaf block that ends the reading of a line (``Scanner._leaf_starts``).
_LEAF_STARTS = "#`~<=-*_"


class _Leaf:
    """The open leaf block (plain constants, as for ``LineKind``)."""

    NONE = 0
    PARAGRAPH = 1
    FENCE = 2
    HTML = 3
    CODE = 4


class _Container:
    __slots__ = (
        "content_col",
        "depth",
        "empty",
        "first_quote",
        "is_quote",
        "note_of",
        "owner",
        "owner_note",
        "task_line",
    )

    def __init__(
        self, is_quote: bool, content_col: int = 0, note_of: int = -1, empty: bool = False
    ) -> None:
        self.is_quote = is_quote
        self.content_col = content_col  # list items: the column their content starts at
        self.task_line = -1  # list items: the line index when the item is a task
        self.note_of = note_of  # block quotes directly inside a task item: that task's line
        self.empty = empty  # list items that have no content yet
        # Set by ``Scanner._push`` from the container below, so that no line has to
        # walk the whole stack (a line inside a container 100,000 deep would cost
        # 100,000 steps): where it stands in the stack, the index of the lowest block
        # quote up to here (-1: none), and the task item that owns a line inside
        # this container with, when that line is one of its notes, the note's task.
        self.depth = 0
        self.first_quote = -1
        self.owner = -1
        self.owner_note = -1

    def make_task(self, line: int) -> None:
        """This list item (the top of the stack) is the task item on ``line``."""
        self.task_line = self.owner = line
        self.owner_note = -1


class Scanner:
    """Scan lines one by one and report a ``LineInfo`` for each."""

    def __init__(self) -> None:
        self.stack: list[_Container] = []
        self.leaf = _Leaf.NONE
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
        self.empties: list[_Container] = []

    def _push(self, cont: _Container) -> None:
        """Open a container on top of the stack."""
        stack = self.stack
        below = stack[-1] if stack else None
        cont.depth = len(stack)
        if below is None:
            cont.first_quote = cont.depth if cont.is_quote else -1
            cont.owner, cont.owner_note = -1, -1
        else:
            cont.first_quote = below.first_quote
            if cont.first_quote < 0 and cont.is_quote:
                cont.first_quote = cont.depth
            cont.owner, cont.owner_note = below.owner, below.owner_note
            if cont.is_quote and cont.note_of >= 0 and cont.note_of == below.owner:
                cont.owner_note = cont.note_of
        if cont.empty:
            self.empties.append(cont)
        stack.append(cont)

    def _blank_matches(self, width: int) -> int:
        """How many open containers a blank line ``width`` columns wide continues:
        the list items up to the first block quote (a blank line never continues
        one) or the first item with no content yet that it does not reach (an item
        can begin with at most one blank line; as in cmark-gfm, what GitHub
        renders, a line of spaces reaching the item's content column is not that
        second blank line)."""
        stack = self.stack
        if not stack:
            return 0
        first_quote = stack[-1].first_quote
        matched = len(stack) if first_quote < 0 else first_quote
        if self.empties:
            live = [
                c for c in self.empties if c.empty and c.depth < len(stack) and stack[c.depth] is c
            ]
            self.empties = live
            for cont in live:
                if cont.depth < matched and width < cont.content_col:
                    matched = cont.depth
        return matched

    def scan(self, lines: list[str]) -> list[LineInfo]:
        infos: list[LineInfo] = []
        self.infos = infos
        start = 0
        if lines:
            first = strip_eol(lines[0]).removeprefix(BOM)
            if first.rstrip(" \t") == "---":
                end = self._front_matter_end(lines)
                if end > 0:
                    for _ in range(end + 1):
                        info = LineInfo()
                        info.front_matter = True
                        infos.append(info)
                    start = end + 1
        repeat = None  # the line before, when it was blank
        for i in range(start, len(lines)):
            line = lines[i]
            if line == repeat and self.fast:
                # A blank line read right after the same one changes nothing the
                # first did not (what it closes is closed): the same report, shared.
                infos.append(infos[-1])
                continue
            info = LineInfo()
            infos.append(info)
            text = strip_eol(line)
            if i == 0:
                text = text.removeprefix(BOM)
            self._line(i, text, info)
            repeat = line if info.blank and i else None
        return infos

    @staticmethod
    def _front_matter_end(lines: list[str]) -> int:
        for i in range(1, len(lines)):
            if strip_eol(lines[i]).rstrip(" \t") in ("---", "..."):
                return i
        return -1

    def _line(self, index: int, text: str, info: LineInfo) -> None:
        if self.fast:
            if not text.strip(" \t"):
                self._blank_line(text, info)
                return
            if text[0] not in _NOT_PLAIN and self._plain_line(index, text, info):
                return
            if self.bare_task < 0 and self._simple_task(index, text, info):
                return
        self._scan_line(index, text, info)

    def _plain_line(self, index: int, text: str, info: LineInfo) -> bool:
        """A line that starts at column 0 with a character that starts no block
        (prose), as ``_scan_line`` would read it: it continues no container, so it
        is a lazy line of an open paragraph, or it closes every container and
        starts or goes on with a paragraph at the top level. Returns False inside
        an HTML block (whether the line ends it takes a search)."""
        leaf = self.leaf
        if leaf == _Leaf.HTML:
            return False
        stack = self.stack
        self.bare_task = -1
        if leaf == _Leaf.FENCE and not stack:
            self._report(info, text, 0)  # a line of the code block
            return True
        if leaf == _Leaf.PARAGRAPH and stack:
            self._text_goes_on(index)  # lazy continuation: every container stays open
            self._report(info, text, 0)
            return True
        stack.clear()
        if leaf == _Leaf.PARAGRAPH:
            self._text_goes_on(index)
        else:
            self.para_task = -1
        self.leaf = _Leaf.PARAGRAPH
        self._report(info, text, 0)
        return True

    def _blank_line(self, text: str, info: LineInfo) -> None:
        """A line of nothing but spaces and tabs, as ``_scan_line`` would read it:
        it continues the list items it reaches, a code block or an HTML block that
        does not end at a blank line, and closes everything else (the walk of the
        general path, short as it is, was most of the cost of a file of a million
        blank lines)."""
        info.blank = True
        self.bare_task = -1
        stack = self.stack
        matched = self._blank_matches(skip_ws(text, 0, 0)[1]) if stack else 0
        leaf = self.leaf
        if matched == len(stack):
            if leaf == _Leaf.FENCE or leaf == _Leaf.CODE:
                self._report(info, text, 0)
                return
            if leaf == _Leaf.HTML and self.html_end is not None:
                self._report(info, text, 0)  # its end is never in a blank line
                return
        else:
            del stack[matched:]
        self.leaf = _Leaf.NONE
        self._report(info, text, 0)

    def _simple_task(self, index: int, text: str, info: LineInfo) -> bool:
        """A task item at column 0 with text after its marker, while no block quote,
        code or HTML block is open: it closes every open list item and starts a new
        one, exactly as the general path would. Returns False for anything else."""
        leaf = self.leaf
        if leaf != _Leaf.NONE and leaf != _Leaf.PARAGRAPH:
            return False
        if not simple_task_at(text):
            return False
        stack = self.stack
        if stack and stack[-1].first_quote >= 0:
            return False
        stack.clear()
        item = _Container(is_quote=False, content_col=2)
        self._push(item)
        self.leaf = _Leaf.NONE
        marker = task_marker_at(text, 2)
        assert marker is not None  # simple_task_at saw one there
        new_task = self._task_start(index, text, 0, text[0], 2, marker, item, info)
        if new_task is not None:
            info.kind = LineKind.TASK
            info.task = new_task
        self.para_task = index if new_task is not None else -1
        self.leaf = _Leaf.PARAGRAPH
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
        swallows = leaf != _Leaf.NONE and leaf != _Leaf.PARAGRAPH  # code or HTML
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
            matched = self._blank_matches(ns_col)
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
        if leaf == _Leaf.FENCE:
            if all_matched:
                self._fence_line(text, pos, col, base)
                self._report(info, text, base)
                return True
        elif leaf == _Leaf.HTML:
            if all_matched:
                ends_here = (
                    blank if self.html_end is None else bool(self.html_end.search(text, pos))
                )
                if ends_here:
                    self.leaf = _Leaf.NONE
                self._report(info, text, base)
                return True
        elif leaf == _Leaf.CODE:
            ns_col = skip_ws(text, pos, col)[1]
            if all_matched and (blank or ns_col - base >= 4):
                self._report(info, text, base)
                return True
        self.leaf = _Leaf.NONE
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
        """Read the containers and the leaf the rest of the line opens, from ``at``
        (index, column, content column) past the ``matched`` continued ones."""
        stack = self.stack
        pos, col, base = at
        all_matched = matched == len(stack)
        lazy_paragraph = self.leaf == _Leaf.PARAGRAPH
        keep = matched  # the containers the line keeps; -1 once the others are closed
        new_task: TaskStart | None = None
        break_tails: dict[str, int] = {}  # see _leaf_starts
        size = len(text)
        while True:
            if pos < size and text[pos] not in " \t":
                ns_pos, ns_col = pos, col  # nothing to skip (the rule between nested items)
            else:
                ns_pos, ns_col = skip_ws(text, pos, col)
            if ns_pos == size:
                break
            c = text[ns_pos]
            in_paragraph = self.leaf == _Leaf.PARAGRAPH and all_matched and keep >= 0
            if ns_col - base >= 4 or c in _LEAF_STARTS:
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
                all_matched = True
                continue
            bullet = bullet_at(text, ns_pos)
            if not bullet:
                break
            after = len(bullet)
            a_pos, a_col = skip_ws(text, ns_pos + after, ns_col + after)
            empty = a_pos == size
            # Only a non-empty item, and in an ordered list only one that starts at
            # 1, may interrupt a paragraph (as in cmark and commonmark.js, a lazy
            # paragraph is not interrupted here).
            if in_paragraph and (empty or (bullet[-1] in ".)" and int(bullet[:-1]) != 1)):
                break
            if keep >= 0:
                del stack[keep:]
                keep = -1
            spaces = a_col - ns_col - after
            content_col = ns_col + after + 1 if empty or spaces > 4 else a_col
            item = _Container(is_quote=False, content_col=content_col, empty=empty)
            self._push(item)
            self.leaf = _Leaf.NONE
            all_matched = True
            if empty or spaces > 4:  # an empty item, or one whose content is indented code
                self.leaf = _Leaf.NONE if empty else _Leaf.CODE
                self._report(info, text, base)
                return
            marker = task_marker_at(text, a_pos) if text[a_pos] in "[\\" else None
            if marker is not None:
                new_task = self._task_start(index, text, ns_pos, bullet, a_pos, marker, item, info)
                break
            pos, col, base = a_pos, a_col, content_col
        lazy = keep >= 0 and not all_matched and lazy_paragraph
        self._line_end(index, text, info, bare, (ns_pos, base, keep), lazy, new_task)

    def _open_quote(self, text: str, at: int, col: int) -> tuple[int, int, int]:
        """Open a block quote whose ``>`` is at index ``at``, column ``col``; where its
        content starts (index, column, the column it is measured from)."""
        stack = self.stack
        note_of = -1
        if stack and not stack[-1].is_quote and stack[-1].task_line >= 0:
            note_of = stack[-1].task_line
        self._push(_Container(is_quote=True, note_of=note_of))
        self.leaf = _Leaf.NONE
        pos, col = at + 1, col + 1
        base = col + 1
        if pos < len(text) and text[pos] == " ":
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
        leaf = _Leaf.NONE
        if ns_col - base >= 4:
            if self.leaf == _Leaf.PARAGRAPH:
                return False
            leaf = _Leaf.CODE
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
            rest = text[ns_pos:]
            run = len(rest) - len(rest.lstrip(c))
            if run < 3 or (c == "`" and "`" in rest[run:]):
                return False
            leaf, self.fence_char, self.fence_len = _Leaf.FENCE, c, run
        elif c == "<":
            from todocli.document import html  # most lists hold no HTML

            rest = text[ns_pos:]
            # Kind 7 never interrupts a paragraph, not even a lazy one.
            started, html_end = html.html_start(rest, self.leaf == _Leaf.PARAGRAPH)
            if not started:
                return False
            leaf, self.html_end, self.html_closer = _Leaf.HTML, html_end, html.html_closer(rest)
            if html_end is not None and html_end.search(rest, 2):
                leaf = _Leaf.NONE
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
            self.leaf = _Leaf.NONE
        elif lazy:
            self._text_goes_on(index)
        elif new_task is not None and is_blank(new_task.text):
            # Nothing after the marker: the item has no content yet, and a
            # paragraph that starts on the next line holds the task's text.
            self.leaf = _Leaf.NONE
            self.bare_task = index
        else:
            if self.leaf == _Leaf.PARAGRAPH:
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
            self.leaf = _Leaf.PARAGRAPH
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
        if self.leaf == _Leaf.FENCE:
            return self.fence_char * self.fence_len
        if self.leaf == _Leaf.HTML and self.html_end is not None:
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
        item: _Container,
        info: LineInfo,
    ) -> TaskStart | None:
        """The task a list item just opened on this line is, if it is one.

        As in cmark-gfm's tasklist extension, only an item whose bullet is the
        first thing on its line can be a task: not one after a block quote's
        ``>`` (tasks in quotes are not ours anyway) nor one nested on the line of
        another item (``- - [ ] a``).
        """
        if not is_blank(text[:bullet_pos]) or (self.stack and self.stack[-1].first_quote >= 0):
            return None
        char, at, length = marker
        after = text[content_pos + length :]
        status = MARKER_STATUS.get(char)
        if status is None and char == "\t":
            status = Status.PENDING
        if status is None:
            if not is_blank(after):
                info.warning = (
                    f"Line {index + 1}: unknown status marker "
                    f'"{text[content_pos : content_pos + length]}" (use [ ], [x], [/], [-])'
                )
            return None
        start = TaskStart(
            line=index,
            marker_pos=content_pos + at,
            marker_len=len(char),
            status=status,
            indent=text[:bullet_pos],
            bullet=bullet,
            gap=text[bullet_pos + len(bullet) : content_pos],
            content_col=item.content_col,
            text=after,
            text_pos=content_pos + length,
        )
        item.make_task(index)
        item.empty = is_blank(after)
        if item.empty:
            self.empties.append(item)
        return start

    def _fence_line(self, text: str, pos: int, col: int, base: int) -> None:
        ns_pos, ns_col = skip_ws(text, pos, col)
        if ns_col - base > 3:
            return
        rest = text[ns_pos:]
        run = len(rest) - len(rest.lstrip(self.fence_char))
        if run >= self.fence_len and is_blank(rest[run:]):
            self.leaf = _Leaf.NONE

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
            body = _note_body(text)
            info.note_text = body if body else None


def _note_body(text: str) -> str:
    """The text of a note line: what follows its '>' marker (lazy lines have none)."""
    stripped = text.lstrip(" \t")
    if stripped.startswith(">"):
        stripped = stripped[1:]
    return stripped.strip(" \t")
