"""The characters that must never reach a terminal (or a completion script) raw,
and the one function that shows them as escapes (``escape``; ``safe``, ``one_line``
and ``json_safe`` name its three notations).

A list is a file anyone may edit, so its text can hold anything: ESC sequences
that clear the screen or retitle the window, BEL, backspaces that hide what came
before, C1 controls (U+009B is an 8-bit CSI), bytes that are not UTF-8 (read with
``surrogateescape``, U+DC80..U+DCFF, so they could be written back out as the raw
byte), bidi overrides such as U+202E that make text read backwards, and invisible
format characters (U+200B, U+FEFF, ...). Every one of them is shown as an escape:

=========================================== ===========================================
characters                                  shown as
=========================================== ===========================================
C0 controls, DEL, C1 controls               ``\\x1b``, ``\\x7f``, ``\\x9b`` (``\\t``,
                                            ``\\n``, ``\\r`` for those three)
a byte that was not UTF-8 (U+DC80..U+DCFF)  ``\\xNN``, the byte it stands for
other lone surrogates                       ``\\udNNN``
format characters (category Cf), U+2028/9   ``\\u202e``, ``\\U000e0001``
=========================================== ===========================================

In JSON (written with ``ensure_ascii=False``) the same characters are written as
``\\uXXXX`` escapes, so the document stays valid and its strings keep their value.

Start-up is the product: no ``re``, and ``unicodedata`` (0.1 ms) only for a text
that holds an unprintable character above U+00A0 that is not a surrogate.
``str.isprintable`` (one pass in C) is the fast path, since every character here is
unprintable; the rest is looked up only for the few distinct unprintable characters
a text holds. (A ``str.translate`` table with every surrogate in it costs a
millisecond to build, and ``translate`` looks up every character of the text.)
"""

from __future__ import annotations

LINE_SEPARATORS = (0x2028, 0x2029)  # categories Zl and Zp: line breaks to a terminal
_SHORT = {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}

# The three notations of the one function below.
LINES = "lines"  # text for a terminal over several lines: newline and tab kept
LINE = "line"  # one line: newline and tab escaped too
JSON = "json"  # inside the strings of a JSON document: \\uXXXX


def shown_as(ch: str, notation: str = LINE) -> str | None:
    """The escape one character is shown as, or None when it is shown as it is.

    Only called for characters ``str.isprintable`` rejects: every character this
    module guards against is among them (categories Cc, Cf, Cs, Zl, Zp), but so are
    a no-break space, private-use and unassigned characters, which stay."""
    c = ord(ch)
    json = notation == JSON
    if c < 0xA0:  # C0, DEL, C1: the unprintable characters below U+00A0
        if c < 0x20 and (json or (notation == LINES and c in (0x09, 0x0A))):
            return None  # JSON's encoder escapes C0 itself
        if json:
            return f"\\u{c:04x}"
        return _SHORT.get(c) or f"\\x{c:02x}"
    if 0xD800 <= c <= 0xDFFF:  # a lone surrogate: surrogateescape holds byte NN as U+DCNN
        if 0xDC80 <= c <= 0xDCFF and not json:
            return f"\\x{c - 0xDC00:02x}"
        return f"\\u{c:04x}"
    if c not in LINE_SEPARATORS:
        import unicodedata

        if unicodedata.category(ch) != "Cf":  # soft hyphen, bidi controls, ZWSP, BOM...
            return None
    if c <= 0xFFFF:
        return f"\\u{c:04x}"
    if json:  # outside the BMP: JSON spells it as a UTF-16 surrogate pair
        c -= 0x10000
        return f"\\u{0xD800 + (c >> 10):04x}\\u{0xDC00 + (c & 0x3FF):04x}"
    return f"\\U{c:08x}"


# Below this length ``isprintable`` costs less than a search for each of the 33
# ASCII characters one by one (each ``in`` costs a call: ~450 instructions).
_LONG = 1000
# Per notation: the ASCII characters it escapes (JSON leaves C0 to its encoder).
_C0 = "".join(map(chr, range(0x20)))
_ASCII_ESCAPED = {
    LINES: _C0.replace("\t", "").replace("\n", "") + "\x7f",
    LINE: _C0 + "\x7f",
    JSON: "\x7f",
}
# Per notation: the characters met so far that are shown as they are, and the
# escapes of those that are not.
_kept: dict[str, set[str]] = {LINES: set(), LINE: set(), JSON: set()}
_escapes: dict[str, dict[str, str]] = {LINES: {}, LINE: {}, JSON: {}}


def escape(text: str, notation: str = LINES) -> str:
    """``text`` with every character above shown as an escape, in ``notation``.

    Printable text (nearly all of it) is returned after one pass in C. Otherwise
    each distinct character of the text not yet known to be kept (a set
    difference, in C: usually one or two characters are left) is replaced by its
    escape. An escape is printable ASCII, so escaping twice changes nothing."""
    if len(text) > _LONG and text.isascii():
        # A long ASCII text (a large plan's listing): only C0 and DEL could need
        # escaping, each looked for with ``in`` (a memchr in C). 3.5 instructions a
        # character where ``isprintable`` takes 26: 5 M against 34 M (9 ms) for the
        # 1.3 MB a 1,500-task plan shows (bench/big_plan.py).
        if not any(c in text for c in _ASCII_ESCAPED[notation]):
            return text
    elif text.isprintable():
        return text
    if notation == LINES and text.replace("\n", "").replace("\t", "").isprintable():
        # Lines of printable text: kept as they are, in three passes in C (the set
        # below hashes every character: 0.1 s for a few megabytes of output).
        return text
    kept, escapes = _kept[notation], _escapes[notation]
    for ch in set(text).difference(kept):
        shown = escapes.get(ch)
        if shown is None:
            shown = None if ch.isprintable() else shown_as(ch, notation)
            if shown is None:
                kept.add(ch)
                continue
            escapes[ch] = shown
        text = text.replace(ch, shown)
    return text


class Shown(str):
    """Text ``escape`` has shown already: ``safe``'s lines joined (``render.plain``),
    a JSON document made safe (``render.json_text``). Nothing in it would be shown
    otherwise in any notation but ``LINE``'s, so it is written and put in a JSON
    document as it is, not read through again (a large plan's: megabytes)."""

    __slots__ = ()


# Past this many characters (of a document that is not ASCII: an ASCII one is one
# search for DEL) a look at each value costs less than one at each character.
_WALKED = 200_000


def json_document(document: str, value: object) -> str:
    """``json_safe`` of ``value``'s JSON document: a large one that is not ASCII is
    returned as it is when none of its values holds a character to escape
    (``json_shown``), without a look at each of its characters."""
    if len(document) > _WALKED and not document.isascii() and json_shown(value):
        return document
    return json_safe(document)


def json_shown(value: object) -> bool:
    """Whether ``json_safe`` would change nothing in the JSON document of ``value``:
    no string in it holds a character JSON's notation escapes. An ASCII string is
    searched for DEL alone; other strings are escaped to see (a ``Shown`` one
    needs nothing)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item.isascii():
                if "\x7f" in item:
                    return False
            elif not isinstance(item, Shown) and escape(item, JSON) != item:
                return False
        elif isinstance(item, dict):
            stack += item.keys()
            stack += item.values()
        elif isinstance(item, (list, tuple)):
            stack += item
    return True


def safe(text: str) -> str:
    """Text for a terminal, which may run over several lines (newline and tab kept)."""
    return escape(text, LINES)


def safe_lines(lines: list[str]) -> list[str]:
    """Each line as ``safe`` shows it. The ASCII lines are looked at together, so
    that a line of wider characters (the dash of ``todo show``'s phase line) does
    not send a large listing down the slow path."""
    if _ascii_shown(lines):  # nothing in the ASCII lines to show otherwise
        return [line if line.isascii() else safe(line) for line in lines]
    return [safe(line) for line in lines]


def all_shown(texts: list[str]) -> bool:
    """Whether ``safe`` leaves each of ``texts`` as it is: the ASCII ones looked at
    together, the others one by one."""
    return _ascii_shown(texts) and all(safe(text) == text for text in texts if not text.isascii())


def _ascii_shown(texts: list[str]) -> bool:
    """Whether ``safe`` leaves the ASCII ones of ``texts`` as they are: looked at
    together, one search for each control (a list: no generator steps)."""
    narrow = "\n".join([text for text in texts if text.isascii()])
    return safe(narrow) == narrow


def one_line(text: str) -> str:
    """Text for one line: a message, a completion candidate (newline and tab escaped)."""
    return escape(text, LINE)


def json_safe(document: str) -> str:
    """A JSON document made with ``ensure_ascii=False``, with every character above
    but C0 (which the encoder escapes itself) written as a ``\\uXXXX`` escape. Such
    characters only occur inside strings, so the document stays valid and every
    string keeps its value."""
    return escape(document, JSON)


def utf8_safe(text: str) -> str:
    """``text`` with each lone surrogate shown as ``escape`` shows it (``\\xNN`` for a
    byte that was not UTF-8) and nothing else changed: text that can be written as
    UTF-8, for a reader (an MCP client) that takes the rest as it is."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join(shown_as(c) or c if "\ud800" <= c <= "\udfff" else c for c in text)
    return text


def first_unsafe(text: str) -> str | None:
    """The first character of ``text`` that ``one_line`` would escape, if any: new
    text holding one is refused."""
    if text.isprintable():
        return None
    return next((ch for ch in text if not ch.isprintable() and shown_as(ch) is not None), None)


QUOTE_LIMIT = 120  # characters of a user's text a message echoes


def quoted(text: object, limit: int = QUOTE_LIMIT) -> str:
    """User text echoed in a message (a task reference, a key, a status): in double
    quotes, on one line, and short: past ``limit`` characters it is cut and says how
    much was left out, so a 100 KB reference gives a one-line error, not 100 KB."""
    shown = str(text)
    if len(shown) > limit:
        shown = f"{shown[:limit]}…(+{len(shown) - limit} characters)"
    return f'"{one_line(shown)}"'
