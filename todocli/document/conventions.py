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
(Kiro's ``_Requirements:`` lines beside ``[-]`` or an optional ``- [ ]*`` item;
``[~]`` in a file that uses none of todo's own markers nor ``[-]``). Loaded only
for such a file, or for a write whose status the file has no marker for.

Kiro marks a task optional with a ``*`` right after its box (``- [ ]* 2.3 Write
unit tests``, ``- [x]*`` once done). GitHub renders no checkbox there, and the
scanner reads no task: in a Kiro file such an item is a task all the same, read
by scanning the text again with the ``*`` taken for a space (the same length, so
every column stays) and then put back; it keeps its ``*``, and nothing holds an
agent for it (``Task.is_due``).
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING
from todocli.document.blocks import Scanner
from todocli.document.lines import split_lines
from todocli.document.model import MARKER_STATUS, Status, Task
from todocli.document.segments import Builder, Segment, TaskNode

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


class OptionalTask(TaskNode):
    """A Kiro task marked optional (``- [ ]*``): listed and edited as any task,
    never required (not started by todo, not held for by the gate)."""

    __slots__ = ()
    optional = True

    def task(self) -> Task:
        return Task(
            self.content, self.status, self.active_form, tuple(self.notes), self.meta, optional=True
        )


def optional_at(line: str) -> int:
    """Where the ``*`` of a Kiro optional item's box (``- [ ]* ...``) is on a line,
    or -1. Only its shape: whether it is a list item at all, the scanner says."""
    at = line.find("]*")
    if at < 2 or line[at - 2] != "[" or line[at + 2 : at + 3] not in (" ", "\t"):
        return -1
    lead = line[: at - 2]
    bullet = lead.rstrip(" \t")
    if len(bullet) == len(lead):
        return -1  # the box must stand apart from the bullet
    bullet = bullet.lstrip(" \t>")
    if bullet in ("-", "*", "+") or (bullet[-1:] in (".", ")") and bullet[:-1].isdigit()):
        return at + 1
    return -1


def _starred(text: str) -> dict[int, str]:
    """The lines (by index) shaped as Kiro's optional items."""
    if "]*" not in text:
        return {}
    return {i: line for i, line in enumerate(split_lines(text)) if optional_at(line) >= 0}


def detect(doc: Document, text: str, starred: dict[int, str]) -> str:
    """The convention a file's own marks show (see the module's docstring);
    ``starred``: the lines shaped as Kiro's optional items."""
    if "_Requirements:" in text and ("-" in doc.markers or starred):
        return "kiro"
    if "~" in doc.markers and "-" not in doc.markers:
        return "gsd"
    return "todo" if doc.own else "gfm"


def read(doc: Document, text: str) -> None:
    """Read the tasks' markers in the file's convention (``parse`` calls it for a
    file that states one, or uses ``[-]``, ``[~]`` or ``]*`` and none of todo's own)."""
    warned: list[str] = []
    starred = _starred(text)
    name = declared(text, warned) or detect(doc, text, starred)
    if name == "kiro" and starred:
        _read_optional(doc, text, starred)
    doc.warnings += warned
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


def _read_optional(doc: Document, text: str, starred: dict[int, str]) -> None:
    """Read the document again with each optional item's ``*`` taken for a space,
    so the scanner finds the task item and the lines it owns; then put every such
    line back as written, and make the items found tasks ``OptionalTask``."""
    lines = split_lines(text)
    for i, line in starred.items():
        at = optional_at(line)
        lines[i] = line[:at] + " " + line[at + 1 :]
    head = Segment([])
    built = Builder(lines, Scanner().scan(lines), head)
    built.build()
    i = 0
    seg = head.next
    while seg is not None:
        first = i
        for j in range(len(seg.lines)):
            if i + j in starred:
                seg.lines[j] = starred[i + j]
        i += len(seg.lines)
        if isinstance(seg, TaskNode) and first in starred:
            seg = _as_optional(seg)
        if seg.next is None:
            built.tail = seg
        seg = seg.next
    doc.head.next = head.next
    if head.next is not None:
        head.next.prev = doc.head
    doc.tail = built.tail if built.tail is not head else doc.head
    doc.front_matter, doc.warnings, doc.markers = built.front_matter, built.warnings, built.markers


def _as_optional(node: TaskNode) -> OptionalTask:
    """The same task item as an ``OptionalTask``, in its place in the list."""
    new = OptionalTask(node.lines)
    for name in TaskNode.__slots__:
        setattr(new, name, getattr(node, name))
    new.prev, new.next = node.prev, node.next
    if node.prev is not None:
        node.prev.next = new
    if node.next is not None:
        node.next.prev = new
    return new


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
