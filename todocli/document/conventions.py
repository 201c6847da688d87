"""Each list in its own convention: which markers a file's tool knows, and what
they mean there (docs/file-format.md, "Other tools' files").

A file is todo's own when it uses a marker only todo writes (``[/]``, ``[>]``,
``[!]``), when todo wrote it whole (its canonical form) or when it is a session
list; todo then writes all of its markers. Any other file gets only the markers
it already uses, read in its tool's meaning: where none shows a status (a task in
progress in a spec-kit file), the task keeps ``[ ]`` (or ``[x]`` for one
abandoned) and its trailing comment, hidden where markdown is rendered, keeps the
status: ``<!-- state: in_progress -->``.

What a marker means depends on the tool: Kiro's ``[-]`` is a task in progress,
GSD's and Gemini Conductor's ``[~]`` one under way (code-complete, its check
pending), where todo reads both as abandoned. The tool is the one a line
``<!-- todo-convention: NAME -->`` names, else the one the file's own marks show
(Kiro's ``_Requirements:`` lines beside ``[-]``; ``[~]`` in a file that uses
none of todo's own markers nor ``[-]``). Loaded only for such a file, or for a
write whose status the file has no marker for.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING
from todocli.document.model import MARKER_STATUS, Status
from todocli.document.segments import TaskNode

if TYPE_CHECKING:
    from todocli.document.markdown import Document

DECLARED = "todo-convention:"

# What each tool's markers mean where they differ from todo's.
READS: dict[str, dict[str, Status]] = {
    "todo": {},
    "gfm": {},
    "kiro": {"-": Status.IN_PROGRESS},
    "gsd": {"~": Status.IN_PROGRESS},
}
# Other names a person may state a convention by.
ALIASES = {
    "github": "gfm",
    "spec-kit": "gfm",
    "speckit": "gfm",
    "openspec": "gfm",
    "conductor": "gsd",
}


def declared(text: str, warnings: list[str]) -> str | None:
    """The convention a ``<!-- todo-convention: NAME -->`` line names, if any (a
    name todo does not know is said in ``warnings``)."""
    at = text.find(DECLARED)
    while at >= 0:
        close = text.find("-->", at)
        line_start = text.rfind("\n", 0, at) + 1
        if close >= 0 and text[line_start:at].strip(" \t") == "<!--":
            given = text[at + len(DECLARED) : close].strip(" \t")
            name = ALIASES.get(given.lower(), given.lower())
            if name in READS:
                return name
            warnings.append(
                f"Line {text.count(chr(10), 0, at) + 1}: unknown convention {given[:40]!r} "
                f"(use {', '.join(READS)})"
            )
        at = text.find(DECLARED, at + 1)
    return None


def detect(doc: Document, text: str) -> str:
    """The convention a file's own marks show (see the module's docstring)."""
    if "-" in doc.markers and "_Requirements:" in text:
        return "kiro"
    if "~" in doc.markers and "-" not in doc.markers:
        return "gsd"
    return "todo" if doc.own else "gfm"


def read(doc: Document, text: str) -> None:
    """Read the tasks' markers in the file's convention (``parse`` calls it for a
    file that states one, or uses ``[-]`` or ``[~]`` and none of todo's own)."""
    name = declared(text, doc.warnings) or detect(doc, text)
    if name == "todo":
        doc.own = True
        return
    if name == "gfm":
        doc.own = False
        return
    reads = READS[name]
    doc.reads = MARKER_STATUS | reads
    for seg in doc.segments():
        if isinstance(seg, TaskNode):
            char = seg.lines[0][seg.marker_pos : seg.marker_pos + seg.marker_len]
            status = reads.get(char)
            if status is not None:
                seg.status = status


def marker_for(doc: Document, status: Status) -> tuple[str, str | None]:
    """The marker this file writes for a status, and the state its comment keeps
    when no marker of the file shows it (None: the marker does)."""
    markers = doc.markers
    ticked = "X" if markers.get("X", 0) > markers.get("x", 0) else "x"
    if doc.reads is None and not doc.own and doc.is_canonical():
        doc.own = True  # todo wrote it whole: its own list
    if doc.own and doc.reads is None:
        return (ticked if status is Status.COMPLETED else status.marker), None
    reads = doc.reads or MARKER_STATUS
    used = [c for c in markers if c.strip() and reads.get(c) is status]
    if status is Status.PENDING:
        return " ", None
    if status is Status.COMPLETED:
        return ticked, None
    if used:
        return max(used, key=markers.__getitem__), None
    return (" " if status.is_open else ticked), status.value
