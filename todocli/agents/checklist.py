"""Checklists in a string, as several agent tools send their lists (Cline's
``task_progress``, Goose, Roo, Droid, Continue) and ``todo apply --markdown``:
one task a line, read with the tool's own markers."""

from __future__ import annotations

from todocli.agents.parsed import Parsed
from todocli.document.model import Status
from todocli.engine.dialects import InputError

# The markers most checklist tools share.
CHECKLIST = {" ": Status.PENDING, "": Status.PENDING, "x": Status.COMPLETED, "X": Status.COMPLETED}
CHECKLIST |= {"/": Status.IN_PROGRESS, ">": Status.IN_PROGRESS, "-": Status.ABANDONED}
CHECKLIST |= {"~": Status.ABANDONED, "!": Status.BLOCKED}


def lines(text: str, key: str, markers: dict[str, Status], dialect: str) -> Parsed:
    """A checklist in a string, read with its tool's markers: one task a line.
    Lines that hold no item are not kept, and each is reported as a warning. A
    fenced code block is code, as markdown reads it (``todo apply --markdown``):
    its lines are not read, and one warning says so."""
    from todocli.engine.snapshot import Item

    items: list[Item] = []
    warnings: list[str] = []
    in_comment = False
    fence = ""  # the open code fence (``` or ~~~, as long as it was), if any
    fenced_from = 0
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if fence:
            if line.startswith(fence) and not line.strip(fence[0]):
                fence = ""
                warnings.append(f"{key}: lines {fenced_from}-{n} are a code block, not read")
            continue
        opening = _fence_at(line)
        if opening and not in_comment:
            fence, fenced_from = opening, n
            continue
        if in_comment or line.startswith("<!--"):
            in_comment = "-->" not in line
            continue
        if not line:
            continue
        found = _checklist_line(line, markers)
        if found is None:
            warnings.append(f"{key}: line {n} is not a checklist item, ignored: {line[:60]}")
            continue
        status, content = found
        if status is None:
            warnings.append(f"{key}: line {n}: unknown status marker, read as pending")
            status = Status.PENDING
        items.append(Item(content, status, path=key, key=key, keep_active_form=True))
    if fence:  # never closed: code to the end, as markdown reads it
        warnings.append(f"{key}: lines {fenced_from}- are a code block (never closed), not read")
    if not items and text.strip():
        raise InputError(
            f'{key}: no checklist item in the text: send lines like "- [ ] task" '
            "(an empty list is cleared only by an empty string)"
        )
    return Parsed(dialect, items, warnings=warnings)


def _fence_at(line: str) -> str:
    """The code fence a (stripped) line opens: 3 or more backticks or tildes (a
    backtick fence's info string holds no backtick), else ""."""
    mark = line[:1]
    if mark not in ("`", "~"):
        return ""
    size = len(line) - len(line.lstrip(mark))
    if size < 3 or (mark == "`" and "`" in line[size:]):
        return ""
    return line[:size]


_WORDS = {"pending": Status.PENDING, "in_progress": Status.IN_PROGRESS}
_WORDS |= {"completed": Status.COMPLETED, "cancelled": Status.ABANDONED}


def _checklist_line(line: str, markers: dict[str, Status]) -> tuple[Status | None, str] | None:
    """``- [x] text``, ``[-] text``, ``1. [completed] text`` → status, text."""
    rest = line
    if rest[:1] in "-*+" and rest[1:2] in (" ", "["):
        rest = rest[1:].lstrip()
    else:
        digits = len(rest) - len(rest.lstrip("0123456789"))
        if digits and rest[digits : digits + 1] in (".", ")"):
            rest = rest[digits + 1 :].lstrip()
    if not rest.startswith("["):
        return None
    close = rest.find("]")
    if close < 0:
        return None
    inner, content = rest[1:close].strip(), rest[close + 1 :].strip()
    if not content:
        return None
    if inner in markers or (inner == "" and " " in markers):
        return markers.get(inner, Status.PENDING), content
    word = inner.lower().replace("-", "_")
    if word in _WORDS:
        return _WORDS[word], content
    return None, content
