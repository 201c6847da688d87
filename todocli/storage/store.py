"""Storage: the lock, revisions and the state kept beside a list.

Everything but the list itself lives under the home (``Locations.state_dir``), so a
``--file TODO.md`` in a person's project gets no lock or history files next to it.
The files themselves are read and written by ``files`` (regular files only, bounded
reads, atomic replaces). A list that is a symlink stays one: the write goes to its
target.

A write is a transaction with a journal. Before its first step, the writer
records in ``journal`` (in the list's state folder) what it is about to do: the
revision it makes, the files it stages beside their places (the revision copy
``NNNNNNNN.md.pending``, the state, agents' view records), the logs it appends to
and their length before, and the tag its temporary files carry. Then the staged
files and the log, and the list last (the journal notes when the list's temporary
file is made); once the list is replaced, the staged files are renamed into place
and the journal removed. A write that fails is taken back
by the same journal, so exit 6 always means nothing changed.

A writer killed at any step leaves the journal, and the next call of any kind
(``read``) settles it before it reads the list: if the list landed, the write is
finished (staged files renamed into place); if not, or if that cannot be told
(the list is another file, a person's save by rename, and the write's temporary
file was never made), it is undone: nothing the agent did not see is then taken
as seen by it, so no task is lost (staged files
and temporary files removed, logs cut back to their length before). A person's
save that a swap had parked under the temporary name (see ``files.atomic_write``)
is put back first. So a log block is there exactly when its list landed, and no
temporary file outlives its writer.
"""

from __future__ import annotations

import os
import stat
import time

from todocli.errors import BusyError, ConflictError, StorageError, TodoError
from todocli.storage.files import (
    ENCODING_ERRORS,
    TEMP_SUFFIX,
    atomic_write,
    kill_point,
    kind_of,
    make_dir,
    not_regular,
    read_bytes,
    read_text,
    read_with_stat,
    reason,
    remove,
    signature,
    stat_signature,
    stop_point,
    temp_path,
)
from todocli.storage.paths import check_private_dir, plan_outside

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from types import TracebackType
    from typing import Any

    from todocli.storage.paths import Locations

KEEP_REVISIONS = 100  # `todo history` promises at least 50
# A file read less than this after its last change is compared by its bytes, not by
# its time: a file system with 1-second timestamps gives a second save within the
# same second the time of the first (see ``Store._holds``).
RACY_NS = 1_000_000_000
# A save is taken as finished once todo has seen the list unchanged (size, time,
# inode and bytes) for this long: longer than an editor's pause between the chunks
# of one save (300 ms in issue 32's reproduction). Measured by todo's own clock,
# never by the file's time, which a coarse file system rounds.
SETTLE_QUIET_NS = 500_000_000  # the default of the setting save_pause
SETTLE_MAX = 2.0  # seconds to wait at most for a save to finish, or an emptied list to fill
SETTLE_POLL = 0.02
CHANGE_POLL_SECONDS = 0.2  # how often `todo watch` and the MCP server look for a change
CONSISTENT_TRIES = 10
# A hand edit this recent makes every write swap the list in and check what it
# replaced (an editor may save again at any moment); otherwise a plain replace.
PERSON_NEAR_SECONDS = 600
LOCK_POLL_SECONDS = 0.01


def pause(seconds: float) -> None:
    """Wait a moment for a save under way (a seam: tests make an editor's save land
    while a reader waits here)."""
    time.sleep(seconds)


def latest(mtime_ns: int) -> int:
    """The latest moment a file with this modification time can have changed: a
    whole second may be a file system's 1-second timestamp, the change anywhere
    within that second; an even one FAT's 2-second timestamp."""
    if mtime_ns % (2 * RACY_NS) == 0:
        return mtime_ns + 2 * RACY_NS
    return mtime_ns + RACY_NS if mtime_ns % RACY_NS == 0 else mtime_ns


class ListChangedError(ConflictError):
    """The list changed on disk between reading it and replacing it (an editor saved
    it, or a writer that does not share the lock): the write must be done again."""

    def __init__(self) -> None:
        super().__init__(
            "the list changed on disk while it was being written (an editor saving it?); "
            "nothing was written: try again"
        )


DEFAULT_MAX_FILE_BYTES = 4 * 1024 * 1024
PENDING = ".pending"
HAND = ".hand"  # beside a revision's copy: it records the list as a person left it
# The first line of an agent's view file: "<!-- todo view: 12 -->" (the list revision
# 12 holds), or "<!-- todo view: list -->" followed by the list's markdown; a record
# that came with revision 12 says so: "list 12".
_VIEW_HEADER = "<!-- todo view: "


def _view_record(view: str | int, landing: int | None = None) -> str:
    """The text of a view file (see ``_VIEW_HEADER``)."""
    if isinstance(view, int):
        return f"{_VIEW_HEADER}{view} -->\n"
    return f"{_VIEW_HEADER}list{'' if landing is None else f' {landing}'} -->\n{view}"


def _view_header(record: str) -> tuple[str, str]:
    """What a view file's first line says after ``todo view:`` (a revision number,
    ``list`` or ``list N``; empty when it is not one), and the rest of the file."""
    first, _, rest = record.partition("\n")
    if not first.startswith(_VIEW_HEADER) or not first.endswith(" -->"):
        return "", rest
    return first[len(_VIEW_HEADER) : -len(" -->")], rest


def _is_mark(name: str) -> bool:
    return name.endswith(HAND) and name[: -len(HAND)].isdigit()


class Store:
    """One list's file, lock, revisions and state."""

    def __init__(
        self,
        loc: Locations,
        lock_timeout: float = 10,
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        save_pause: float = SETTLE_QUIET_NS / 1e9,
    ) -> None:
        self.loc = loc
        self.lock_timeout = lock_timeout
        self.max_file_bytes = max_file_bytes
        # How long a changed list must be seen still before it counts as saved.
        self.quiet_ns = int(save_pause * 1e9)
        self.state_file = os.path.join(loc.state_dir, "state.json")
        self.revs_dir = os.path.join(loc.state_dir, "revs")
        self.views_dir = os.path.join(loc.state_dir, "views")
        self.remind_file = os.path.join(loc.state_dir, "remind")
        self.failed_file = os.path.join(loc.state_dir, "failed")
        self.person_file = os.path.join(loc.state_dir, "person")  # touched at a hand edit
        self.journal_file = os.path.join(loc.state_dir, "journal")  # a write under way
        self._seen: tuple[str, tuple[int, int, int, int] | None] | None = None
        self._read_at = 0  # when the text in ``_seen`` was known to be the file's (ns)
        self._view_read: tuple[str | None, str | None] | None = None  # (agent, file text)
        # What the next commit stages with its list: agents' view records (path, text),
        # logs it appends to, and whether every agent's view goes.
        self._pending_views: list[tuple[str, str]] = []
        self._appends: list[str] = []
        self._forget = False
        self._holding = False  # this process holds the list's lock (``Held``)

    # -- the list ------------------------------------------------------------------------

    def read(self) -> str:
        """The list's text; what was read is remembered, so that a write can check
        the file is still that one just before replacing it. A write a killed
        writer left half done is settled first (see ``recover``)."""
        if self.loc.project:
            self._check_plan()
        if os.path.lexists(self.journal_file):
            self._settle_journal()
        stop_point("read")
        read_at = time.time_ns()
        data, info = read_with_stat(self.loc.list_file, self.max_file_bytes, "max_file_bytes")
        text = "" if data is None else data.decode("utf-8", ENCODING_ERRORS)
        self._seen = (text, signature(info))
        self._read_at = read_at
        return text

    def _check_plan(self) -> None:
        """A project plan that is a symlink leading out of its work tree is refused
        (see ``paths.plan_outside``), naming both ends and what to do."""
        real = plan_outside(self.loc.list_file)
        if real is not None:
            raise StorageError(
                f"refused the project plan {self.loc.list_file}: it is a symbolic link to "
                f"{real}, outside the project's work tree; nothing was read or written "
                "(replace the link with the list itself, or name a list with --file or "
                "--session)"
            )

    def found(self) -> bool:
        """Whether the last read found the list's file (False: it is missing)."""
        return self._seen is not None and self._seen[1] is not None

    def unchanged(self) -> bool:
        """Whether the list on disk is still the text ``read`` returned.

        An editor does not take the lock: it may save at any moment. Device, inode,
        size and time tell a save apart once the time can (see ``_holds``); until
        then the bytes are compared.
        """
        if self._seen is None:
            return True
        text, seen = self._seen
        checked_at = time.time_ns()
        held, now = self._holds(self.loc.list_file, text, seen)
        if held and now != seen:
            self._seen = (text, now)  # the same bytes: this stat vouches for them now
            self._read_at = checked_at
        return held

    def _holds(
        self, path: str, text: str, seen: tuple[int, int, int, int] | None
    ) -> tuple[bool, tuple[int, int, int, int] | None]:
        """Whether the file at ``path`` holds ``text`` (read when its signature was
        ``seen``), and its signature now.

        The signature alone vouches for the bytes only when the file's last change
        was ``RACY_NS`` before they were read: any later save then gets a later
        time, even on a file system that keeps whole seconds. A file read sooner
        after its change may have been saved again within the same tick of its
        clock, with the same size (a box ticked): its bytes are compared.
        """
        now = stat_signature(path)
        if now == seen and (now is None or now[3] + RACY_NS <= self._read_at):
            return True, now
        try:
            current = read_text(path, self.max_file_bytes, "max_file_bytes")
        except TodoError:
            return False, now
        return current == text and (now is not None or not text), now

    def _replaced_was_seen(self, path: str) -> None:
        """After a swap: the file the write replaced (now at ``path``) must be the
        one it read, or an editor's save landed after the last look."""
        if self._seen is not None and not self._holds(path, *self._seen)[0]:
            raise ListChangedError()

    def _still_seen(self) -> None:
        """The last look before the replace: one ``stat``, compared with the file
        ``unchanged`` just vouched for (the shorter this window, the rarer an
        editor's save can land in it), and the bytes when the time cannot tell."""
        if self._seen is not None and not self._holds(self.loc.list_file, *self._seen)[0]:
            raise ListChangedError()

    def settle(self, text: str, last: str | None) -> str:
        """The list once a save that may be under way is done: an editor's save
        caught half-way must not pass for the person's intent. ``text``: the list
        as just read; ``last``: what todo last wrote (None: nothing yet).

        Nothing is waited for when the list is what todo wrote, or when neither
        the file nor its folder (a save by rename, or one that removes the file
        first) changed in the last ``quiet_ns`` (the setting ``save_pause``; by
        their times, read as late as a coarse clock allows: see ``latest``).
        Otherwise the list is
        watched until todo has seen it unchanged (the same bytes, size, time and
        inode) for ``quiet_ns`` on its own clock: a save in chunks, with a
        pause between them shorter than that, is taken whole, however the editor
        writes (in place, after emptying the file, or as a new file). A list that
        is empty or gone where todo wrote something is waited for however long ago
        that happened (an editor that truncates and then writes may pause, and a
        reader arriving late must not take the pause for the list), until it
        holds something and is still. ``SETTLE_MAX`` (or twice ``quiet_ns``) at
        most: what is there then is returned; the caller decides what an empty list means (see
        ``app.commands.emptied``).
        """
        if text == last:
            return text
        awaited = bool(last and last.strip())
        if not (awaited and not text.strip()) and not self._changed_lately():
            return text
        started = time.monotonic()
        quiet = self.quiet_ns / 1e9
        deadline = started + max(SETTLE_MAX, 2 * quiet)
        looked = self._look(text)
        still_since = started
        while time.monotonic() < deadline:
            pause(SETTLE_POLL)
            text = self.read()
            now = time.monotonic()
            look = self._look(text)
            if look != looked:
                looked, still_since = look, now
            elif now - still_since >= quiet and not (awaited and not text.strip()):
                break
        return text

    def _look(self, text: str) -> tuple[str, tuple[int, int, int, int] | None]:
        """What ``settle`` compares from one look to the next: the bytes just read
        and the status of the very file they were read from."""
        return text, None if self._seen is None else self._seen[1]

    def may_be_saving(self, text: str) -> bool:
        """Whether the list just read as ``text`` may be a save caught half-way:
        it is empty, or it or its folder changed within ``quiet_ns`` (a
        reader then looks up what todo last wrote, and ``settle``)."""
        return not text.strip() or self._changed_lately()

    def _changed_lately(self) -> bool:
        return time.time_ns() - self._last_change() < self.quiet_ns

    def _last_change(self) -> int:
        """The latest moment the list or its folder may have changed (ns)."""
        path = self.loc.list_file
        if os.path.islink(path):
            path = os.path.realpath(path)  # the folder an editor saves in is the target's
        folder = stat_signature(os.path.dirname(path))
        own = stat_signature(path)
        return max(latest(folder[3]) if folder else 0, latest(own[3]) if own else 0)

    def consistent_read(self) -> tuple[str, int]:
        """The list and its revision, from the same moment: a write that lands
        between reading one and the other is seen, and the read is done again."""
        text, rev = "", 0
        for _ in range(CONSISTENT_TRIES):
            before = self.rev()
            text = self.read()
            rev, _ = self.last_written(text)
            if rev == before:  # no write finished between the two looks
                break
        return text, rev

    # -- state ---------------------------------------------------------------------------
    # What an everyday write needs is cheap to read: the revision is the newest
    # revision file, and the reminder's counter and the failed-write notice are small
    # text files tied to a revision (a new write makes them stale without touching
    # them). state.json holds the rest (completion log, auto-clear times, undo), read
    # only by the commands that need it.

    def state(self) -> dict[str, Any]:
        raw = read_text(self.state_file)
        if not raw:
            return {}
        import json

        try:
            data = json.loads(raw)
        except ValueError:
            return {}  # a damaged state file is rebuilt; it holds nothing irreplaceable
        return data if isinstance(data, dict) else {}

    def save_state(self, state: dict[str, Any]) -> Callable[[], None]:
        """Write state.json; return how to put the old one back."""
        import json

        before = read_text(self.state_file)
        make_dir(self.loc.state_dir)
        state["list"] = self.loc.list_file
        atomic_write(self.state_file, json.dumps(state, indent=1, sort_keys=True) + "\n", False)

        def restore() -> None:
            try:
                if before:
                    atomic_write(self.state_file, before, False)
                else:
                    remove(self.state_file)
            except TodoError:
                pass

        return restore

    def rev(self) -> int:
        """The current revision: the newest one written (0 before the first write)."""
        revs = self.revisions()
        return revs[-1] if revs else 0

    def _words(self, path: str) -> list[str]:
        return read_text(path).split("\n")

    def remind_counter(self) -> tuple[int, int, str, str]:
        """The reminder's bookkeeping: the revision it counts for, rounds counted,
        the hand edit last told of (a hash) and the failure last told of (a token)."""
        parts = self._words(self.remind_file)[0].split()
        if len(parts) == 4 and parts[0].isdigit() and parts[1].isdigit():
            return int(parts[0]), int(parts[1]), parts[2], parts[3]
        return -1, 0, "-", "-"

    def save_remind_counter(self, rev: int, rounds: int, hand_seen: str, told: str) -> None:
        make_dir(self.loc.state_dir)
        atomic_write(self.remind_file, f"{rev} {rounds} {hand_seen or '-'} {told or '-'}\n", False)

    def restart_rounds(self) -> None:
        """A successful call that wrote nothing still counts as the agent updating its
        list: the next round starts the count again. (Bookkeeping: a failure to
        record it is not the call's failure.)"""
        counted_at, _, hand_seen, told = self.remind_counter()
        if counted_at >= 0:
            try:  # noqa: SIM105 - contextlib would cost start-up for one suppress
                self.save_remind_counter(counted_at, 0, hand_seen, told)
            except TodoError:
                pass

    def failed(self) -> tuple[int, str, str] | None:
        """The last call's failure, as (revision it failed at, token, message)."""
        lines = self._words(self.failed_file)
        if len(lines) >= 3 and lines[0].isdigit():
            return int(lines[0]), lines[1], lines[2]
        return None

    def save_failed(self, rev: int, message: str) -> None:
        """Remember a failed call for the reminder (best effort: the call has failed
        already, and saying so matters more than this note)."""
        token = os.urandom(4).hex()  # each failure is told of once, even at one revision
        try:
            make_dir(self.loc.state_dir)
            atomic_write(
                self.failed_file, f"{rev}\n{token}\n{message.replace(chr(10), ' ')}\n", False
            )
        except TodoError:
            pass

    def clear_failed(self) -> None:
        if os.path.exists(self.failed_file):
            remove(self.failed_file)

    # -- a person at work on the list -------------------------------------------------------

    def saw_person(self) -> None:
        """Note that a person edited the list by hand (its time is what counts)."""
        try:
            make_dir(self.loc.state_dir)
            # Non-blocking and not following a link: a FIFO or a link put there
            # must neither hang the write (it holds the lock) nor be written through.
            flags = os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
            fd = os.open(self.person_file, flags, 0o600)
            try:
                if stat.S_ISREG(os.fstat(fd).st_mode):
                    os.utime(fd)
            finally:
                os.close(fd)
        except (OSError, TodoError):
            pass  # bookkeeping: the write goes on with the usual replace

    def person_near(self) -> bool:
        """Whether a person edited the list by hand in the last ``PERSON_NEAR_SECONDS``."""
        try:
            info = os.lstat(self.person_file)
        except OSError:
            return False
        return stat.S_ISREG(info.st_mode) and time.time() - info.st_mtime < PERSON_NEAR_SECONDS

    # -- what each agent has seen ----------------------------------------------------------
    # A snapshot is merged with what its agent has seen (see engine.merge): the list as
    # that agent knows it (its last snapshot, and the lists it read under its name
    # since), one file per agent name. It removes only tasks this record holds; with
    # no record, only tasks it sends. Most often that is exactly the list a revision
    # holds (nobody else changed it), and the file says only which revision: no list
    # to write now, none to read next time.

    def view_path(self, agent: str | None) -> str:
        name = "default.md" if agent is None else f"agent@{agent}.md"
        return os.path.join(self.views_dir, name)

    def view(self, agent: str | None) -> str | int | None:
        """What ``agent`` has seen (its last snapshot, and lists it read since): a
        list as markdown, or the number of the revision that holds exactly that
        list; None when none is on record."""
        text = self._kept(self.view_path(agent))
        self._view_read = (agent, text)
        if text is None:
            return None
        says, rest = _view_header(text)
        if says == "list" or says.startswith("list "):
            return rest
        return int(says) if says.isdigit() else None

    def save_view(self, agent: str | None, view: str | int, landing: int | None = None) -> None:
        """Record what ``agent`` has seen (the snapshot it sent, or a list it read):
        its markdown, or the number of the revision that holds exactly that list.
        ``landing``: the revision the write under way makes; the record is then
        staged with it and becomes the agent's view only with the list (``commit``,
        or ``recover`` after a killed writer), never ahead of it or behind it."""
        path = self.view_path(agent)
        text = _view_record(view, landing)
        if landing is not None:
            self._pending_views.append((path, text))
            return
        read = self._view_read
        if read is not None and read[0] == agent and read[1] == text:
            return
        if os.path.islink(path):
            remove(path)  # a record of ours, never written through a link
        make_dir(self.views_dir)
        atomic_write(path, text, False)

    def forget_views(self) -> None:
        """Forget every agent's last snapshot (a finished list starts afresh) with the
        list the next ``commit`` writes: only if it lands."""
        self._forget = True

    def journal_append(self, path: str) -> None:
        """The next ``commit`` appends to the file at ``path`` (a completion log): its
        journal keeps the file's length before, to cut it back to if the list does
        not land."""
        self._appends.append(path)

    @staticmethod
    def _put_back(path: str, text: str | None) -> None:
        try:
            if text is None:
                remove(path)
            else:
                atomic_write(path, text, False)
        except TodoError:
            pass

    # -- revisions -----------------------------------------------------------------------

    def revision_path(self, rev: int) -> str:
        return os.path.join(self.revs_dir, f"{rev:08d}.md")

    def revision(self, rev: int) -> str | None:
        """The text written as revision ``rev``, if it is still kept."""
        return self._kept(self.revision_path(rev))

    def _kept(self, path: str) -> str | None:
        """A copy's text; None when it is gone or cannot be read (a copy is history:
        losing one must not stop a write)."""
        try:
            data = read_bytes(path, self.max_file_bytes)
        except TodoError:
            return None
        return None if data is None else data.decode("utf-8", ENCODING_ERRORS)

    def _names(self) -> list[str]:
        try:
            return os.listdir(self.revs_dir)
        except OSError:
            return []

    def revisions(self) -> list[int]:
        return sorted(int(n[:-3]) for n in self._names() if n.endswith(".md") and n[:-3].isdigit())

    def last_written(self, text: str) -> tuple[int, str | None]:
        """The current revision and the text it wrote, for comparing with the list's
        ``text`` now (a difference is a hand edit). A pending revision that equals
        the list is the current one: its writer replaced the list and was stopped
        before it could rename the copy."""
        rev = self.rev()
        last = self.revision(rev) if rev else None
        if last != text:
            # Pending, or renamed from pending between the two looks (one further
            # when the write also records a hand edit as the revision before it).
            for ahead in (rev + 1, rev + 2):
                final = self.revision_path(ahead)
                for path in (final + PENDING, final):
                    if self._kept(path) == text:
                        return ahead, text
        return rev, last

    # -- the journal -------------------------------------------------------------------

    def recover(self, text: str | None = None) -> None:
        """Settle what a killed writer left (call with the lock held): finish its write
        if its list landed, undo it if not (see the module's docstring). ``read``
        calls it when there is a journal; ``text`` is not needed."""
        del text  # the journal says what to look at
        try:
            raw = read_text(self.journal_file)
        except TodoError:
            raw = None
        if not raw:
            if raw is not None:
                remove(self.journal_file)
            return
        job = Journal.parse(raw)
        if job is None:  # killed while writing the journal: no step after it was taken
            remove(self.journal_file)
        elif job.gc:
            self._settle_removal()
        elif self._settle(job):
            remove(self.journal_file)

    def _settle_journal(self) -> None:
        """``read`` found a journal: settle it under the lock. A call that does not
        hold the lock takes it only if it is free: if not, a live writer holds it,
        and the journal is that writer's own (or it settles it before it writes)."""
        if self._holding:
            self.recover()
            return
        try:
            with Held(self, timeout=0):
                self.recover()
        except TodoError:
            pass

    def _settle(self, job: Journal) -> bool:
        """Finish or undo the write ``job`` describes; whether all of it was done."""
        target = os.path.realpath(self.loc.list_file)
        final = self.revision_path(job.rev)
        new = self._kept(final + PENDING)
        tmp = temp_path(target, job.tag)
        # The list was replaced when it is another file than before and the write's
        # temporary file, made (``job.temp``), is gone (it became the list): a person
        # may have edited it since, in place or by rename, so its content need not be
        # ``new`` any more. A temporary file never made is no sign: the other file is
        # then a person's save by rename, and the write did not land.
        replaced = bool(job.was) and _file_id(stat_signature(target)) != job.was
        replaced = replaced and job.temp and not os.path.lexists(tmp)
        parked, aside = self._put_back_parked(tmp, target, new, made=job.temp)
        landed = (
            os.path.exists(final) or replaced or (new is not None and self._kept(target) == new)
        )
        done = self._finish(job) if landed else self._undo(job)
        if aside:
            parked = self._keep_aside(tmp, target)
        self._sweep(self.revs_dir)
        self._sweep(self.views_dir)
        return parked and done

    @staticmethod
    def _sweep(folder: str, names: list[str] | None = None) -> None:
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

    def _put_back_parked(
        self, tmp: str, target: str, new: str | None, made: bool = True
    ) -> tuple[bool, bool]:
        """The killed writer's temporary file beside the list, if it is still there:
        its own (it holds the text being written, or, not ``made`` whole yet, part
        of it) is removed; anything else is the person's save a swap parked there
        (a swap comes only after the file was made), and it goes back to the list,
        unless the list holds a newer file (their later save, as ``files._swap_in``
        leaves it, or another home's write). Returns whether that was done, and
        whether the parked save is still to be kept aside (``_keep_aside``, once the
        journal's revisions are settled): it is never removed unseen."""
        if not os.path.lexists(tmp):
            return True, False
        if not made or (new is not None and self._kept(tmp) == new):
            remove(tmp)
            return True, False
        ours = new is not None and self._kept(target) == new
        now = stat_signature(target)
        try:
            if not (ours or now is None or os.lstat(tmp).st_mtime_ns > now[3]):
                return True, True  # the list holds a newer file
            os.replace(tmp, target)
        except OSError:
            return False, False  # the journal stays: the next call tries again
        kill_point("put-back")
        return True, False

    def _keep_aside(self, tmp: str, target: str) -> bool:
        """A person's save parked at ``tmp`` that the list no longer holds (it holds
        a newer file): kept as the next revision, marked as by hand, so ``todo
        history`` lists it and ``todo undo`` brings it back; the call says so on
        stderr. Whether it was done (if not, the journal stays: the next call tries
        again). A save too big to read stays where it is."""
        text = self._kept(tmp)
        if text is None:
            return True
        rev = self.rev() + 1
        try:
            make_dir(self.revs_dir)
            atomic_write(self.hand_path(rev), "", False)  # the mark first: a kill
            atomic_write(self.revision_path(rev), text, False)  # between: the same rev
        except TodoError:
            return False
        kill_point("keep")
        remove(tmp)
        todo = self._command()
        os.write(
            2,
            f"todo: a save of {target} that a killed write had set aside is kept as "
            f"revision #{rev}, by hand: the list holds a newer file "
            f"(see: {todo} history; get it back with: {todo} undo)\n".encode(
                "utf-8", ENCODING_ERRORS
            ),
        )
        return True

    def _command(self) -> str:
        """``todo`` with the options that reach this very list and its history from
        any shell (the home holds the history; a list is a session or a file)."""
        import shlex

        loc = self.loc
        where = f"--session {shlex.quote(loc.session)}" if loc.is_session else "--file"
        where = where if loc.is_session else f"--file {shlex.quote(loc.list_file)}"
        return f"todo --home {shlex.quote(loc.home)} {where}"

    def _staged(self, job: Journal) -> list[tuple[str, str]]:
        """The files ``job`` stages, each as (staged path, its place)."""
        final = self.revision_path(job.rev)
        moves = [(final + PENDING, final)]
        if job.hand:  # the list as the write found it: the revision before, by hand
            for place in (self.revision_path(job.rev - 1), self.hand_path(job.rev - 1)):
                moves.append((place + PENDING, place))
        for name in job.views:
            place = os.path.join(self.views_dir, name)
            moves.append((place + PENDING, place))
        if job.state:
            moves.append((self.state_file + PENDING, self.state_file))
        return moves

    def _finish(self, job: Journal) -> bool:
        """The list landed: the staged files take their places; whether all did."""
        done = True
        if job.forget:
            try:
                names = os.listdir(self.views_dir)
            except OSError:
                names = []
            for name in names:
                if name.endswith(".md") and name not in job.views:
                    remove(os.path.join(self.views_dir, name))
        for staged, place in self._staged(job):
            try:
                os.replace(staged, place)
            except FileNotFoundError:
                pass  # in place already (a writer killed after it)
            except OSError:
                done = False  # the journal stays: the next call tries again
            kill_point("adopt")
        return done

    def _undo(self, job: Journal) -> bool:
        """The list did not land: the staged files go, and each log is cut back to
        its length before; whether all of it was done."""
        done = True
        for staged, _ in self._staged(job):
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

    def _temp_made(self) -> None:
        """The list's temporary file is made: the journal says so (see ``_settle``),
        then the last look at the list before the replace."""
        try:
            fd = os.open(self.journal_file, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW)
        except OSError as exc:
            raise StorageError(f"cannot write {self.journal_file}: {reason(exc)}") from None
        try:
            os.write(fd, TEMP_MARK.encode())
        except OSError as exc:
            raise StorageError(f"cannot write {self.journal_file}: {reason(exc)}") from None
        finally:
            os.close(fd)
        kill_point("noted")
        self._still_seen()

    def _hold_seen(self) -> int:
        """The list's file as ``read`` saw it, held open across the replace (see
        ``_late_save``); -1 when there is none, or the name holds another file."""
        if self._seen is None or self._seen[1] is None:
            return -1
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(os.path.realpath(self.loc.list_file), flags)
        except OSError:
            return -1
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or signature(info) != self._seen[1]:
            os.close(fd)
            return -1
        return fd

    def _late_save(
        self, held: int, seen: tuple[str, tuple[int, int, int, int] | None] | None, tag: str
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
        if signature(info) == before and before[3] + RACY_NS <= self._read_at:
            return  # the same size and a time that would show any later change
        chunks = []
        size = 0
        while size <= self.max_file_bytes:
            chunk = os.pread(held, 1 << 16, size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        late = b"".join(chunks).decode("utf-8", ENCODING_ERRORS)
        if late == text or not late.strip() or size > self.max_file_bytes:
            return  # (emptied: what the editor writes next goes there all the same)
        # The person's bytes go back only over todo's own file: a save that took
        # the list's name since is theirs too, and newer.
        ours = self._seen[1] if self._seen is not None else None
        if ours is not None and stat_signature(self.loc.list_file) == ours:
            atomic_write(self.loc.list_file, late, tag=tag, follow=True)
        raise ListChangedError()

    def _write_journal(self, job: Journal) -> None:
        """Write the journal, before the first step it names. Created exclusively:
        one still there is a killed writer's that could not be settled, and no
        write goes on over it. (Not fsynced: it guards against a killed process,
        whose writes the system still makes.)"""
        data = job.text().encode("utf-8", ENCODING_ERRORS)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NONBLOCK", 0)
        try:
            fd = os.open(self.journal_file, flags, 0o600)
        except FileExistsError:
            what = _kind(self.journal_file)
            if what is not None:  # nothing could read it: say what it is
                raise not_regular(self.journal_file, what, "write") from None
            raise StorageError(
                f"cannot write {self.journal_file}: a killed write's journal is there and "
                "could not be settled (see the message before; remove it to go on)"
            ) from None
        except OSError as exc:
            raise StorageError(f"cannot write {self.journal_file}: {reason(exc)}") from None
        try:
            written = 0
            while written < len(data):
                written += os.write(fd, data[written:])
        except OSError as exc:
            os.close(fd)
            remove(self.journal_file)
            raise StorageError(f"cannot write {self.journal_file}: {reason(exc)}") from None
        os.close(fd)

    def _stage_state(self, state: dict[str, Any], tag: str) -> None:
        import json

        state["list"] = self.loc.list_file
        text = json.dumps(state, indent=1, sort_keys=True) + "\n"
        atomic_write(self.state_file + PENDING, text, False, tag=tag)

    def _reset(self) -> None:
        self._pending_views, self._appends, self._forget = [], [], False

    # -- a person's states -----------------------------------------------------------------
    # Every state of the list a person could have seen is a revision. Before a write
    # replaces the list, a list that is not what the current revision holds (edited
    # by hand, never written by todo, saved by another home) is recorded as a
    # revision of its own, marked as not todo's (``NNNNNNNN.hand`` beside its copy).
    # So the revision before a write always holds the bytes that write replaced, and
    # undo puts back exactly those.

    def hand_path(self, rev: int) -> str:
        return os.path.join(self.revs_dir, f"{rev:08d}{HAND}")

    def by_hand(self) -> set[int]:
        """The revisions that record the list as a person left it (not todo's writes)."""
        return {int(n[: -len(HAND)]) for n in self._names() if _is_mark(n)}

    def hand_edit(self, text: str, rev: int, last: str | None) -> str | None:
        """What a write must record before it replaces the list: ``text``, the list as
        it read it, when that is not ``last``, what revision ``rev`` holds (None: its
        copy is gone); else None. ``commit(hand=...)`` stages it as the revision
        before the write's own, marked as by hand, in the same journal."""
        return None if text == (last if rev else "") else text

    def commit(
        self,
        text: str | None,
        state: dict[str, Any] | None = None,
        steps: Sequence[Callable[[], Callable[[], None]]] = (),
        person_near: bool = False,
        hand: str | None = None,
    ) -> int:
        """Write the list as the next revision; return the list's revision after.

        Call with the lock held. The journal first; then the revision copy, the
        agents' view records and ``state`` (staged beside their places), and
        ``steps`` (each does its write and returns how to take it back); the list
        last, and then the staged files take their places. If any of it fails, what
        was done is taken back and the error raised, so the list and its history
        are as they were; a kill is settled by the next call (see ``recover``).
        ``text`` None writes no list (the state and steps only, with no journal).
        ``person_near``: a person edits this list these days, so the list is
        swapped in rather than replaced, and the file it replaced checked (see
        ``files.atomic_write``). ``hand``: the list as the write found it, edited by
        hand (see ``hand_edit``), staged as a revision of its own before the write's.
        """
        if os.path.lexists(self.journal_file):
            self.recover()  # a killed writer's, if ``read`` did not settle it
        names = self._names()
        revs = sorted(int(n[:-3]) for n in names if n.endswith(".md") and n[:-3].isdigit())
        rev = revs[-1] if revs else 0
        views, appends, forget = self._pending_views, self._appends, self._forget
        self._reset()
        self._sweep(self.revs_dir, names)
        self._sweep(self.views_dir)
        if text is None:
            return self._commit_state(rev, state, steps)
        if self.loc.project:
            self._check_plan()
        hand = None if text is None else hand
        job = Journal(
            os.urandom(6).hex(),
            rev + 1 + (hand is not None),
            [os.path.basename(path) for path, _ in views],
            bool(state),
            forget,
            [(_size(path), path) for path in appends],
            hand=hand is not None,
            was=_file_id(stat_signature(self.loc.list_file)),
        )
        make_dir(self.revs_dir)
        self._write_journal(job)
        kill_point("journal")
        undo: list[Callable[[], None]] = []
        try:
            if hand is not None:
                atomic_write(self.revision_path(rev + 1) + PENDING, hand, False, tag=job.tag)
                atomic_write(self.hand_path(rev + 1) + PENDING, "", False, tag=job.tag)
            atomic_write(self.revision_path(job.rev) + PENDING, text, False, tag=job.tag)
            for path, record in views:
                if os.path.islink(path + PENDING):
                    remove(path + PENDING)  # a record of ours, never written through a link
                make_dir(self.views_dir)
                atomic_write(path + PENDING, record, False, tag=job.tag)
            for step in steps:
                undo.append(step())
                kill_point("step")
            if state:
                self._stage_state(state, job.tag)
            # Compare before replace: a write never replaces bytes it has not read.
            # The bytes are compared first; just before the replace, one stat.
            if not self.unchanged():
                raise ListChangedError()
            seen, held = self._seen, self._hold_seen()
            try:
                atomic_write(
                    self.loc.list_file,
                    text,
                    precondition=self._temp_made,
                    replaced=self._replaced_was_seen if person_near else None,
                    tag=job.tag,
                    follow=True,
                )
                self._seen = (text, stat_signature(self.loc.list_file))
                stop_point("landed")
                if held >= 0:
                    self._late_save(held, seen, job.tag)
            finally:
                if held >= 0:
                    os.close(held)
        except BaseException:
            for back in reversed(undo):
                back()
            # An editor that saved twice in the swap's window leaves its older save
            # under the temporary name (see ``files._swap_in``): the newer one is kept.
            target = os.path.realpath(self.loc.list_file)
            tmp = temp_path(target, job.tag)
            parked, aside = self._put_back_parked(tmp, target, text)
            undone = self._undo(job)
            if aside:
                parked = self._keep_aside(tmp, target)
            if undone and parked:
                remove(self.journal_file)
            raise
        if self._finish(job):
            remove(self.journal_file)
        made = job.rev - rev
        for old in revs[: max(0, len(revs) + made - KEEP_REVISIONS)]:
            self._keep_views_of(old)
            remove(self.revision_path(old))
            remove(self.hand_path(old))
        return job.rev

    def _commit_state(
        self,
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
                undo.append(self.save_state(state))
        except BaseException:
            for back in reversed(undo):
                back()
            raise
        return rev

    # -- removing a list -----------------------------------------------------------------

    def delete(self) -> None:
        """Remove the list and all kept beside it: revisions, state, views (call with
        the lock held; completion logs stay). Journaled too: a kill at any step is
        finished by the next call on this list, or by ``todo gc``."""
        if os.path.lexists(self.journal_file):
            self.recover()
        make_dir(self.loc.state_dir)
        self._write_journal(Journal(gc=True))
        kill_point("journal")
        try:
            os.unlink(self.loc.list_file)
        except FileNotFoundError:
            pass
        except OSError as exc:
            remove(self.journal_file)
            raise StorageError(f"cannot remove {self.loc.list_file}: {reason(exc)}") from None
        kill_point("unlink")
        self._settle_removal()

    def _settle_removal(self) -> None:
        """A removal was under way: done if the list is gone (what is beside it goes
        too, the journal last), taken back if it is still there."""
        if os.path.lexists(self.loc.list_file):
            remove(self.journal_file)
            return
        import shutil

        folder = self.loc.state_dir
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
        remove(self.journal_file)
        try:  # noqa: SIM105 - contextlib would cost start-up for one suppress
            os.rmdir(folder)
        except OSError:
            pass

    def _keep_views_of(self, rev: int) -> None:
        """Before revision ``rev`` goes: an agent's view that names it gets the list
        itself (it is still what that agent's next snapshot is merged against)."""
        try:
            names = os.listdir(self.views_dir)
        except OSError:
            return
        pointer = _view_record(rev)
        for name in names:
            path = os.path.join(self.views_dir, name)
            if name.endswith(".md") and self._kept(path) == pointer:
                text = self.revision(rev)
                if text is not None:
                    self._put_back(path, _view_record(text))

    # -- the lock ------------------------------------------------------------------------

    def locked(self) -> Held:
        """Hold the list's lock for a ``with`` block."""
        return Held(self)


JOURNAL_HEAD = "todo journal 1"
# Appended after "end" once the list's temporary file is made (``Store._temp_made``).
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


def _file_id(signature: tuple[int, int, int, int] | None) -> str:
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


def take_lock(lock_file: str, timeout: float, busy: str) -> ListLock:
    """Take the lock at ``lock_file`` (its folder made, and checked to be this
    user's), waiting up to ``timeout``; ``BusyError(busy)`` when it stays taken."""
    folder = os.path.dirname(lock_file)
    make_dir(folder)
    runtime = os.path.dirname(folder)
    # In a private folder (the user's runtime folder) all is safe below it; in a
    # shared one (the temporary folder) ours must be ours alone.
    if not check_private_dir(os.path.dirname(runtime)) and not check_private_dir(runtime):
        raise StorageError(
            f"cannot lock {lock_file}: {runtime} is not a private folder of this user"
        )
    lock = ListLock(lock_file, timeout)
    try:
        lock.__enter__()
    except LockTimeout:
        raise BusyError(busy) from None
    except OSError as exc:
        raise StorageError(f"cannot lock {lock_file}: {reason(exc)}") from None
    return lock


class Held:
    """The list's lock, held for a ``with`` block; BUSY (exit 5) after the timeout."""

    def __init__(self, store: Store, timeout: float | None = None) -> None:
        self.store = store
        self.timeout = store.lock_timeout if timeout is None else timeout
        self.lock: ListLock | None = None

    def __enter__(self) -> Held:
        lock_file = self.store.loc.lock_file
        busy = (
            f"another todo process holds the lock {lock_file} "
            f"(waited {self.timeout:g} s; raise lock_timeout to wait longer)"
        )
        lock = take_lock(lock_file, self.timeout, busy)
        self.lock = lock
        self.store._holding = True
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.lock is not None:
            self.store._holding = False
            self.lock.__exit__(kind, error, trace)
            self.lock = None


# -- the lock ------------------------------------------------------------------------------
#
# The lock filelock takes, without filelock's import cost on POSIX: filelock 4
# imports ``asyncio``-era machinery (``dataclasses``, ``inspect``, ``logging``,
# ``decimal``...), about 25 ms, more than the whole start-up budget of an agent's
# call. Its Unix lock is one ``flock(2)`` on the lock file, opened without
# truncation and never unlinked. On POSIX ``ListLock`` takes exactly that lock on
# exactly that file, so a ``filelock.FileLock`` on the same path and this lock
# exclude each other (``tests/test_locking.py`` proves it both ways); elsewhere it
# uses filelock itself. A killed holder's lock is released by the kernel. (Here,
# not in a module of its own: every write takes it, and a module costs ~0.1 ms.)


class LockTimeout(Exception):
    """The lock was not free within the timeout."""


class ListLock:
    """An exclusive lock on ``path`` for a ``with`` block, waiting up to ``timeout``."""

    def __init__(self, path: str, timeout: float) -> None:
        self.path = path
        self.timeout = timeout
        self._fd = -1
        self._fallback: object = None

    def __enter__(self) -> ListLock:
        try:
            import fcntl
        except ImportError:  # not POSIX: filelock knows the platform's lock
            self._acquire_filelock()
            return self
        deadline = time.monotonic() + max(self.timeout, 0)
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
        while True:
            fd = os.open(self.path, flags, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
            except BaseException:
                os.close(fd)
                raise
            else:
                if os.fstat(fd).st_nlink:  # not a lock file someone just removed
                    self._fd = fd
                    return self
                os.close(fd)
            if time.monotonic() >= deadline:
                raise LockTimeout(self.path)
            time.sleep(LOCK_POLL_SECONDS)

    def _acquire_filelock(self) -> None:
        from filelock import FileLock, Timeout

        lock = FileLock(self.path, timeout=self.timeout)
        try:
            lock.acquire()
        except Timeout:
            raise LockTimeout(self.path) from None
        self._fallback = lock

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._fallback is not None:
            self._fallback.release()  # type: ignore[attr-defined]
            self._fallback = None
            return
        if self._fd >= 0:
            import fcntl

            try:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            finally:
                os.close(self._fd)
                self._fd = -1
