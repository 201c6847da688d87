"""What todo keeps beside a list about who saw what: each agent's view, the
reminder's counter, the last failed call, and when a person last edited the list
by hand. Small files tied to a revision (a new write makes them stale without
touching them); each is bookkeeping, and a failure to keep one is not a call's.
"""

from __future__ import annotations

import os
import stat

from todocli.base import TYPE_CHECKING
from todocli.errors import TodoError
from todocli.storage.files import atomic_write, make_dir, now_ns, read_text, remove

if TYPE_CHECKING:
    from todocli.storage.store import Store

# A hand edit this recent makes every write swap the list in and check what it
# replaced (an editor may save again at any moment); otherwise a plain replace.
PERSON_NEAR_SECONDS = 600
# The first line of an agent's view file: "<!-- todo view: 12 -->" (the list revision
# 12 holds), or "<!-- todo view: list -->" followed by the list's markdown; a record
# that came with revision 12, or was made when the list was at 12, says so: "list 12".
_VIEW_HEADER = "<!-- todo view: "


def view_record(view: str | int, landing: int | None = None) -> str:
    """The text of a view file (see ``_VIEW_HEADER``)."""
    if isinstance(view, int):
        return f"{_VIEW_HEADER}{view} -->\n"
    return f"{_VIEW_HEADER}list{'' if landing is None else f' {landing}'} -->\n{view}"


def view_header(record: str) -> tuple[str, str]:
    """What a view file's first line says after ``todo view:`` (a revision number,
    ``list`` or ``list N``; empty when it is not one), and the rest of the file."""
    first, _, rest = record.partition("\n")
    if not first.startswith(_VIEW_HEADER) or not first.endswith(" -->"):
        return "", rest
    return first[len(_VIEW_HEADER) : -len(" -->")], rest


# -- the reminder ------------------------------------------------------------------------


def _words(path: str) -> list[str]:
    return read_text(path).split("\n")


def remind_counter(store: Store) -> tuple[int, int, str, str]:
    """The reminder's bookkeeping: the revision it counts for, rounds counted,
    the hand edit last told of (a hash) and the failure last told of (a token)."""
    parts = _words(store.remind_file)[0].split()
    if len(parts) == 4 and parts[0].isdigit() and parts[1].isdigit():
        return int(parts[0]), int(parts[1]), parts[2], parts[3]
    return -1, 0, "-", "-"


def save_remind_counter(store: Store, rev: int, rounds: int, hand_seen: str, told: str) -> None:
    make_dir(store.loc.state_dir)
    atomic_write(store.remind_file, f"{rev} {rounds} {hand_seen or '-'} {told or '-'}\n", False)


def restart_rounds(store: Store) -> None:
    """A successful call that wrote nothing still counts as the agent updating its
    list: the next round starts the count again. (Bookkeeping: a failure to
    record it is not the call's failure.)"""
    counted_at, _, hand_seen, told = remind_counter(store)
    if counted_at >= 0:
        try:  # noqa: SIM105 - contextlib would cost start-up for one suppress
            save_remind_counter(store, counted_at, 0, hand_seen, told)
        except TodoError:
            pass


def failed(store: Store) -> tuple[int, str, str] | None:
    """The last call's failure, as (revision it failed at, token, message)."""
    lines = _words(store.failed_file)
    if len(lines) >= 3 and lines[0].isdigit():
        return int(lines[0]), lines[1], lines[2]
    return None


def save_failed(store: Store, rev: int, message: str) -> None:
    """Remember a failed call for the reminder (best effort: the call has failed
    already, and saying so matters more than this note)."""
    token = os.urandom(4).hex()  # each failure is told of once, even at one revision
    try:
        make_dir(store.loc.state_dir)
        atomic_write(store.failed_file, f"{rev}\n{token}\n{message.replace(chr(10), ' ')}\n", False)
    except TodoError:
        pass


def clear_failed(store: Store) -> None:
    if os.path.exists(store.failed_file):
        remove(store.failed_file)


# -- a person at work on the list ---------------------------------------------------------


def saw_person(store: Store) -> None:
    """Note that a person edited the list by hand (its time is what counts)."""
    try:
        make_dir(store.loc.state_dir)
        # Non-blocking and not following a link: a FIFO or a link put there
        # must neither hang the write (it holds the lock) nor be written through.
        flags = os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(store.person_file, flags, 0o600)
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                os.utime(fd)
        finally:
            os.close(fd)
    except (OSError, TodoError):
        pass  # bookkeeping: the write goes on with the usual replace


def person_near(store: Store) -> bool:
    """Whether a person edited the list by hand in the last ``PERSON_NEAR_SECONDS``."""
    try:
        info = os.lstat(store.person_file)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and now_ns() - info.st_mtime_ns < PERSON_NEAR_SECONDS * 10**9


# -- what each agent has seen ------------------------------------------------------------
# A snapshot is merged with what its agent has seen (see engine.merge): the list as
# that agent knows it (its last snapshot, and the lists it read under its name
# since), one file per agent name. It removes only tasks this record holds; with
# no record, only tasks it sends. Most often that is exactly the list a revision
# holds (nobody else changed it), and the file says only which revision: no list
# to write now, none to read next time.


def view_path(store: Store, agent: str | None) -> str:
    name = "default.md" if agent is None else f"agent@{agent}.md"
    return os.path.join(store.views_dir, name)


def view(store: Store, agent: str | None) -> str | int | None:
    """What ``agent`` has seen (its last snapshot, and lists it read since): a
    list as markdown, or the number of the revision that holds exactly that
    list; None when none is on record."""
    text = store._kept(view_path(store, agent))
    store._view_read = (agent, text)
    if text is None:
        return None
    says, rest = view_header(text)
    if says == "list" or says.startswith("list "):
        return rest
    return int(says) if says.isdigit() else None


def save_view(
    store: Store,
    agent: str | None,
    view: str | int,
    landing: int | None = None,
    at: int | None = None,
) -> None:
    """Record what ``agent`` has seen (the snapshot it sent, or a list it read):
    its markdown, or the number of the revision that holds exactly that list.
    ``landing``: the revision the write under way makes; the record is then
    staged with it and becomes the agent's view only with the list (``commit``,
    or ``recover`` after a killed writer), never ahead of it or behind it.
    ``at``: the revision the list was at when the agent sent or read it (for a
    list recorded with no write: see ``view_rev``)."""
    path = view_path(store, agent)
    text = view_record(view, landing if landing is not None else at)
    if landing is not None:
        store._pending_views.append((path, text))
        return
    read = store._view_read
    if read is not None and read[0] == agent and read[1] == text:
        return
    if os.path.islink(path):
        remove(path)  # a record of ours, never written through a link
    make_dir(store.views_dir)
    atomic_write(path, text, False)


def view_rev(store: Store) -> int | None:
    """The revision the record ``view`` last read is as of: the one it names, or
    the one its list came with or was at; None when it does not say (a record
    written before records said)."""
    read = store._view_read
    if read is None or read[1] is None:
        return None
    says, _ = view_header(read[1])
    number = says[len("list ") :] if says.startswith("list ") else says
    return int(number) if number.isdigit() else None


def keep_views_of(store: Store, rev: int) -> None:
    """Before revision ``rev`` goes: an agent's view that names it gets the list
    itself (it is still what that agent's next snapshot is merged against)."""
    try:
        names = os.listdir(store.views_dir)
    except OSError:
        return
    pointer = view_record(rev)
    for name in names:
        path = os.path.join(store.views_dir, name)
        if name.endswith(".md") and store._kept(path) == pointer:
            text = store.revision(rev)
            if text is not None:
                put_back(path, view_record(text))


def put_back(path: str, text: str | None) -> None:
    try:
        if text is None:
            remove(path)
        else:
            atomic_write(path, text, False)
    except TodoError:
        pass
