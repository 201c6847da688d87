"""``todo merge-driver``: git's merge driver for list files.

git runs it as ``todo merge-driver %O %A %B %P --marker-size %L`` (see
``gitrepo.DRIVER``) with three temporary files: the common ancestor's version, ours
and theirs. The merge is written over ours; the exit status is 0 for a clean merge
and 1 when tasks conflict (gitattributes(5), "Defining a custom merge driver").
The bytes are read and written as they are: text that is not UTF-8 goes through
unchanged (surrogate escapes).
"""

from __future__ import annotations

from todocli.app.report import Report
from todocli.errors import StorageError
from todocli.escapes import one_line


def _read(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8", "surrogateescape")
    except OSError as exc:
        raise StorageError(f"merge-driver: cannot read {path}: {exc.strerror}") from None


def merge_driver(
    base: str, ours: str, theirs: str, path: str | None, *, marker_size: int = 7
) -> Report:
    """Merge the three versions into ``ours``. ``data``: ``conflicts`` (tasks marked),
    ``renumbered`` (their ids given a new one), ``split`` (a task that shared its id
    with another of its side, given a new one: side, id, new id, text), ``messages``
    (lines for stderr)."""
    from todocli.engine.filemerge import merge_files

    texts = [_read(p) for p in (base, ours, theirs)]
    merged = merge_files(*texts, marker_size=max(1, marker_size))
    data = merged.text.encode("utf-8", "surrogateescape")
    try:
        with open(ours, "wb") as handle:
            handle.write(data)
    except OSError as exc:
        raise StorageError(f"merge-driver: cannot write {ours}: {exc.strerror}") from None
    # A branch's text reaches the person's terminal here: its control characters
    # (ESC sequences that retitle the window or erase lines) are shown as escapes.

    name = one_line(path or "the list")
    messages = [
        f"todo merge-driver: {name}: {side} held two tasks with id {one_line(old)}: "
        f'"{one_line(text)}" is now {one_line(new)}'
        for side, old, new, text in merged.split
    ]
    messages += [
        f"todo merge-driver: {name}: their task id {one_line(old)} is now {one_line(new)} "
        f"(both sides added an id {one_line(old)})"
        for old, new in merged.renumbered
    ]
    if merged.conflicts:
        many = "tasks were" if merged.conflicts > 1 else "task was"
        messages.append(
            f"todo merge-driver: {name}: {merged.conflicts} {many} changed on both sides: "
            "marked between <<<<<<< and >>>>>>>; keep one side of each and remove the markers"
        )
    return Report(
        {
            "conflicts": merged.conflicts,
            "renumbered": [list(pair) for pair in merged.renumbered],
            "split": [list(four) for four in merged.split],
            "messages": messages,
        },
        "\n".join(messages),
    )
