"""What one line holds, read with string methods: its ending, a list marker, a
task marker, an ATX heading, a task's trailing metadata comment (read and written);
and the scanner's report on a line (``LineInfo``). The block scanner (``blocks``)
and the document's segments build on these; nothing here knows about containers.
"""

from __future__ import annotations

from todocli.document.model import NO_META, Meta, Status

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
