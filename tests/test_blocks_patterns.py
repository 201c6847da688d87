"""The scanner's string recognisers agree with the CommonMark patterns they stand
for (written out here as regular expressions, the form the spec gives them in)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from todocli.document.blocks import (
    atx_heading_at,
    bullet_at,
    simple_task_at,
    split_lines,
    task_marker_at,
)
from todocli.engine.ops import task_number

BULLET = re.compile(r"([-+*]|[0-9]{1,9}[.)])(?=[ \t]|$)")
ATX = re.compile(r"(#{1,6})(?:[ \t]+(.*?))??(?:[ \t]+#+)?[ \t]*$")
TASK = re.compile(r"(?:\[\]|(\\?)\[([^\]\\])\\?\])(?=[ \t\v\f])")
SIMPLE = re.compile(r"[-*+] (?=(?:\[\]|\\?\[[^\]\\]\\?\])(?=[ \t\v\f])[ \t]*[^ \t])")
LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
TASK_REF = re.compile(r"#([0-9]+)")

CHARS = st.sampled_from(list("-+*#0123456789.)[]\\ \t\v\fxX/!a?é²\u00a0"))
TEXT = st.text(CHARS, max_size=14)


@settings(max_examples=3000)
@given(TEXT)
def test_bullet(rest: str) -> None:
    m = BULLET.match(rest)
    assert bullet_at(rest) == (m.group(1) if m else None)


@settings(max_examples=3000)
@given(TEXT)
def test_atx_heading(rest: str) -> None:
    m = ATX.match(rest)
    assert atx_heading_at(rest) == ((len(m.group(1)), m.group(2) or "") if m else None)


@settings(max_examples=3000)
@given(TEXT)
def test_task_marker(content: str) -> None:
    m = TASK.match(content)
    expected = None
    if m:
        # (the character inside, its index, the marker's length); "" at 1 for "[]"
        char = m.group(2) or ""
        expected = (char, len(m.group(1) or "") + 1, m.end())
    assert task_marker_at(content) == expected


@settings(max_examples=3000)
@given(TEXT)
def test_simple_task(text: str) -> None:
    assert simple_task_at(text) == bool(SIMPLE.match(text))


@settings(max_examples=1000)
@given(st.text(st.sampled_from(list("ab\r\n\v\f\x1c\x85\u2028")), max_size=20))
def test_split_lines(text: str) -> None:
    assert split_lines(text) == LINES.findall(text)


@given(st.text(st.sampled_from(list("#0123456789 ²a")), max_size=6))
def test_task_number(ref: str) -> None:
    m = TASK_REF.fullmatch(ref.strip())
    assert task_number(ref) == (int(m.group(1)) if m else None)
