"""A write taken back: what a write that failed, or a killed writer, staged and
left goes by its journal (``commit`` calls ``abandon`` when a step fails;
``recovery`` settles a killed writer's the same way). A person's save that a swap
parked beside the list is put back, or kept aside as a revision, never removed
unseen. Only a write that fails, or a call that finds a killed writer's journal,
loads this module.
"""

from __future__ import annotations

import os

from todocli.base import TYPE_CHECKING
from todocli.errors import TodoError
from todocli.storage.files import (
    ENCODING_ERRORS,
    atomic_write,
    kill_point,
    make_dir,
    remove,
    stat_signature,
    temp_path,
)

if TYPE_CHECKING:
    from todocli.storage.commit import Journal
    from todocli.storage.store import Store


def abandon(store: Store, job: Journal, text: str) -> None:
    """A step failed: what the journal names is taken back. An editor that saved
    twice in the swap's window leaves its older save under the temporary name (see
    ``files._swap_in``): the newer one is kept."""
    target = os.path.realpath(store.loc.list_file)
    tmp = temp_path(target, job.tag)
    parked, aside = put_back_parked(store, tmp, target, text)
    undone = take_back(store, job)
    if aside:
        parked = keep_aside(store, tmp, target)
    if undone and parked:
        remove(store.journal_file)


def take_back(store: Store, job: Journal) -> bool:
    """The list did not land: the staged files go, and each log is cut back to
    its length before; whether all of it was done."""
    done = True
    for staged, _ in job.staged(store):
        remove(staged)
        remove(temp_path(staged, job.tag))
        kill_point("drop")
    for size, path in job.appends:
        try:
            if size < 0:
                os.unlink(path)  # the write made it: not even an empty file stays
            elif os.stat(path).st_size > size:
                os.truncate(path, size)
        except FileNotFoundError:
            pass
        except OSError:
            done = False
        kill_point("cut")
    return done


def put_back_parked(
    store: Store, tmp: str, target: str, new: str | None, made: bool = True
) -> tuple[bool, bool]:
    """The killed writer's temporary file beside the list, if it is still there:
    its own (it holds the text being written, or, not ``made`` whole yet, part
    of it) is removed; anything else is the person's save a swap parked there
    (a swap comes only after the file was made), and it goes back to the list,
    unless the list holds a newer file (their later save, as ``files._swap_in``
    leaves it, or another home's write). Returns whether that was done, and
    whether the parked save is still to be kept aside (``keep_aside``, once the
    journal's revisions are settled): it is never removed unseen."""
    if not os.path.lexists(tmp):
        return True, False
    if not made or (new is not None and store._kept(tmp) == new):
        remove(tmp)
        return True, False
    ours = new is not None and store._kept(target) == new
    now = stat_signature(target)
    try:
        if not (ours or now is None or os.lstat(tmp).st_mtime_ns > now[3]):
            return True, True  # the list holds a newer file
        os.replace(tmp, target)
    except OSError:
        return False, False  # the journal stays: the next call tries again
    kill_point("put-back")
    return True, False


def keep_aside(store: Store, tmp: str, target: str) -> bool:
    """A person's save parked at ``tmp`` that the list no longer holds (it holds
    a newer file): kept as the next revision, marked as by hand, so ``todo
    history`` lists it and ``todo undo`` brings it back; the call says so on
    stderr. Whether it was done (if not, the journal stays: the next call tries
    again). A save too big to read stays where it is."""
    text = store._kept(tmp)
    if text is None:
        return True
    rev = store.rev() + 1
    try:
        make_dir(store.revs_dir)
        atomic_write(store.hand_path(rev), "", False)  # the mark first: a kill
        atomic_write(store.revision_path(rev), text, False)  # between: the same rev
    except TodoError:
        return False
    kill_point("keep")
    remove(tmp)
    todo = command(store)
    os.write(
        2,
        f"todo: a save of {target} that a killed write had set aside is kept as "
        f"revision #{rev}, by hand: the list holds a newer file "
        f"(see: {todo} history; get it back with: {todo} undo)\n".encode("utf-8", ENCODING_ERRORS),
    )
    return True


def command(store: Store) -> str:
    """``todo`` with the options that reach this very list and its history from
    any shell (the home holds the history; a list is a session or a file)."""
    import shlex  # imports re: only a kept-aside save's message needs it

    loc = store.loc
    where = f"--session {shlex.quote(loc.session)}" if loc.is_session else "--file"
    where = where if loc.is_session else f"--file {shlex.quote(loc.list_file)}"
    return f"todo --home {shlex.quote(loc.home)} {where}"
