"""cmark-gfm, GitHub's own Markdown parser (through cmarkgfm), as the oracle of what
a task item is: its tasklist extension decides which list items are tasks, and
the HTML it renders (with source positions) says on which line each one starts."""

from __future__ import annotations

import html
import re

import cmarkgfm
from cmarkgfm.cmark import Options

import todocli
from todocli.document.markdown import TaskNode
from todocli.document.model import Status

_OPTIONS = Options.CMARK_OPT_SOURCEPOS | Options.CMARK_OPT_UNSAFE
_TASK_ITEM = re.compile(
    r'<li data-sourcepos="(\d+):\d+-\d+:\d+"><input type="checkbox"( checked="")? disabled="" /> '
)
_BLOCK_START = re.compile(r"<(?:p|ul|ol|pre|h[1-6]|blockquote|hr|table|div)[ >/]")
_TAG = re.compile(r"<[^>]*>")
# A loose item's paragraph, or a setext heading (one that spans lines: the task's
# text paragraph underlined); an ATX heading is no text.
_TEXT_BLOCK = re.compile(r'\n<(?:p|h[1-6] data-sourcepos="(\d+):\d+-(?!\1:)\d+:\d+")[ >]')


def gfm_html(text: str) -> str:
    out: str = cmarkgfm.markdown_to_html_with_extensions(
        text, options=_OPTIONS, extensions=["tasklist"]
    )
    return out


# A known cmark-gfm defect: an item whose first line opens a nested list ("- - [ ] a")
# is never a task in GFM (its first block is a list, not a paragraph), and cmark-gfm
# agrees, except when a later line of that item is a lazy continuation that looks
# like a task item ("  > q" then "      - [ ] a"): then it puts a checkbox, with no
# text, on the outer item. GFM's spec (and we) give no task there; such items are
# left out of the oracle's answer. tests/test_fidelity.py pins the case.
_CHECKBOX_ON_A_LIST = re.compile(r" ?\n<[uo]l[ >]")
_NESTED_MARKERS = re.compile(r" {0,3}(?:[-+*]|\d{1,9}[.)])[ \t]+(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)")


def gfm_task_items(text: str) -> dict[int, tuple[bool, str]]:
    """Task items by 0-based line: (checked, their text's paragraph as rendered,
    tags removed, its lines joined with a space). cmark-gfm never makes a task of an item inside a
    block quote, so every one is a task in todo's sense."""
    out = gfm_html(text)
    source_lines = text.split("\n")
    found: dict[int, tuple[bool, str]] = {}
    for m in _TASK_ITEM.finditer(out):
        rest = out[m.end() :]
        if _TEXT_BLOCK.match(rest):
            rest = rest[rest.index(">") + 1 :]
        stop = min(
            (i for i in map(rest.find, ("</li>", "</p>", "</h")) if i >= 0),
            default=len(rest),
        )
        block = _BLOCK_START.search(rest, 0, stop)
        first = rest[: block.start() if block else stop]
        line = int(m.group(1)) - 1
        if _CHECKBOX_ON_A_LIST.match(rest) and _NESTED_MARKERS.match(source_lines[line]):
            continue  # cmark-gfm's defect, not GFM: see _CHECKBOX_ON_A_LIST
        shown = html.unescape(_TAG.sub("", first)).strip()
        joined = " ".join(part.strip(" \t") for part in shown.split("\n"))
        found[line] = (bool(m.group(2)), joined)
    return found


def our_gfm_task_items(text: str) -> dict[int, tuple[bool, str | None]]:
    """Our tasks spelled with GFM's own markers (``[ ]``, ``[x]``, ``[X]``, neither
    bracket escaped), by 0-based line: (checked, content; None when an active form
    comment follows it, which GFM reads as part of the text)."""
    found: dict[int, tuple[bool, str | None]] = {}
    line = 0
    for seg in todocli.loads(text).segments():
        if isinstance(seg, TaskNode):
            first, at = seg.lines[0], seg.marker_pos
            gfm = (
                seg.marker_len == 1
                and first[at - 1 : at + 2] in ("[ ]", "[x]", "[X]")
                and first[at - 2 : at - 1] != "\\"
            )
            if gfm:
                content = seg.content if seg.active_form is None else None
                found[line] = (seg.status is Status.COMPLETED, content)
        line += len(seg.lines)
    return found
