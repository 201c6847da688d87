"""A write's commit: its journal, the files it stages, the list, and then the
staged files in their places (``Store.commit`` calls it with the lock held).

Before its first step, the writer records in ``journal`` (in the list's state
folder) what it is about to do: the revision it makes, the files it stages beside
their places (the revision copy ``NNNNNNNN.md.pending``, the state, agents' view
records), the logs it appends to and their length before, and the tag its
temporary files carry. Then the staged files and the log, and the list last (the
journal notes when the list's temporary file is made); once the list is replaced,
the staged files are renamed into place and the journal removed. A write that
fails is taken back by the same journal, so exit 6 always means nothing changed;
a writer killed at any step is settled by the next call (``recovery``). Only a
write loads this module.
"""

from __future__ import annotations

import os
import stat

from todocli.base import TYPE_CHECKING
from todocli.errors import StorageError
from todocli.storage.files import (
    ENCODING_ERRORS,
    PENDING,
    RACY_NS,
    TEMP_SUFFIX,
    ListChangedError,
    atomic_write,
    kill_point,
    kind_of,
    make_dir,
    not_regular,
    reason,
    remove,
    signature,
    stat_signature,
    stop_point,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from todocli.storage.store import Store

JOURNAL_HEAD = "todo journal 1"
# Appended after "end" once the list's temporary file is made (``temp_made``).
TEMP_MARK = "temp\n"


def _kind(path: str) -> str | None:
    """What is at ``path`` when it is there and not a regular file (see ``kind_of``)."""
    try:
        return kind_of(os.lstat(path).st_mode)
    except OSError:
        return None


def _size(path: str) -> int:
    """A file's length (-1: there is none)."""
    try:
        return os.stat(path).st_size
    except OSError:
        return -1


def _escaped(path: str) -> str:
    return path.replace("\\", "\\\\").replace("\n", "\\n")


def _unescaped(text: str) -> str:
    return text.replace("\\\\", "\0").replace("\\n", "\n").replace("\0", "\\")


def file_id(signature: tuple[int, int, int, int] | None) -> str:
    """Which file a signature is (device and inode), "-" for none: for ``Journal.was``."""
    return "-" if signature is None else f"{signature[0]}:{signature[1]}"


class Journal:
    """What a write is about to do (see the module's docstring): the tag of its
    temporary files, the revision it makes, the agents' views it stages, whether
    it stages the state, forgets every view or records the list as a person left it
    (``hand``: the revision before its own), the files it appends to with their
    length before, and which file the list was before it (``was``: device and
    inode, "-" for none, "" unknown); or (``gc``) that the list is being removed."""

    __slots__ = (
        "appends",
        "forget",
        "gc",
        "hand",
        "rev",
        "state",
        "tag",
        "temp",
        "views",
        "was",
    )

    def __init__(
        self,
        tag: str = "",
        rev: int = 0,
        views: Sequence[str] = (),
        state: bool = False,
        forget: bool = False,
        appends: Sequence[tuple[int, str]] = (),
        gc: bool = False,
        hand: bool = False,
        was: str = "",
        temp: bool = False,
    ) -> None:
        self.tag, self.rev, self.views, self.state = tag, rev, list(views), state
        self.forget, self.appends, self.gc, self.hand = forget, list(appends), gc, hand
        self.was, self.temp = was, temp

    def text(self) -> str:
        lines = [JOURNAL_HEAD]
        if self.gc:
            lines.append("gc")
        else:
            lines += [f"tag {self.tag}", f"rev {self.rev}"]
            lines += [f"view {_escaped(name)}" for name in self.views]
            lines += ["state"] * self.state + ["forget"] * self.forget + ["hand"] * self.hand
            lines += [f"append {size} {_escaped(path)}" for size, path in self.appends]
            lines += [f"was {self.was}"] * bool(self.was)
        return "\n".join([*lines, "end"]) + "\n"

    def staged(self, store: Store) -> list[tuple[str, str]]:
        """The files this write stages, each as (staged path, its place)."""
        final = store.revision_path(self.rev)
        moves = [(final + PENDING, final)]
        if self.hand:  # the list as the write found it: the revision before, by hand
            for place in (store.revision_path(self.rev - 1), store.hand_path(self.rev - 1)):
                moves.append((place + PENDING, place))
        for name in self.views:
            place = os.path.join(store.views_dir, name)
            moves.append((place + PENDING, place))
        if self.state:
            moves.append((store.state_file + PENDING, store.state_file))
        return moves

    @classmethod
    def parse(cls, text: str) -> Journal | None:
        """The journal ``text`` holds; None when it is not whole (its writer was killed
        while writing it)."""
        temp = text.endswith(TEMP_MARK)
        lines = text[: -len(TEMP_MARK) if temp else None].split("\n")
        if lines[:1] != [JOURNAL_HEAD] or lines[-2:] != ["end", ""]:
            return None
        job = cls(temp=temp)
        for line in lines[1:-2]:
            key, _, value = line.partition(" ")
            if key == "gc":
                job.gc = True
            elif key == "tag" and value.isascii() and value.isalnum():
                job.tag = value  # a part of a file name: nothing else is taken
            elif key == "rev" and value.isdigit():
                job.rev = int(value)
            elif key == "was":
                job.was = value
            elif key == "view":
                job.views.append(_unescaped(value))
            elif key in ("state", "forget", "hand"):
                setattr(job, key, True)
            elif key == "append":
                size, _, path = value.partition(" ")
                length = int(size) if size.lstrip("-").isdigit() else -1
                job.appends.append((length, _unescaped(path)))
        if not job.gc and (not job.tag or not job.rev):
            return None
        return job


def commit(
    store: Store,
    text: str | None,
    state: dict[str, Any] | None = None,
    steps: Sequence[Callable[[], Callable[[], None]]] = (),
    person_near: bool = False,
    hand: str | None = None,
    by: tuple[str, str | None] = ("todo", None),
) -> int:
    """``Store.commit``: write the list as the next revision; return the list's
    revision after (see there). ``by``: the command that writes it and its agent,
    recorded beside it once the list has landed (see ``record_by``)."""
    if os.path.lexists(store.journal_file):
        store.recover()  # a killed writer's, if ``read`` did not settle it
    names = store._names()
    revs = sorted(int(n[:-3]) for n in names if n.endswith(".md") and n[:-3].isdigit())
    rev = revs[-1] if revs else 0
    views, appends, forget = store._pending_views, store._appends, store._forget
    store._reset()
    sweep(store.revs_dir, names)
    sweep(store.views_dir)
    if text is None:
        return commit_state(store, rev, state, steps)
    if store.loc.project:
        store._check_plan()
    job = Journal(
        os.urandom(6).hex(),
        rev + 1 + (hand is not None),
        [os.path.basename(path) for path, _ in views],
        bool(state),
        forget,
        [(_size(path), path) for path in appends],
        hand=hand is not None,
        was=file_id(stat_signature(store.loc.list_file)),
    )
    make_dir(store.revs_dir)
    write_journal(store, job)
    kill_point("journal")
    undo: list[Callable[[], None]] = []
    try:
        stage(store, job, text, hand, views)
        for step in steps:
            undo.append(step())
            kill_point("step")
        if state:
            stage_state(store, state, job.tag)
        replace_list(store, job, text, person_near)
    except BaseException:
        for back in reversed(undo):
            back()
        from todocli.storage.takeback import abandon  # only a write that fails

        abandon(store, job, text)
        raise
    if finish(store, job):
        remove(store.journal_file)
    record_by(store, job.rev, by)
    store.prune(revs, job.rev - rev)
    return job.rev


def record_by(store: Store, rev: int, by: tuple[str, str | None]) -> None:
    """Which command wrote revision ``rev``, for the agent it wrote for: two lines
    beside its copy, written after the list landed (a writer killed before leaves
    none: the revision reads as todo's, command unknown). Bookkeeping: a failure
    to write it is not the write's. One open and one write, not a staged file:
    every write pays for it."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    flags |= getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(store.by_path(rev), flags, 0o600)
    except OSError:
        return
    try:
        os.write(fd, f"{by[0]}\n{by[1] or ''}\n".encode("utf-8", ENCODING_ERRORS))
    except OSError:
        pass
    finally:
        os.close(fd)


def stage(
    store: Store, job: Journal, text: str, hand: str | None, views: list[tuple[str, str]]
) -> None:
    """The revision copy (with the list as the write found it, when a person edited
    it: the revision before, marked as by hand) and the agents' view records, each
    staged beside its place."""
    if hand is not None:
        before = job.rev - 1
        atomic_write(store.revision_path(before) + PENDING, hand, False, tag=job.tag)
        atomic_write(store.hand_path(before) + PENDING, "", False, tag=job.tag)
    atomic_write(store.revision_path(job.rev) + PENDING, text, False, tag=job.tag)
    for path, record in views:
        if os.path.islink(path + PENDING):
            remove(path + PENDING)  # a record of ours, never written through a link
        make_dir(store.views_dir)
        atomic_write(path + PENDING, record, False, tag=job.tag)


def replace_list(store: Store, job: Journal, text: str, person_near: bool) -> None:
    """The list last. Compare before replace: a write never replaces bytes it has
    not read. The bytes are compared first; just before the replace, one stat."""
    if not store.unchanged():
        raise ListChangedError()
    seen, held = store._seen, hold_seen(store)
    try:
        atomic_write(
            store.loc.list_file,
            text,
            precondition=lambda: temp_made(store),
            replaced=store._replaced_was_seen if person_near else None,
            tag=job.tag,
            follow=True,
        )
        store._seen = (text, stat_signature(store.loc.list_file))
        stop_point("landed")
        if held >= 0:
            late_save(store, held, seen, job.tag)
    finally:
        if held >= 0:
            os.close(held)


def commit_state(
    store: Store,
    rev: int,
    state: dict[str, Any] | None,
    steps: Sequence[Callable[[], Callable[[], None]]],
) -> int:
    """``commit`` with no list: the steps and the state, each taken back if a
    later one fails."""
    undo: list[Callable[[], None]] = []
    try:
        for step in steps:
            undo.append(step())
        if state:
            undo.append(store.save_state(state))
    except BaseException:
        for back in reversed(undo):
            back()
        raise
    return rev


def sweep(folder: str, names: list[str] | None = None) -> None:
    """Remove what dead writers left in ``folder`` (revs/ or views/, written only
    with the lock held, which the caller holds, the journal settled): temporary
    files (one of a view record written with no list, say) and staged copies."""
    if names is None:
        try:
            names = os.listdir(folder)
        except OSError:
            return
    for name in names:
        if name.endswith((TEMP_SUFFIX, PENDING)):
            remove(os.path.join(folder, name))


def finish(store: Store, job: Journal) -> bool:
    """The list landed: the staged files take their places; whether all did."""
    done = True
    if job.forget:
        try:
            names = os.listdir(store.views_dir)
        except OSError:
            names = []
        for name in names:
            if name.endswith(".md") and name not in job.views:
                remove(os.path.join(store.views_dir, name))
    for staged, place in job.staged(store):
        try:
            os.replace(staged, place)
        except FileNotFoundError:
            pass  # in place already (a writer killed after it)
        except OSError:
            done = False  # the journal stays: the next call tries again
        kill_point("adopt")
    return done


def write_journal(store: Store, job: Journal) -> None:
    """Write the journal, before the first step it names. Created exclusively:
    one still there is a killed writer's that could not be settled, and no
    write goes on over it. (Not fsynced: it guards against a killed process,
    whose writes the system still makes.)"""
    data = job.text().encode("utf-8", ENCODING_ERRORS)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(store.journal_file, flags, 0o600)
    except FileExistsError:
        what = _kind(store.journal_file)
        if what is not None:  # nothing could read it: say what it is
            raise not_regular(store.journal_file, what, "write") from None
        raise StorageError(
            f"cannot write {store.journal_file}: a killed write's journal is there and "
            "could not be settled (see the message before; remove it to go on)"
        ) from None
    except OSError as exc:
        raise StorageError(f"cannot write {store.journal_file}: {reason(exc)}") from None
    try:
        written = 0
        while written < len(data):
            written += os.write(fd, data[written:])
    except OSError as exc:
        os.close(fd)
        remove(store.journal_file)
        raise StorageError(f"cannot write {store.journal_file}: {reason(exc)}") from None
    os.close(fd)


def temp_made(store: Store) -> None:
    """The list's temporary file is made: the journal says so (see ``recovery``),
    then the last look at the list before the replace."""
    try:
        fd = os.open(store.journal_file, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW)
    except OSError as exc:
        raise StorageError(f"cannot write {store.journal_file}: {reason(exc)}") from None
    try:
        os.write(fd, TEMP_MARK.encode())
    except OSError as exc:
        raise StorageError(f"cannot write {store.journal_file}: {reason(exc)}") from None
    finally:
        os.close(fd)
    kill_point("noted")
    store._still_seen()


def hold_seen(store: Store) -> int:
    """The list's file as ``read`` saw it, held open across the replace (see
    ``late_save``); -1 when there is none, or the name holds another file."""
    if store._seen is None or store._seen[1] is None:
        return -1
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(os.path.realpath(store.loc.list_file), flags)
    except OSError:
        return -1
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or signature(info) != store._seen[1]:
        os.close(fd)
        return -1
    return fd


def late_save(
    store: Store, held: int, seen: tuple[str, tuple[int, int, int, int] | None] | None, tag: str
) -> None:
    """After the replace: an editor that writes in place keeps its own handle on
    the file the write replaced, so a chunk of its save that lands after todo's
    last look goes to that file, no longer the list, and would be lost unseen.
    ``held`` is that file: if it no longer holds the bytes the write read
    (``seen``), they are the person's, and they go back to the list, and the
    write is done again on them (``ListChangedError``; the journal takes back
    everything else the write did). A chunk that lands after this look is not
    seen (see docs/reliability.md)."""
    if seen is None:
        return
    text, before = seen
    if before is None:
        return
    info = os.fstat(held)
    if signature(info) == before and before[3] + RACY_NS <= store._read_at:
        return  # the same size and a time that would show any later change
    chunks = []
    size = 0
    while size <= store.max_file_bytes:
        chunk = os.pread(held, 1 << 16, size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    late = b"".join(chunks).decode("utf-8", ENCODING_ERRORS)
    if late == text or not late.strip() or size > store.max_file_bytes:
        return  # (emptied: what the editor writes next goes there all the same)
    # The person's bytes go back only over todo's own file: a save that took
    # the list's name since is theirs too, and newer.
    ours = store._seen[1] if store._seen is not None else None
    if ours is not None and stat_signature(store.loc.list_file) == ours:
        atomic_write(store.loc.list_file, late, tag=tag, follow=True)
    raise ListChangedError()


def stage_state(store: Store, state: dict[str, Any], tag: str) -> None:
    import json

    state["list"] = store.loc.list_file
    text = json.dumps(state, indent=1, sort_keys=True) + "\n"
    atomic_write(store.state_file + PENDING, text, False, tag=tag)
