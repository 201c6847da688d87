"""HTML blocks, per CommonMark's seven kinds: whether one starts on a line, and
what ends it. Most lists hold no HTML: the scanner imports this module only when a
line starts with ``<`` (``tests/test_startup.py`` keeps it off the agent path),
and the patterns are compiled then.
"""

from __future__ import annotations

import re

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


KIND1 = re.compile(r"<(?:script|pre|style|textarea)(?:[ \t>]|$)", re.IGNORECASE)
KIND1_END = re.compile(r"</(?:script|pre|style|textarea)>", re.IGNORECASE)
KIND6 = re.compile(r"</?([A-Za-z][A-Za-z0-9]*)(?:[ \t]|/?>|$)")
KIND7 = re.compile(
    rf"(?:<[A-Za-z][A-Za-z0-9-]*{_ATTR}*[ \t]*/?>|</[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$"
)
ENDS = (
    ("<!--", re.compile(r"-->")),
    ("<?", re.compile(r"\?>")),
    ("<![CDATA[", re.compile(r"\]\]>")),
)
KIND4_END = re.compile(">")
_CLOSERS = (("<!--", "-->"), ("<?", "?>"), ("<![CDATA[", "]]>"))


def html_start(rest: str, in_paragraph: bool) -> tuple[bool, re.Pattern[str] | None]:
    """Whether an HTML block starts here, and the pattern that ends it
    (None: it ends at a blank line), per CommonMark's seven kinds."""
    if KIND1.match(rest):
        return True, KIND1_END
    for opener, closer in ENDS:
        if rest.startswith(opener):
            return True, closer
    if len(rest) > 2 and rest[1] == "!" and rest[2].isascii() and rest[2].isalpha():
        return True, KIND4_END
    m = KIND6.match(rest)
    if m and m.group(1).lower() in _HTML_BLOCK_TAGS:
        return True, None
    if not in_paragraph and KIND7.match(rest):
        return True, None
    return False, None


def html_closer(rest: str) -> str:
    """A line that ends the HTML block ``rest`` starts (written after a block the
    file leaves open at its end)."""
    m = re.match(r"<(script|pre|style|textarea)", rest, re.IGNORECASE)
    if m:
        return f"</{m.group(1)}>"
    for opener, closer in _CLOSERS:
        if rest.startswith(opener):
            return closer
    return ">"
