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

from todocli.document.model import MARKER_STATUS, NO_META, Meta, Status

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    import re

# The recognisers below are string functions rather than regular expressions: the
# tool starts once per agent step and compiling patterns costs start-up. Each is
# checked against the CommonMark pattern it stands for by a property test
# (tests/test_blocks_patterns.py); the patterns are quoted in their docstrings.
_DIGITS = "0123456789"
# What may follow a task marker: GFM's "spacechar" (cmark-gfm's tasklist extension
# reads ``[ ] `` only when a space, tab, vertical tab or form feed follows it on the
# same line; the end of the line does not count).
_AFTER_MARKER = " \t\v\f"

_HTML_BLOCK_TAGS = frozenset(
    [
        "address",
        "article",
        "aside",
        "base",
        "basefont",
        "blockquote",
        "body",
        "caption",
        "center",
        "col",
        "colgroup",
        "dd",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "frame",
        "frameset",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "header",
        "hr",
        "html",
        "iframe",
        "legend",
        "li",
        "link",
        "main",
        "menu",
        "menuitem",
        "nav",
        "noframes",
        "ol",
        "optgroup",
        "option",
        "p",
        "param",
        "search",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "title",
        "tr",
        "track",
        "ul",
    ]
)
_ATTR = (
    r"""(?:[ \t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t]*=[ \t]*(?:[^ \t"'=<>`]+|'[^']*'|"[^"]*"))?)"""
)


class _Html:
    """The HTML-block patterns, compiled on first use: most lists hold no HTML, and
    compiling them costs start-up on every call."""

    def __init__(self) -> None:
        import re

        self.kind1 = re.compile(r"<(?:script|pre|style|textarea)(?:[ \t>]|$)", re.IGNORECASE)
        self.kind1_end = re.compile(r"</(?:script|pre|style|textarea)>", re.IGNORECASE)
        self.kind6 = re.compile(r"</?([A-Za-z][A-Za-z0-9]*)(?:[ \t]|/?>|$)")
        self.kind7 = re.compile(
            rf"(?:<[A-Za-z][A-Za-z0-9-]*{_ATTR}*[ \t]*/?>|</[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$"
        )
        self.ends = (
            ("<!--", re.compile(r"-->")),
            ("<?", re.compile(r"\?>")),
            ("<![CDATA[", re.compile(r"\]\]>")),
        )
        self.kind4_end = re.compile(">")


_html: _Html | None = None


def _html_patterns() -> _Html:
    global _html
    if _html is None:
        _html = _Html()
    return _html


BOM = "\ufeff"
# What may start a block, or an item's content, at column 0 (spaces and tabs
# included: they may reach a container); a line that starts with anything else is
# prose (``Scanner._plain_line``).
_NOT_PLAIN = frozenset(" \t>#`~<*-_+=0123456789")
_NOT_LINE_BREAKS = "\v\f\x1c\x1d\x1e\x85\u2028\u2029"


class LineKind:
    """What a line is, as far as the checklist is concerned. (Plain constants: an
    ``Enum`` class costs start-up, and these never leave the package.)"""

    OTHER = 0
    TASK = 1
    HEADING = 2
    NOTE = 3


class TaskStart:
    """A list item that opens with a task marker."""

    __slots__ = (
        "bullet",
        "content_col",
        "gap",
        "indent",
        "marker_len",
        "marker_pos",
        "status",
        "text",
        "text_end",
        "text_line",
        "text_pos",
    )

    def __init__(
        self,
        line: int,
        marker_pos: int,
        marker_len: int,
        status: Status,
        indent: str,
        bullet: str,
        gap: str,
        content_col: int,
        text: str,
        text_pos: int,
    ) -> None:
        self.marker_pos = marker_pos  # index in the line of the marker's inner text
        self.marker_len = marker_len  # length of that inner text (0 for "[]")
        self.status = status
        self.indent = indent  # the line's text before the bullet (spaces and tabs)
        self.bullet = bullet  # "-", "*", "+", "1." or "1)"
        self.gap = gap  # whitespace between the bullet and the marker
        self.content_col = content_col  # column where the content begins (notes align here)
        # The task's text: everything after the marker, as written. When nothing but
        # whitespace follows the marker, GFM takes the text from a paragraph that
        # starts on the next line inside the item: then ``text_line`` is that line
        # and ``text_pos`` the index in it where the paragraph starts.
        self.text = text
        self.text_line = line
        self.text_pos = text_pos
        # The last line of the paragraph that holds the text (the task line when
        # there is none): the lines up to here are the item's first block.
        self.text_end = line


class LineInfo:
    """The scanner's report on one line."""

    __slots__ = (
        "blank",
        "front_matter",
        "heading_level",
        "heading_text",
        "kind",
        "note_of",
        "note_text",
        "owner",
        "task",
        "warning",
    )

    def __init__(self) -> None:
        self.kind = LineKind.OTHER
        self.owner = -1  # line index of the task item this line belongs to, or -1
        self.task: TaskStart | None = None
        self.heading_level = 0
        self.heading_text = ""
        self.note_of = -1  # for NOTE lines: the task line index the note belongs to
        self.note_text: str | None = None  # None for a bare ">" separator
        self.blank = False
        self.warning: str | None = None
        self.front_matter = False


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


def _is_thematic_break(rest: str, c: str) -> bool:
    """Three or more ``c`` (``*``, ``-`` or ``_``) and nothing else but spaces and tabs."""
    marks = rest.replace(" ", "").replace("\t", "")
    return len(marks) >= 3 and not marks.strip(c)


def split_lines(text: str) -> list[str]:
    """Split text into lines that keep their endings (\\n, \\r\\n or a lone \\r).

    Unlike ``str.splitlines`` this does not break on form feeds, \\x1c-\\x1e or
    Unicode line separators: CommonMark does not, so neither do we.
    """
    if "\r" not in text:
        parts = text.split("\n")
        lines = [p + "\n" for p in parts[:-1]]
        if parts[-1]:
            lines.append(parts[-1])
        return lines
    # str.splitlines also breaks at \v, \f, \x1c-\x1e, \x85, \u2028 and \u2029, which
    # CommonMark does not: glue those pieces back to the line they belong to.
    pieces = text.splitlines(keepends=True)
    if not any(c in text for c in _NOT_LINE_BREAKS):
        return pieces
    glued: list[str] = []
    carry = ""
    for piece in pieces:
        if piece[-1] in _NOT_LINE_BREAKS:
            carry += piece
        else:
            glued.append(carry + piece)
            carry = ""
    if carry:
        glued.append(carry)
    return glued


def strip_eol(line: str) -> str:
    """The line without its line ending."""
    if line.endswith("\n"):
        return line[:-2] if line.endswith("\r\n") else line[:-1]
    if line.endswith("\r"):
        return line[:-1]
    return line


def eol_of(line: str) -> str:
    """The line's ending: "\\r\\n", "\\n", "\\r" or ""."""
    return line[len(strip_eol(line)) :]


def is_blank(text: str) -> bool:
    return not text.strip(" \t")


def _skip_ws(text: str, pos: int, col: int) -> tuple[int, int]:
    """Advance over spaces and tabs; tabs stop at multiples of 4 as CommonMark says."""
    if pos >= len(text) or text[pos] not in " \t":
        return pos, col
    # Over the run alone: a copy of the rest of the line, made for each of a deeply
    # nested line's containers, made reading 700 nested items take seconds.
    end, size = pos + 1, len(text)
    while end < size and text[end] in " \t":
        end += 1
    if "\t" not in text[pos:end]:
        return end, col + end - pos
    for c in text[pos:end]:
        col = col + 1 if c == " " else col + 4 - col % 4
    return end, col


def bullet_at(rest: str, start: int = 0) -> str | None:
    """The list marker ``rest`` starts with (at ``start``): ``([-+*]|[0-9]{1,9}[.)])(?=[ \\t]|$)``.

    Read in place: a copy of the rest of the line for each of a line's thousands
    of nested items made reading it quadratic."""
    size = len(rest)
    if start >= size:
        return None
    if rest[start] in "-+*":
        end = start + 1
    else:
        end, limit = start, min(size, start + 10)  # ten digits are already too many
        while end < limit and rest[end] in _DIGITS:
            end += 1
        if not 1 <= end - start <= 9 or end >= size or rest[end] not in ".)":
            return None
        end += 1
    if end < size and rest[end] not in " \t":
        return None
    return rest[start:end]


def task_marker_at(content: str, start: int = 0) -> tuple[str, int, int] | None:
    """The task marker an item's content starts with, as (the character inside it,
    its index, the marker's length). Either bracket may be backslash-escaped, as
    editors write them (``\\[x\\]``, ``\\[x]``, ``[x\\]``); the empty ``[]`` only
    unescaped. A space, tab, vertical tab or form feed must follow. The pattern it
    stands for: ``(?:\\[\\]|(\\\\?)\\[([^\\]\\\\])\\\\?\\])(?=[ \\t\\v\\f])``.
    With ``start``, the content begins there in ``content`` (indexes stay relative
    to it)."""
    if content.startswith("[]", start):
        char, at, end = "", 1, 2
    else:
        at = 2 if content.startswith("\\[", start) else 1 if content.startswith("[", start) else 0
        if not at or len(content) <= start + at or content[start + at] in "]\\":
            return None
        char, end = content[start + at], at + 1
        if content.startswith("\\]", start + end):
            end += 2
        elif content.startswith("]", start + end):
            end += 1
        else:
            return None
    if start + end >= len(content) or content[start + end] not in _AFTER_MARKER:
        return None
    return char, at, end


def atx_heading_at(rest: str) -> tuple[int, str] | None:
    """An ATX heading ``rest`` starts with, as (level, text without its closing
    hashes): ``(#{1,6})(?:[ \\t]+(.*?))??(?:[ \\t]+#+)?[ \\t]*$``."""
    level = len(rest) - len(rest.lstrip("#"))
    if not 1 <= level <= 6:
        return None
    after = rest[level:]
    if after and after[0] not in " \t":
        return None
    text = after.strip(" \t")
    bare = text.rstrip("#")
    if not bare:
        return level, ""
    if bare != text and bare[-1] in " \t":
        text = bare.rstrip(" \t")
    return level, text


def simple_task_at(text: str) -> bool:
    """A task item at column 0 with text after its marker:
    ``[-*+] (?=(?:\\[\\]|\\\\?\\[[^\\]\\\\]\\\\?\\])(?=[ \\t\\v\\f])[ \\t]*[^ \\t])``
    (past the marker, something other than spaces and tabs: a line whose text
    starts on the next line takes the general path)."""
    if len(text) < 6 or text[0] not in "-*+" or text[1] != " ":
        return False
    marker = task_marker_at(text[2:])
    return marker is not None and not is_blank(text[2 + marker[2] :])


# The trailing metadata comment of a task line (docs/file-format.md): ``<!-- active: Doing X -->``
# as before, or fields in a fixed order with the active form last, e.g.
# ``<!-- id: 3; priority: high; blocked-by: 1, 2; owner: a; active: Doing X -->``.
# Field values other than the active form are percent-encoded where they hold
# ``%``, ``;``, ``,``, ``<``, ``>`` or white space, so a value never ends the field or the
# comment; the active form, last, is free text (it may not hold ``<!--``/``-->``).
# A trailing comment of any other shape stays part of the task's text.
META_KEYS = ("id", "priority", "blocked-by", "owner", "check", "checked", "evidence")


def split_meta(text: str) -> tuple[str, str | None, Meta]:
    """Split a task's text into its content, active form and metadata.

    Read with string methods, as the two patterns (tried in this order) would find
    them with ``re.search`` (tests/test_blocks_patterns.py compares the two):
    ``[ \t]*<!--[ \t]*active:(.*?)-->[ \t]*$``, the comment as it was before
    metadata, and ``[ \t]*<!--[ \t]*((?:F;[ \t]*)*(?:F|active:.*?))[ \t]*-->[ \t]*$``
    with ``F`` = ``(?:K):[^;<>]*?`` and ``K`` any of ``META_KEYS`` (``|``-joined). Every Claude Code
    list has an active form on every task: compiling those patterns cost each call
    more than reading the whole list.
    """
    if "<!--" not in text:
        return text.strip(), None, NO_META
    close = _comment_close(text)
    if close < 0:
        return text.strip(), None, NO_META
    openings = []
    at = text.find("<!--")
    while at >= 0:
        openings.append(at)
        at = text.find("<!--", at + 4)
    for at in openings:
        inner = _skip_blanks(text, at + 4)
        if text.startswith("active:", inner) and inner + 7 <= close:
            active = text[inner + 7 : close]
            if "\n" not in active:
                return text[: _blanks_start(text, at)].strip(), active.strip(), NO_META
    end = _blanks_start(text, close)  # where the fields end, whichever opening they follow
    for at in openings:
        inner = _skip_blanks(text, at + 4)
        if inner <= close and _is_field_list(text, inner, end):
            fields_text = text[inner:end]
            return _read_fields(text[: _blanks_start(text, at)], fields_text, text)
    return text.strip(), None, NO_META


def _comment_close(text: str) -> int:
    """Where the ``-->`` that ends the text (bar spaces and tabs, and a last
    newline: what ``-->[ \t]*$`` allows) starts; -1 if there is none."""
    body = text[:-1] if text.endswith("\n") else text
    end = len(body.rstrip(" \t"))
    return end - 3 if body.endswith("-->", 0, end) else -1


def _skip_blanks(text: str, at: int) -> int:
    while text.startswith((" ", "\t"), at):
        at += 1
    return at


def _blanks_start(text: str, at: int) -> int:
    """Where the run of spaces and tabs that ends at ``at`` starts."""
    return len(text[:at].rstrip(" \t"))


def _is_field_list(text: str, at: int = 0, end: int | None = None) -> bool:
    """Whether ``text[at:end]`` is ``(?:F;[ \t]*)*(?:F|active:.*?)`` (see ``split_meta``).

    Read in place and each character once: a value never holds "<" or ">", so the
    first of those ends the fields; no search looks past it, nor past the next
    "<!--" of a line of thousands of them (a search to the end of the text for
    each field, or for each opening, made reading such a line quadratic)."""
    end = len(text) if end is None else end
    angle = -1  # the first "<" or ">" from here, once looked for
    while True:
        if text.startswith("active:", at, end):
            return "\n" not in text[at + 7 : end]  # the free text runs to the end
        colon = -1
        for key in META_KEYS:
            if text.startswith(key, at, end) and text.startswith(":", at + len(key), end):
                colon = at + len(key)
                break
        if colon < 0:
            return False
        if angle < 0:
            lt = text.find("<", colon + 1, end)
            gt = text.find(">", colon + 1, end if lt < 0 else lt)
            angle = end if lt < 0 and gt < 0 else gt if gt >= 0 else lt
        stop = text.find(";", colon + 1, angle)
        if stop < 0:
            return angle == end  # the last field, unless a "<" or ">" ends it
        at = min(_skip_blanks(text, stop + 1), end)


def _read_fields(before: str, fields_text: str, text: str) -> tuple[str, str | None, Meta]:
    fields: dict[str, str] = {}
    active = None
    for part in fields_text.split(";"):
        key, _, value = part.partition(":")
        key = key.strip()
        if key == "active":  # the last field: the rest, ";" included
            active = fields_text.split("active:", 1)[1].strip()
            break
        if key in fields:  # a field given twice: not a comment this tool wrote
            return text.strip(), None, NO_META
        fields[key] = value.strip()
    meta = Meta(
        id=_decode(fields["id"]) if fields.get("id") else None,
        priority=_decode(fields["priority"]) if fields.get("priority") else None,
        blocked_by=tuple(
            _decode(v.strip()) for v in fields.get("blocked-by", "").split(",") if v.strip()
        ),
        owner=_decode(fields["owner"]) if fields.get("owner") else None,
        check=_decode(fields["check"]) if fields.get("check") else None,
        checked=_decode(fields["checked"]) if fields.get("checked") else None,
        evidence=_decode(fields["evidence"]) if fields.get("evidence") else None,
    )
    return before.strip(), active, meta


def meta_comment(active: str | None, meta: Meta) -> str:
    """The trailing comment for this active form and metadata, with the space
    before it; empty when there is neither."""
    if not meta:
        return "" if active is None else f" <!-- active: {active} -->"
    parts = []
    if meta.id:
        parts.append(f"id: {_encode(meta.id)}")
    if meta.priority:
        parts.append(f"priority: {_encode(meta.priority)}")
    if meta.blocked_by:
        parts.append("blocked-by: " + ", ".join(_encode(d) for d in meta.blocked_by))
    if meta.owner:
        parts.append(f"owner: {_encode(meta.owner)}")
    for key, text in (
        ("check", meta.check),
        ("checked", meta.checked),
        ("evidence", meta.evidence),
    ):
        if text:
            parts.append(f"{key}: {_encode_text(text)}")
    if active is not None:
        parts.append(f"active: {active}")
    return " <!-- " + "; ".join(parts) + " -->"


def _encode(value: str) -> str:
    out = []
    for ch in value:
        if ch in "%;,<>" or ch.isspace() or not ch.isprintable():
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass")))
        else:
            out.append(ch)
    return "".join(out)


def _encode_text(value: str) -> str:
    """A free-text field (a check's command, evidence): readable as typed, with
    only what would end the field or the comment written as ``%XX``."""
    out = []
    for ch in value:
        if ch in "%;<>" or (ch.isspace() and ch != " ") or not ch.isprintable():
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass")))
        else:
            out.append(ch)
    return "".join(out)


def _decode(value: str) -> str:
    """Undo ``_encode``: ``%XX`` runs are UTF-8 bytes; a ``%`` not followed by two
    hex digits (a hand edit) stays as it is."""
    if "%" not in value:
        return value
    out = bytearray()
    i = 0
    while i < len(value):
        hex_pair = value[i + 1 : i + 3]
        if value[i] == "%" and len(hex_pair) == 2 and all(c in _HEX for c in hex_pair):
            out.append(int(hex_pair, 16))
            i += 3
        else:
            out += value[i].encode("utf-8")
            i += 1
    return out.decode("utf-8", "replace")


_HEX = frozenset("0123456789abcdefABCDEF")


def heading_text(raw: str) -> str:
    """The text of an ATX heading line, without hashes or closing sequence."""
    found = atx_heading_at(raw.lstrip(" "))
    return found[1] if found else ""


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
        matched = self._blank_matches(_skip_ws(text, 0, 0)[1]) if stack else 0
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
        new_task = self._task_start(index, text, 0, text[0], 2, marker, 2, info)
        if new_task is not None:
            item.make_task(index)
            info.kind = LineKind.TASK
            info.task = new_task
        self.para_task = index if new_task is not None else -1
        self.leaf = _Leaf.PARAGRAPH
        info.owner = index if new_task is not None else -1
        return True

    def _scan_line(self, index: int, text: str, info: LineInfo) -> None:
        stack = self.stack
        bare, self.bare_task = self.bare_task, -1
        pos, col, base = 0, 0, 0
        matched = 0
        blank = is_blank(text)
        info.blank = blank
        skipped = (-1, 0, 0)  # the last skip: from pos, to ns_pos and ns_col
        if blank:
            # Without a walk of the stack: list items need no column of a blank line.
            ns_pos, ns_col = _skip_ws(text, 0, 0)
            matched = self._blank_matches(ns_col)
            if matched:
                pos, col = ns_pos, ns_col
        for cont in () if blank else stack:
            if skipped[0] != pos:  # list items leave pos where it was: skip once
                skipped = (pos, *_skip_ws(text, pos, col))
            ns_pos, ns_col = skipped[1], skipped[2]
            if cont.is_quote:
                if ns_pos < len(text) and text[ns_pos] == ">" and ns_col - base <= 3:
                    pos, col = ns_pos + 1, ns_col + 1
                    base = col + 1
                    if pos < len(text) and text[pos] == " ":
                        pos, col = pos + 1, col + 1
                else:
                    break
            elif ns_pos == len(text):
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
        all_matched = matched == len(stack)

        # Leaves that swallow lines: fenced code, HTML blocks, indented code.
        if self.leaf == _Leaf.FENCE:
            if all_matched:
                self._fence_line(text, pos, col, base)
                self._report(info, text, base)
                return
            self.leaf = _Leaf.NONE
        elif self.leaf == _Leaf.HTML:
            if all_matched:
                ends_here = (
                    blank if self.html_end is None else bool(self.html_end.search(text, pos))
                )
                if ends_here:
                    self.leaf = _Leaf.NONE
                self._report(info, text, base)
                return
            self.leaf = _Leaf.NONE
        elif self.leaf == _Leaf.CODE:
            ns_pos, ns_col = _skip_ws(text, pos, col)
            if all_matched and (blank or ns_col - base >= 4):
                self._report(info, text, base)
                return
            self.leaf = _Leaf.NONE

        lazy_paragraph = self.leaf == _Leaf.PARAGRAPH
        closed = False  # whether the unmatched containers were closed yet

        def close_unmatched() -> None:
            nonlocal closed
            if not closed:
                del stack[matched:]
                closed = True

        new_task: TaskStart | None = None
        rest_blank = False  # nothing but whitespace after the container markers
        # Where the line's tail of nothing but "-" (or "*", "_"), spaces and tabs
        # starts, found once per line: each of thousands of nested items on one line
        # asking whether the rest of it is a thematic break made reading quadratic.
        # Nor is the rest of the line copied but by a step that ends the loop.
        break_tails: dict[str, int] = {}
        size = len(text)
        while True:
            if pos < size and text[pos] not in " \t":
                ns_pos, ns_col = pos, col  # nothing to skip (the rule between nested items)
            else:
                ns_pos, ns_col = _skip_ws(text, pos, col)
            indent = ns_col - base
            if ns_pos == len(text):
                rest_blank = True
                break
            c = text[ns_pos]
            if indent >= 4:
                if self.leaf == _Leaf.PARAGRAPH:
                    break
                close_unmatched()
                self.leaf = _Leaf.CODE
                self._report(info, text, base)
                return
            in_paragraph = self.leaf == _Leaf.PARAGRAPH and all_matched and not closed
            if c == ">":
                if not closed:
                    close_unmatched()
                note_of = -1
                if stack and not stack[-1].is_quote and stack[-1].task_line >= 0:
                    note_of = stack[-1].task_line
                self._push(_Container(is_quote=True, note_of=note_of))
                pos, col = ns_pos + 1, ns_col + 1
                base = col + 1
                if pos < len(text) and text[pos] == " ":
                    pos, col = pos + 1, col + 1
                self.leaf = _Leaf.NONE
                all_matched = True
                continue
            if c == "#":
                heading = atx_heading_at(text[ns_pos:])
                if heading:
                    close_unmatched()
                    self.leaf = _Leaf.NONE
                    if not stack:
                        info.kind = LineKind.HEADING
                        info.heading_level, info.heading_text = heading
                    self._report(info, text, base)
                    return
            if c in "`~":
                rest = text[ns_pos:]
                run = len(rest) - len(rest.lstrip(c))
                if run >= 3 and not (c == "`" and "`" in rest[run:]):
                    close_unmatched()
                    self.leaf = _Leaf.FENCE
                    self.fence_char = c
                    self.fence_len = run
                    self._report(info, text, base)
                    return
            if c == "<":
                rest = text[ns_pos:]
                # Kind 7 never interrupts a paragraph, not even a lazy one.
                started, html_end = self._html_start(rest, self.leaf == _Leaf.PARAGRAPH)
                if started:
                    close_unmatched()
                    self.leaf = _Leaf.HTML
                    self.html_end = html_end
                    self.html_closer = _html_closer(rest)
                    if html_end is not None and html_end.search(rest, 2):
                        self.leaf = _Leaf.NONE
                    self._report(info, text, base)
                    return
            if in_paragraph and c in "=-" and not text[ns_pos:].rstrip(" \t").strip(c):
                # A setext underline turns the paragraph into a heading; it is
                # not a phase heading (phases are ATX headings). A task item
                # whose text became a heading stays a task, as in cmark-gfm.
                self._text_goes_on(index)
                self.leaf = _Leaf.NONE
                self._report(info, text, base)
                return
            if c in "*-_":
                tail = break_tails.get(c)
                if tail is None:
                    tail = break_tails[c] = len(text.rstrip(c + " \t"))
                # Past the tail's start the rest is only c and blanks: at most three
                # more bullets before the count says yes, so counting stays linear.
                is_break = ns_pos >= tail and _is_thematic_break(text[ns_pos:], c)
            else:
                is_break = False
            if is_break:
                close_unmatched()
                self.leaf = _Leaf.NONE
                self._report(info, text, base)
                return
            bullet = bullet_at(text, ns_pos)
            if bullet:
                after = len(bullet)
                a_pos, a_col = _skip_ws(text, ns_pos + after, ns_col + after)
                empty = a_pos == len(text)
                ordered = bullet[-1] in ".)"
                # Only a non-empty item, and in an ordered list only one that
                # starts at 1, may interrupt a paragraph (as in cmark and
                # commonmark.js, a lazy paragraph is not interrupted here).
                if in_paragraph and (empty or (ordered and int(bullet[:-1]) != 1)):
                    break
                if not closed:
                    close_unmatched()
                marker_end_col = ns_col + after
                spaces = a_col - marker_end_col
                content_col = marker_end_col + 1 if empty or spaces > 4 else a_col
                item = _Container(is_quote=False, content_col=content_col, empty=empty)
                self._push(item)
                self.leaf = _Leaf.NONE
                all_matched = True
                if empty:
                    self._report(info, text, base)
                    return
                if spaces > 4:
                    # The content is indented code; nothing more to find here.
                    self.leaf = _Leaf.CODE
                    self._report(info, text, base)
                    return
                marker = task_marker_at(text, a_pos) if text[a_pos] in "[\\" else None
                if marker is not None:
                    new_task = self._task_start(
                        index, text, ns_pos, bullet, a_pos, marker, content_col, info
                    )
                    if new_task is not None:
                        item.make_task(index)
                        item.empty = is_blank(new_task.text)
                        if item.empty:
                            self.empties.append(item)
                    break
                pos, col, base = a_pos, a_col, content_col
                continue
            break

        if rest_blank:
            close_unmatched()
            self.leaf = _Leaf.NONE
        elif not closed and not all_matched and lazy_paragraph:
            self._text_goes_on(index)  # lazy continuation: every container stays open
        elif new_task is not None and is_blank(new_task.text):
            # Nothing after the marker: the item has no content yet, and a
            # paragraph that starts on the next line holds the task's text.
            close_unmatched()
            self.leaf = _Leaf.NONE
            self.bare_task = index
        else:
            close_unmatched()
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
        content_col: int,
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
        return TaskStart(
            line=index,
            marker_pos=content_pos + at,
            marker_len=len(char),
            status=status,
            indent=text[:bullet_pos],
            bullet=bullet,
            gap=text[bullet_pos + len(bullet) : content_pos],
            content_col=content_col,
            text=after,
            text_pos=content_pos + length,
        )

    @staticmethod
    def _html_start(rest: str, in_paragraph: bool) -> tuple[bool, re.Pattern[str] | None]:
        """Whether an HTML block starts here, and the pattern that ends it
        (None: it ends at a blank line), per CommonMark's seven kinds."""
        html = _html_patterns()
        if html.kind1.match(rest):
            return True, html.kind1_end
        for opener, closer in html.ends:
            if rest.startswith(opener):
                return True, closer
        if len(rest) > 2 and rest[1] == "!" and rest[2].isascii() and rest[2].isalpha():
            return True, html.kind4_end
        m = html.kind6.match(rest)
        if m and m.group(1).lower() in _HTML_BLOCK_TAGS:
            return True, None
        if not in_paragraph and html.kind7.match(rest):
            return True, None
        return False, None

    def _fence_line(self, text: str, pos: int, col: int, base: int) -> None:
        ns_pos, ns_col = _skip_ws(text, pos, col)
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


def _html_closer(rest: str) -> str:
    import re

    m = re.match(r"<(script|pre|style|textarea)", rest, re.IGNORECASE)
    if m:
        return f"</{m.group(1)}>"
    for opener, closer in (("<!--", "-->"), ("<?", "?>"), ("<![CDATA[", "]]>")):
        if rest.startswith(opener):
            return closer
    return ">"
