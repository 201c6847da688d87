"""What one line holds, read with string methods: its ending, a list marker, a
task marker, an ATX heading, a task's trailing metadata comment (read and written);
and what the block scanner (``blocks``) keeps: its report on a line (``LineInfo``),
the open leaf and containers. The scanner and the document's segments build on
these.
"""

from __future__ import annotations

from todocli.document.model import MARKER_STATUS, NO_META, Meta, Status

# The recognisers below are string functions rather than regular expressions: the
# tool starts once per agent step and compiling patterns costs start-up. Each is
# checked against the CommonMark pattern it stands for by a property test
# (tests/test_blocks_patterns.py); the patterns are quoted in their docstrings.
_DIGITS = "0123456789"
# What may follow a task marker: GFM's "spacechar" (cmark-gfm's tasklist extension
# reads ``[ ] `` only when a space, tab, vertical tab or form feed follows it on the
# same line; the end of the line does not count).
_AFTER_MARKER = " \t\v\f"

BOM = "\ufeff"
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


def is_thematic_break(rest: str, c: str) -> bool:
    """Three or more ``c`` (``*``, ``-`` or ``_``) and nothing else but spaces and tabs."""
    marks = rest.replace(" ", "").replace("\t", "")
    return len(marks) >= 3 and not marks.strip(c)


def split_lines(text: str) -> list[str]:
    """Split text into lines that keep their endings (\\n, \\r\\n or a lone \\r).

    Unlike ``str.splitlines`` this does not break on form feeds, \\x1c-\\x1e or
    Unicode line separators: CommonMark does not, so neither do we.
    """
    if "\r" not in text:
        # Each line is cut out once, up to the "\n" a search finds (memchr): on a
        # 1 MB plan 5.4 M instructions, where str.split and a "\n" put back on each
        # piece (a second copy of every line) cost 8.6 M (bench/big_plan.py --stages).
        lines: list[str] = []
        start, find = 0, text.find
        end = find("\n") + 1
        while end:
            lines.append(text[start:end])
            start, end = end, find("\n", end) + 1
        if start < len(text):
            lines.append(text[start:])
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


def skip_ws(text: str, pos: int, col: int) -> tuple[int, int]:
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


def item_at(text: str, pos: int, col: int) -> tuple[str, int, int] | None:
    """The list marker at ``pos`` (column ``col``) of the text, and where its
    content starts (index, column); None when there is none. Read without a copy
    of the rest: a line may hold thousands of items."""
    size = len(text)
    c = text[pos]
    if c in "-+*":
        if pos + 1 < size and text[pos + 1] not in " \t":
            return None
        bullet = c
    else:
        bullet = bullet_at(text, pos) or ""
        if not bullet:
            return None
    at, col = pos + len(bullet), col + len(bullet)
    if at + 1 < size and text[at] == " " and text[at + 1] not in " \t":
        return bullet, at + 1, col + 1  # one space: the common case, without a call
    at, col = skip_ws(text, at, col)
    return bullet, at, col


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
META_KEYS = ("id", "priority", "blocked-by", "owner", "check", "checked", "evidence", "state")


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
    at = text.find("<!--")
    if text.startswith("<!-- active:", at) and at + 12 <= close:
        # The form this tool writes: the first opening holds the active form (the
        # loop below would return at it too).
        active = text[at + 12 : close]
        if "\n" not in active:
            return text[:at].strip(), active.strip(), NO_META
    openings = []
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
        state=_decode(fields["state"]) if fields.get("state") else None,
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
    if meta.state:
        parts.append(f"state: {_encode(meta.state)}")
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


class Container:
    """An open block quote or list item on the scanner's stack (``blocks``)."""

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
        self,
        is_quote: bool,
        content_col: int,
        note_of: int,
        empty: bool,
        below: Container | None,
        depth: int,
    ) -> None:
        """A container opened on top of ``below`` (None: at the bottom), ``depth``
        containers up the stack."""
        self.is_quote = is_quote
        self.content_col = content_col  # list items: the column their content starts at
        self.task_line = -1  # list items: the line index when the item is a task
        self.note_of = note_of  # block quotes directly inside a task item: that task's line
        self.empty = empty  # list items that have no content yet
        # Taken from the container below, so that no line has to walk the whole
        # stack (a line inside a container 100,000 deep would cost 100,000 steps):
        # where it stands in the stack, the index of the lowest block quote up to
        # here (-1: none), and the task item that owns a line inside this container
        # with, when that line is one of its notes, the note's task.
        self.depth = depth
        if below is None:
            self.first_quote = depth if is_quote else -1
            self.owner = self.owner_note = -1
        else:
            first_quote = below.first_quote
            self.first_quote = depth if first_quote < 0 and is_quote else first_quote
            self.owner = below.owner
            self.owner_note = below.owner_note
            if is_quote and note_of >= 0 and note_of == below.owner:
                self.owner_note = note_of

    def make_task(self, line: int) -> None:
        """This list item (the top of the stack) is the task item on ``line``."""
        self.task_line = self.owner = line
        self.owner_note = -1


def task_start(
    index: int,
    text: str,
    at: tuple[int, int],
    bullet: str,
    marker: tuple[str, int, int],
    info: LineInfo,
) -> TaskStart | None:
    """The task of a list item on line ``index`` whose bullet and content start at
    ``at``, with this marker (``task_marker_at``); None for an unknown status
    marker (with a warning on the line when text follows it)."""
    bullet_pos, content_pos = at
    char, inner, length = marker
    after = text[content_pos + length :]
    status = MARKER_STATUS.get(char)
    if status is None and char == "\t":
        status = Status.PENDING
    if status is None:
        # A capital letter is a label, not a mistyped marker: spec-kit's legend
        # ``- [P] tasks = different files`` would warn on every call.
        if not is_blank(after) and not "A" <= char <= "Z":
            info.warning = (
                f"Line {index + 1}: unknown status marker "
                f'"{text[content_pos : content_pos + length]}" (use [ ], [x], [/], [-])'
            )
        return None
    return TaskStart(
        line=index,
        marker_pos=content_pos + inner,
        marker_len=len(char),
        status=status,
        indent=text[:bullet_pos],
        bullet=bullet,
        gap=text[bullet_pos + len(bullet) : content_pos],
        content_col=0,
        text=after,
        text_pos=content_pos + length,
    )


def front_matter(lines: list[str]) -> list[LineInfo]:
    """The reports on the lines of a YAML front matter block that opens the file
    (none when there is none)."""
    infos = []
    for _ in range(front_matter_end(lines) + 1):
        info = LineInfo()
        info.front_matter = True
        infos.append(info)
    return infos


def fence_at(rest: str) -> int:
    """The length of the code fence ``rest`` opens (three or more backticks or
    tildes, and no backtick after backticks); 0 when it opens none."""
    c = rest[:1]
    if c not in ("`", "~"):
        return 0
    run = run_end(rest, 0, c)
    return 0 if run < 3 or (c == "`" and "`" in rest[run:]) else run


def fence_closes(text: str, at: tuple[int, int, int], char: str, length: int) -> bool:
    """Whether the line closes the open code fence of ``length`` ``char``, from ``at``
    (index, column, content column) past its containers."""
    ns_pos, ns_col = skip_ws(text, at[0], at[1])
    if ns_col - at[2] > 3:
        return False
    end = run_end(text, ns_pos, char)
    return end - ns_pos >= length and is_blank(text[end:])


_RUN = 64  # characters compared at once by run_end


def run_end(text: str, at: int, char: str) -> int:
    """Where the run of ``char`` that starts at ``at`` ends, found without a copy
    of the rest of the line (a line may hold thousands of runs)."""
    chunk = char * _RUN
    while text.startswith(chunk, at):
        at += _RUN
    size = len(text)
    while at < size and text[at] == char:
        at += 1
    return at


def front_matter_end(lines: list[str]) -> int:
    """The index of the line that closes a front matter block opened on the first
    line (``---`` or ``...``); -1 if none does, or the first line opens none."""
    if not lines or strip_eol(lines[0]).removeprefix(BOM).rstrip(" \t") != "---":
        return -1
    for i in range(1, len(lines)):
        if strip_eol(lines[i]).rstrip(" \t") in ("---", "..."):
            return i
    return -1


def note_body(text: str) -> str:
    """The text of a note line: what follows its '>' marker (lazy lines have none)."""
    stripped = text.lstrip(" \t")
    if stripped.startswith(">"):
        stripped = stripped[1:]
    return stripped.strip(" \t")


class Leaf:
    """The open leaf block (plain constants, as for ``LineKind``)."""

    NONE = 0
    PARAGRAPH = 1
    FENCE = 2
    HTML = 3
    CODE = 4


def blank_matches(
    stack: list[Container], empties: list[Container], width: int
) -> tuple[int, list[Container]]:
    """How many open containers a blank line ``width`` columns wide continues:
    the list items up to the first block quote (a blank line never continues
    one) or the first item with no content yet that it does not reach (an item
    can begin with at most one blank line; as in cmark-gfm, what GitHub
    renders, a line of spaces reaching the item's content column is not that
    second blank line). With it, those of ``empties`` still open and empty."""
    if not stack:
        return 0, empties
    first_quote = stack[-1].first_quote
    matched = len(stack) if first_quote < 0 else first_quote
    if empties:
        empties = [c for c in empties if c.empty and c.depth < len(stack) and stack[c.depth] is c]
        for cont in empties:
            if cont.depth < matched and width < cont.content_col:
                matched = cont.depth
    return matched, empties


def quoted_items_alike(
    stack: list[Container], text: str, pos: int, col: int, bullet: str, fast: bool = True
) -> tuple[int, int]:
    """Open the quote-and-item pairs nested on this line right after an item with
    this ``bullet`` (``- > - > - x``) that are alike: ``> ``, the bullet, one
    space, then ``>`` again. Each pair is read as the scanner's general loop reads
    it (the quote is no task's note, the item neither empty nor a task), in fewer
    steps; where the next ``>`` is (index and column) is returned. Not ``fast``: none
    (the scanner's general path, which tests compare it with)."""
    unit = "> " + bullet + " "
    step, size = len(unit), len(text)
    while fast and text.startswith(unit, pos) and pos + step < size and text[pos + step] == ">":
        quote = Container(True, 0, -1, False, stack[-1], len(stack))
        stack.append(quote)
        stack.append(Container(False, col + step, -1, False, quote, len(stack)))
        pos, col = pos + step, col + step
    return pos, col
