"""Storage: one list's file, its revisions and the state kept beside it.

Everything but the list itself lives under the home (``Locations.state_dir``), so a
``--file TODO.md`` in a person's project gets no lock or history files next to it.
The files themselves are read and written by ``files`` (regular files only, bounded
reads, atomic replaces). A list that is a symlink stays one: the write goes to its
target.

``Store`` reads the list and its revisions and waits for a person's save under way
(``settle``); its other rooms are modules of their own, each given the store: what
agents have seen and the reminder's notes (``views``), a write's commit with its
journal (``commit``), settling what a killed writer left (``recovery``) and the
lock (``lock``). Only a write loads the last three.
"""

from __future__ import annotations

import os

from todocli.base import TYPE_CHECKING
from todocli.errors import StorageError, TodoError
from todocli.storage import files
from todocli.storage.files import (
    ENCODING_ERRORS,
    PENDING,
    RACY_NS,
    atomic_write,
    make_dir,
    read_bytes,
    read_text,
    read_with_stat,
    remove,
    signature,
    stat_signature,
    stop_point,
)
from todocli.storage.files import (
    ListChangedError as ListChangedError,  # raised by a write; callers catch it from here
)
from todocli.storage.paths import plan_outside

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from todocli.storage.lock import Held
    from todocli.storage.paths import Locations

KEEP_REVISIONS = 100  # `todo history` promises at least 50
# A save is taken as finished once todo has seen the list unchanged (size, time,
# inode and bytes) for this long: longer than an editor's pause between the chunks
# of one save (300 ms in issue 32's reproduction). Measured by todo's own clock,
# never by the file's time, which a coarse file system rounds.
SETTLE_QUIET_NS = 500_000_000  # the default of the setting save_pause
SETTLE_MAX = 2.0  # seconds to wait at most for a save to finish, or an emptied list to fill
CHANGE_POLL_SECONDS = 0.2  # how often `todo watch` and the MCP server look for a change
CONSISTENT_TRIES = 10


def latest(mtime_ns: int) -> int:
    """The latest moment a file with this modification time can have changed: a
    whole second may be a file system's 1-second timestamp, the change anywhere
    within that second; an even one FAT's 2-second timestamp."""
    if mtime_ns % (2 * RACY_NS) == 0:
        return mtime_ns + 2 * RACY_NS
    return mtime_ns + RACY_NS if mtime_ns % RACY_NS == 0 else mtime_ns


DEFAULT_MAX_FILE_BYTES = 4 * 1024 * 1024
HAND = ".hand"  # beside a revision's copy: it records the list as a person left it
BY = ".by"  # beside a revision's copy: the todo command that wrote it, and its agent
UNKNOWN_COMMAND = "todo"  # a revision written before revisions said which command
_running = [UNKNOWN_COMMAND]  # the command this process runs (see ``running``)


def running(command: str) -> None:
    """Name the todo command this process runs ("todo done", "todo hook claude"):
    each revision it writes records it (set by the front end that read it)."""
    _running[0] = command


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
        self.holding = False  # this process holds the list's lock (``Held``)

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
        read_at = files.now_ns()
        data, info = read_with_stat(self.loc.list_file, self.max_file_bytes, "max_file_bytes")
        text = "" if data is None else data.decode("utf-8", ENCODING_ERRORS)
        self._seen = (text, signature(info))
        self._read_at = read_at
        return text

    def mentions(self, word: str) -> bool:
        """Whether the list's bytes hold ``word`` (ASCII): a look before a read that
        may not be needed, without decoding a large plan (nothing is remembered)."""
        data, _ = read_with_stat(self.loc.list_file, self.max_file_bytes, "max_file_bytes")
        return data is not None and word.encode("ascii") in data

    def _check_plan(self) -> None:
        """A project plan a symlink leads out of its work tree is refused (see
        ``paths.plan_outside``), naming both ends and what to do."""
        real = plan_outside(self.loc.list_file)
        if real is not None:
            raise StorageError(
                f"refused the project plan {self.loc.list_file}: it leads through a symbolic "
                f"link to {real}, outside the project's work tree; nothing was read or written "
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
        checked_at = files.now_ns()
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

    @staticmethod
    def unfinished(text: str, last: str | None) -> bool:
        """Whether the list, where todo last wrote ``last``, looks like a save that has
        not yet written all it will: empty, or the beginning of ``last`` cut within a
        line (an editor writing in place, in chunks). A person's own edit seldom leaves
        exactly that: it waits a moment at most."""
        if not last or not last.strip():
            return False
        if not text.strip():
            return True
        return len(text) < len(last) and not text.endswith(("\n", "\r")) and last.startswith(text)

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
        holds something and is still; so is one that is only the beginning of
        what todo wrote, cut within a line (an editor's first chunk, whose next one
        a loaded machine delays past ``save_pause``), until it is more.
        ``SETTLE_MAX`` (or twice ``quiet_ns``) at most: what is there then is
        returned; the caller decides what an empty list means (see
        ``app.commands.emptied``).
        """
        if text == last:
            return text
        if not self.unfinished(text, last) and not self._changed_lately():
            return text
        from todocli.storage.settle import wait_for_save

        return wait_for_save(self, text, last, max(SETTLE_MAX, 2 * self.quiet_ns / 1e9))

    def may_be_saving(self, text: str) -> bool:
        """Whether the list just read as ``text`` may be a save caught half-way:
        it is empty, or it or its folder changed within ``quiet_ns`` (a
        reader then looks up what todo last wrote, and ``settle``)."""
        return not text.strip() or self._changed_lately()

    def _changed_lately(self) -> bool:
        return files.now_ns() - self._last_change() < self.quiet_ns

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

    # -- what agents have seen, the reminder's notes, a person near (``views``) ------------
    # A read loads none of it (see tests/test_startup.py), nor a write that finds no
    # note to clear or read: only a snapshot, an agent or the reminder does.

    def view_path(self, agent: str | None) -> str:
        from todocli.storage import views

        return views.view_path(self, agent)

    def view(self, agent: str | None) -> str | int | None:
        from todocli.storage import views

        return views.view(self, agent)

    def save_view(
        self, agent: str | None, view: str | int, landing: int | None = None, at: int | None = None
    ) -> None:
        from todocli.storage import views

        views.save_view(self, agent, view, landing, at)

    def view_rev(self) -> int | None:
        from todocli.storage import views

        return views.view_rev(self)

    def forget_views(self) -> None:
        """Forget every agent's last snapshot (a finished list starts afresh) with the
        list the next ``commit`` writes: only if it lands."""
        self._forget = True

    def journal_append(self, path: str) -> None:
        """The next ``commit`` appends to the file at ``path`` (a completion log): its
        journal keeps the file's length before, to cut it back to if the list does
        not land."""
        self._appends.append(path)

    def remind_counter(self) -> tuple[int, int, str, str]:
        from todocli.storage import views

        return views.remind_counter(self)

    def save_remind_counter(self, rev: int, rounds: int, hand_seen: str, told: str) -> None:
        from todocli.storage import views

        views.save_remind_counter(self, rev, rounds, hand_seen, told)

    def restart_rounds(self) -> None:
        from todocli.storage import views

        views.restart_rounds(self)

    def failed(self) -> tuple[int, str, str] | None:
        from todocli.storage import views

        return views.failed(self)

    def save_failed(self, rev: int, message: str) -> None:
        from todocli.storage import views

        views.save_failed(self, rev, message)

    def clear_failed(self) -> None:
        if not os.path.exists(self.failed_file):
            return  # the cheap look first: most writes follow no failed call
        from todocli.storage import views

        views.clear_failed(self)

    def saw_person(self) -> None:
        from todocli.storage import views

        views.saw_person(self)

    def person_near(self) -> bool:
        if not os.path.lexists(self.person_file):
            return False  # the cheap look first: no person has edited this list by hand
        from todocli.storage import views

        return views.person_near(self)

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

    def prune(self, revs: list[int], made: int) -> None:
        """Keep the newest ``KEEP_REVISIONS`` revisions (``made``: how many a write
        just added to ``revs``); an agent's view that names one that goes gets the
        list itself."""
        for old in revs[: max(0, len(revs) + made - KEEP_REVISIONS)]:
            from todocli.storage import views

            views.keep_views_of(self, old)
            remove(self.revision_path(old))
            remove(self.hand_path(old))
            remove(self.by_path(old))

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

    # -- the write (``commit``), a killed writer's (``recovery``) -----------------------------

    def recover(self, text: str | None = None) -> None:
        """Settle what a killed writer left (call with the lock held): finish its write
        if its list landed, undo it if not (see ``recovery``). ``read`` calls it when
        there is a journal; ``text`` is not needed."""
        del text  # the journal says what to look at
        if os.path.lexists(self.journal_file):
            from todocli.storage.recovery import recover

            recover(self)

    def _settle_journal(self) -> None:
        """``read`` found a journal: settle it under the lock. A call that does not
        hold the lock takes it only if it is free: if not, a live writer holds it,
        and the journal is that writer's own (or it settles it before it writes)."""
        if self.holding:
            self.recover()
            return
        try:
            from todocli.storage.lock import Held  # a killed writer's journal

            with Held(self, timeout=0):
                self.recover()
        except TodoError:
            pass

    def commit(
        self,
        text: str | None,
        state: dict[str, Any] | None = None,
        steps: Sequence[Callable[[], Callable[[], None]]] = (),
        person_near: bool = False,
        hand: str | None = None,
        agent: str | None = None,
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
        ``agent``: the agent the write is for, recorded with the command that
        wrote the revision (see ``written_by``).
        """
        from todocli.storage.commit import commit

        return commit(self, text, state, steps, person_near, hand, (_running[0], agent))

    def delete(self) -> None:
        """Remove the list and all kept beside it: revisions, state, views (call with
        the lock held; completion logs stay). Journaled too: a kill at any step is
        finished by the next call on this list, or by ``todo gc``."""
        from todocli.storage.recovery import delete

        delete(self)

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

    def by_path(self, rev: int) -> str:
        return os.path.join(self.revs_dir, f"{rev:08d}{BY}")

    def written_by(self, rev: int) -> tuple[str, str | None]:
        """The todo command that wrote revision ``rev`` and the agent it wrote for
        ("todo" and None when it is not on record: written before revisions said,
        or its writer killed after its list landed)."""
        lines = (self._kept(self.by_path(rev)) or "").split("\n")
        if len(lines) < 3 or not lines[0]:
            return UNKNOWN_COMMAND, None
        return lines[0], lines[1] or None

    def hand_edit(self, text: str, rev: int, last: str | None) -> str | None:
        """What a write must record before it replaces the list: ``text``, the list as
        it read it, when that is not ``last``, what revision ``rev`` holds (None: its
        copy is gone); else None. ``commit(hand=...)`` stages it as the revision
        before the write's own, marked as by hand, in the same journal."""
        return None if text == (last if rev else "") else text

    # -- the lock (``lock``) ------------------------------------------------------------

    def locked(self) -> Held:
        """Hold the list's lock for a ``with`` block."""
        from todocli.storage.lock import Held  # only a write takes the lock

        return Held(self)
