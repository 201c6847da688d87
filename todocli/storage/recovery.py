"""Settling what a killed writer left (see ``commit``): the next call of any kind
(``Store.read``) finds its journal and settles it before it reads the list.

If the list landed, the write is finished (staged files renamed into place); if
not, or if that cannot be told (the list is another file, a person's save by
rename, and the write's temporary file was never made), it is undone: nothing the
agent did not see is then taken as seen by it, so no task is lost (staged files
and temporary files removed, logs cut back to their length before). A person's
save that a swap had parked under the temporary name (see ``files.atomic_write``)
is put back first. So a log block is there exactly when its list landed, and no
temporary file outlives its writer. A list's removal (``delete``) is journaled
the same way. Only a call that finds a journal, or a write that fails, loads this
module.
"""

from __future__ import annotations

import os
import shutil

from todocli.base import TYPE_CHECKING
from todocli.errors import StorageError, TodoError
from todocli.storage.commit import Journal, file_id, finish, sweep, write_journal
from todocli.storage.files import (
    PENDING,
    kill_point,
    make_dir,
    read_text,
    reason,
    remove,
    stat_signature,
    temp_path,
)
from todocli.storage.takeback import keep_aside, put_back_parked, take_back

if TYPE_CHECKING:
    from todocli.storage.store import Store


def recover(store: Store, text: str | None = None) -> None:
    """Settle what a killed writer left (call with the lock held): finish its write
    if its list landed, undo it if not (see the module's docstring). ``read``
    calls it when there is a journal; ``text`` is not needed."""
    del text  # the journal says what to look at
    try:
        raw = read_text(store.journal_file)
    except TodoError:
        raw = None
    if not raw:
        if raw is not None:
            remove(store.journal_file)
        return
    job = Journal.parse(raw)
    if job is None:  # killed while writing the journal: no step after it was taken
        remove(store.journal_file)
    elif job.gc:
        settle_removal(store)
    elif _settle_job(store, job):
        remove(store.journal_file)


def _settle_job(store: Store, job: Journal) -> bool:
    """Finish or undo the write ``job`` describes; whether all of it was done."""
    target = os.path.realpath(store.loc.list_file)
    final = store.revision_path(job.rev)
    new = store._kept(final + PENDING)
    tmp = temp_path(target, job.tag)
    # The list was replaced when it is another file than before and the write's
    # temporary file, made (``job.temp``), is gone (it became the list): a person
    # may have edited it since, in place or by rename, so its content need not be
    # ``new`` any more. A temporary file never made is no sign: the other file is
    # then a person's save by rename, and the write did not land.
    replaced = bool(job.was) and file_id(stat_signature(target)) != job.was
    replaced = replaced and job.temp and not os.path.lexists(tmp)
    parked, aside = put_back_parked(store, tmp, target, new, made=job.temp)
    landed = os.path.exists(final) or replaced or (new is not None and store._kept(target) == new)
    done = finish(store, job) if landed else take_back(store, job)
    if aside:
        parked = keep_aside(store, tmp, target)
    sweep(store.revs_dir)
    sweep(store.views_dir)
    return parked and done


def delete(store: Store) -> None:
    """Remove the list and all kept beside it: revisions, state, views (call with
    the lock held; completion logs stay). Journaled too: a kill at any step is
    finished by the next call on this list, or by ``todo gc``."""
    if os.path.lexists(store.journal_file):
        recover(store)
    make_dir(store.loc.state_dir)
    write_journal(store, Journal(gc=True))
    kill_point("journal")
    try:
        os.unlink(store.loc.list_file)
    except FileNotFoundError:
        pass
    except OSError as exc:
        remove(store.journal_file)
        raise StorageError(f"cannot remove {store.loc.list_file}: {reason(exc)}") from None
    kill_point("unlink")
    settle_removal(store)


def settle_removal(store: Store) -> None:
    """A removal was under way: done if the list is gone (what is beside it goes
    too, the journal last), taken back if it is still there."""
    if os.path.lexists(store.loc.list_file):
        remove(store.journal_file)
        return
    folder = store.loc.state_dir
    try:
        names = os.listdir(folder)
    except OSError:
        names = []
    for name in names:
        path = os.path.join(folder, name)
        if name != "journal":
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                remove(path)
            kill_point("clear")
    remove(store.journal_file)
    try:  # noqa: SIM105 - contextlib would cost start-up for one suppress
        os.rmdir(folder)
    except OSError:
        pass
