"""The scanner's string recognisers agree with the CommonMark patterns they stand
for (written out here as regular expressions, the form the CommonMark spec gives them in), and
the trailing metadata comment is read as the patterns it once was read with."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from todocli.document.blocks import (
    atx_heading_at,
    bullet_at,
    meta_comment,
    simple_task_at,
    split_lines,
    split_meta,
    task_marker_at,
)
from todocli.document.lines import _decode
from todocli.document.model import NO_META, Meta
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


# The trailing comment, as split_meta read it with regular expressions (until it
# read it with string methods, to keep ``re`` off every call on a Claude Code list).
ACTIVE = re.compile(r"[ \t]*<!--[ \t]*active:(.*?)-->[ \t]*$")
FIELD = r"(?:id|priority|blocked-by|owner|check|checked|evidence|state):[^;<>]*?"
META = re.compile(rf"[ \t]*<!--[ \t]*((?:{FIELD};[ \t]*)*(?:{FIELD}|active:.*?))[ \t]*-->[ \t]*$")


def split_meta_re(text: str) -> tuple[str, str | None, Meta]:
    if "<!--" not in text:
        return text.strip(), None, NO_META
    m = ACTIVE.search(text)
    if m is not None:
        return text[: m.start()].strip(), m.group(1).strip(), NO_META
    m = META.search(text)
    if m is None:
        return text.strip(), None, NO_META
    fields: dict[str, str] = {}
    active = None
    for part in m.group(1).split(";"):
        key, _, value = part.partition(":")
        key = key.strip()
        if key == "active":
            active = m.group(1).split("active:", 1)[1].strip()
            break
        if key in fields:
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
    return text[: m.start()].strip(), active, meta


# Comments are made of the pieces the patterns care about, in any order and number.
PIECES = st.sampled_from(
    [" ", "\t", "\n", "\r", "\u2028", "<!--", "<!-- ", "-->", "--> ", "-", ">", "<", ";", "; ",
     ",", ":", "active:", " active: ", "active", "id:", "id: 3", "priority:", "blocked-by:",
     "owner:", "check:", "checked:", "evidence:", "state:", "idx:", "x", "Do it", "é", "%3B",
     "%", "\x1b"]
)  # fmt: skip
COMMENTS = st.lists(PIECES, max_size=14).map("".join)


@settings(max_examples=5000)
@given(COMMENTS)
def test_split_meta(text: str) -> None:
    assert split_meta(text) == split_meta_re(text)


@settings(max_examples=2000)
@given(
    st.text(max_size=10),
    st.one_of(st.none(), st.text(max_size=10)),
    st.one_of(st.none(), st.text(st.characters(blacklist_characters="\n"), min_size=1)),
    st.lists(st.text(min_size=1, max_size=4), max_size=3).map(tuple),
    st.one_of(st.none(), st.text(min_size=1, max_size=6)),
)
def test_split_meta_written(
    content: str, active: str | None, task_id: str | None, after: tuple[str, ...], owner: str | None
) -> None:
    """Comments as the tool writes them (any text in them), and arbitrary text."""
    text = content + meta_comment(active, Meta(task_id, None, after, owner))
    assert split_meta(text) == split_meta_re(text)
    assert split_meta(content) == split_meta_re(content)
